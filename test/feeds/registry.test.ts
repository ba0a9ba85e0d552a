import { describe, expect, it } from "vitest";
import { CATALOGUE } from "../../exchanges/catalogue.js";
import { nodeFeedOptions } from "../../exchanges/feed-node.js";
import { createFeed, feedExchanges } from "../../exchanges/feeds.js";
import { ExchangeError } from "../../lib/errors.js";

describe("feed registry", () => {
  it("builds a feed that has not started: state closed, depth from the catalogue (exchanges/<id>/info.ts) unless given (docs/exchange-rules.md#states 'Default depth is 20 or 50')", () => {
    const bybit = createFeed("bybit", "BTC/USDT", { ...nodeFeedOptions() }) as unknown as {
      depth: number;
      state: string;
    };
    expect(bybit.state).toBe("closed");
    expect(bybit.depth).toBe(50);
    expect((createFeed("gate", "BTC/USDT", {}) as unknown as { depth: number }).depth).toBe(20);
    expect((createFeed("okx", "BTC/USDT", { depth: 5 }) as unknown as { depth: number }).depth).toBe(5);
  });

  it("rejects an unknown exchange and a malformed pair with bad-input errors", () => {
    expect(() => createFeed("nasdaq", "BTC/USDT", {})).toThrow(ExchangeError);
    expect(() => createFeed("bybit", "BTCUSDT", {})).toThrow(/BASE\/QUOTE/);
  });

  it("has a feed for every exchange of the catalogue (exchanges/<id>/info.ts), paper included", () => {
    expect([...feedExchanges()].sort()).toEqual(Object.keys(CATALOGUE).sort());
    expect(feedExchanges()).toHaveLength(16);
  });
});

describe("paper through the registry", () => {
  it("createFeed('paper', …) delegates to createPaperFeed synchronously, no preload needed", () => {
    const feed = createFeed("paper", "BTC/USDT", { dataDir: `/tmp/spotdesk-feed-registry-${process.pid}` });
    expect(feed.exchange).toBe("paper");
    expect(feed.pair).toBe("BTC/USDT");
    feed.stop();
  });
});
