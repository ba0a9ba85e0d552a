import { describe, expect, it } from "vitest";
import { MAX_CANDLES, paperCandles } from "../../exchanges/paper/candles.js";
import { BUCKET_MS, DEFAULT_SEED, resolveSeed } from "../../exchanges/paper/market.js";
import { PAPER_CURRENCIES, PAPER_PAIRS, paperPair } from "../../exchanges/paper/pairs.js";
import { ExchangeError } from "../../lib/errors.js";
import { market, SEED, T0 } from "./helpers.js";

/**
 * paper's candles (docs/decisions.md#d13): the synthetic mid sampled every second of each interval,
 * checked against the market itself, second by second.
 */

/** The candle of [start, end] buckets computed here from the mid, as prices. */
function expected(startBucket: number, endBucket: number) {
  const m = market();
  const mids: number[] = [];
  for (let b = startBucket; b <= endBucket; b++) mids.push(m.midTicks(b));
  return {
    time: (startBucket * BUCKET_MS) / 1000,
    open: m.price(mids[0]!),
    high: m.price(Math.max(...mids)),
    low: m.price(Math.min(...mids)),
    close: m.price(mids.at(-1)!),
  };
}

describe("paper candles", () => {
  it("each candle is the open, high, low and close of the mid over its seconds; the last one runs to now", () => {
    const nowBucket = T0 / BUCKET_MS + 12 * 60 + 17; // 17 s into a minute
    const candles = paperCandles("BTC/USDT", {
      intervalSec: 60,
      limit: 3,
      now: () => nowBucket * BUCKET_MS + 400,
      seed: SEED,
    });
    const lastStart = nowBucket - 17;
    expect(candles).toEqual([
      expected(lastStart - 120, lastStart - 61),
      expected(lastStart - 60, lastStart - 1),
      expected(lastStart, nowBucket),
    ]);
    // the mid moves within a minute: a candle's high and low differ from its open somewhere
    expect(candles.some((c) => c.high !== c.low)).toBe(true);
  });

  it("an interval under a second is one second; the limit is at least 1 and at most MAX_CANDLES", () => {
    const now = () => T0 + 5 * BUCKET_MS;
    const tiny = paperCandles("ETH/USDT", { intervalSec: 0.1, limit: 2.9, now, seed: SEED });
    const m = market("ETH/USDT");
    const b = T0 / BUCKET_MS + 5;
    expect(tiny.map((c) => c.time)).toEqual([b - 1, b].map((x) => (x * BUCKET_MS) / 1000));
    expect(tiny[1]).toEqual({
      time: (b * BUCKET_MS) / 1000,
      open: m.price(m.midTicks(b)),
      high: m.price(m.midTicks(b)),
      low: m.price(m.midTicks(b)),
      close: m.price(m.midTicks(b)),
    });
    expect(paperCandles("ETH/USDT", { intervalSec: 1, limit: 0, now, seed: SEED })).toHaveLength(1);
    expect(paperCandles("ETH/USDT", { intervalSec: 1, limit: -5, now, seed: SEED })).toHaveLength(1);
    const many = paperCandles("ETH/USDT", { intervalSec: 1, limit: MAX_CANDLES + 100, now, seed: SEED });
    expect(many).toHaveLength(MAX_CANDLES);
    expect(MAX_CANDLES).toBe(500);
    expect(many.at(-1)?.time).toBe((b * BUCKET_MS) / 1000);
  });

  it("another seed is another market", () => {
    const now = () => T0 + 3600 * BUCKET_MS;
    const a = paperCandles("BTC/USDT", { intervalSec: 300, limit: 5, now, seed: SEED });
    const b = paperCandles("BTC/USDT", { intervalSec: 300, limit: 5, now, seed: "other" });
    expect(a.map((c) => c.time)).toEqual(b.map((c) => c.time));
    expect(a).not.toEqual(b);
  });
});

describe("paper's seed and pairs", () => {
  it("the seed in force: the option, else SPOTDESK_PAPER_SEED, else 'spotdesk'", () => {
    expect(resolveSeed("mine", { SPOTDESK_PAPER_SEED: "env" })).toBe("mine");
    expect(resolveSeed("", { SPOTDESK_PAPER_SEED: "env" })).toBe("env");
    expect(resolveSeed(undefined, { SPOTDESK_PAPER_SEED: "env" })).toBe("env");
    expect(resolveSeed(undefined, { SPOTDESK_PAPER_SEED: "" })).toBe("spotdesk");
    expect(resolveSeed(undefined, {})).toBe("spotdesk");
    expect(DEFAULT_SEED).toBe("spotdesk");
  });

  it("an unknown pair is bad input from paper; every pair's currencies are paper's", () => {
    let error: unknown;
    try {
      paperPair("DOGE/USDT");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExchangeError);
    expect((error as ExchangeError).exchange).toBe("paper");
    expect((error as ExchangeError).kind).toBe("bad-input");
    expect(PAPER_CURRENCIES).toEqual(["BTC", "ETH", "SOL", "USDT"]);
    expect(PAPER_PAIRS.map((p) => `${p.base}/${p.quote}`)).toEqual(PAPER_PAIRS.map((p) => p.pair));
    expect(paperPair("eth/btc").pair).toBe("ETH/BTC");
  });
});
