/**
 * Reading a venue's public symbol list into PairSpecs (docs/exchange-rules.md#pairs): the zod
 * pieces for its steps and precision digits, and the one way a list is finished (pairs written
 * BTC/USDT, sorted, one entry per pair). Each adapter keeps its own path, status rule and fields.
 */
import { z } from "zod";
import { Decimal } from "../../lib/decimal.js";
import { byPair, parsePair } from "../../lib/pair.js";
import type { PairSpec } from "../types.js";

const DECIMAL_TEXT = /^\s*(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;

/** A step or a minimum as the venue writes it, text or JSON number: a decimal >= 0. */
export const stepValue = z.union([
  z.string().regex(DECIMAL_TEXT, "expected a decimal number"),
  z.number().nonnegative().finite(),
]);

/** A precision in digits, text or JSON number: 0 to 30. */
export const precisionDigits = z.union([
  z.number().int().min(0).max(30),
  z.string().regex(/^\s*([12]?\d|30)\s*$/, "expected a number of digits"),
]);

/** A step read exactly as a plain decimal string ("1e-8" → "0.00000001"). */
export function stepText(value: string | number): string {
  return new Decimal(typeof value === "string" ? value.trim() : value).toFixed();
}

/** A minimum kept only when the venue gives one above zero (0 or empty means no minimum). */
export function minimum(value: string | number | null | undefined): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  const text = stepText(value);
  return new Decimal(text).isGreaterThan(0) ? text : undefined;
}

// in lib/decimal.ts, so the TUI and paper read them without loading zod (docs/tui-memory.md)
export { digitsToStep, stepDecimals } from "../../lib/decimal.js";

/** One row of a venue's list, before it is checked and sorted. */
export interface PairRow {
  base: string;
  quote: string;
  tick: string;
  lot: string;
  minAmount?: string | undefined;
  minNotional?: string | undefined;
}

/**
 * The finished list: base and quote upper case as BTC/USDT, sorted by pair, the first row of a
 * pair kept. A row whose names are no pair we can write (a symbol with other characters) or whose
 * tick or lot is zero cannot be traded here and is left out.
 */
export function finishPairs(rows: Iterable<PairRow>): PairSpec[] {
  const out = new Map<string, PairSpec>();
  for (const row of rows) {
    let pair: string;
    try {
      const parsed = parsePair(`${row.base}/${row.quote}`);
      pair = `${parsed.base}/${parsed.quote}`;
    } catch {
      continue;
    }
    if (out.has(pair)) continue;
    if (!new Decimal(row.tick).isGreaterThan(0) || !new Decimal(row.lot).isGreaterThan(0)) continue;
    const spec: PairSpec = { pair, tick: row.tick, lot: row.lot };
    if (row.minAmount !== undefined) spec.minAmount = row.minAmount;
    if (row.minNotional !== undefined) spec.minNotional = row.minNotional;
    out.set(pair, spec);
  }
  return [...out.values()].sort(byPair);
}
