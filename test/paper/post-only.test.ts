import { describe, expect, it } from "vitest";
import { rejection } from "../rejection.js";
import { market, paperOn, TestClock, tempDataDir } from "./helpers.js";

// docs/orders.md "Post-only": paper refuses a post-only order that would take, as the exchanges
// with a maker-only form do, and rests one that would not as a maker.

const BTC = "BTC/USDT";

describe('paper post-only orders (docs/orders.md "Post-only")', () => {
  it("refuses a post-only buy at the best ask and one above it: nothing filled, locked or stored", async () => {
    const clock = new TestClock();
    const m = market();
    const ask = m.bestAskTicks(clock.bucket);
    const paper = paperOn(tempDataDir(), clock);
    for (const ticks of [ask, ask + 50]) {
      const error = await rejection(
        paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: m.price(ticks), postOnly: true }),
      );
      expect(error.kind).toBe("invalid-order");
      expect(error.message).toContain(
        `Post-only order refused: a buy at ${m.price(ticks)} would take (at or above the best ask ${m.price(ask)}); nothing was placed`,
      );
    }
    expect(await paper.fetchOpenOrders(BTC)).toEqual([]);
    expect((await paper.fetchBalances()).USDT).toEqual({ f: "10000", l: "0" });
  });

  it("refuses a post-only sell at the best bid, while the same order without the option takes", async () => {
    const clock = new TestClock();
    const m = market();
    const bid = m.price(m.bestBidTicks(clock.bucket));
    const paper = paperOn(tempDataDir(), clock);
    const error = await rejection(
      paper.createOrder({ pair: BTC, side: "Sell", amount: "0.01", price: bid, postOnly: true }),
    );
    expect(error.message).toContain(`a sell at ${bid} would take (at or below the best bid ${bid})`);
    expect((await paper.fetchBalances()).BTC).toEqual({ f: "1", l: "0" });
    const taker = await paper.createOrder({ pair: BTC, side: "Sell", amount: "0.01", price: bid });
    expect(taker.filled).toBe("0.01");
  });

  it("rests a post-only buy one tick under the best ask and a sell one tick over the best bid, unfilled", async () => {
    const clock = new TestClock();
    const m = market();
    const ask = m.bestAskTicks(clock.bucket);
    const bid = m.bestBidTicks(clock.bucket);
    const paper = paperOn(tempDataDir(), clock);
    const buy = await paper.createOrder({
      pair: BTC,
      side: "Buy",
      amount: "0.01",
      price: m.price(ask - 1),
      postOnly: true,
    });
    const sell = await paper.createOrder({
      pair: BTC,
      side: "Sell",
      amount: "0.01",
      price: m.price(bid + 1),
      postOnly: true,
    });
    for (const order of [buy, sell]) expect(order).toMatchObject({ status: "open", filled: "0" });
    expect((await paper.fetchOpenOrders(BTC)).map((o) => o.id).sort()).toEqual([buy.id, sell.id].sort());
  });

  it("a batch with one crossing post-only item places none of them", async () => {
    const clock = new TestClock();
    const m = market();
    const ask = m.bestAskTicks(clock.bucket);
    const paper = paperOn(tempDataDir(), clock);
    const error = await rejection(
      paper.createBatch(BTC, [
        { side: "Buy", amount: "0.01", price: m.price(ask - 5), postOnly: true },
        { side: "Buy", amount: "0.01", price: m.price(ask), postOnly: true },
      ]),
    );
    expect(error.message).toContain("Post-only order refused");
    expect(await paper.fetchOpenOrders(BTC)).toEqual([]);
  });
});
