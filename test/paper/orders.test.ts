import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { HISTORY_LIMIT, PaperEngine } from "../../exchanges/paper/engine.js";
import { paperStateFile } from "../../exchanges/paper/index.js";
import { newPaperState, type PaperOrderRecord, StateChanges } from "../../exchanges/paper/state.js";
import { Decimal } from "../../lib/decimal.js";
import { rejection } from "../rejection.js";
import {
  askLotsAtOrBelow,
  bidLotsAtOrAbove,
  firstBucketAfter,
  market,
  paperOn as paperWithFees,
  T0,
  TestClock,
  tempDataDir,
} from "./helpers.js";

const BTC = "BTC/USDT";

/** The matching rules on an account without fees (docs/paper-store.md "Fees": test/paper/fees.test.ts charges them). */
const paperOn = (...[dir, clock, options]: Parameters<typeof paperWithFees>) =>
  paperWithFees(dir, clock, { fees: { maker: "0", taker: "0" }, ...options });

describe("paper orders and balances", () => {
  it("lists its pairs sorted, each with the tick and lot of its decimals (docs/exchange-rules.md#pairs)", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    expect(await paper.fetchPairs()).toEqual([
      { pair: "BTC/USDT", tick: "0.01", lot: "0.000001" },
      { pair: "ETH/BTC", tick: "0.000001", lot: "0.0001" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.0001" },
      { pair: "SOL/USDT", tick: "0.001", lot: "0.01" },
    ]);
  });

  it("starts a new account with the documented demo balance", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    expect(await paper.fetchBalances()).toEqual({
      BTC: { f: "1", l: "0" },
      ETH: { f: "10", l: "0" },
      SOL: { f: "100", l: "0" },
      USDT: { f: "10000", l: "0" },
    });
  });

  it("a resting buy locks price × amount of the quote currency", async () => {
    const clock = new TestClock();
    const paper = paperOn(tempDataDir(), clock);
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.05", price: "60000" });
    expect(order).toMatchObject({
      pair: BTC,
      side: "Buy",
      price: "60000",
      amount: "0.05",
      filled: "0",
      status: "open",
      type: "limit",
    });
    expect(order.timestamp).toBe(T0);
    expect(order.clientOrderId).toMatch(/^[0-9a-f]{32}$/);
    const balances = await paper.fetchBalances();
    expect(balances.USDT).toEqual({ f: "7000", l: "3000" });
    expect(balances.BTC).toEqual({ f: "1", l: "0" });
  });

  it("gives the average price of what a taking order filled: the quote it spent over the amount", async () => {
    const clock = new TestClock();
    const paper = paperOn(tempDataDir(), clock);
    const m = market();
    const [[askTicks]] = m.levels("ask", clock.bucket, 1) as [[number, number]];
    const best = new Decimal(m.price(askTicks));
    // enough to walk several levels, inside the limit (the rest of the amount rests)
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.1", price: m.price(askTicks + 2000) });
    expect(new Decimal(order.filled).gt(0)).toBe(true);
    // free + locked of the quote fell by what the fills cost (the resting rest is only locked)
    const { f, l } = (await paper.fetchBalances()).USDT!;
    const spent = new Decimal(10000).minus(f).minus(l);
    expect(order.average).toBeDefined();
    const average = new Decimal(order.average!);
    expect(average.gte(best)).toBe(true);
    expect(average.lte(order.price)).toBe(true);
    // a buy pays its fee in the base: what left the quote balance is exactly what the fills cost
    expect(average.times(order.filled).minus(spent).abs().lte("1e-9")).toBe(true);
    // on an account without fees the fee reads 0, in the base the buy received
    expect(order.fee).toEqual({ amount: "0", currency: "BTC" });
    // a resting order that has not filled has no average
    const resting = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "30000" });
    expect(resting.average).toBeUndefined();
  });

  it("a resting sell locks the base amount", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    await paper.createOrder({ pair: "ETH/USDT", side: "Sell", amount: "2.5", price: "9000" });
    expect((await paper.fetchBalances()).ETH).toEqual({ f: "7.5", l: "2.5" });
  });

  it("keeps the caller's clientOrderId and finds the order by it", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const order = await paper.createOrder({
      pair: BTC,
      side: "Buy",
      amount: "0.01",
      price: "50000",
      clientOrderId: "abc123",
    });
    expect(order.clientOrderId).toBe("abc123");
    expect((await paper.fetchOrder(BTC, "abc123")).id).toBe(order.id);
    const duplicate = await rejection(
      paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "50000", clientOrderId: "abc123" }),
    );
    expect(duplicate.kind).toBe("invalid-order");
  });

  it("looks an order up by client order id only (docs/orders.md 'Client order ids')", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    expect(await paper.findOrderByClientOrderId(BTC, "retry-1")).toBeUndefined();
    const order = await paper.createOrder({
      pair: BTC,
      side: "Buy",
      amount: "0.01",
      price: "50000",
      clientOrderId: "retry-1",
    });
    expect(await paper.findOrderByClientOrderId(BTC, "retry-1")).toEqual(order);
    // an exchange id is not a client order id; another pair does not hold it
    expect(await paper.findOrderByClientOrderId(BTC, order.id)).toBeUndefined();
    expect(await paper.findOrderByClientOrderId("ETH/USDT", "retry-1")).toBeUndefined();
    await paper.cancelOrder(BTC, order.id);
    expect((await paper.findOrderByClientOrderId(BTC, "retry-1"))?.status).toBe("canceled");
    const bad = await rejection(paper.findOrderByClientOrderId(BTC, "has space"));
    expect(bad.kind).toBe("bad-input");
    expect(bad.detail).toContain("Invalid client order id 'has space'");
  });

  it("a marketable buy fills at once at the book's ask prices and refunds the difference to its limit", async () => {
    const clock = new TestClock();
    const m = market();
    const [[askTicks, askLots]] = m.levels("ask", clock.bucket, 1) as [[number, number]];
    const paper = paperOn(tempDataDir(), clock, { startingBalances: { USDT: "100000" } });
    const amount = m.amount(Math.min(askLots, 1000));
    const limit = m.price(askTicks + 500); // 5 USDT above the ask
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount, price: limit });
    expect(order.status).toBe("closed");
    expect(order.filled).toBe(amount);
    const balances = await paper.fetchBalances();
    expect(balances.BTC).toEqual({ f: amount, l: "0" });
    // paid the ask's price, not the limit
    expect(balances.USDT).toEqual({
      f: new Decimal(100000).minus(new Decimal(m.price(askTicks)).times(amount)).toFixed(),
      l: "0",
    });
  });

  it("partial fill: a marketable buy larger than the crossing liquidity fills that much and rests the rest", async () => {
    const clock = new TestClock();
    const m = market();
    const [[askTicks, askLots]] = m.levels("ask", clock.bucket, 1) as [[number, number]];
    const paper = paperOn(tempDataDir(), clock, { startingBalances: { USDT: "1000000" } });
    const price = m.price(askTicks); // crosses the best ask level only
    const amount = m.amount(askLots + 5000);
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount, price });
    expect(order.status).toBe("open");
    expect(order.filled).toBe(m.amount(askLots));
    const balances = await paper.fetchBalances();
    expect(balances.BTC!.f).toBe(m.amount(askLots));
    expect(balances.USDT!.l).toBe(new Decimal(price).times(m.amount(5000)).toFixed());
    expect(await paper.fetchOpenOrders(BTC)).toHaveLength(1);
  });

  it("the same synthetic lots never fill twice: a second marketable buy in the same second finds the level taken", async () => {
    const clock = new TestClock();
    const m = market();
    const [[askTicks, askLots]] = m.levels("ask", clock.bucket, 1) as [[number, number]];
    const paper = paperOn(tempDataDir(), clock, { startingBalances: { USDT: "1000000" } });
    const price = m.price(askTicks);
    await paper.createOrder({ pair: BTC, side: "Buy", amount: m.amount(askLots), price });
    const second = await paper.createOrder({ pair: BTC, side: "Buy", amount: m.amount(askLots), price });
    expect(second.filled).toBe("0");
    expect(second.status).toBe("open");
  });

  it("a resting buy fills at its own price when the market later falls through it (advance the clock)", async () => {
    const clock = new TestClock();
    const m = market();
    const limitTicks = m.bestBidTicks(clock.bucket);
    const paper = paperOn(tempDataDir(), clock);
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: m.price(limitTicks) });
    expect(order.status).toBe("open");
    const crossing = firstBucketAfter(clock.bucket, (b) => askLotsAtOrBelow(m, limitTicks, b) > 0);

    clock.toBucket(crossing - 1);
    expect((await paper.fetchOrder(BTC, order.id)).status).toBe("open");
    clock.toBucket(crossing);
    const filled = await paper.fetchOrder(BTC, order.id);
    expect(filled).toMatchObject({ status: "closed", filled: "0.001" });
    // maker fill at the order's price: the whole lock is spent, nothing refunded
    const cost = new Decimal(m.price(limitTicks)).times("0.001");
    expect(await paper.fetchBalances()).toMatchObject({
      BTC: { f: "1.001", l: "0" },
      USDT: { f: new Decimal(10000).minus(cost).toFixed(), l: "0" },
    });
    expect(await paper.fetchOpenOrders(BTC)).toEqual([]);
  });

  it("a resting sell fills when the market rises through it, and the quote is credited", async () => {
    const clock = new TestClock();
    const m = market("ETH/USDT");
    const limitTicks = m.bestAskTicks(clock.bucket);
    const paper = paperOn(tempDataDir(), clock);
    const order = await paper.createOrder({
      pair: "ETH/USDT",
      side: "Sell",
      amount: "0.05",
      price: m.price(limitTicks),
    });
    const crossing = firstBucketAfter(clock.bucket, (b) => bidLotsAtOrAbove(m, limitTicks, b) >= m.lotsOf("0.05"));
    clock.toBucket(crossing);
    expect((await paper.fetchOrder("ETH/USDT", order.id)).status).toBe("closed");
    const balances = await paper.fetchBalances();
    expect(balances.ETH).toEqual({ f: "9.95", l: "0" });
    expect(balances.USDT!.f).toBe(new Decimal(10000).plus(new Decimal(m.price(limitTicks)).times("0.05")).toFixed());
  });

  it("partial fill on replay: a resting sell larger than the bids that cross it fills that much and stays open", async () => {
    const clock = new TestClock();
    const m = market();
    const limitTicks = m.bestAskTicks(clock.bucket);
    const crossing = firstBucketAfter(clock.bucket, (b) => bidLotsAtOrAbove(m, limitTicks, b) > 0);
    const available = bidLotsAtOrAbove(m, limitTicks, crossing);
    const paper = paperOn(tempDataDir(), clock, { startingBalances: { BTC: "100" } });
    const order = await paper.createOrder({
      pair: BTC,
      side: "Sell",
      amount: m.amount(available + 777),
      price: m.price(limitTicks),
    });
    clock.toBucket(crossing);
    expect(await paper.fetchOrder(BTC, order.id)).toMatchObject({ status: "open", filled: m.amount(available) });
    const balances = await paper.fetchBalances();
    expect(balances.BTC!.l).toBe(m.amount(777));
    expect(balances.USDT!.f).toBe(new Decimal(m.price(limitTicks)).times(m.amount(available)).toFixed());
  });

  it("a clock behind the account's last replay neither undoes nor repeats fills", async () => {
    const clock = new TestClock();
    const m = market();
    const limitTicks = m.bestBidTicks(clock.bucket);
    const paper = paperOn(tempDataDir(), clock);
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: m.price(limitTicks) });
    clock.toBucket(firstBucketAfter(clock.bucket, (b) => askLotsAtOrBelow(m, limitTicks, b) > 0));
    const balances = await paper.fetchBalances();
    clock.ms = T0;
    expect((await paper.fetchOrder(BTC, order.id)).status).toBe("closed");
    expect(await paper.fetchBalances()).toEqual(balances);
  });

  it("caps the replay: a call after a month away replays in strides and stays fast", async () => {
    const clock = new TestClock();
    const paper = paperOn(tempDataDir(), clock, { startingBalances: { USDT: "1000000", BTC: "10" } });
    await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "1" });
    await paper.createOrder({ pair: BTC, side: "Sell", amount: "0.01", price: "1000000" });
    clock.ms += 30 * 86_400_000;
    const started = performance.now();
    expect(await paper.fetchOpenOrders(BTC)).toHaveLength(2);
    // replaying each of the 2.6 million seconds would take seconds
    expect(performance.now() - started).toBeLessThan(250);
  });

  it("price-time priority: the better price fills first, then the earlier order at the same price", async () => {
    const clock = new TestClock();
    const m = market();
    const limitTicks = m.bestBidTicks(clock.bucket);
    const crossing = firstBucketAfter(clock.bucket, (b) => askLotsAtOrBelow(m, limitTicks, b) >= 3);
    const available = askLotsAtOrBelow(m, limitTicks, crossing);
    const paper = paperOn(tempDataDir(), clock, { startingBalances: { USDT: "10000000" } });
    const early = await paper.createOrder({ pair: BTC, side: "Buy", amount: m.amount(1), price: m.price(limitTicks) });
    const late = await paper.createOrder({ pair: BTC, side: "Buy", amount: m.amount(1), price: m.price(limitTicks) });
    // placed last, one tick better: it takes all but one lot of what crosses
    const better = await paper.createOrder({
      pair: BTC,
      side: "Buy",
      amount: m.amount(available - 1),
      price: m.price(limitTicks + 1),
    });

    clock.toBucket(crossing);
    expect((await paper.fetchOrder(BTC, better.id)).status).toBe("closed");
    expect((await paper.fetchOrder(BTC, early.id)).status).toBe("closed");
    expect((await paper.fetchOrder(BTC, late.id)).filled).toBe("0");
  });

  it("cancel unlocks the unfilled rest and the order reads canceled", async () => {
    const clock = new TestClock();
    const m = market();
    const [[askTicks, askLots]] = m.levels("ask", clock.bucket, 1) as [[number, number]];
    const paper = paperOn(tempDataDir(), clock, { startingBalances: { USDT: "1000000" } });
    const price = m.price(askTicks);
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount: m.amount(askLots + 5000), price });
    expect(await paper.cancelOrder(BTC, order.id)).toBe(order.id);
    const after = await paper.fetchOrder(BTC, order.id);
    expect(after).toMatchObject({ status: "canceled", filled: m.amount(askLots) });
    const spent = new Decimal(price).times(m.amount(askLots));
    expect((await paper.fetchBalances()).USDT).toEqual({ f: new Decimal(1000000).minus(spent).toFixed(), l: "0" });
    const again = await rejection(paper.cancelOrder(BTC, order.id));
    expect(again.kind).toBe("invalid-order");
  });

  it("cancelAll cancels every open order of the pair, and only that pair", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const a = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "50000" });
    const b = await paper.createOrder({ pair: BTC, side: "Sell", amount: "0.1", price: "90000" });
    const eth = await paper.createOrder({ pair: "ETH/USDT", side: "Buy", amount: "1", price: "1000" });
    expect((await paper.cancelAll(BTC)).sort()).toEqual([a.id, b.id].sort());
    expect(await paper.fetchOpenOrders(BTC)).toEqual([]);
    expect((await paper.fetchOpenOrders("ETH/USDT")).map((o) => o.id)).toEqual([eth.id]);
    const balances = await paper.fetchBalances();
    expect(balances.BTC).toEqual({ f: "1", l: "0" });
    expect(balances.USDT).toEqual({ f: "9000", l: "1000" });
    expect(await paper.cancelAll(BTC)).toEqual([]);
  });

  it("an order id wins over another order's equal client order id", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const first = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "50000" });
    const second = await paper.createOrder({
      pair: BTC,
      side: "Buy",
      amount: "0.02",
      price: "50000",
      clientOrderId: first.id,
    });
    expect((await paper.fetchOrder(BTC, first.id)).amount).toBe("0.01");
    expect(await paper.cancelBatch(BTC, [first.id])).toEqual([first.id]);
    expect((await paper.fetchOrder(BTC, second.id)).status).toBe("open");
  });

  it("self-trade prevention: a buy never matches the account's own resting sell", async () => {
    const clock = new TestClock();
    const m = market();
    const paper = paperOn(tempDataDir(), clock);
    const inside = m.price(m.bestBidTicks(clock.bucket) + 1); // inside the synthetic spread
    const sell = await paper.createOrder({ pair: BTC, side: "Sell", amount: "0.01", price: inside });
    const buy = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: inside });
    expect([sell.status, buy.status, sell.filled, buy.filled]).toEqual(["open", "open", "0", "0"]);
    const balances = await paper.fetchBalances();
    expect(balances.BTC).toEqual({ f: "0.99", l: "0.01" });
    expect(balances.USDT!.l).toBe(new Decimal(inside).times("0.01").toFixed());
  });

  it("refuses more than 500 open orders on a pair (LIMITS.paper.openOrders)", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const items = Array.from({ length: 100 }, () => ({ side: "Buy" as const, amount: "0.0001", price: "100" }));
    for (let i = 0; i < 5; i++) await paper.createBatch(BTC, items);
    const error = await rejection(paper.createOrder({ pair: BTC, side: "Buy", amount: "0.0001", price: "100" }));
    expect(error.kind).toBe("invalid-order");
    expect(error.message).toContain("paper allows 500 per pair");
    expect((await paper.createOrder({ pair: "ETH/USDT", side: "Buy", amount: "0.01", price: "100" })).status).toBe(
      "open",
    );
  });

  it("unknown order ids are order-not-found, also when the id belongs to another pair", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "50000" });
    expect((await rejection(paper.fetchOrder(BTC, "999"))).kind).toBe("order-not-found");
    expect((await rejection(paper.fetchOrder("ETH/USDT", order.id))).kind).toBe("order-not-found");
    expect((await rejection(paper.cancelOrder(BTC, "999"))).kind).toBe("order-not-found");
  });

  it("an order placed by one adapter is listed, filled and cancelled by the next (state on disk)", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const first = paperOn(dir, clock);
    const order = await first.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "50000" });
    await first.close();
    const second = paperOn(dir, clock);
    expect((await second.fetchOpenOrders(BTC)).map((o) => o.id)).toEqual([order.id]);
    await second.cancelOrder(BTC, order.id);
    const third = paperOn(dir, clock);
    expect((await third.fetchOrder(BTC, order.id)).status).toBe("canceled");
    expect(readFileSync(paperStateFile(dir, "default"), "utf8")).toContain(order.clientOrderId);
  });

  it("accounts are separate: --account names its own balances and orders", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    await paperOn(dir, clock, { account: "alice" }).createOrder({
      pair: BTC,
      side: "Buy",
      amount: "0.01",
      price: "50000",
    });
    const bob = paperOn(dir, clock, { account: "bob" });
    expect(await bob.fetchOpenOrders(BTC)).toEqual([]);
    expect((await bob.fetchBalances()).USDT).toEqual({ f: "10000", l: "0" });
  });
});

describe("paper refuses what it cannot do", () => {
  it("insufficient funds: a buy whose price × amount exceeds the free quote", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const error = await rejection(paper.createOrder({ pair: BTC, side: "Buy", amount: "1", price: "60000" }));
    expect(error.kind).toBe("insufficient-funds");
    expect(error.message).toMatch(
      /^ExchangeId: paper, msg: Insufficient balance: .*needs 60000 USDT, 10000 USDT is free/,
    );
    expect((await paper.fetchBalances()).USDT).toEqual({ f: "10000", l: "0" });
  });

  it("insufficient funds: a sell above the free base, counting what other orders locked", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    await paper.createOrder({ pair: BTC, side: "Sell", amount: "0.8", price: "90000" });
    const error = await rejection(paper.createOrder({ pair: BTC, side: "Sell", amount: "0.3", price: "90000" }));
    expect(error.kind).toBe("insufficient-funds");
  });

  it.each([
    ["abc", "1"],
    ["-1", "60000"],
    ["0", "60000"],
    ["1e-3", "60000"],
    ["", "60000"],
    ["0.01", "-5"],
    ["0.01", "0"],
    ["0.01", "1,5"],
    ["0.01", "NaN"],
  ])("bad numbers are bad-input before anything changes: amount %j, price %j", async (amount, price) => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const paper = paperOn(dir, clock);
    await paper.fetchBalances();
    const before = readFileSync(paperStateFile(dir, "default"), "utf8");
    const error = await rejection(paper.createOrder({ pair: BTC, side: "Buy", amount, price }));
    expect(error.kind).toBe("bad-input");
    expect(readFileSync(paperStateFile(dir, "default"), "utf8")).toBe(before);
  });

  it("an amount that truncates to zero at the pair's decimals is 'Incorrect amount / It is zero!' (docs/decisions.md#d1)", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const error = await rejection(paper.createOrder({ pair: BTC, side: "Buy", amount: "0.0000001", price: "60000" }));
    expect(error.message).toBe("ExchangeId: paper, msg: Incorrect amount / It is zero!");
    const price = await rejection(paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "0.001" }));
    expect(price.kind).toBe("bad-input");
  });

  it("price and amount are truncated toward zero to the pair's decimals (docs/decisions.md#d1)", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.0123456789", price: "50000.129" });
    expect(order).toMatchObject({ amount: "0.012345", price: "50000.12" });
  });

  it("an unknown pair is bad-input naming the known pairs", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const error = await rejection(paper.createOrder({ pair: "DOGE/USDT", side: "Buy", amount: "1", price: "1" }));
    expect(error.kind).toBe("bad-input");
    expect(error.message).toContain("Unknown pair 'DOGE/USDT'. Known pairs on paper: BTC/USDT, ETH/USDT");
    expect((await rejection(paper.fetchOpenOrders("nonsense"))).kind).toBe("bad-input");
  });

  it("accepts a pair in any case", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const order = await paper.createOrder({ pair: "btc/usdt", side: "Buy", amount: "0.01", price: "50000" });
    expect(order.pair).toBe(BTC);
  });
});

describe("paper batches (docs/exchange-rules.md#validation, LIMITS.paper)", () => {
  it("createBatch places every item with its own generated client order id", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const orders = await paper.createBatch(BTC, [
      { side: "Buy", amount: "0.01", price: "50000" },
      { side: "Buy", amount: "0.02", price: "49000" },
      { side: "Sell", amount: "0.1", price: "90000" },
    ]);
    expect(orders.map((o) => o.status)).toEqual(["open", "open", "open"]);
    expect(new Set(orders.map((o) => o.clientOrderId)).size).toBe(3);
    expect(await paper.fetchOpenOrders(BTC)).toHaveLength(3);
    expect((await paper.fetchBalances()).USDT).toEqual({ f: "8520", l: "1480" });
  });

  it("createBatch over 100 items is rejected with \"Maximum for 'createBatch' is: 100\"", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const items = Array.from({ length: 101 }, () => ({ side: "Buy" as const, amount: "0.001", price: "1000" }));
    const error = await rejection(paper.createBatch(BTC, items));
    expect(error.message).toBe("ExchangeId: paper, msg: Maximum for 'createBatch' is: 100");
    expect(await paper.fetchOpenOrders(BTC)).toEqual([]);
    expect(await paper.createBatch(BTC, items.slice(0, 100))).toHaveLength(100);
  });

  it("a batch is all or nothing: one item without funds places none", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const error = await rejection(
      paper.createBatch(BTC, [
        { side: "Buy", amount: "0.01", price: "50000" },
        { side: "Buy", amount: "1", price: "50000" },
      ]),
    );
    expect(error.kind).toBe("insufficient-funds");
    expect(error.message).toContain("Batch item 2");
    expect(await paper.fetchOpenOrders(BTC)).toEqual([]);
    expect((await paper.fetchBalances()).USDT).toEqual({ f: "10000", l: "0" });
  });

  it("cancelBatch cancels the listed open orders and skips the others; over 100 ids is rejected", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    const [a, b, c] = await paper.createBatch(BTC, [
      { side: "Buy", amount: "0.01", price: "50000" },
      { side: "Buy", amount: "0.01", price: "50000" },
      { side: "Buy", amount: "0.01", price: "50000" },
    ]);
    expect(await paper.cancelBatch(BTC, [a!.id, c!.clientOrderId, "12345"])).toEqual([a!.id, c!.id]);
    expect((await paper.fetchOpenOrders(BTC)).map((o) => o.id)).toEqual([b!.id]);
    const error = await rejection(
      paper.cancelBatch(
        BTC,
        Array.from({ length: 101 }, (_, i) => String(i)),
      ),
    );
    expect(error.message).toBe("ExchangeId: paper, msg: Maximum for 'cancelBatch' is: 100");
  });
});

describe("paper order history", () => {
  const closed = (id: number, updatedAt: number): PaperOrderRecord => ({
    id: String(id),
    clientOrderId: `c${id}`,
    pair: "BTC/USDT",
    side: "Buy",
    price: "1000",
    amount: "0.001",
    filled: "0",
    status: "canceled",
    timestamp: id,
    updatedAt,
    bucket: 0,
  });

  it(`keeps ${HISTORY_LIMIT} closed orders: the least recently updated go first, the earlier placed at equal times; open orders stay`, () => {
    for (const extra of [1, 3]) {
      const state = newPaperState("history", 0, 0);
      // updatedAt runs backwards in blocks, so the oldest are neither first nor last in the array
      for (let i = 1; i <= HISTORY_LIMIT + extra; i++) state.orders.push(closed(i, 10_000 - Math.floor(i / 4)));
      state.orders.splice(5, 0, { ...closed(9999, 0), status: "open" });
      const changes = new StateChanges();
      new PaperEngine(state, "seed", changes).trimHistory();
      const last = HISTORY_LIMIT + extra;
      // ids with the smallest updatedAt: the highest ids; among equal times the lower id goes first
      const expected = Array.from({ length: 4 }, (_, k) => last - (last % 4) + k)
        .filter((id) => id <= last)
        .concat(Array.from({ length: 4 }, (_, k) => last - (last % 4) - 4 + k))
        .slice(0, extra)
        .map(String);
      const kept = new Set(state.orders.map((o) => o.id));
      for (const id of expected) expect(kept.has(id), `order ${id} dropped`).toBe(false);
      expect(state.orders).toHaveLength(HISTORY_LIMIT + 1);
      expect(kept.has("9999")).toBe(true);
      expect(changes.entry(state, 1).dropped).toEqual(expected);
    }
  });
});
