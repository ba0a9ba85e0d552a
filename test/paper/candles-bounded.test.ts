import { describe, expect, it } from "vitest";
import {
  CANDLE_CACHE_SIZE,
  type Candle,
  candleStride,
  MAX_CANDLE_SAMPLES,
  MAX_CANDLES,
  paperCandles,
  paperCandlesInTurns,
  SAMPLES_PER_TURN,
} from "../../exchanges/paper/candles.js";
import { BUCKET_MS, syntheticMarket } from "../../exchanges/paper/market.js";
import { paperPair } from "../../exchanges/paper/pairs.js";
import { Decimal } from "../../lib/decimal.js";
import { T0 } from "./helpers.js";

/**
 * paper's candles in bounded work (docs/server-limits.md "Bounded work", docs/web-trading.md "Chart"):
 * at most MAX_CANDLE_SAMPLES mids per candle, long candles sampled at a stride within the stated bound
 * of the second-by-second ones, and candles asked before answered from the cache. The work is
 * counted with the market's own midCalls, never timed. Each test has its own seed, so its market
 * and its candles are its own.
 */

const market = (pair: string, seed: string) => syntheticMarket(paperPair(pair), seed);

/** The mids sampled while `work` runs, on the market of `pair` under `seed`. */
function midCallsOf(pair: string, seed: string, work: () => void): number {
  const m = market(pair, seed);
  const before = m.midCalls;
  work();
  return m.midCalls - before;
}

/** The open, high, low and close of buckets start..end, second by second, in ticks. */
function exactCandle(pair: string, seed: string, start: number, end: number) {
  const m = market(pair, seed);
  let high = -Infinity;
  let low = Infinity;
  for (let b = start; b <= end; b++) {
    high = Math.max(high, m.midTicks(b));
    low = Math.min(low, m.midTicks(b));
  }
  return { open: m.midTicks(start), high, low, close: m.midTicks(end) };
}

describe('paper candles in bounded work (docs/server-limits.md "Bounded work")', () => {
  it("a candle of up to 400 seconds is sampled every second; a longer one at the smallest stride of 4, 16, 64 or 256 keeping 400 samples", () => {
    const strides = [1, 2, 300, 400, 401, 1592, 1593, 6368, 6369, 25472, 25473, 86_400].map(candleStride);
    expect(strides).toEqual([1, 1, 1, 1, 4, 4, 16, 16, 64, 64, 256, 256]);
    expect(MAX_CANDLE_SAMPLES).toBe(400);
    let mostSamples = 0;
    for (let seconds = 1; seconds <= 86_400; seconds++) {
      const stride = candleStride(seconds);
      mostSamples = Math.max(mostSamples, stride === 1 ? seconds : Math.ceil(seconds / stride) + 2);
    }
    expect(mostSamples).toBe(MAX_CANDLE_SAMPLES);
  });

  it("500 candles of any length sample at most 500 × 400 mids (500 day candles were 43 million, one a second)", () => {
    const seed = "bounded-work";
    const now = () => T0 + 12_345_678;
    for (const intervalSec of [1, 300, 400, 401, 1592, 1593, 6369, 25473, 86_400]) {
      const sampled = midCallsOf("BTC/USDT", seed, () =>
        expect(paperCandles("BTC/USDT", { intervalSec, limit: MAX_CANDLES, now, seed })).toHaveLength(MAX_CANDLES),
      );
      expect(sampled).toBeGreaterThan(0);
      expect(sampled).toBeLessThanOrEqual(MAX_CANDLES * MAX_CANDLE_SAMPLES);
    }
  });

  it("a sampled candle's open and close are exact; its high and low never pass the true ones and miss them by at most e^(2σ(√stride−1)), σ = 5e-5, and one tick", () => {
    const seed = "sampled-bound";
    const now = () => T0 + 40 * 86_400_000 + 3_333_000;
    for (const pair of ["BTC/USDT", "ETH/BTC"]) {
      const m = market(pair, seed);
      for (const intervalSec of [900, 3600, 14_400, 86_400]) {
        const stride = candleStride(intervalSec);
        expect(stride).toBeGreaterThan(1);
        const factor = Math.exp(2 * 5e-5 * (Math.sqrt(stride) - 1));
        const candles = paperCandles(pair, { intervalSec, limit: 3, now, seed });
        for (const c of candles) {
          const start = (c.time * 1000) / BUCKET_MS;
          const end = Math.min(start + intervalSec - 1, Math.floor(now() / BUCKET_MS));
          const exact = exactCandle(pair, seed, start, end);
          expect([c.open, c.close]).toEqual([m.price(exact.open), m.price(exact.close)]);
          const [high, low] = [m.ticksOf(c.high), m.ticksOf(c.low)];
          expect(high).toBeLessThanOrEqual(exact.high);
          expect(low).toBeGreaterThanOrEqual(exact.low);
          expect(exact.high).toBeLessThanOrEqual(high * factor + 1);
          expect(exact.low).toBeGreaterThanOrEqual(low / factor - 1);
        }
      }
    }
  });

  it("every candle's high is at least its open and close, its low at most, at every stride", () => {
    const seed = "high-low";
    const now = () => T0 + 77_777_777;
    for (const pair of ["BTC/USDT", "SOL/USDT"]) {
      for (const intervalSec of [60, 900, 3600, 14_400, 86_400]) {
        for (const c of paperCandles(pair, { intervalSec, limit: MAX_CANDLES, now, seed })) {
          expect(new Decimal(c.high).gte(Decimal.max(c.open, c.close))).toBe(true);
          expect(new Decimal(c.low).lte(Decimal.min(c.open, c.close))).toBe(true);
        }
      }
    }
  });

  it("the server's paperCandlesInTurns gives the event loop a turn every SAMPLES_PER_TURN samples, and answers the same candles", async () => {
    const seed = "turns";
    const options = { intervalSec: 86_400, limit: MAX_CANDLES, now: () => T0 + 9_876_543, seed };
    let turns = 0;
    let counting = true;
    const countTurn = (): void => {
      if (!counting) return;
      turns++;
      setImmediate(countTurn);
    };
    setImmediate(countTurn);
    const before = market("BTC/USDT", seed).midCalls;
    const candles = await paperCandlesInTurns("BTC/USDT", options);
    counting = false;
    const samples = market("BTC/USDT", seed).midCalls - before;
    expect(samples).toBeGreaterThan(4 * SAMPLES_PER_TURN);
    expect(turns).toBeGreaterThanOrEqual(Math.floor(samples / SAMPLES_PER_TURN) - 1);
    expect(candles).toEqual(paperCandles("BTC/USDT", options));
  });

  it("candles asked again come from the cache; it keeps CANDLE_CACHE_SIZE of them and drops the least recently used", () => {
    const seed = "cache";
    const pair = "SOL/USDT";
    expect(CANDLE_CACHE_SIZE % MAX_CANDLES).toBe(0);
    const batches = CANDLE_CACHE_SIZE / MAX_CANDLES;
    // batch i: 500 one-second candles ending at T0 + 500 i seconds, none shared with another batch
    const batch = (i: number): Candle[] =>
      paperCandles(pair, { intervalSec: 1, limit: MAX_CANDLES, now: () => T0 + i * MAX_CANDLES * BUCKET_MS, seed });
    let first: Candle[] = [];
    expect(midCallsOf(pair, seed, () => (first = batch(0)))).toBeGreaterThan(0);
    expect(midCallsOf(pair, seed, () => expect(batch(0)).toEqual(first))).toBe(0);
    // the cache is now full of this test's candles; batch 0 asked again is the most recently used
    for (let i = 1; i < batches; i++) batch(i);
    expect(midCallsOf(pair, seed, () => batch(0))).toBe(0);
    // one more batch drops batch 1, the least recently used, and keeps batch 0
    batch(batches);
    expect(midCallsOf(pair, seed, () => expect(batch(0)).toEqual(first))).toBe(0);
    expect(midCallsOf(pair, seed, () => batch(batches))).toBe(0);
    expect(midCallsOf(pair, seed, () => batch(1))).toBeGreaterThan(0);
  });
});
