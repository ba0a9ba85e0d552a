/**
 * What a bot did, in money (docs/bots.md "What each bot did"): its fills and, from them, its
 * inventory, realized PnL by average cost, volume and fees, and the inventory's value at a mid.
 * Pure functions over decimal strings (bignumber.js), no I/O: the runner folds each fill it sees
 * into a `Ledger`, and `markAtMid` values it.
 *
 * Rules (the hand computation in test/bots/fills.test.ts follows them):
 * - A fill moves the bot's base by its amount (a buy +, a sell −) and its quote by price × amount
 *   (a buy −, a sell +); a fee in the base or the quote comes off that currency. A fee in a third
 *   currency (a venue's own token) is listed under `fees` and moves neither.
 * - The inventory is the base away from the start; it may go below zero (a sell bot selling what
 *   it held before it started). Its cost is the quote paid for it (received, when below zero).
 * - A fill that adds to the inventory (or starts it) adds its quote to the cost. One that reduces
 *   it realizes: the quote it brings less the cost of the part it closes, `cost × closed ÷ inventory`
 *   (30 decimals, half up); closing the whole inventory takes the whole cost, so no rounding stays
 *   behind. A fill that goes through zero closes the inventory with its share of the quote,
 *   `quote × inventory ÷ amount` (30 decimals, half up), and opens the rest with the remainder.
 * - Fees are inside realized PnL and cost (they change what a fill brings or costs). `feesInQuote`
 *   adds the base and quote fees, a base fee at its fill's price.
 * - Marked at a mid: value = inventory × mid, unrealized = value − cost, pnl = realized + unrealized
 *   (which equals the quote moved plus the base moved × mid: the bot's result since it started).
 */
import { Decimal } from "../../lib/decimal.js";
import type { Side } from "../../lib/types.js";

/** One fill of one of the bot's orders (docs/api.md `GET /token/bot/{id}/fills`). */
export interface BotFill {
  /** when the runner saw it (ms) */
  at: number;
  orderId: string;
  side: Side;
  price: string;
  amount: string;
  /** the fee on this fill, in `feeCurrency` ("0" when the exchange charged none or did not say) */
  fee: string;
  feeCurrency: string;
  liquidity: "maker" | "taker";
}

/** The running totals of a bot's fills, every amount a decimal string. */
export interface Ledger {
  fills: number;
  /** base away from the start */
  inventory: string;
  /** quote paid for the inventory (negative: received for base sold short) */
  cost: string;
  realized: string;
  /** Σ price × amount, in the quote */
  volume: string;
  /** fees per currency */
  fees: Record<string, string>;
  /** base and quote fees valued in the quote */
  feesInQuote: string;
}

/** The ledger valued at a mid. */
export interface LedgerAtMid extends Ledger {
  mid: string;
  /** inventory × mid */
  value: string;
  unrealized: string;
  /** realized + unrealized: the result since the start (docs/bots.md "Risk limits and the kill switch" maxLoss) */
  pnl: string;
}

export const EMPTY_LEDGER: Ledger = {
  fills: 0,
  inventory: "0",
  cost: "0",
  realized: "0",
  volume: "0",
  fees: {},
  feesInQuote: "0",
};

/** Folds one fill into the ledger (a new ledger; the old one is left as it was). */
export function applyFill(ledger: Ledger, fill: BotFill, base: string, quote: string): Ledger {
  const price = new Decimal(fill.price);
  const amount = new Decimal(fill.amount);
  const fee = new Decimal(fill.fee);
  const notional = price.times(amount);
  // what the fill moved: base and quote, fees off the currency they are charged in
  let baseMoved = fill.side === "Buy" ? amount : amount.negated();
  let quoteMoved = fill.side === "Buy" ? notional.negated() : notional;
  let feeInQuote = new Decimal(0);
  if (fill.feeCurrency === base) {
    baseMoved = baseMoved.minus(fee);
    feeInQuote = fee.times(price);
  } else if (fill.feeCurrency === quote) {
    quoteMoved = quoteMoved.minus(fee);
    feeInQuote = fee;
  }
  const held = new Decimal(ledger.inventory);
  let cost = new Decimal(ledger.cost);
  let realized = new Decimal(ledger.realized);
  const after = held.plus(baseMoved);
  if (held.isZero() || baseMoved.isZero() || held.isPositive() === baseMoved.isPositive()) {
    // adds to the inventory (a base fee alone reduces it: handled below as a close)
    cost = cost.minus(quoteMoved);
  } else if (baseMoved.abs().lte(held.abs())) {
    // reduces it: the closed part's cost leaves, the quote it brought is realized against it
    const closedCost = after.isZero() ? cost : cost.times(baseMoved.abs()).div(held.abs());
    realized = realized.plus(quoteMoved).minus(closedCost);
    cost = cost.minus(closedCost);
  } else {
    // through zero: the part up to zero closes the inventory, the rest opens at the fill's price
    const closingQuote = quoteMoved.times(held.abs()).div(baseMoved.abs());
    realized = realized.plus(closingQuote).minus(cost);
    cost = quoteMoved.minus(closingQuote).negated();
  }
  const fees = { ...ledger.fees };
  if (!fee.isZero() || fees[fill.feeCurrency] === undefined)
    fees[fill.feeCurrency] = fee.plus(fees[fill.feeCurrency] ?? 0).toFixed();
  return {
    fills: ledger.fills + 1,
    inventory: after.toFixed(),
    cost: after.isZero() ? "0" : cost.toFixed(),
    realized: realized.toFixed(),
    volume: notional.plus(ledger.volume).toFixed(),
    fees,
    feesInQuote: feeInQuote.plus(ledger.feesInQuote).toFixed(),
  };
}

/** The ledger valued at `mid`. */
export function markAtMid(ledger: Ledger, mid: Decimal | string): LedgerAtMid {
  const value = new Decimal(ledger.inventory).times(mid);
  const unrealized = value.minus(ledger.cost);
  return {
    ...ledger,
    mid: new Decimal(mid).toFixed(),
    value: value.toFixed(),
    unrealized: unrealized.toFixed(),
    pnl: unrealized.plus(ledger.realized).toFixed(),
  };
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/** A ledger stored by a previous run, or the empty one when it is not usable. */
export function restoreLedger(value: unknown): Ledger {
  if (typeof value !== "object" || value === null) return EMPTY_LEDGER;
  const v = value as Partial<Ledger>;
  const texts = [v.inventory, v.cost, v.realized, v.volume, v.feesInQuote];
  if (!texts.every((t) => typeof t === "string" && DECIMAL.test(t)) || !Number.isSafeInteger(v.fills))
    return EMPTY_LEDGER;
  const fees: Record<string, string> = {};
  if (typeof v.fees === "object" && v.fees !== null)
    for (const [currency, amount] of Object.entries(v.fees))
      if (typeof amount === "string" && DECIMAL.test(amount)) fees[currency] = amount;
  return { ...(v as Ledger), fees };
}
