/**
 * Valuation of `spotdesk report` (docs/report.md "Valuation"): each asset's price in the quote
 * currency from the exchange's own public books, the mid of the best bid and ask. A direct pair
 * first (ETH/USDT), else its inverse (USDT/ETH), else through BTC or USDT (ETH/BTC x BTC/USDT).
 * An asset no route reaches has no price: null, never a made-up zero.
 */
import { Decimal } from "../../lib/decimal.js";

/** Where mids come from: undefined when the exchange has no such book or it did not answer in time. */
export type MidSource = (pair: string) => Promise<string | undefined>;

/** Significant digits kept when a rate is inverted (1 / mid): the only division in a valuation. */
export const INVERSE_DIGITS = 20;

/** The bridges of "through BTC or USDT" (issue 22), tried in this order. */
export const BRIDGES: readonly string[] = ["BTC", "USDT"];

export interface Price {
  /** the asset's price in the quote currency, a decimal string */
  price: string;
  /** the books whose mids made it, in the order used ([] for the quote itself) */
  pairs: string[];
}

/** (best bid + best ask) / 2; undefined while a side is empty. */
export function midOf(bestBid: string | undefined, bestAsk: string | undefined): string | undefined {
  if (bestBid === undefined || bestAsk === undefined) return undefined;
  const mid = new Decimal(bestBid).plus(bestAsk).dividedBy(2);
  return mid.isFinite() && mid.isGreaterThan(0) ? mid.toFixed() : undefined;
}

/** One leg: from -> to through FROM/TO (its mid) or TO/FROM (1 / its mid). */
async function leg(from: string, to: string, mid: MidSource): Promise<Price | undefined> {
  if (from === to) return { price: "1", pairs: [] };
  const direct = await mid(`${from}/${to}`);
  if (direct !== undefined) return { price: direct, pairs: [`${from}/${to}`] };
  const inverse = await mid(`${to}/${from}`);
  if (inverse !== undefined) {
    const rate = new Decimal(1).dividedBy(inverse).precision(INVERSE_DIGITS, Decimal.ROUND_HALF_EVEN);
    return { price: rate.toFixed(), pairs: [`${to}/${from}`] };
  }
  return undefined;
}

/**
 * The asset's price in `quote`. The direct legs are asked first, so an asset with its own pair
 * never waits for the bridges' books; bridge legs are asked together.
 */
export async function priceIn(asset: string, quote: string, mid: MidSource): Promise<Price | undefined> {
  const direct = await leg(asset, quote, mid);
  if (direct) return direct;
  for (const bridge of BRIDGES) {
    if (bridge === asset || bridge === quote) continue;
    const [first, second] = await Promise.all([leg(asset, bridge, mid), leg(bridge, quote, mid)]);
    if (first && second) {
      return {
        price: new Decimal(first.price).times(second.price).toFixed(),
        pairs: [...first.pairs, ...second.pairs],
      };
    }
  }
  return undefined;
}

/**
 * Memoizes a mid source: each book is asked once per exchange per run, however many accounts
 * and routes need it.
 */
export function memoMids(fetchMid: MidSource): MidSource {
  const asked = new Map<string, Promise<string | undefined>>();
  return (pair) => {
    let answer = asked.get(pair);
    if (!answer) {
      answer = fetchMid(pair).catch(() => undefined);
      asked.set(pair, answer);
    }
    return answer;
  };
}

/** value / total x 100, two decimals; "0" when the total is zero. */
export function percentOf(value: string, total: string): string {
  const t = new Decimal(total);
  if (t.isZero()) return "0";
  return new Decimal(value).times(100).dividedBy(t).decimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed();
}
