/**
 * GET /candles/paper/{pair}: paper's own price history for the trading view's built-in chart
 * (docs/decisions.md#d13, docs/web-trading.md "Chart"), computed from the synthetic market at the server's
 * clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CANDLE_SAMPLES, MAX_CANDLES } from "../../exchanges/paper/candles.js";
import { paperPair, syntheticMarket } from "../../exchanges/paper/index.js";
import { resolveSeed } from "../../exchanges/paper/market.js";
import { Decimal } from "../../lib/decimal.js";
import { call, startTestServer, type TestServer } from "./helpers.js";

describe("GET /candles/paper/{pair} (docs/decisions.md#d13)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    // a fixed instant 2 min 30 s into a 5-minute candle
    server.clock.now = Date.UTC(2026, 0, 15, 12, 2, 30);
  });
  afterAll(async () => server?.cleanup());

  it("answers 5-minute candles of the synthetic mid, oldest first, the last one still open at the server's clock", async () => {
    const r = await call(server, "GET", "/candles/paper/BTC-USDT?limit=12");
    expect(r.status).toBe(200);
    const candles = r.body as { time: number; open: string; high: string; low: string; close: string }[];
    expect(candles).toHaveLength(12);
    const last = candles[11]!;
    expect(last.time).toBe(Date.UTC(2026, 0, 15, 12, 0, 0) / 1000);
    for (let i = 1; i < candles.length; i++) expect(candles[i]!.time - candles[i - 1]!.time).toBe(300);
    const market = syntheticMarket(paperPair("BTC/USDT"));
    const at = (ms: number) => market.price(market.midTicks(Math.floor(ms / 1000)));
    // open at the candle's first second, close at the server's clock
    expect(last.open).toBe(at(last.time * 1000));
    expect(last.close).toBe(at(server.clock.now));
    for (const c of candles) {
      expect(new Decimal(c.high).gte(Decimal.max(c.open, c.close))).toBe(true);
      expect(new Decimal(c.low).lte(Decimal.min(c.open, c.close))).toBe(true);
      expect(c.close).toMatch(/^\d+(\.\d+)?$/);
    }
    // a closed candle closes at its last second
    expect(candles[10]!.close).toBe(at((last.time - 1) * 1000));
  });

  it("takes another interval and accepts the pair as BTC%2FUSDT; the same clock gives the same candles", async () => {
    const a = await call(server, "GET", "/candles/paper/BTC%2FUSDT?interval=60&limit=3");
    const b = await call(server, "GET", "/candles/paper/BTC-USDT?interval=60&limit=3");
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    expect(a.body[2].time - a.body[1].time).toBe(60);
  });

  it("refuses another exchange, a bad interval or limit, and an unknown pair with 600 and the reason", async () => {
    const other = await call(server, "GET", "/candles/bybit/BTC-USDT");
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({ code: 600, msg: "No candle history for bybit: only paper's market keeps one" });
    const interval = await call(server, "GET", "/candles/paper/BTC-USDT?interval=0");
    expect(interval.body).toMatchObject({ code: 600, msg: "Invalid interval '0': seconds from 1 to 86400" });
    const limit = await call(server, "GET", "/candles/paper/BTC-USDT?limit=501");
    expect(limit.body).toMatchObject({ code: 600, msg: "Invalid limit '501': 1 to 500 candles" });
    const pair = await call(server, "GET", "/candles/paper/NOPE-USDT");
    expect(pair.status).toBe(400);
    expect(pair.body.code).toBe(600);
    expect(pair.body.msg).toMatch(/NOPE/);
  });

  it('500 day candles sample at most 500 × 400 mids, not one a second; asked again they come from the cache (docs/server-limits.md "Bounded work")', async () => {
    const market = syntheticMarket(paperPair("BTC/USDT"), resolveSeed());
    const path = "/candles/paper/BTC-USDT?interval=86400&limit=500";
    const started = server.clock.now;
    try {
      let before = market.midCalls;
      const first = await call(server, "GET", path);
      expect(first.status).toBe(200);
      expect(first.body).toHaveLength(500);
      const sampled = market.midCalls - before;
      expect(sampled).toBeGreaterThan(0);
      expect(sampled).toBeLessThanOrEqual(MAX_CANDLES * MAX_CANDLE_SAMPLES);
      // the same call at the same second: nothing sampled again
      before = market.midCalls;
      const again = await call(server, "GET", path);
      expect(again.body).toEqual(first.body);
      expect(market.midCalls - before).toBe(0);
      // a second later only the still open candle is sampled again; the 499 closed ones are the same
      server.clock.now += 1000;
      before = market.midCalls;
      const later = await call(server, "GET", path);
      expect(market.midCalls - before).toBeGreaterThan(0);
      expect(market.midCalls - before).toBeLessThanOrEqual(MAX_CANDLE_SAMPLES);
      expect(later.body.slice(0, 499)).toEqual(first.body.slice(0, 499));
    } finally {
      server.clock.now = started;
    }
  });
});
