/** Helpers the strategies share: decimals from setup numbers, draws, exact order comparison. */
import { Decimal, truncate } from "../../../lib/decimal.js";
import type { Order } from "../../../lib/types.js";
import type { OwnOrder, Wanted } from "./types.js";

/** A setup number (zod gives JS numbers) as a Decimal, through its shortest decimal text. */
export function dec(value: number | string): Decimal {
  return new Decimal(typeof value === "number" ? String(value) : value);
}

/** A uniform draw in [min, max] as a decimal string (12 significant digits are plenty for a percent). */
export function drawBetween(random: () => number, min: number, max: number): string {
  if (max <= min) return dec(min).toFixed();
  return dec(min)
    .plus(dec(max - min).times(new Decimal(random().toFixed(12))))
    .decimalPlaces(12, Decimal.ROUND_DOWN)
    .toFixed();
}

/** amount = quote / price, truncated to the pair's amount decimals (docs/decisions.md#d1). */
export function amountFor(quote: Decimal, price: Decimal, amountDecimals: number): Decimal {
  if (price.isZero()) return new Decimal(0);
  return truncate(quote.dividedBy(price), amountDecimals);
}

/** The same side, price and amount, compared as numbers ("1.50" equals "1.5"). */
export function sameOrder(order: OwnOrder, want: Wanted): boolean {
  return order.side === want.side && dec(order.price).eq(want.price) && dec(order.amount).eq(want.amount);
}

/** The quote of what filled: filled amount x price. */
export function filledQuote(order: OwnOrder, filled: string): Decimal {
  return dec(filled).times(order.price);
}

/** The seed's Order shape of an own order (docs/dashboard-rules.md#entities), for the `order` state record. */
export function asOrder(pair: string, order: OwnOrder): Order {
  return {
    pair,
    id: order.id,
    clientOrderId: order.clientOrderId,
    price: order.price,
    amount: order.amount,
    filled: order.filled,
    type: "limit",
    side: order.side,
    status: "open",
    timestamp: order.placedAt,
  };
}

/**
 * The best bid and ask of the others: a level whose whole amount is the bot's own order at that
 * price is skipped (a real book shows our orders; stepping above ourselves would chase our tail).
 */
export function othersInside(
  bids: readonly (readonly [string, string])[],
  asks: readonly (readonly [string, string])[],
  open: readonly OwnOrder[],
): { bid: Decimal | undefined; ask: Decimal | undefined } {
  const first = (levels: readonly (readonly [string, string])[], side: "Buy" | "Sell") => {
    for (const [price, amount] of levels) {
      const mine = open
        .filter((o) => o.side === side && dec(o.price).eq(price))
        .reduce((sum, o) => sum.plus(o.amount).minus(o.filled), new Decimal(0));
      if (dec(amount).gt(mine)) return dec(price);
    }
    return undefined;
  };
  return { bid: first(bids, "Buy"), ask: first(asks, "Sell") };
}
