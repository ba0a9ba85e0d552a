/**
 * Liquidity arranger (docs/decisions.md#d24, docs/bots.md "Liquidity arranger"): `ordersAmount` orders, order
 * i at t = i/(n-1) priced P0 + (P1 - P0) x f(t) with quote Q0 + (Q1 - Q0) x g(t); on `side`, or,
 * when it is unset, Buys below the others' mid and Sells above, a resting order keeping its side
 * while it does not cross, never a Buy at or above its own Sell (docs/decisions.md#d33). A filled or
 * missing order is placed again at its slot; a slot that would cross the book waits.
 */
import { Decimal, truncate } from "../../../lib/decimal.js";
import type { LiquidityArrangerSetup } from "../../../lib/schemas.js";
import type { Side } from "../../../lib/types.js";
import { amountFor, dec, othersInside, sameOrder } from "./shared.js";
import type { Strategy, Wanted } from "./types.js";

/** Φ(-2) and Φ(2): the normal distribution cut at ±2σ (docs/decisions.md#d24 "gauss"). */
const PHI_MINUS_2 = 0.022750131948179195;
const PHI_PLUS_2 = 0.9772498680518208;

/** The inverse of the standard normal CDF (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    );
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/** docs/decisions.md#d24's shaping functions of t in [0, 1], each from 0 to 1 (inverseGauss: 1 at the ends, 0 in the middle). */
export function shape(strategy: string, t: number): number {
  switch (strategy) {
    case "linear":
      return t;
    case "exponential3":
    case "exponential5":
    case "exponential10": {
      const k = Number(strategy.slice("exponential".length));
      return (Math.exp(k * t) - 1) / (Math.exp(k) - 1);
    }
    case "gauss": {
      if (t <= 0) return 0;
      if (t >= 1) return 1;
      // the quantiles of a normal distribution cut at ±2σ, mapped to [0, 1]: dense in the middle
      return (normalQuantile(PHI_MINUS_2 + t * (PHI_PLUS_2 - PHI_MINUS_2)) + 2) / 4;
    }
    case "inverseGauss": {
      // 1 - the gauss weight (the normal density over ±2σ, 1 at the centre), scaled to 1 at the ends
      const z = 4 * t - 2;
      return (1 - Math.exp((-z * z) / 2)) / (1 - Math.exp(-2));
    }
    default:
      throw new Error(`Unknown strategy '${strategy}'`);
  }
}

/** a + (b - a) x shape(i/(n-1)): linear exactly ((b - a) x i / (n-1)), the curves to 12 significant digits. */
function along(a: Decimal, b: Decimal, strategy: string, i: number, n: number): Decimal {
  if (n === 1) return a;
  if (strategy === "linear")
    return a.plus(
      b
        .minus(a)
        .times(i)
        .dividedBy(n - 1),
    );
  return a.plus(b.minus(a).times(new Decimal(shape(strategy, i / (n - 1)).toPrecision(12))));
}

/** A Buy at or above the ask, or a Sell at or below the bid, would take. */
function crossesAt(side: Side, price: Decimal, bid: Decimal, ask: Decimal): boolean {
  return side === "Buy" ? price.gte(ask) : price.lte(bid);
}

export type LiquidityArrangerState = Record<string, never>;

export function liquidityArrangerStrategy(setup: LiquidityArrangerSetup): Strategy<LiquidityArrangerState> {
  const n = setup.ordersAmount;
  const p0 = dec(setup.P0);
  const p1 = dec(setup.P1);
  const q0 = dec(setup.Q0);
  const q1 = dec(setup.Q1);

  /** the slots' prices and quotes, independent of the market */
  const ladder = (decimals: { price: number; amount: number }) =>
    Array.from({ length: n }, (_, i) => {
      const price = truncate(along(p0, p1, setup.priceStrategy, i, n), decimals.price);
      const quote = along(q0, q1, setup.volumeStrategy, i, n);
      return { slot: i, price, amount: amountFor(quote, price, decimals.amount) };
    });

  return {
    tracksFills: false,

    init() {
      return {};
    },

    step(state, { market, decimals, open }) {
      const want: Wanted[] = [];
      // sides are decided against the others' book: the bot's own orders do not move its mid
      const others = othersInside(market.bids, market.asks, open);
      const bid = others.bid ?? market.bestBid;
      const ask = others.ask ?? market.bestAsk;
      const mid = bid.plus(ask).dividedBy(2);
      const counts = { cross: 0, mid: 0, own: 0, zero: 0 };
      const slots = ladder(decimals);
      // pass 1: the side of each slot (a resting order keeps its side while it does not cross)
      const sided: { slot: number; price: Decimal; amount: Decimal; side: Side | undefined }[] = [];
      for (const { slot, price, amount } of slots) {
        if (price.lte(0) || amount.lte(0)) {
          counts.zero++;
          continue;
        }
        const resting = open.find((o) => o.slot === slot && dec(o.price).eq(price));
        const side: Side | undefined =
          setup.side ??
          (resting && !crossesAt(resting.side, price, bid, ask)
            ? resting.side
            : price.lt(mid)
              ? "Buy"
              : price.gt(mid)
                ? "Sell"
                : undefined);
        sided.push({ slot, price, amount, side });
      }
      // pass 2: the slots whose order rests first, so a new quote yields to a resting one
      const rests = (slot: number, side: Side | undefined, price: Decimal) =>
        open.some((o) => o.slot === slot && o.side === side && dec(o.price).eq(price));
      const ordered = [...sided].sort(
        (a, b) => Number(rests(b.slot, b.side, b.price)) - Number(rests(a.slot, a.side, a.price)),
      );
      for (const { slot, price, amount, side } of ordered) {
        if (side === undefined) {
          counts.mid++; // docs/bots.md "Liquidity arranger": the slot at the mid waits
          continue;
        }
        // docs/decisions.md#d24: a slot that would cross waits; one already resting there on that side stays
        if (!rests(slot, side, price) && crossesAt(side, price, bid, ask)) {
          counts.cross++;
          continue;
        }
        // never a Buy at or above its own Sell, nor a Sell at or below its own Buy (a self-trade); the
        // runner cancels what is not wanted before it places anything, so only wanted orders count
        if (want.some((w) => w.side !== side && (side === "Buy" ? price.gte(w.price) : price.lte(w.price)))) {
          counts.own++;
          continue;
        }
        want.push({ slot, side, price: price.toFixed(), amount: amount.toFixed() });
      }
      want.sort((a, b) => a.slot - b.slot);
      const notes = [
        ...(counts.cross ? [`${counts.cross} slots wait: they would cross the book`] : []),
        ...(counts.mid ? [`${counts.mid} slots wait: at the mid`] : []),
        ...(counts.own ? [`${counts.own} slots wait: they would meet the bot's own orders`] : []),
        ...(counts.zero ? [`${counts.zero} slots are zero at the pair's decimals`] : []),
      ];
      return { state, want, ...(notes.length ? { note: notes.join("; ") } : {}) };
    },

    keep(order, want) {
      return sameOrder(order, want);
    },

    closed(state) {
      return state; // filled or cancelled: the slot is placed again by the next step
    },

    view(_state, open) {
      return {
        onBuy: open.filter((o) => o.side === "Buy").length,
        onSell: open.filter((o) => o.side === "Sell").length,
      };
    },
  };
}
