/**
 * Spread-decompression bot (docs/decisions.md#d23, docs/bots.md "Spread decompression"): every `delay`
 * seconds, when the others' spread (ask - bid) / mid x 100 exceeds `acceptableSpread` (1 when
 * unset), a Buy one price step above their best bid of quote min(quoteUp, daily left) and a Sell
 * one step below their best ask of quote min(quoteDown, daily left), each only when at least
 * `minQuote` and not crossing. One order per side (slot 0 Buy, slot 1 Sell); an order older than
 * `refillPeriod` seconds is moved to the inside prices of that moment, and kept (with its place in
 * the queue) when its price is still the inside one. The daily quote is what filled in the last 24 h.
 */
import { Decimal, truncate } from "../../../lib/decimal.js";
import type { SpreadDecompressionSetup } from "../../../lib/schemas.js";
import type { Side } from "../../../lib/types.js";
import { amountFor, dec, filledQuote, othersInside } from "./shared.js";
import type { OwnOrder, Strategy, Wanted } from "./types.js";

const asWanted = (o: OwnOrder): Wanted => ({ slot: o.slot, side: o.side, price: o.price, amount: o.amount });

/** A spread percent for a note: two decimals, or one significant digit below 0.01 ("0.003"). */
export function percentText(percent: Decimal): string {
  const two = percent.decimalPlaces(2, Decimal.ROUND_HALF_UP);
  return two.isZero() && !percent.isZero() ? percent.toPrecision(1, Decimal.ROUND_HALF_UP) : two.toFixed();
}

export interface SpreadDecompressionState {
  /** the next spread check (ms) */
  nextCheckAt: number;
  /** filled quote per side in the last 24 h */
  fills: { ts: number; side: Side; quote: string }[];
  /** by order id: when a refill last found its price unchanged (the order stayed); absent when none */
  refreshed?: Record<string, number>;
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
      // an order's age runs from its placing, or from the last refill that found its price unchanged
      const since = (o: OwnOrder) => Math.max(o.placedAt, next.refreshed?.[o.id] ?? 0);
      const aged = (o: OwnOrder) => now - since(o) >= refillMs;
      const refillAt = Math.min(...open.map((o) => since(o) + refillMs));
      if (now < next.nextCheckAt && !open.some(aged))
        return { state: next, want: open.map(asWanted), wakeAt: Math.min(next.nextCheckAt, refillAt) };
      next = { ...next, nextCheckAt: now + delayMs };
      delete next.refreshed;
      const refreshed: Record<string, number> = {};
      for (const o of open) {
        const at = state.refreshed?.[o.id];
        if (at !== undefined && !aged(o)) refreshed[o.id] = at; // found unchanged earlier, still young
      }
      // a young order keeps resting; an aged one is wanted again below only when the spread still calls for it
      const want: Wanted[] = open.filter((o) => !aged(o)).map(asWanted);
      const finish = (note?: string) => {
        const state = Object.keys(refreshed).length > 0 ? { ...next, refreshed } : next;
        return { state, want, wakeAt: next.nextCheckAt, ...(note ? { note } : {}) };
      };
      const inside = othersInside(market.bids, market.asks, open);
      if (!inside.bid || !inside.ask) return finish("one side of the book is empty");
      const mid = inside.bid.plus(inside.ask).dividedBy(2);
      const spread = inside.ask.minus(inside.bid).dividedBy(mid).times(100);
      // docs/bots.md "Spread decompression": a bot that waits says for what
      if (spread.lte(acceptable)) return finish(`spread ${percentText(spread)}% ≤ acceptable ${acceptable.toFixed()}%`);
      const step = new Decimal(1).shiftedBy(-decimals.price);
      const notes: string[] = [];
      const add = (slot: number, side: Side, price: Decimal, quote: Decimal) => {
        if (want.some((w) => w.slot === slot)) return;
        const crosses = side === "Buy" ? price.gte(inside.ask!) : price.lte(inside.bid!);
        if (crosses) return void notes.push(`${side} at ${price.toFixed()} would cross`);
        // its own Buy and Sell must never meet (self-matching is wash trading, docs/product.md#bots)
        const ownBuy = want.find((w) => w.side === "Buy");
        if (side === "Sell" && ownBuy && price.lte(ownBuy.price))
          return void notes.push(`Sell at ${price.toFixed()} would meet its own Buy`);
        if (quote.lt(dec(setup.minQuote)) || quote.isZero())
          return void notes.push(`${side} quote ${quote.toFixed()} is below minQuote ${setup.minQuote}`);
        // a refill keeps an order whose price is still the inside one (its place in the queue)
        const old = open.find((o) => o.slot === slot && o.side === side && aged(o));
        if (old && dec(old.price).eq(price)) {
          refreshed[old.id] = now;
          return void want.push(asWanted(old));
        }
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
      return finish(notes.length ? notes.join("; ") : undefined);
    },

    /** docs/decisions.md#d23: an order stays while it is wanted at its price (a refill moves only an order whose price moved). */
    keep(order, want) {
      return order.side === want.side && dec(order.price).eq(want.price);
    },

    closed(state, { order, filled, complete }, { now }) {
      const fills = dec(filled).gt(0)
        ? [...state.fills, { ts: now, side: order.side, quote: filledQuote(order, filled).toFixed() }]
        : state.fills;
      const { [order.id]: _, ...refreshed } = state.refreshed ?? {};
      // a refill (our cancel of an aged order) is placed again at once, not at the next check
      return {
        nextCheckAt: complete ? state.nextCheckAt : Math.min(state.nextCheckAt, now),
        fills,
        ...(Object.keys(refreshed).length > 0 ? { refreshed } : {}),
      };
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
