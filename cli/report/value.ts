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

/** One leg: from -> to through FROM/TO (its mid), else TO/FROM (1 / its mid). */
async function leg(from: string, to: string, mid: MidSource): Promise<Price | undefined> {
  if (from === to) return { price: "1", pairs: [] };
  const direct = await mid(`${from}/${to}`);
  if (direct !== undefined) return { price: direct, pairs: [`${from}/${to}`] };
  const inverse = await mid(`${to}/${from}`);
  if (inverse === undefined) return undefined;
  const rate = new Decimal(1).dividedBy(inverse).precision(INVERSE_DIGITS, Decimal.ROUND_HALF_EVEN);
  return { price: rate.toFixed(), pairs: [`${to}/${from}`] };
}

/**
 * The asset's price in `quote`, by preference: the direct pair, its inverse, through BTC, through
 * USDT. The direct book is asked alone first, so an asset with its own pair opens no other book;
 * when it is absent the inverse and both bridges are asked at once.
 */
export async function priceIn(asset: string, quote: string, mid: MidSource): Promise<Price | undefined> {
  if (asset === quote) return { price: "1", pairs: [] };
  const direct = await mid(`${asset}/${quote}`);
  if (direct !== undefined) return { price: direct, pairs: [`${asset}/${quote}`] };
  const inverse = mid(`${quote}/${asset}`).then((m) =>
    m === undefined
      ? undefined
      : {
          price: new Decimal(1).dividedBy(m).precision(INVERSE_DIGITS, Decimal.ROUND_HALF_EVEN).toFixed(),
          pairs: [`${quote}/${asset}`],
        },
  );
  const bridged = BRIDGES.filter((b) => b !== asset && b !== quote).map((bridge) =>
    Promise.all([leg(asset, bridge, mid), leg(bridge, quote, mid)]),
  );
  const viaInverse = await inverse;
  if (viaInverse) return viaInverse;
  for (const route of bridged) {
    const [first, second] = await route;
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
 * and routes need it; at most `parallel` books are open at once (exchanges limit new connections
 * per second, OKX to 3).
 */
export function memoMids(fetchMid: MidSource, parallel = 4): MidSource {
  const asked = new Map<string, Promise<string | undefined>>();
  let running = 0;
  const waiting: (() => void)[] = [];
  const slot = async (): Promise<void> => {
    if (running < parallel) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return (pair) => {
    let answer = asked.get(pair);
    if (!answer) {
      answer = slot()
        .then(() => fetchMid(pair))
        .catch(() => undefined)
        .finally(release);
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
