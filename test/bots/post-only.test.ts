/**
 * docs/bots.md "Post-only quotes": a bot quotes post-only by default, in the exchange's documented
 * form (bybit's timeInForce PostOnly, through its mock); `postOnly: false` quotes plain limits; on an
 * exchange without a maker-only form (bitrue) a post-only bot stops with the reason before sending
 * anything, and one set to `postOnly: false` quotes plain limits there.
 */
import { afterEach, describe, expect, it } from "vitest";
import { BITRUE_KEY, BITRUE_SECRET, type BitrueMock, startBitrueMock } from "../../exchanges/bitrue/mock.js";
import { type BybitMock as BybitRest, startBybitMock } from "../../exchanges/bybit/mock.js";
import { BybitMock as BybitSocket } from "../../exchanges/bybit/ws-mock.js";
import { testOptions } from "../../exchanges/core/testing/feed-helpers.js";
import { createFeed } from "../../exchanges/feeds.js";
import { createExchange } from "../../exchanges/registry.js";
import type { BookFeed, ExchangeAdapter } from "../../exchanges/types.js";
import type { ExchangeId } from "../../lib/types.js";
import { AccountLedger, BotRunner, type BotState } from "../../server/bots/runner.js";
import { paperFeed, TestClock, tempDataDir, waitFor } from "./helpers.js";

const GRID = { pair: "BTC/USDT", quote: 400, percent: 2, profit: 1, RF: 0.5, size: 4 };

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
});

function run(exchange: ExchangeId, adapter: ExchangeAdapter, feed: BookFeed, setup: unknown) {
  const states: BotState[] = [];
  const runner = new BotRunner({
    botId: `grid-on-${exchange}`,
    type: "grid-bot",
    setup,
    exchange,
    adapter,
    feed,
    decimals: { price: 2, amount: 6 },
    account: `${exchange}:main`,
    ledger: new AccountLedger(),
    syncIntervalMs: 300,
    onState: (state) => {
      states.push(JSON.parse(JSON.stringify(state)) as BotState);
    },
  });
  cleanups.push(() => runner.stop().catch(() => undefined));
  runner.start();
  return { runner, states };
}

async function bybitBook(): Promise<{ rest: BybitRest; feed: BookFeed; adapter: ExchangeAdapter }> {
  const credentials = { api: "bot-key", secret: "bot-secret" };
  const rest = await startBybitMock(credentials);
  const socket = await BybitSocket.start();
  socket.truth.reset(
    [
      ["99.90", "1"],
      ["99.80", "2"],
    ],
    [
      ["100.10", "1"],
      ["100.20", "2"],
    ],
  );
  const feed = createFeed("bybit", "BTC/USDT", testOptions(socket.url, { staleAfterMs: 0 }).options);
  feed.start();
  const adapter = createExchange("bybit", credentials, { baseUrl: rest.url, timeoutMs: 2000 });
  cleanups.push(
    () => rest.close(),
    () => socket.close(),
    () => adapter.close(),
    () => feed.stop(),
  );
  return { rest, feed, adapter };
}

describe('bots quote post-only by default (docs/bots.md "Post-only quotes")', () => {
  it("a grid on bybit places every quote with timeInForce PostOnly", async () => {
    const { rest, feed, adapter } = await bybitBook();
    run("bybit", adapter, feed, GRID);
    const orders = await waitFor(() => rest.orders.size >= 4 && [...rest.orders.values()], "the grid's four quotes");
    expect(orders.map((o) => o.timeInForce)).toEqual(orders.map(() => "PostOnly"));
  });

  it("postOnly: false places plain GTC limits", async () => {
    const { rest, feed, adapter } = await bybitBook();
    run("bybit", adapter, feed, { ...GRID, postOnly: false });
    const orders = await waitFor(() => rest.orders.size >= 4 && [...rest.orders.values()], "the grid's four quotes");
    expect(orders.map((o) => o.timeInForce)).toEqual(orders.map(() => "GTC"));
  });
});

describe("on an exchange without a maker-only form (bitrue)", () => {
  async function bitrue(): Promise<{ mock: BitrueMock; adapter: ExchangeAdapter; feed: BookFeed }> {
    const mock = await startBitrueMock();
    const adapter = createExchange("bitrue", { api: BITRUE_KEY, secret: BITRUE_SECRET }, { baseUrl: mock.url });
    // any live book will do: the runner decides before it looks at the exchange
    const feed = paperFeed(tempDataDir(), new TestClock());
    feed.start();
    cleanups.push(
      () => mock.close(),
      () => adapter.close(),
      () => feed.stop(),
    );
    return { mock, adapter, feed };
  }

  it("a post-only bot stops with the reason and sends nothing", async () => {
    const { mock, adapter, feed } = await bitrue();
    const { states } = run("bitrue", adapter, feed, GRID);
    const stopped = await waitFor(() => states.find((s) => s.status === "stopped" && s.reason), "the stop");
    expect(stopped.reason).toBe(
      "bitrue has no post-only order type: this bot quotes post-only; set postOnly: false in its setup to quote plain limits on bitrue",
    );
    expect(mock.server.requests).toEqual([]);
  });

  it("with postOnly: false it quotes plain limits", async () => {
    const { mock, adapter, feed } = await bitrue();
    run("bitrue", adapter, feed, { ...GRID, postOnly: false });
    const creates = await waitFor(() => {
      const list = mock.server.requests.filter((r) => r.method === "POST" && r.path === "/api/v1/order");
      return list.length > 0 && list;
    }, "a quote");
    expect(creates[0]!.query + creates[0]!.body).toContain("type=LIMIT");
  });
});
