/**
 * docs/paper-store.md "Fees": paper charges a maker and a taker fee (0.1% each unless the account
 * sets its own), in the currency the fill pays out, so a bot's PnL on paper is honest. Each order
 * reports its fee and currency; the account's fees are kept in its files.
 */
import { describe, expect, it } from "vitest";
import { Decimal } from "../../lib/decimal.js";
import { rejection } from "../rejection.js";
import {
  askLotsAtOrBelow,
  bidLotsAtOrAbove,
  firstBucketAfter,
  market,
  paperOn,
  TestClock,
  tempDataDir,
} from "./helpers.js";

const BTC = "BTC/USDT";

describe('paper fees (docs/paper-store.md "Fees")', () => {
  it("a resting buy pays the maker fee, 0.1% by default, in the base it receives", async () => {
    const clock = new TestClock();
    const m = market();
    const bid = m.bestBidTicks(clock.bucket);
    const paper = paperOn(tempDataDir(), clock);
    expect(await paper.fees()).toEqual({ maker: "0.1", taker: "0.1" });
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: m.price(bid) });
    expect(order.status).toBe("open");
    clock.toBucket(firstBucketAfter(clock.bucket, (b) => askLotsAtOrBelow(m, bid, b) >= m.lotsOf("0.001")));
    const filled = await paper.fetchOrder(BTC, order.id);
    expect(filled).toMatchObject({ status: "closed", filled: "0.001", fee: { amount: "0.000001", currency: "BTC" } });
    const cost = new Decimal(m.price(bid)).times("0.001");
    expect(filled.cost).toBe(cost.toFixed());
    expect(await paper.fetchBalances()).toMatchObject({
      BTC: { f: "1.000999", l: "0" },
      USDT: { f: new Decimal(10000).minus(cost).toFixed(), l: "0" },
    });
  });

  it("a taking sell pays the taker fee in the quote it receives; each side's rate is the account's own", async () => {
    const clock = new TestClock();
    const m = market();
    const paper = paperOn(tempDataDir(), clock);
    expect(await paper.setFees({ taker: "0.25" })).toEqual({ maker: "0.1", taker: "0.25" });
    const bid = m.price(m.bestBidTicks(clock.bucket));
    const order = await paper.createOrder({ pair: BTC, side: "Sell", amount: "0.001", price: bid });
    expect(order.status).toBe("closed");
    const proceeds = new Decimal(order.cost!);
    const fee = proceeds.times("0.0025");
    expect(order.fee).toEqual({ amount: fee.toFixed(), currency: "USDT" });
    expect((await paper.fetchBalances()).USDT!.f).toBe(new Decimal(10000).plus(proceeds).minus(fee).toFixed());
  });

  it("a resting sell pays the maker rate, not the taker's", async () => {
    const clock = new TestClock();
    const m = market();
    const ask = m.bestAskTicks(clock.bucket);
    const paper = paperOn(tempDataDir(), clock);
    await paper.setFees({ maker: "0.02", taker: "0.5" });
    const order = await paper.createOrder({ pair: BTC, side: "Sell", amount: "0.001", price: m.price(ask) });
    clock.toBucket(firstBucketAfter(clock.bucket, (b) => bidLotsAtOrAbove(m, ask, b) >= m.lotsOf("0.001")));
    const filled = await paper.fetchOrder(BTC, order.id);
    const proceeds = new Decimal(m.price(ask)).times("0.001");
    expect(filled.fee).toEqual({ amount: proceeds.times("0.0002").toFixed(), currency: "USDT" });
  });

  it("the fees are the account's: kept in its files and read by every adapter of it", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    await paperOn(dir, clock).setFees({ maker: "0", taker: "0.075" });
    expect(await paperOn(dir, clock).fees()).toEqual({ maker: "0", taker: "0.075" });
    // another account keeps the default
    expect(await paperOn(dir, clock, { account: "other" }).fees()).toEqual({ maker: "0.1", taker: "0.1" });
  });

  it("refuses a fee that is not a percent from 0 to 10, naming it", async () => {
    const paper = paperOn(tempDataDir(), new TestClock());
    for (const [text, side] of [
      ["-1", "maker"],
      ["11", "taker"],
      ["abc", "maker"],
      ["1e3", "taker"],
    ] as const) {
      const error = await rejection(paper.setFees({ [side]: text }));
      expect(error.kind).toBe("bad-input");
      expect(error.message).toContain(`Invalid ${side} fee '${text}': expected a percent from 0 to 10`);
    }
    expect(await paper.fees()).toEqual({ maker: "0.1", taker: "0.1" });
  });
});
