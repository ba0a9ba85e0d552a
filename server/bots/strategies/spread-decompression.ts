/**
 * Spread-decompression bot (docs/decisions.md#d23, docs/bots.md "Spread decompression"): every `delay`
 * seconds, when the others' spread (ask - bid) / mid x 100 exceeds `acceptableSpread` (1 when
 * unset), a Buy one price step above their best bid of quote min(quoteUp, daily left) and a Sell
 * one step below their best ask of quote min(quoteDown, daily left), each only when at least
 * `minQuote` and not crossing. One order per side (slot 0 Buy, slot 1 Sell); an order older than
 * `refillPeriod` seconds is cancelled and placed again at the inside prices of that moment. The
 * daily quote is what filled in the last 24 h.
 */
import { Decimal, truncate } from "../../../lib/decimal.js";
import type { SpreadDecompressionSetup } from "../../../lib/schemas.js";
import type { Side } from "../../../lib/types.js";
import { amountFor, dec, filledQuote, othersInside } from "./shared.js";
import type { Strategy, Wanted } from "./types.js";

export interface SpreadDecompressionState {
  /** the next spread check (ms) */
  nextCheckAt: number;
  /** filled quote per side in the last 24 h */
  fills: { ts: number; side: Side; quote: string }[];
}

export const DAY_MS = 86_400_000;
/** docs/decisions.md#d23: acceptableSpread defaults to 1 (percent) when unset. */
export const DEFAULT_ACCEPTABLE_SPREAD = 1;
const BUY_SLOT = 0;
const SELL_SLOT = 1;

export function spreadDecompressionStrategy(setup: SpreadDecompressionSetup): Strategy<SpreadDecompressionState> {
  const acceptable = dec(setup.acceptableSpread ?? DEFAULT_ACCEPTABLE_SPREAD);
  const refillMs = setup.refillPeriod * 1000;
  const delayMs = setup.delay * 1000;

  const left = (state: SpreadDecompressionState, side: Side): Decimal => {
    const daily = dec(side === "Buy" ? setup.dailyQuoteUp : setup.dailyQuoteDown);
    const used = state.fills.filter((f) => f.side === side).reduce((sum, f) => sum.plus(f.quote), new Decimal(0));
    return Decimal.max(daily.minus(used), 0);
  };

  return {
    tracksFills: true,

    init() {
      return { nextCheckAt: 0, fills: [] };
    },

    step(state, { now, market, decimals, open }) {
      const fills = state.fills.filter((f) => f.ts > now - DAY_MS);
      let next: SpreadDecompressionState = fills.length === state.fills.length ? state : { ...state, fills };
      // what rests keeps resting (keep() decides about its age)
      const want: Wanted[] = open.map((o) => ({ slot: o.slot, side: o.side, price: o.price, amount: o.amount }));
      if (now < next.nextCheckAt) return { state: next, want, wakeAt: next.nextCheckAt };
      next = { ...next, nextCheckAt: now + delayMs };
      const inside = othersInside(market.bids, market.asks, open);
      if (!inside.bid || !inside.ask)
        return { state: next, want, wakeAt: next.nextCheckAt, note: "one side of the book is empty" };
      const mid = inside.bid.plus(inside.ask).dividedBy(2);
      const spread = inside.ask.minus(inside.bid).dividedBy(mid).times(100);
      if (spread.lte(acceptable)) return { state: next, want, wakeAt: next.nextCheckAt };
      const step = new Decimal(1).shiftedBy(-decimals.price);
      const notes: string[] = [];
      const add = (slot: number, side: Side, price: Decimal, quote: Decimal) => {
        if (open.some((o) => o.slot === slot)) return;
        const crosses = side === "Buy" ? price.gte(inside.ask!) : price.lte(inside.bid!);
        if (crosses) return void notes.push(`${side} at ${price.toFixed()} would cross`);
        // its own Buy and Sell must never meet (self-matching is wash trading, docs/product.md#bots)
        const ownBuy = want.find((w) => w.side === "Buy");
        if (side === "Sell" && ownBuy && price.lte(ownBuy.price))
          return void notes.push(`Sell at ${price.toFixed()} would meet its own Buy`);
        if (quote.lt(dec(setup.minQuote)) || quote.isZero())
          return void notes.push(`${side} quote ${quote.toFixed()} is below minQuote ${setup.minQuote}`);
        const amount = amountFor(quote, price, decimals.amount);
        if (amount.isZero()) return void notes.push(`${side} amount is zero at the pair's decimals`);
        want.push({ slot, side, price: price.toFixed(), amount: amount.toFixed() });
      };
      add(
        BUY_SLOT,
        "Buy",
        truncate(inside.bid.plus(step), decimals.price),
        Decimal.min(dec(setup.quoteUp), left(next, "Buy")),
      );
      add(
        SELL_SLOT,
        "Sell",
        truncate(inside.ask.minus(step), decimals.price),
        Decimal.min(dec(setup.quoteDown), left(next, "Sell")),
      );
      return { state: next, want, wakeAt: next.nextCheckAt, ...(notes.length ? { note: notes.join("; ") } : {}) };
    },

    /** docs/decisions.md#d23: an order older than refillPeriod is re-placed at the current inside prices. */
    keep(order, want, _state, { now }) {
      return order.side === want.side && now - order.placedAt < refillMs;
    },

    closed(state, { order, filled, complete }, { now }) {
      const fills = dec(filled).gt(0)
        ? [...state.fills, { ts: now, side: order.side, quote: filledQuote(order, filled).toFixed() }]
        : state.fills;
      // a refill (our cancel of an aged order) is placed again at once, not at the next check
      return { nextCheckAt: complete ? state.nextCheckAt : Math.min(state.nextCheckAt, now), fills };
    },

    view(state, open) {
      return {
        orders: open.map((o) => ({
          id: o.id,
          side: o.side,
          price: o.price,
          amount: o.amount,
          filled: o.filled,
          placedAt: o.placedAt,
        })),
        dailyQuoteLeft: { Buy: left(state, "Buy").toFixed(), Sell: left(state, "Sell").toFixed() },
      };
    },
  };
}
