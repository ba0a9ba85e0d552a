/**
 * Grid bot (docs/decisions.md#d22, docs/bots.md "Grid"): size/2 Buys below and size/2 Sells above the mid
 * at P x (1 -/+ k x s), s = percent / 100 / (size/2), each of quote `quote`/`size`. A filled Buy at
 * x becomes a Sell of the same amount at x x (1 + profit/100) in the same slot; a filled Sell a Buy
 * of the same quote at x x (1 - profit/100). When one side has no order left, the grid is rebuilt
 * around the current mid, the exhausted side's quotes scaled by (1 - RF), the other's by (1 + RF).
 */
import { Decimal, truncate } from "../../../lib/decimal.js";
import type { GridSetup } from "../../../lib/schemas.js";
import type { Side } from "../../../lib/types.js";
import { amountFor, dec, sameOrder } from "./shared.js";
import type { Strategy, Wanted } from "./types.js";

export interface GridState {
  /** how many times the grid was built (0: not yet) */
  builds: number;
  /** the quote factor of each side, compounded by every rebuild */
  buyScale: string;
  sellScale: string;
  /** the order each slot holds */
  slots: Wanted[];
  /** the mid the grid was last built around */
  center?: string;
}

export function gridStrategy(setup: GridSetup): Strategy<GridState> {
  const half = setup.size / 2;
  const s = dec(setup.percent).dividedBy(100).dividedBy(half);
  const perOrder = dec(setup.quote).dividedBy(setup.size);
  const profit = dec(setup.profit).dividedBy(100);
  const rf = dec(setup.RF);

  const build = (mid: Decimal, state: GridState, decimals: { price: number; amount: number }): GridState => {
    const slots: Wanted[] = [];
    const add = (slot: number, side: Side, price: Decimal, quote: Decimal) => {
      const p = truncate(price, decimals.price);
      const amount = amountFor(quote, p, decimals.amount);
      if (p.gt(0) && amount.gt(0)) slots.push({ slot, side, price: p.toFixed(), amount: amount.toFixed() });
    };
    for (let k = 1; k <= half; k++) {
      const ks = s.times(k);
      add(k - 1, "Buy", mid.times(new Decimal(1).minus(ks)), perOrder.times(state.buyScale));
      add(half + k - 1, "Sell", mid.times(new Decimal(1).plus(ks)), perOrder.times(state.sellScale));
    }
    return { ...state, builds: state.builds + 1, slots, center: mid.toFixed() };
  };

  return {
    tracksFills: false,

    init() {
      return { builds: 0, buyScale: "1", sellScale: "1", slots: [] };
    },

    step(state, { market, decimals }) {
      let next = state;
      if (state.builds === 0) next = build(market.mid, state, decimals);
      else {
        const buys = state.slots.filter((o) => o.side === "Buy").length;
        const sells = state.slots.length - buys;
        if (buys === 0 || sells === 0) {
          // docs/decisions.md#d22: the exhausted side's quotes shrink by (1 - RF), the other side's grow by (1 + RF).
          const up = new Decimal(1).plus(rf);
          const down = new Decimal(1).minus(rf);
          const scaled: GridState = {
            ...state,
            buyScale: dec(state.buyScale)
              .times(buys === 0 ? down : up)
              .toFixed(),
            sellScale: dec(state.sellScale)
              .times(sells === 0 ? down : up)
              .toFixed(),
          };
          next = build(market.mid, scaled, decimals);
        }
      }
      const note =
        next.slots.length < setup.size
          ? `${setup.size - next.slots.length} grid orders are zero at the pair's decimals`
          : undefined;
      return { state: next, want: next.slots, ...(note ? { note } : {}) };
    },

    keep(order, want) {
      return sameOrder(order, want);
    },

    closed(state, { order, filled, complete }, { decimals }) {
      if (!complete) return state; // cancelled (by us or someone else): the slot is placed again as it was
      const at = dec(order.price);
      const slots = state.slots.map((w) => {
        if (w.slot !== order.slot) return w;
        if (order.side === "Buy") {
          // a filled Buy at x: a Sell of the same amount at x x (1 + profit/100)
          const price = truncate(at.times(new Decimal(1).plus(profit)), decimals.price);
          return {
            slot: w.slot,
            side: "Sell" as const,
            price: price.toFixed(),
            amount: truncate(filled, decimals.amount).toFixed(),
          };
        }
        // a filled Sell at x: a Buy of the same quote at x x (1 - profit/100)
        const price = truncate(at.times(new Decimal(1).minus(profit)), decimals.price);
        return {
          slot: w.slot,
          side: "Buy" as const,
          price: price.toFixed(),
          amount: amountFor(dec(filled).times(at), price, decimals.amount).toFixed(),
        };
      });
      return { ...state, slots };
    },

    view(_state, open) {
      return {
        onBuy: open.filter((o) => o.side === "Buy").length,
        onSell: open.filter((o) => o.side === "Sell").length,
      };
    },
  };
}
