/**
 * The runner against an exchange mock (bybit's REST and public socket, exchanges/bybit/): errors and
 * time-outs for a while → the bot backs off (1 s doubling, docs/decisions.md#d25), shows the last error,
 * recovers, and the exchange ends with no duplicate and no orphan order; the book going stale
 * stops placements.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BybitMock as BybitRest, startBybitMock } from "../../exchanges/bybit/mock.js";
import { BybitMock as BybitSocket } from "../../exchanges/bybit/ws-mock.js";
import { testOptions } from "../../exchanges/core/testing/feed-helpers.js";
import { createFeed } from "../../exchanges/feeds.js";
import { createExchange } from "../../exchanges/registry.js";
import type { BookFeed, ExchangeAdapter } from "../../exchanges/types.js";
import { botTag } from "../../server/bots/client-ids.js";
import { AccountLedger, BotRunner, type BotState, backoffDelay } from "../../server/bots/runner.js";
import { waitFor } from "./helpers.js";

const CREDENTIALS = { api: "bot-key", secret: "bot-secret" };
const GRID = { pair: "BTC/USDT", quote: 400, percent: 2, profit: 1, RF: 0.5, size: 4 };

let rest: BybitRest;
let socket: BybitSocket;
let feed: BookFeed;
let adapter: ExchangeAdapter;
let runner: BotRunner | undefined;
const states: BotState[] = [];

beforeEach(async () => {
  rest = await startBybitMock(CREDENTIALS);
  socket = await BybitSocket.start();
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
  feed = createFeed("bybit", "BTC/USDT", testOptions(socket.url, { staleAfterMs: 0 }).options);
  feed.start();
  adapter = createExchange("bybit", CREDENTIALS, { baseUrl: rest.url, timeoutMs: 400 });
  states.length = 0;
});

afterEach(async () => {
  await runner?.stop().catch(() => undefined);
  runner = undefined;
  feed.stop();
  await adapter.close();
  await rest.close();
  await socket.close();
});

function start(botId = "grid-on-bybit"): BotRunner {
  runner = new BotRunner({
    botId,
    type: "grid-bot",
    setup: GRID,
    exchange: "bybit",
    adapter,
    feed,
    decimals: { price: 2, amount: 6 },
    account: "bybit:main",
    ledger: new AccountLedger(),
    syncIntervalMs: 300,
    onState: (state) => {
      states.push(JSON.parse(JSON.stringify(state)) as BotState);
    },
  });
  runner.start();
  return runner;
}

/** The mock's resting orders of this bot, by orderLinkId. */
function resting(botId = "grid-on-bybit") {
  return [...rest.orders.values()].filter((o) => o.orderStatus === "New" && o.orderLinkId.startsWith(botTag(botId)));
}

describe("exchange errors (docs/decisions.md#d25)", () => {
  it("backs off 1 s, 2 s, 4 s … to 60 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map(backoffDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000]);
  });

  it("errors for a while: backing-off with lastError, then recovery with exactly one order per slot", async () => {
    let failing = true;
    rest.server.intercept((req) =>
      failing && req.path.startsWith("/v5/order") ? { status: 503, body: "service unavailable" } : undefined,
    );
    start();
    const backing = await waitFor(() => states.find((s) => s.status === "backing-off"), "backing off");
    expect(backing.lastError).toMatch(/^ExchangeId: bybit, msg: /);
    await new Promise((r) => setTimeout(r, 2500)); // attempts at 0 s, 1 s, 3 s: two or three by now
    const attempts = rest.server.requests.filter((r) => r.path.startsWith("/v5/order")).length;
    expect(attempts).toBeGreaterThanOrEqual(2);
    expect(attempts).toBeLessThanOrEqual(4); // backing off, not hammering
    failing = false;
    rest.server.intercept(undefined);
    await waitFor(
      () => states.at(-1)?.status === "running" && states.at(-1)?.onBuy === 2 && states.at(-1)?.onSell === 2,
      "recovery",
      10_000,
    );
    const open = resting();
    expect(open).toHaveLength(4);
    expect(new Set(open.map((o) => o.orderLinkId.slice(8, 12))).size).toBe(4); // one order per slot
    expect(states.at(-1)!.lastError).toBe(backing.lastError); // the last error stays visible
  });

  it("a create that times out is looked up by its client order id, never sent twice", async () => {
    rest.delayNextCreateMs = 1000; // longer than the adapter's 400 ms time-out
    start();
    await waitFor(() => states.at(-1)?.onBuy === 2 && states.at(-1)?.onSell === 2, "the grid", 10_000);
    await new Promise((r) => setTimeout(r, 1200));
    const creates = rest.server.requests.filter((r) => r.path === "/v5/order/create");
    const ids = creates.map((r) => (JSON.parse(r.body) as { orderLinkId: string }).orderLinkId);
    expect(resting()).toHaveLength(4);
    expect([...rest.orders.values()]).toHaveLength(4); // nothing extra was ever created
    expect(ids).toHaveLength(4); // the timed-out create was found by its id, not sent again
    expect(new Set(ids).size).toBe(4);
  });

  it("killed mid-replacement and restarted from its stored state: no duplicate, no orphan", async () => {
    const a = start("grid-restart");
    await waitFor(() => states.at(-1)?.onBuy === 2 && states.at(-1)?.onSell === 2, "the grid");
    await a.stop();
    // a Buy fills on the exchange; the process dies before it sees it; one create of a counter
    // order from a previous life landed but was never recorded (its answer was lost)
    const buy = resting("grid-restart").find((o) => o.side === "Buy")!;
    buy.orderStatus = "Filled";
    buy.cumExecQty = buy.qty;
    const stored = JSON.parse(JSON.stringify(states.at(-1))) as Record<string, unknown>;
    runner = new BotRunner({
      botId: "grid-restart",
      type: "grid-bot",
      setup: GRID,
      exchange: "bybit",
      adapter,
      feed,
      decimals: { price: 2, amount: 6 },
      account: "bybit:main",
      state: stored,
      syncIntervalMs: 300,
      onState: (state) => {
        states.push(JSON.parse(JSON.stringify(state)) as BotState);
      },
    });
    runner.start();
    await waitFor(
      () =>
        resting("grid-restart").length === 4 && resting("grid-restart").filter((o) => o.side === "Sell").length === 3,
      "the counter Sell",
      10_000,
    );
    await new Promise((r) => setTimeout(r, 800));
    const open = resting("grid-restart");
    expect(open).toHaveLength(4);
    expect(new Set(open.map((o) => o.orderLinkId.slice(8, 12))).size).toBe(4);
    // the counter Sell: same amount at the Buy's price x 1.01
    expect(
      open.some((o) => o.side === "Sell" && o.qty === buy.qty && o.price === (Number(buy.price) * 1.01).toFixed(2)),
    ).toBe(true);
    // remove: everything of the bot is cancelled, confirmed
    await runner.stop({ cancelOrders: true });
    expect(resting("grid-restart")).toEqual([]);
  });

  it("places nothing while the book is not live (the socket never answers)", async () => {
    socket.server.stalled = true;
    feed.stop();
    feed = createFeed("bybit", "BTC/USDT", testOptions(socket.url, { staleAfterMs: 0 }).options);
    feed.start();
    start();
    await waitFor(() => states.at(-1)?.status === "paused", "paused");
    expect(states.at(-1)!.reason).toMatch(/waiting for a live order book/);
    expect(rest.server.requests.filter((r) => r.path === "/v5/order/create")).toEqual([]);
    expect(resting()).toEqual([]);
  });
});

describe("spread decompression against a scripted book (docs/decisions.md#d23)", () => {
  it("quotes one step inside a wide spread, keeps one order per side, and refills aged orders", async () => {
    socket.truth.reset([["99.00", "1"]], [["101.00", "1"]]); // 2 % spread
    feed.stop();
    feed = createFeed("bybit", "BTC/USDT", testOptions(socket.url, { staleAfterMs: 0 }).options);
    feed.start();
    runner = new BotRunner({
      botId: "sd",
      type: "spread-decompression-bot",
      setup: {
        pair: "BTC/USDT",
        quoteUp: 10,
        quoteDown: 20,
        minQuote: 2,
        delay: 0,
        refillPeriod: 1,
        acceptableSpread: 1.5,
      },
      exchange: "bybit",
      adapter,
      feed,
      decimals: { price: 2, amount: 6 },
      account: "bybit:main",
      syncIntervalMs: 300,
      onState: (state) => {
        states.push(JSON.parse(JSON.stringify(state)) as BotState);
      },
    });
    runner.start();
    await waitFor(() => resting("sd").length === 2, "both sides");
    const first = resting("sd");
    expect(first.map((o) => [o.side, o.price, o.qty]).sort()).toEqual([
      ["Buy", "99.01", "0.100999"],
      ["Sell", "100.99", "0.198039"],
    ]);
    // refillPeriod 1 s with the book unchanged: both stay where they are (same ids, their queue place)
    const refreshed = () =>
      (states.at(-1)?.runner?.strategy as { refreshed?: Record<string, number> } | undefined)?.refreshed ?? {};
    await waitFor(() => first.every((o) => refreshed()[o.orderId] !== undefined), "a refill that keeps both", 5000);
    expect(
      resting("sd")
        .map((o) => o.orderId)
        .sort(),
    ).toEqual(first.map((o) => o.orderId).sort());
    expect([...rest.orders.values()].filter((o) => o.orderStatus === "Cancelled")).toEqual([]);
    // the spread widens (98.50 / 101.50): at the next refill both move one step inside it, never more than one per side
    socket.truth.reset([["98.50", "1"]], [["101.50", "1"]]);
    socket.delta(
      "orderbook.50.BTCUSDT",
      [
        ["99.00", "0"],
        ["98.50", "1"],
      ],
      [
        ["101.00", "0"],
        ["101.50", "1"],
      ],
    );
    await waitFor(
      () => resting("sd").length === 2 && resting("sd").every((o) => !first.some((f) => f.orderId === o.orderId)),
      "the refill",
      5000,
    );
    expect(
      resting("sd")
        .map((o) => [o.side, o.price])
        .sort(),
    ).toEqual([
      ["Buy", "98.51"],
      ["Sell", "101.49"],
    ]);
    expect([...rest.orders.values()].filter((o) => o.orderStatus === "Cancelled").length).toBeGreaterThanOrEqual(2);
    expect(states.at(-1)).toMatchObject({ dailyQuoteLeft: { Buy: "100", Sell: "100" } });
    // the spread narrows to 1 %: nothing new is placed once the refilled orders are gone
    socket.truth.reset([["99.50", "1"]], [["100.50", "1"]]);
    socket.delta(
      "orderbook.50.BTCUSDT",
      [
        ["98.50", "0"],
        ["99.50", "1"],
      ],
      [
        ["101.50", "0"],
        ["100.50", "1"],
      ],
    );
    await waitFor(() => resting("sd").length === 0, "no order at an acceptable spread", 5000);
  });
});

describe('remove cancels by batch where the venue has one (docs/bots.md "The runner")', () => {
  it("20 orders on bybit (batches of 10): two cancel-batch calls, no single cancel, nothing left", async () => {
    runner = new BotRunner({
      botId: "ladder",
      type: "liquidity-arranger-bot",
      setup: { pair: "BTC/USDT", ordersAmount: 20, side: "Buy", P0: 50, P1: 88, Q0: 5, Q1: 5, postOnly: false },
      exchange: "bybit",
      adapter,
      feed,
      decimals: { price: 2, amount: 6 },
      account: "bybit:main",
      syncIntervalMs: 300,
      onState: () => undefined,
    });
    runner.start();
    await waitFor(() => resting("ladder").length === 20, "the 20 orders");
    await runner.stop({ cancelOrders: true });
    expect(resting("ladder")).toEqual([]);
    const paths = rest.server.requests.map((r) => r.path);
    expect(paths.filter((p) => p === "/v5/order/cancel-batch")).toHaveLength(2);
    expect(paths.filter((p) => p === "/v5/order/cancel")).toEqual([]);
  });
});
