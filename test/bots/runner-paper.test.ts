/**
 * The runner on paper with a pinned clock and seed (docs/decisions.md#d21–#d25, docs/bots.md): the orders it
 * places for a given book, the reaction to a fill, restarts that adopt instead of placing again,
 * no placement without a live book, the open-orders limit across bots, remove cancels everything.
 */
import { describe, expect, it } from "vitest";
import type { ExchangeAdapter } from "../../exchanges/types.js";
import { Decimal } from "../../lib/decimal.js";
import { botTag, clientIdRule, parseBotClientOrderId } from "../../server/bots/client-ids.js";
import { AccountLedger } from "../../server/bots/runner.js";
import { paperOn } from "../paper/helpers.js";
import { bookAt, startBot, T0, TestClock, tempDataDir, waitFor } from "./helpers.js";

const floatingSetup = (main: Record<string, unknown> = {}, modules: Record<string, unknown> = {}) => ({
  main: { pair: "BTC/USDT", side: "Buy", quote: 100, percent: 1, marginOfError: 0.1, ...main },
  modules,
});

/** docs/decisions.md#d21 target for the book at `ms`: mid x (1 - p/100), truncated to 2 decimals; amount q / target to 6. */
function floatingTarget(ms: number, percent: number, quote: number) {
  const book = bookAt(ms);
  const mid = new Decimal(book.bids[0]![0]).plus(book.asks[0]![0]).dividedBy(2);
  const price = mid
    .times(new Decimal(1).minus(new Decimal(percent).dividedBy(100)))
    .decimalPlaces(2, Decimal.ROUND_DOWN);
  return {
    price: price.toFixed(),
    amount: new Decimal(quote).dividedBy(price).decimalPlaces(6, Decimal.ROUND_DOWN).toFixed(),
  };
}

describe("floating bot on paper (docs/decisions.md#d21, #d25)", () => {
  it("places one Buy at mid x (1 - p/100) with a client order id carrying its tag, slot 0 and generation 1", async () => {
    const clock = new TestClock(T0);
    const bot = startBot("floating-bot", floatingSetup(), { clock });
    const order = await waitFor(
      () => bot.last()?.order as { price: string; amount: string; clientOrderId: string } | undefined,
      "the order",
    );
    expect({ price: order.price, amount: order.amount }).toEqual(floatingTarget(T0, 1, 100));
    expect(parseBotClientOrderId(order.clientOrderId, clientIdRule("paper"))).toEqual({
      tag: botTag("bot-1"),
      slot: 0,
      generation: 1,
    });
    const open = await bot.adapter.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => [o.side, o.price, o.amount])).toEqual([["Buy", order.price, order.amount]]);
    expect(bot.last().status).toBe("running");
  });

  it("replaces the order when the target drifts beyond marginOfError, only after the cancel, after the 1 s delay", async () => {
    const clock = new TestClock(T0);
    const bot = startBot("floating-bot", floatingSetup({ marginOfError: 0 }), { clock });
    const first = await waitFor(
      () => bot.last()?.order as { id: string; price: string } | undefined,
      "the first order",
    );
    // find a later second whose target differs
    let later = T0 + 1000;
    while (floatingTarget(later, 1, 100).price === first.price) later += 1000;
    clock.ms = later;
    await waitFor(() => bot.last()?.order === null, "the cancel");
    const afterCancel = await bot.adapter.fetchOpenOrders("BTC/USDT");
    expect(afterCancel).toEqual([]); // cancelled, nothing placed yet: the delay runs on the pinned clock
    await new Promise((r) => setTimeout(r, 150)); // the runner settles on its delay before the clock moves
    clock.ms = later + 1000;
    const second = await waitFor(() => {
      const o = bot.last()?.order as { id: string; price: string } | null | undefined;
      return o && o.id !== first.id ? o : undefined;
    }, "the replacement");
    expect(second.price).toBe(floatingTarget(later + 1000, 1, 100).price);
    const open = await bot.adapter.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.id)).toEqual([second.id]);
    expect((await bot.adapter.fetchOrder("BTC/USDT", first.id)).status).toBe("canceled");
  });

  it("price-bounds: a target outside is never placed and the state says why", async () => {
    const clock = new TestClock(T0);
    const bot = startBot("floating-bot", floatingSetup({}, { "price-bounds": { min: 1, max: 2 } }), { clock });
    await waitFor(() => bot.states.some((s) => typeof s.note === "string"), "the note");
    expect(bot.last().note).toBe("target above the price bounds [1, 2]: nothing placed");
    expect(await bot.adapter.fetchOpenOrders("BTC/USDT")).toEqual([]);
  });

  it("places nothing while the book is not live (docs/decisions.md#d25), then places once it is", async () => {
    const clock = new TestClock(T0);
    const bot = startBot("floating-bot", floatingSetup(), { clock, startFeed: false });
    await waitFor(() => bot.last()?.status === "paused", "paused");
    expect(bot.last().reason).toMatch(/waiting for a live order book \(feed connecting\)/);
    expect(await bot.adapter.fetchOpenOrders("BTC/USDT")).toEqual([]);
    bot.feed.start();
    await waitFor(() => bot.last()?.order, "the order once live");
  });

  it("a filled order is replaced: the market crosses the Buy, the bot places a new one", async () => {
    const clock = new TestClock(T0);
    const bot = startBot("floating-bot", floatingSetup({ percent: 0.01, marginOfError: 1 }), { clock });
    const first = await waitFor(() => bot.last()?.order as { id: string; price: string } | undefined, "the order");
    // the first second at which the synthetic best ask reaches the Buy's price
    let t = T0 + 1000;
    while (new Decimal(bookAt(t).asks[0]![0]).gt(first.price)) t += 1000;
    clock.ms = t + 1000; // the fill happens at t; the 1 s replacement delay has passed too
    const filled = await bot.adapter.fetchOrder("BTC/USDT", first.id);
    expect(filled.status).toBe("closed");
    await waitFor(() => bot.last()?.order === null, "the fill seen by the bot");
    await new Promise((r) => setTimeout(r, 150));
    clock.ms += 1000; // docs/decisions.md#d21's default delay before the replacement
    const next = await waitFor(() => {
      const o = bot.last()?.order as { id: string } | null | undefined;
      return o && o.id !== first.id ? o : undefined;
    }, "the replacement");
    expect((await bot.adapter.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([next.id]);
  });
});

describe("grid bot on paper (docs/decisions.md#d22)", () => {
  it("places size/2 Buys and size/2 Sells; a filled Buy becomes a Sell at x(1 + profit/100)", async () => {
    const clock = new TestClock(T0);
    const bot = startBot(
      "grid-bot",
      { pair: "BTC/USDT", quote: 1000, percent: 1, profit: 0.5, RF: 0.5, size: 20 },
      { clock },
    );
    await waitFor(() => bot.last()?.onBuy === 10 && bot.last()?.onSell === 10, "the grid");
    const open = await bot.adapter.fetchOpenOrders("BTC/USDT");
    expect(open).toHaveLength(20);
    const buys = open.filter((o) => o.side === "Buy").sort((a, b) => Number(b.price) - Number(a.price));
    const top = buys[0]!;
    let t = T0 + 1000;
    while (new Decimal(bookAt(t).asks[0]![0]).gt(top.price)) t += 1000;
    clock.ms = t + 1000;
    const expectedSell = new Decimal(top.price).times(1.005).decimalPlaces(2, Decimal.ROUND_DOWN).toFixed();
    await waitFor(async () => {
      const now = await bot.adapter.fetchOpenOrders("BTC/USDT");
      return now.some((o) => o.side === "Sell" && o.price === expectedSell && o.amount === top.amount);
    }, "the Sell that replaces the filled Buy");
    expect((await bot.adapter.fetchOrder("BTC/USDT", top.id)).status).toBe("closed");
  });
});

describe("liquidity arranger on paper (docs/decisions.md#d24)", () => {
  it("places its ladder below the mid and leaves the slots that would cross waiting", async () => {
    const clock = new TestClock(T0);
    const book = bookAt(T0);
    const ask = new Decimal(book.asks[0]![0]);
    const bot = startBot(
      "liquidity-arranger-bot",
      {
        pair: "BTC/USDT",
        side: "Buy",
        ordersAmount: 4,
        P0: ask.minus(300).toNumber(),
        P1: ask.plus(300).toNumber(),
        Q0: 20,
        Q1: 20,
      },
      { clock },
    );
    await waitFor(() => bot.last()?.onBuy === 2, "two Buys");
    const open = await bot.adapter.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.price).sort()).toEqual([ask.minus(300).toFixed(), ask.minus(100).toFixed()]);
    expect(bot.last().note).toMatch(/2 slots wait/);
  });
});

describe("safety (docs/decisions.md#d25)", () => {
  it("a restarted runner with no memory adopts its open orders instead of placing them again", async () => {
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const a = startBot(
      "grid-bot",
      { pair: "BTC/USDT", quote: 400, percent: 1, size: 4 },
      { clock, dataDir, botId: "g" },
    );
    await waitFor(() => a.last()?.onBuy === 2 && a.last()?.onSell === 2, "the grid");
    await a.runner.stop();
    const b = startBot(
      "grid-bot",
      { pair: "BTC/USDT", quote: 400, percent: 1, size: 4 },
      { clock, dataDir, botId: "g" },
    );
    await waitFor(() => b.last()?.onBuy === 2 && b.last()?.onSell === 2, "adoption");
    await new Promise((r) => setTimeout(r, 300));
    expect(await b.adapter.fetchOpenOrders("BTC/USDT")).toHaveLength(4);
    expect(b.runner.openOrders.map((o) => o.slot).sort()).toEqual([0, 1, 2, 3]);
  });

  it("killed in the middle of a replacement (cancel done, create sent, answer lost) and restarted: no duplicate", async () => {
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const paper = paperOn(dataDir, clock, { account: "bots" });
    let creates = 0;
    let dead = false;
    const never = new Promise<never>(() => {});
    // the first process: its second create reaches the exchange, then the process "dies"
    const dying: ExchangeAdapter = {
      ...paper,
      id: "paper",
      createOrder: async (request) => {
        if (dead) return never;
        const order = await paper.createOrder(request);
        if (++creates === 2) {
          dead = true;
          return never;
        }
        return order;
      },
      cancelOrder: (pair, id) => (dead ? never : paper.cancelOrder(pair, id)),
      fetchOrder: (pair, id) => (dead ? never : paper.fetchOrder(pair, id)),
      fetchOpenOrders: (pair) => (dead ? never : paper.fetchOpenOrders(pair)),
      createBatch: paper.createBatch.bind(paper),
      cancelBatch: paper.cancelBatch.bind(paper),
      cancelAll: paper.cancelAll.bind(paper),
      fetchBalances: paper.fetchBalances.bind(paper),
      fetchPairs: paper.fetchPairs.bind(paper),
      findOrderByClientOrderId: (pair, id) => (dead ? never : paper.findOrderByClientOrderId(pair, id)),
      close: async () => {},
    };
    const a = startBot("floating-bot", floatingSetup({ marginOfError: 0 }), {
      clock,
      dataDir,
      botId: "f",
      adapter: dying,
    });
    const first = await waitFor(() => a.last()?.order as { id: string; price: string } | undefined, "the first order");
    let later = T0 + 1000;
    while (floatingTarget(later, 1, 100).price === first.price) later += 1000;
    clock.ms = later;
    await waitFor(() => a.last()?.order === null, "the cancel");
    clock.ms = later + 1000;
    await waitFor(() => dead, "the second create");
    const stored = JSON.parse(JSON.stringify(a.last())) as Record<string, unknown>;
    // the stored state still believes the first order is open; the exchange has only the second
    const onExchange = await paper.fetchOpenOrders("BTC/USDT");
    expect(onExchange).toHaveLength(1);
    expect(onExchange[0]!.id).not.toBe(first.id);
    const b = startBot("floating-bot", floatingSetup({ marginOfError: 1 }), {
      clock,
      dataDir,
      botId: "f",
      state: stored,
    });
    await waitFor(
      () => (b.last()?.order as { id: string } | undefined)?.id === onExchange[0]!.id,
      "adoption of the second order",
    );
    await new Promise((r) => setTimeout(r, 300));
    expect((await paper.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([onExchange[0]!.id]);
  });

  it("all bots of an account together keep the open-orders limit", async () => {
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const ledger = new AccountLedger();
    const setup = { pair: "BTC/USDT", quote: 400, percent: 1, size: 4 };
    const a = startBot("grid-bot", setup, { clock, dataDir, botId: "a", ledger, extra: { openOrdersLimit: 6 } });
    await waitFor(() => a.runner.openOrders.length === 4, "the first grid");
    const b = startBot("grid-bot", setup, { clock, dataDir, botId: "b", ledger, extra: { openOrdersLimit: 6 } });
    await waitFor(
      () => typeof b.last()?.note === "string" && b.last()!.note!.includes("open-orders limit"),
      "the limit note",
    );
    expect(await a.adapter.fetchOpenOrders("BTC/USDT")).toHaveLength(6);
    expect(b.runner.openOrders).toHaveLength(2);
  });

  it("stop with cancelOrders (remove, Ctrl-C) cancels every order of the bot and nothing else", async () => {
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const paper = paperOn(dataDir, clock, { account: "bots" });
    const bookNow = bookAt(T0);
    const manual = await paper.createOrder({
      pair: "BTC/USDT",
      side: "Buy",
      price: new Decimal(bookNow.bids[0]![0]).minus(500).toFixed(),
      amount: "0.001",
    });
    const bot = startBot("grid-bot", { pair: "BTC/USDT", quote: 400, percent: 1, size: 4 }, { clock, dataDir });
    await waitFor(() => bot.runner.openOrders.length === 4, "the grid");
    await bot.runner.stop({ cancelOrders: true });
    expect((await paper.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([manual.id]);
    expect(bot.last()).toMatchObject({ status: "stopped", onBuy: 0, onSell: 0 });
  });

  it("insufficient funds pauses that side only", async () => {
    const clock = new TestClock(T0);
    const dataDir = tempDataDir();
    const adapter = paperOn(dataDir, clock, { account: "poor", startingBalances: { USDT: "1000", BTC: "0" } });
    const bot = startBot(
      "grid-bot",
      { pair: "BTC/USDT", quote: 400, percent: 1, size: 4 },
      { clock, dataDir, adapter },
    );
    await waitFor(() => bot.last()?.status === "paused" && bot.last()?.onBuy === 2, "the Sell side paused");
    expect(bot.last()).toMatchObject({ pausedSides: ["Sell"], onSell: 0 });
    expect(bot.last().lastError).toMatch(/insufficient|Insufficient/);
  });
});
