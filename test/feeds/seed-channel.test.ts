/**
 * The order book's channel per venue is the same on every surface (docs/exchange-rules.md#feeds):
 * each surface's feed is built by that surface's own code (the CLI's `book`, the TUI's services,
 * the server's relay, the dashboard's direct feed) and asked what it subscribes to, with nothing
 * sent anywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newContext } from "../../cli/context.js";
import { openBookFeed } from "../../cli/exchange.js";
import type { BookFeed } from "../../exchanges/types.js";
import { REAL_EXCHANGE_IDS, type RealExchangeId } from "../../lib/types.js";
import { openRelayFeed } from "../../server/live.js";
import { defaultServices } from "../../tui/services.js";
import { createDirectFeed } from "../../web/src/features/trading/book/direct-feed.js";

/** What each venue's book subscribes to, and the depth it keeps (docs/exchange-rules.md#feeds, docs/feeds.md). */
const CHANNELS: Record<RealExchangeId, { depth: number; subscribe: unknown[] }> = {
  bingx: { depth: 20, subscribe: [{ reqType: "sub", dataType: "BTC-USDT@depth20" }] },
  bitget: {
    depth: 20,
    subscribe: [{ op: "subscribe", args: [{ instType: "SPOT", channel: "books15", instId: "BTCUSDT" }] }],
  },
  bitrue: {
    depth: 20,
    subscribe: [{ event: "sub", params: { cb_id: "btcusdt", channel: "market_btcusdt_simple_depth_step0" } }],
  },
  bitmart: { depth: 20, subscribe: [{ op: "subscribe", args: ["spot/depth/increase100:BTC_USDT"] }] },
  // polled over REST: no socket, no subscription
  bitteam: { depth: 50, subscribe: [] },
  bybit: { depth: 50, subscribe: [{ op: "subscribe", args: ["orderbook.50.BTCUSDT"] }] },
  // the pair's numeric id comes from coinstore's symbol list; 4 stands in for it here
  coinstore: { depth: 20, subscribe: [{ op: "SUB", channel: ["4@depth@20"] }] },
  gate: {
    depth: 20,
    subscribe: [{ channel: "spot.order_book_update", event: "subscribe", payload: ["BTC_USDT", "100ms"] }],
  },
  htx: { depth: 20, subscribe: [{ sub: "market.btcusdt.mbp.20" }] },
  // kucoin subscribes after the server's welcome, to its topic
  kucoin: { depth: 50, subscribe: [{ topic: "/market/level2:BTC-USDT" }] },
  lbank: { depth: 50, subscribe: [{ action: "subscribe", subscribe: "depth", depth: "50", pair: "btc_usdt" }] },
  mexc: {
    depth: 20,
    subscribe: [{ method: "SUBSCRIPTION", params: ["spot@public.aggre.depth.v3.api.pb@100ms@BTCUSDT"] }],
  },
  okx: { depth: 50, subscribe: [{ op: "subscribe", args: [{ channel: "books", instId: "BTC-USDT" }] }] },
  probit: {
    depth: 50,
    subscribe: [
      { type: "subscribe", channel: "marketdata", market_id: "BTC-USDT", interval: 100, filter: ["order_books"] },
    ],
  },
  xt: { depth: 50, subscribe: [{ method: "subscribe", params: ["depth_update@btc_usdt"] }] },
};

type Surface = (exchange: RealExchangeId, pair: string) => Promise<BookFeed>;

const SURFACES: Record<string, Surface> = {
  cli: (exchange, pair) => openBookFeed(newContext({ exchange, account: "main" }, true, false), exchange, pair),
  tui: (exchange, pair) => defaultServices({}).openFeed(exchange, pair, undefined),
  server: async (exchange, pair) => openRelayFeed(exchange, pair, { now: Date.now }),
  web: (exchange, pair) => createDirectFeed(exchange, pair),
};

/** The frames the feed's subscribe step sends, without their request id or time (nothing leaves the process). */
function subscription(feed: BookFeed): { depth: number; subscribe: unknown[] } {
  const sent: unknown[] = [];
  const inner = feed as unknown as {
    depth: number;
    sendJson(message: unknown): void;
    loadSnapshot?: () => void;
    subscribe?: () => void;
    symbolId?: string;
    topic?: string;
  };
  if (feed.exchange === "coinstore") inner.symbolId = "4";
  inner.sendJson = (message) => {
    const { id: _id, time: _time, ...rest } = message as Record<string, unknown>;
    sent.push(rest);
  };
  inner.loadSnapshot = () => {};
  inner.subscribe?.();
  if (feed.exchange === "kucoin") sent.push({ topic: inner.topic });
  return { depth: inner.depth, subscribe: sent };
}

describe("the book's channel per venue, on the CLI, the TUI, the server and the web", () => {
  const saved = (globalThis as { window?: unknown }).window;
  beforeAll(() => {
    // the dashboard's relayed venues (kucoin's token, bitteam's polling) read the page's origin
    (globalThis as { window?: unknown }).window = { location: { origin: "http://127.0.0.1:9" } };
  });
  afterAll(() => {
    (globalThis as { window?: unknown }).window = saved;
  });

  it.each(REAL_EXCHANGE_IDS.map((id) => [id]))("%s", async (exchange) => {
    const seen: Record<string, unknown> = {};
    for (const [name, open] of Object.entries(SURFACES)) seen[name] = subscription(await open(exchange, "BTC/USDT"));
    expect(seen).toEqual({ cli: seen.cli, tui: seen.cli, server: seen.cli, web: seen.cli });
    expect(CHANNELS[exchange]).toEqual(seen.cli);
  });
});
