import { BUCKET_MS, resolveSeed, syntheticMarket } from "./market.js";
import { paperPair } from "./pairs.js";

/**
 * paper's price history as candles (docs/decisions.md#d13: paper's chart is the built-in candle chart, drawn
 * from the paper market's own history). The synthetic market is a function of time, so its past is
 * exact: each candle is the mid sampled every second (BUCKET_MS) of its interval.
 */
export interface Candle {
  /** start of the candle, seconds since the epoch (UTC) */
  time: number;
  open: string;
  high: string;
  low: string;
  close: string;
}

/** Most candles one call answers. */
export const MAX_CANDLES = 500;

export function paperCandles(
  pair: string,
  options: { intervalSec: number; limit: number; now?: () => number; seed?: string },
): Candle[] {
  const market = syntheticMarket(paperPair(pair), resolveSeed(options.seed));
  const intervalBuckets = Math.max(1, Math.round((options.intervalSec * 1000) / BUCKET_MS));
  const limit = Math.min(Math.max(1, Math.floor(options.limit)), MAX_CANDLES);
  const nowBucket = Math.floor((options.now ?? Date.now)() / BUCKET_MS);
  const lastStart = Math.floor(nowBucket / intervalBuckets) * intervalBuckets;
  const candles: Candle[] = [];
  for (let start = lastStart - (limit - 1) * intervalBuckets; start <= lastStart; start += intervalBuckets) {
    const end = Math.min(start + intervalBuckets - 1, nowBucket);
    const open = market.midTicks(start);
    let high = open;
    let low = open;
    let close = open;
    for (let b = start; b <= end; b++) {
      close = market.midTicks(b);
      if (close > high) high = close;
      if (close < low) low = close;
    }
    candles.push({
      time: (start * BUCKET_MS) / 1000,
      open: market.price(open),
      high: market.price(high),
      low: market.price(low),
      close: market.price(close),
    });
  }
  return candles;
}
