/**
 * The runner's safety net (docs/bots.md#safety-net): quotes pulled when the book is not live for
 * `pullAfter`, placed again once it is; the exchange-side countdown armed on paper, left armed by a
 * runner that dies and disarmed by a clean stop; a stop that cannot cancel names what it left open.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BybitMock as BybitRest, startBybitMock } from "../../exchanges/bybit/mock.js";
import { BybitMock as BybitSocket } from "../../exchanges/bybit/ws-mock.js";
import { testOptions } from "../../exchanges/core/testing/feed-helpers.js";
import { createFeed } from "../../exchanges/feeds.js";
import { GATE_KEY, GATE_SECRET, startGateMock } from "../../exchanges/gate/mock.js";
import { readPaperAccount } from "../../exchanges/paper/store.js";
import { createExchange } from "../../exchanges/registry.js";
import type { BookFeed, ExchangeAdapter } from "../../exchanges/types.js";
import { ExchangeError } from "../../lib/errors.js";
import { botTag } from "../../server/bots/client-ids.js";
import { AccountLedger, BotRunner, type BotState } from "../../server/bots/runner.js";
import { OrdersLeftOpenError } from "../../server/bots/safety.js";
import { paperOn } from "../paper/helpers.js";
import { startBot, T0, TestClock, tempDataDir, waitFor } from "./helpers.js";

const GRID = { pair: "BTC/USDT", quote: 400, percent: 2, profit: 1, RF: 0.5, size: 4 };
const CREDENTIALS = { api: "bot-key", secret: "bot-secret" };

describe("a feed that goes quiet (bybit's REST and socket mocks)", () => {
  let rest: BybitRest;
  let socket: BybitSocket;
  let feed: BookFeed;
  let adapter: ExchangeAdapter;
  let runner: BotRunner | undefined;

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
    // a book unchanged for 300 ms is stale: the feed renews its socket, which the test can stall
    feed = createFeed("bybit", "BTC/USDT", testOptions(socket.url, { staleAfterMs: 300 }).options);
    feed.start();
    adapter = createExchange("bybit", CREDENTIALS, { baseUrl: rest.url, timeoutMs: 1000 });
  });

  afterEach(async () => {
    await runner?.stop().catch(() => undefined);
    feed.stop();
    await adapter.close();
    await rest.close();
    await socket.close();
  });

  it("cancels its orders once the book has not been live for pullAfter, says so, and quotes again once live", async () => {
    const states: BotState[] = [];
    const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
    const pullAfterMs = 1000;
    runner = new BotRunner({
      botId: "quiet-grid",
      type: "grid-bot",
      setup: GRID,
      exchange: "bybit",
      adapter,
      feed,
      decimals: { price: 2, amount: 6 },
      account: "bybit:main",
      ledger: new AccountLedger(),
      syncIntervalMs: 300,
      pullAfterMs,
      logger: { warn: (message, fields) => warnings.push({ message, ...(fields ? { fields } : {}) }) },
      onState: (state) => {
        states.push(JSON.parse(JSON.stringify(state)) as BotState);
      },
    });
    const resting = () =>
      [...rest.orders.values()].filter(
        (o) => o.orderStatus === "New" && o.orderLinkId.startsWith(botTag("quiet-grid")),
      );
    runner.start();
    await waitFor(() => resting().length === 4, "the grid on the book", 10_000);
    // the feed goes quiet: its next socket gets no snapshot, so the book stays not live
    socket.server.stalled = true;
    const pulled = await waitFor(
      () => warnings.find((w) => w.message === "bot quotes pulled: the book is not live"),
      "the quotes pulled",
      10_000,
    );
    expect(resting()).toEqual([]);
    // pulled after pullAfter of blindness, within pullAfter + 2 s of it
    expect(Number(pulled?.fields?.blindForMs)).toBeGreaterThanOrEqual(pullAfterMs);
    expect(Number(pulled?.fields?.blindForMs)).toBeLessThan(pullAfterMs + 2000);
    const blind = await waitFor(() => states.findLast((s) => s.pulledAt !== undefined), "the pulled state");
    expect(blind).toMatchObject({ status: "paused", onBuy: 0, onSell: 0 });
    expect(blind.reason).toMatch(/^waiting for a live order book \(feed (stale|connecting|resyncing)\)$/);
    expect(blind.note).toBe("quotes pulled: the book was not live for 1 s; quoting again once it is");
    // live again: the grid's slots are quoted again, and the state no longer says pulled
    socket.server.stalled = false;
    void feed.refresh();
    await waitFor(() => resting().length === 4, "the grid quoted again", 10_000);
    await waitFor(() => states.at(-1)?.status === "running" && states.at(-1)?.pulledAt === undefined, "running");
  });
});

describe("the exchange-side countdown on paper", () => {
  it("is armed for the pair while the bot runs; a runner that dies leaves it, and it empties the book", async () => {
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const bot = startBot("grid-bot", GRID, { clock, dataDir, botId: "armed", extra: { countdownSeconds: 60 } });
    await waitFor(() => bot.runner.openOrders.length === 4, "the grid");
    const paper = paperOn(dataDir, clock, { account: "bots" });
    expect(readPaperAccount(paper.store.file)?.countdowns).toEqual({ "BTC/USDT": T0 + 60_000 });
    // the process "dies": its loop ends without a word to the exchange, nobody arms the countdown again
    await bot.runner.stop();
    expect(await paper.fetchOpenOrders("BTC/USDT")).toHaveLength(4);
    clock.ms = T0 + 60_000;
    expect(await paper.fetchOpenOrders("BTC/USDT")).toEqual([]);
  });

  it("a clean stop cancels the orders and disarms the countdown (a later manual order stays)", async () => {
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const bot = startBot("grid-bot", GRID, { clock, dataDir, botId: "clean", extra: { countdownSeconds: 60 } });
    await waitFor(() => bot.runner.openOrders.length === 4, "the grid");
    await bot.runner.stop({ cancelOrders: true });
    const paper = paperOn(dataDir, clock, { account: "bots" });
    expect(readPaperAccount(paper.store.file)?.countdowns).toBeUndefined();
    expect(await paper.fetchOpenOrders("BTC/USDT")).toEqual([]);
  });

  it("countdownSeconds 0 arms nothing", async () => {
    // (the helper's default is 0)
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const bot = startBot("grid-bot", GRID, { clock, dataDir, extra: {} });
    await waitFor(() => bot.runner.openOrders.length === 4, "the grid");
    expect(readPaperAccount(paperOn(dataDir, clock, { account: "bots" }).store.file)?.countdowns).toBeUndefined();
  });
});

describe("the exchange-side countdown on gate (its signature-checking mock)", () => {
  it("armed for the pair at start, even before the book is live; disarmed by a clean stop", async () => {
    const mock = await startGateMock();
    const adapter = createExchange("gate", { api: GATE_KEY, secret: GATE_SECRET }, { baseUrl: mock.url });
    const blind = createFeed("gate", "BTC/USDT", testOptions("ws://127.0.0.1:9", { staleAfterMs: 0 }).options);
    const runner = new BotRunner({
      botId: "gate-grid",
      type: "grid-bot",
      setup: GRID,
      exchange: "gate",
      adapter,
      feed: blind,
      decimals: { price: 2, amount: 6 },
      account: "gate:main",
      onState: () => {},
    });
    try {
      blind.start();
      runner.start();
      await waitFor(() => mock.countdowns.has("BTC_USDT"), "the countdown armed");
      expect(mock.accepted).toContain("POST /api/v4/spot/countdown_cancel_all");
      const armed = mock.server.requests.find((r) => r.path === "/api/v4/spot/countdown_cancel_all")!;
      expect(JSON.parse(armed.body)).toEqual({ timeout: 60, currency_pair: "BTC_USDT" });
      await runner.stop({ cancelOrders: true });
      expect(mock.countdowns.size).toBe(0);
      expect(JSON.parse(mock.server.requests.at(-1)!.body)).toEqual({ timeout: 0, currency_pair: "BTC_USDT" });
    } finally {
      await runner.stop().catch(() => undefined);
      blind.stop();
      await adapter.close();
      await mock.close();
    }
  });
});

describe("a stop that cannot cancel", () => {
  it("cancels what it can and names each order left open: exchange, pair, id, side, price", async () => {
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const paper = paperOn(dataDir, clock, { account: "bots" });
    let refuse = false;
    let cancels = 0;
    // once `refuse` is set the batch cancel times out (the stop then cancels one by one) and every
    // second single cancel times out too (the order stays open)
    const flaky = new Proxy(paper, {
      get(target, name, receiver) {
        if (name === "cancelBatch" && refuse)
          return async () => {
            throw new ExchangeError("paper", "request timed out", { kind: "network" });
          };
        if (name === "cancelOrder")
          return async (pair: string, id: string) => {
            if (refuse && cancels++ % 2 === 1)
              throw new ExchangeError("paper", "request timed out", { kind: "network" });
            return target.cancelOrder(pair, id);
          };
        const value = Reflect.get(target, name, receiver);
        return typeof value === "function" ? value.bind(target) : value;
      },
    }) as ExchangeAdapter;
    const bot = startBot("grid-bot", GRID, {
      clock,
      dataDir,
      botId: "stuck",
      adapter: flaky,
      extra: { countdownSeconds: 60 },
    });
    await waitFor(() => bot.runner.openOrders.length === 4, "the grid");
    refuse = true;
    const error = await bot.runner.stop({ cancelOrders: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OrdersLeftOpenError);
    const left = (error as OrdersLeftOpenError).orders;
    const open = await paper.fetchOpenOrders("BTC/USDT");
    expect(left.map((o) => o.id).sort()).toEqual(open.map((o) => o.id).sort());
    expect(left).toHaveLength(2);
    for (const o of left) {
      const order = open.find((x) => x.id === o.id)!;
      expect(o).toEqual({
        exchange: "paper",
        pair: "BTC/USDT",
        id: order.id,
        side: order.side,
        price: order.price,
        reason: "network: request timed out",
      });
      expect((error as Error).message).toContain(`paper BTC/USDT order ${order.id} ${order.side} @ ${order.price}`);
    }
    expect((error as Error).message).toContain("2 orders could not be cancelled and may still be open");
    // the countdown stays armed: the orders left open still leave the book on their own
    expect(readPaperAccount(paper.store.file)?.countdowns).toEqual({ "BTC/USDT": T0 + 60_000 });
  });
});
