import type BigNumber from "bignumber.js";
import { Decimal } from "../lib/decimal.js";
import { formatBalance, formatCompact, formatSpread, formatUtcTimestamp } from "../lib/format.js";

/**
 * The TUI's number and time display: the lib's rules (seed 000 §9 with PRODUCT D15, shared with the
 * web and the CLI), plus the choices of decimals that fit a terminal column.
 */
export { formatBalance, formatUtcTimestamp };

/**
 * The middle row's "~" spread percent (the lib's formatSpread): 2 decimals, or 4 when it is below
 * 0.1 %, since a liquid pair's spread of 0.0015 % would read ~0.00 %.
 */
export function formatSpreadPercent(percent: BigNumber.Value): string {
  return formatSpread(percent, new Decimal(percent).abs().lt("0.1") ? 4 : 2);
}

/**
 * An amount or total in a book or order row: K/M/B from 1e3 up (2 decimals there, as the lib
 * does); below 1000 more decimals, since a 0.0012 BTC level must not read "0".
 */
export function formatAmount(value: BigNumber.Value): string {
  if (typeof value !== "string") return formatAmountUncached(value);
  // a book redraws the same level texts every 500 ms: remember them (bounded)
  let text = AMOUNT_CACHE.get(value);
  if (text === undefined) {
    if (AMOUNT_CACHE.size >= AMOUNT_CACHE_LIMIT) AMOUNT_CACHE.clear();
    text = formatAmountUncached(value);
    AMOUNT_CACHE.set(value, text);
  }
  return text;
}

const AMOUNT_CACHE = new Map<string, string>();
// a frame draws at most 200 amounts and totals (50 levels a side); a small bound keeps the heap's
// sawtooth small in a TUI left open all week (docs/tui-memory.md)
const AMOUNT_CACHE_LIMIT = 2_000;

function formatAmountUncached(value: BigNumber.Value): string {
  const abs = new Decimal(value).abs();
  return formatCompact(value, abs.gte(1000) ? 2 : abs.gte(1) ? 4 : 6);
}

/** A price as the exchange sent it (exact), trailing zeros dropped. */
export function formatPrice(value: BigNumber.Value): string {
  // prices from the book model are already plain decimals without trailing zeros
  if (typeof value === "string" && PLAIN_DECIMAL.test(value)) return value;
  const n = new Decimal(value);
  return n.isFinite() ? n.toFixed() : "-";
}

const PLAIN_DECIMAL = /^-?(0|[1-9]\d*)(\.\d*[1-9])?$/;

/** "HH:MM:SS UTC": the time part of the lib's UTC timestamp, for narrow headers. */
export function formatUtcTime(ms: number): string {
  return formatUtcTimestamp(ms).slice(11);
}
