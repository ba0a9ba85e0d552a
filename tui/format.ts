import type BigNumber from "bignumber.js";
import { Decimal } from "../lib/decimal.js";
import { formatBalance, formatCompact, formatSpread, formatUtcTimestamp } from "../lib/format.js";

/**
 * The TUI's number and time display: the lib's rules (docs/dashboard-rules.md#constants with docs/decisions.md#d15, shared with the
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

export { formatUtcTime } from "../lib/format.js";

/** The decimals a price, amount or total column shows (docs/tui.md "Numbers"). */
export interface ColumnDecimals {
  priceDecimals: number;
  amountDecimals: number;
}

/** Digits after the point of a plain decimal string ("63764.5" → 1); 0 for anything else. */
export function decimalsOf(value: string): number {
  const dot = value.indexOf(".");
  return dot < 0 ? 0 : value.length - dot - 1;
}

/** "1234567.5" → "1,234,567.5": the integer part grouped by three with commas. */
export function groupThousands(plain: string): string {
  const negative = plain.startsWith("-");
  const body = negative ? plain.slice(1) : plain;
  const dot = body.indexOf(".");
  const int = dot < 0 ? body : body.slice(0, dot);
  const frac = dot < 0 ? "" : body.slice(dot);
  let grouped = "";
  for (let i = int.length; i > 0; i -= 3) grouped = int.slice(Math.max(0, i - 3), i) + (grouped ? `,${grouped}` : "");
  return (negative ? "-" : "") + grouped + frac;
}

/**
 * `value` with exactly `decimals` digits after the point and thousands separators
 * (`63764.5`, 2 → `63,764.50`), cut toward zero so no number reads larger than it is. Every number
 * of a column goes through this with the column's decimals, so the points line up when the column
 * is right-aligned. Remembered (bounded): a book redraws the same levels every refresh.
 */
export function formatFixed(value: BigNumber.Value, decimals: number): string {
  const key = typeof value === "string" ? `${decimals}|${value}` : undefined;
  if (key !== undefined) {
    const hit = FIXED_CACHE.get(key);
    if (hit !== undefined) return hit;
  }
  const n = new Decimal(value);
  const text = n.isFinite() ? groupThousands(n.toFixed(Math.max(0, decimals), Decimal.ROUND_DOWN)) : "-";
  if (key !== undefined) {
    if (FIXED_CACHE.size >= AMOUNT_CACHE_LIMIT) FIXED_CACHE.clear();
    FIXED_CACHE.set(key, text);
  }
  return text;
}

const FIXED_CACHE = new Map<string, string>();

/** At most this many decimals in a column derived from the numbers themselves. */
export const MAX_COLUMN_DECIMALS = 8;
const DUST = new Decimal(10).pow(-MAX_COLUMN_DECIMALS);

/**
 * One column's decimals when the exchange gives no tick or lot: the most any of its numbers has,
 * capped, so no number is cut and all share one width after the point.
 */
export function columnDecimals(values: Iterable<string>, atLeast = 0): number {
  let most = atLeast;
  for (const v of values) most = Math.max(most, decimalsOf(v));
  return Math.min(MAX_COLUMN_DECIMALS, most);
}

/**
 * A balance column's decimals: docs/dashboard-rules.md#constants's rule (4 decimals from 1 up, about 3 significant
 * digits below) taken by the value that needs the most, then applied to the whole column so
 * `1.0100` stands over `0.9900`, not `0.99`.
 */
export function balanceDecimals(values: Iterable<string>): number {
  let most = 0;
  for (const v of values) {
    const n = new Decimal(v).abs();
    // dust below the last decimal a column can show (1e-20 BTC) does not widen it: it reads as 0
    if (!n.isFinite() || n.lt(DUST)) continue;
    if (n.gte(1)) most = Math.max(most, 4);
    else most = Math.max(most, Math.min(MAX_COLUMN_DECIMALS, n.precision(3, Decimal.ROUND_DOWN).decimalPlaces() ?? 0));
  }
  return most;
}
