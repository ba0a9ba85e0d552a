import { BUCKET_MS, resolveSeed, type SyntheticMarket, syntheticMarket } from "./market.js";
import { paperPair } from "./pairs.js";

/**
 * paper's price history as candles (docs/decisions.md#d13: paper's chart is the built-in candle chart, drawn
 * from the paper market's own history). The synthetic market is a function of time, so its past is
 * exact: a candle of up to MAX_CANDLE_SAMPLES seconds is the mid sampled every second (BUCKET_MS) of
 * its interval; a longer one is sampled at a stride, so that one call's work is bounded whatever its
 * interval (docs/web-trading.md "Chart", docs/server-limits.md "Bounded work").
 */
export interface Candle {
  /** start of the candle, seconds since the epoch (UTC) */
  readonly time: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
}

/** Most candles one call answers. */
export const MAX_CANDLES = 500;
/** The longest candle, in seconds: a day. */
export const MAX_CANDLE_SECONDS = 86_400;
/** Most mid samples one candle takes, so one call samples at most MAX_CANDLES × 400 = 200,000 mids. */
export const MAX_CANDLE_SAMPLES = 400;
/** Candles kept between calls: past candles never change, and a chart asks for the same ones every minute. */
export const CANDLE_CACHE_SIZE = 10_000;

/**
 * The seconds between two samples of a candle `buckets` seconds long: every second up to
 * MAX_CANDLE_SAMPLES, else the smallest power of 4 that keeps the samples (its open, its close and
 * every multiple of the stride between) within MAX_CANDLE_SAMPLES. A power of 4 because the market's
 * octaves are (market.ts): on multiples of the stride, every octave at least that long is a straight
 * line from one sample to the next, so a sample misses at most the swing of the shorter octaves.
 */
export function candleStride(buckets: number): number {
  if (buckets <= MAX_CANDLE_SAMPLES) return 1;
  let stride = 4;
  while (Math.ceil(buckets / stride) + 2 > MAX_CANDLE_SAMPLES) stride *= 4;
  return stride;
}

export interface CandleOptions {
  intervalSec: number;
  limit: number;
  now?: () => number;
  seed?: string;
}

export function paperCandles(pair: string, options: CandleOptions): Candle[] {
  const { market, stride, spans } = candleSpans(pair, options);
  return spans.map(([start, end]) => cachedCandle(market, start, end, stride));
}

/** Mid samples between two turns of the event loop in paperCandlesInTurns: about a millisecond of work. */
export const SAMPLES_PER_TURN = 5000;

/**
 * paperCandles for the server: the same candles, but the event loop gets a turn after every
 * SAMPLES_PER_TURN samples, so that other requests are answered while a long history is sampled
 * (docs/server-limits.md "Bounded work").
 */
export async function paperCandlesInTurns(pair: string, options: CandleOptions): Promise<Candle[]> {
  const { market, stride, spans } = candleSpans(pair, options);
  const candles: Candle[] = [];
  let turnStart = market.midCalls;
  for (const [start, end] of spans) {
    if (market.midCalls - turnStart >= SAMPLES_PER_TURN) {
      await new Promise((resolve) => setImmediate(resolve));
      turnStart = market.midCalls;
    }
    candles.push(cachedCandle(market, start, end, stride));
  }
  return candles;
}

/** The market, the stride and each candle's first and last second (the last one runs to now), oldest first. */
function candleSpans(pair: string, options: CandleOptions) {
  const market = syntheticMarket(paperPair(pair), resolveSeed(options.seed));
  const maxBuckets = (MAX_CANDLE_SECONDS * 1000) / BUCKET_MS;
  const intervalBuckets = Math.min(Math.max(1, Math.round((options.intervalSec * 1000) / BUCKET_MS)), maxBuckets);
  const limit = Math.min(Math.max(1, Math.floor(options.limit)), MAX_CANDLES);
  const nowBucket = Math.floor((options.now ?? Date.now)() / BUCKET_MS);
  const lastStart = Math.floor(nowBucket / intervalBuckets) * intervalBuckets;
  const spans: Array<[start: number, end: number]> = [];
  for (let start = lastStart - (limit - 1) * intervalBuckets; start <= lastStart; start += intervalBuckets) {
    spans.push([start, Math.min(start + intervalBuckets - 1, nowBucket)]);
  }
  return { market, stride: candleStride(intervalBuckets), spans };
}

/** Least recently used first: a hit moves to the end, the first one goes when the cache is full. */
const cache = new Map<string, Candle>();

/** The candle of buckets start..end, from the cache when it was sampled before (the still open one too, within its second). */
function cachedCandle(market: SyntheticMarket, start: number, end: number, stride: number): Candle {
  const key = `${market.seed}|${market.spec.pair}|${stride}|${start}|${end}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const candle = sampledCandle(market, start, end, stride);
  cache.set(key, candle);
  if (cache.size > CANDLE_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return candle;
}

/**
 * A candle from its samples: the open and close exact, high and low over them and every multiple of
 * `stride` between. Open and close are samples, so high >= max(open, close) and low <= min(open, close)
 * always; every sample is a real mid, so the high never exceeds the true high nor the low the true low.
 */
function sampledCandle(market: SyntheticMarket, start: number, end: number, stride: number): Candle {
  const open = market.midTicks(start);
  let high = open;
  let low = open;
  for (let b = (Math.floor(start / stride) + 1) * stride; b < end; b += stride) {
    const mid = market.midTicks(b);
    if (mid > high) high = mid;
    if (mid < low) low = mid;
  }
  const close = market.midTicks(end);
  if (close > high) high = close;
  if (close < low) low = close;
  return Object.freeze({
    time: (start * BUCKET_MS) / 1000,
    open: market.price(open),
    high: market.price(high),
    low: market.price(low),
    close: market.price(close),
  });
}
