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
  const abs = new Decimal(value).abs();
  return formatCompact(value, abs.gte(1000) ? 2 : abs.gte(1) ? 4 : 6);
}

/** A price as the exchange sent it (exact), trailing zeros dropped. */
export function formatPrice(value: BigNumber.Value): string {
  const n = new Decimal(value);
  return n.isFinite() ? n.toFixed() : "-";
}

/** "HH:MM:SS UTC": the time part of the lib's UTC timestamp, for narrow headers. */
export function formatUtcTime(ms: number): string {
  return formatUtcTimestamp(ms).slice(11);
}
