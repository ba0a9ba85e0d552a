/**
 * Reading a venue's symbol list into PairSpecs (docs/exchange-rules.md#pairs): the zod pieces for a
 * precision in digits and for a step, the BTC/USDT name, and the sorted list. An adapter's own file
 * keeps its path, its schema and which of its fields are the tick, the lot and the minimums.
 */
import { z } from "zod";
import { Decimal, toDecimalString } from "../../lib/decimal.js";
import type { PairSpec } from "../types.js";
import { num } from "./answer.js";

/** A precision in digits, as JSON number or text: a whole number from 0 to 30. */
export const digits = z
  .union([z.number(), z.string()])
  .refine((v) => /^\d{1,2}$/.test(String(v).trim()) && Number(v) <= 30, "expected a whole number of digits")
  .transform((v) => Number(v));

/** A step (tick or lot size), text or number: a decimal above zero, kept exact. */
export const step = num.refine((v) => {
  const text = toDecimalString(v, "");
  return text !== "" && new Decimal(text).isGreaterThan(0);
}, "expected a decimal above zero");

/** 10^-n as a decimal string: 2 → "0.01", 0 → "1". */
export function stepOfDigits(n: number): string {
  return n === 0 ? "1" : `0.${"0".repeat(n - 1)}1`;
}

/** A step in its plain decimal form ("1e-8" → "0.00000001", "0.0100" → "0.01"). */
export function plainStep(value: string | number): string {
  return toDecimalString(value);
}

/** BASE/QUOTE upper case from the venue's base and quote codes. */
export function pairName(base: string, quote: string): string {
  return `${base.trim().toUpperCase()}/${quote.trim().toUpperCase()}`;
}

/** A minimum where the venue gives one above zero, else nothing (no minimum). */
function minimum(value: unknown): string | undefined {
  const text = toDecimalString(value, "");
  return text !== "" && new Decimal(text).isGreaterThan(0) ? text : undefined;
}

/** One PairSpec; a minimum absent, unreadable or zero is left out. */
export function pairSpec(
  pair: string,
  tick: string,
  lot: string,
  min: { amount?: unknown; notional?: unknown } = {},
): PairSpec {
  const minAmount = minimum(min.amount);
  const minNotional = minimum(min.notional);
  return {
    pair,
    tick,
    lot,
    ...(minAmount !== undefined ? { minAmount } : {}),
    ...(minNotional !== undefined ? { minNotional } : {}),
  };
}

/** The list sorted by pair, as docs/exchange-rules.md#pairs asks. */
export function sortPairs(list: PairSpec[]): PairSpec[] {
  return list.sort((a, b) => (a.pair < b.pair ? -1 : a.pair > b.pair ? 1 : 0));
}
