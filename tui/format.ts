import { Decimal } from "../lib/decimal.js";

/**
 * The one seam between the TUI and the number display rules (seed 000 §9 with PRODUCT D15).
 * TEMPORARY: lib/format.ts is being written by another engineer; when it lands these become
 * re-exports of it, so the TUI and the web show the same text. Keep the signatures.
 */

const UNITS: ReadonlyArray<[threshold: number, divisor: string, suffix: string]> = [
  [1e9, "1e9", "B"], // PRODUCT D15: B is the value / 1e9
  [1e6, "1e6", "M"],
  [1e3, "1e3", "K"],
];

/** K/M/B display of an amount or total (seed 000 §9 "Number display"). */
export function formatCompact(value: string | Decimal, decimals = 2): string {
  const n = new Decimal(value);
  if (!n.isFinite()) return "-";
  const abs = n.abs();
  for (const [threshold, divisor, suffix] of UNITS) {
    if (abs.gte(threshold)) return `${n.dividedBy(divisor).decimalPlaces(decimals, Decimal.ROUND_DOWN).toFixed()}${suffix}`;
  }
  return formatSignificant(n);
}

/** Below 1000: at most 6 decimals, about 4 significant digits for small values. */
function formatSignificant(n: Decimal): string {
  if (n.isZero()) return "0";
  if (n.abs().gte(1)) return n.decimalPlaces(4, Decimal.ROUND_DOWN).toFixed();
  return n.precision(4, Decimal.ROUND_DOWN).toFixed();
}

/** Seed 000 §9: balances to 4 decimals when at least 1, otherwise about 3 significant digits. */
export function formatBalance(value: string | Decimal): string {
  const n = new Decimal(value);
  if (!n.isFinite()) return "-";
  if (n.isZero()) return "0";
  if (n.abs().gte(1)) return n.toFixed(4, Decimal.ROUND_DOWN);
  return n.precision(3, Decimal.ROUND_DOWN).toFixed();
}

/** "HH:MM:SS UTC" for the balances' "Last update" (seed 000 §2 "Balances table"). */
export function formatUtcTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

/** "YYYY-MM-DD HH:MM:SS UTC" for an order's date. */
export function formatUtcDateTime(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

/** A price as the exchange sent it, trimmed of trailing zeros. */
export function formatPrice(value: string | Decimal): string {
  const n = new Decimal(value);
  return n.isFinite() ? n.toFixed() : "-";
}
