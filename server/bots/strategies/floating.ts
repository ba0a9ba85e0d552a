/**
 * Floating bot (docs/decisions.md#d21, docs/bots.md "Floating"): one limit order on `side` at
 * mid x (1 -/+ p/100), amount q / target, replaced when it drifts beyond `marginOfError` percent
 * or fills. Modules: dynamic-price and dynamic-quote draw p and q per placement, dynamic-delay
 * spaces replacements (1 s without it), price-bounds keeps the target inside [min, max],
 * spending-limits (in USDT, the resting order counted: docs/decisions.md#d32) sizes a new order to
 * what the limit leaves and stops placing once filled + resting reach `limit`.
 */
import { Decimal, truncate } from "../../../lib/decimal.js";
import type { FloatingSetup } from "../../../lib/schemas.js";
import { amountFor, asOrder, dec, drawBetween, filledQuote } from "./shared.js";
import type { OwnOrder, Strategy } from "./types.js";

/** A USDT figure for a note: at most 2 decimals. */
function usdtText(value: Decimal): string {
  return value.decimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();
}

export interface FloatingState {
  /** the percent of the next (or current) placement */
  p: string;
  /** the quote of the next (or current) placement */
  q: string;
  /** no placement before this time (ms): dynamic-delay */
  nextPlaceAt: number;
  /** filled quote per fill in USDT (converted at the mid of its moment), for spending-limits */
  fills: { ts: number; quote: string }[];
}

/** docs/decisions.md#d21: replacements wait 1 s when no dynamic-delay module is set. */
export const DEFAULT_REPLACE_DELAY_MS = 1000;
const SLOT = 0;

export function floatingStrategy(setup: FloatingSetup): Strategy<FloatingState> {
  const { main, modules } = setup;
  const draw = (random: () => number): Pick<FloatingState, "p" | "q"> => {
    const dp = modules["dynamic-price"];
    const dq = modules["dynamic-quote"];
    return {
      p: dp ? drawBetween(random, dp.min, dp.max) : dec(main.percent).toFixed(),
      q: dq ? drawBetween(random, dq.min, dq.max) : dec(main.quote).toFixed(),
    };
  };
  const delayMs = (random: () => number): number => {
    const dd = modules["dynamic-delay"];
    if (!dd) return DEFAULT_REPLACE_DELAY_MS;
    return Math.round(Number(drawBetween(random, dd.min, dd.max)) * 1000);
  };
  const limits = modules["spending-limits"];
  const quoteCurrency = main.pair.split("/")[1]?.toUpperCase() ?? "";

  return {
    tracksFills: limits !== undefined,

    init({ random }) {
      return { ...draw(random), nextPlaceAt: 0, fills: [] };
    },

    step(state, { now, market, decimals, open, usdtPerQuote }) {
      const fills = limits ? state.fills.filter((f) => f.ts > now - limits.period * 1000) : [];
      const next = fills.length === state.fills.length ? state : { ...state, fills };
      /** docs/bots.md "Floating": what the limit leaves for a new order, in the pair's quote currency */
      let room: Decimal | undefined;
      if (limits) {
        const rate = usdtPerQuote ?? (quoteCurrency === "USDT" ? new Decimal(1) : undefined);
        if (rate === undefined || !rate.gt(0))
          return {
            state: next,
            want: [],
            note: `spending limit: no ${quoteCurrency}/USDT price to count ${quoteCurrency} in USDT; nothing placed`,
          };
        const spent = fills.reduce((sum, f) => sum.plus(f.quote), new Decimal(0));
        const resting = open
          .filter((o) => o.slot === SLOT)
          .reduce((sum, o) => sum.plus(dec(o.amount).minus(o.filled).times(o.price).times(rate)), new Decimal(0));
        const limit = dec(limits.limit);
        const wakeAt = fills.length > 0 ? fills[0]!.ts + limits.period * 1000 : undefined;
        // the resting order counts: the limit is never exceeded, even by the order that reaches it
        if (spent.gte(limit) || spent.plus(resting).gt(limit)) {
          return {
            state: next,
            want: [],
            ...(wakeAt !== undefined ? { wakeAt } : {}),
            note: `spending limit reached: ${usdtText(spent)} of ${limits.limit} USDT filled in the last ${limits.period} s${
              resting.gt(0) ? ` and ${usdtText(resting)} USDT resting` : ""
            }`,
          };
        }
        room = limit.minus(spent).dividedBy(rate);
      }
      const p = dec(next.p).dividedBy(100);
      const raw =
        main.side === "Buy" ? market.mid.times(new Decimal(1).minus(p)) : market.mid.times(new Decimal(1).plus(p));
      const target = truncate(raw, decimals.price);
      const bounds = modules["price-bounds"];
      if (bounds && (target.lt(dec(bounds.min)) || target.gt(dec(bounds.max)))) {
        // the note names the side, not the target: a target that moves with every mid would make an
        // idle bot's state change (and be sent on the live channel) at every tick (docs/bots.md "The runner")
        const where = target.lt(dec(bounds.min)) ? "below" : "above";
        return {
          state: next,
          want: [],
          note: `target ${where} the price bounds [${bounds.min}, ${bounds.max}]: nothing placed`,
        };
      }
      const hasOrder = open.some((o) => o.slot === SLOT);
      if (!hasOrder && now < next.nextPlaceAt)
        return {
          state: next,
          want: [],
          wakeAt: next.nextPlaceAt,
          note: `replacement delay: placing again at ${new Date(next.nextPlaceAt).toISOString()}`,
        };
      // a new order is as large as the limit leaves room for (docs/bots.md "Floating")
      const quote = room !== undefined ? Decimal.min(dec(next.q), room) : dec(next.q);
      const amount = amountFor(quote, target, decimals.amount);
      if (
        room !== undefined &&
        !target.isZero() &&
        amountFor(dec(next.q), target, decimals.amount).gt(0) &&
        amount.isZero()
      ) {
        const spent = dec(limits!.limit).minus(room.times(usdtPerQuote ?? 1));
        return {
          state: next,
          want: [],
          ...(next.fills.length > 0 ? { wakeAt: next.fills[0]!.ts + limits!.period * 1000 } : {}),
          note: `spending limit reached: ${usdtText(spent)} of ${limits!.limit} USDT filled in the last ${limits!.period} s`,
        };
      }
      if (target.isZero() || amount.isZero()) {
        return {
          state: next,
          want: [],
          note: `quote ${quote.toFixed()} at ${target.toFixed()} is zero at the pair's decimals`,
        };
      }
      return {
        state: next,
        want: [{ slot: SLOT, side: main.side, price: target.toFixed(), amount: amount.toFixed() }],
      };
    },

    /** docs/decisions.md#d21: kept while |order price - target| / target x 100 <= marginOfError. */
    keep(order, want) {
      if (order.side !== want.side) return false;
      const target = dec(want.price);
      if (target.isZero()) return false;
      const drift = dec(order.price).minus(target).abs().dividedBy(target).times(100);
      return drift.lte(dec(main.marginOfError));
    },

    closed(state, { order, filled }, { now, random, usdtPerQuote }) {
      // a fill is counted in USDT at the mid of its moment (docs/decisions.md#d21: the limit is in USDT)
      const rate = usdtPerQuote ?? (quoteCurrency === "USDT" ? new Decimal(1) : undefined);
      const fills =
        dec(filled).gt(0) && rate !== undefined
          ? [...state.fills, { ts: now, quote: filledQuote(order, filled).times(rate).toFixed() }]
          : state.fills;
      return { ...draw(random), nextPlaceAt: now + delayMs(random), fills: limits ? fills : [] };
    },

    view(_state, open) {
      const order: OwnOrder | undefined = open.find((o) => o.slot === SLOT);
      return { order: order ? asOrder(main.pair, order) : null };
    },
  };
}
