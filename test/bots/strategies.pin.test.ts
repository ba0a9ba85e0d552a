import { describe, expect, it } from "vitest";
import { Decimal } from "../../lib/decimal.js";
import {
  amountFor,
  asOrder,
  dec,
  drawBetween,
  filledQuote,
  othersInside,
  sameOrder,
} from "../../server/bots/strategies/shared.js";
import type { OwnOrder } from "../../server/bots/strategies/types.js";

/*
 * The helpers every bot strategy prices and sizes its orders with (server/bots/strategies/shared.ts),
 * at their edges (docs/mutation.md). test/bots/strategies.test.ts covers each strategy's rules.
 */
const own = (over: Partial<OwnOrder>): OwnOrder => ({
  slot: 0,
  id: "o1",
  clientOrderId: "c1",
  side: "Buy",
  price: "100",
  amount: "2",
  filled: "0",
  placedAt: 1_700_000_000_000,
  ...over,
});

describe("bot strategy helpers (server/bots/strategies/shared.ts)", () => {
  it("reads setup numbers through their shortest decimal text, never a binary float", () => {
    expect(dec(0.1).plus(dec(0.2)).toFixed()).toBe("0.3");
    expect(dec("1.50").toFixed()).toBe("1.5");
    expect(dec(1e-7).toFixed()).toBe("0.0000001");
  });

  it("draws uniformly in [min, max] with 12 decimals at most, truncated, and min when the range is empty", () => {
    expect(drawBetween(() => 0, 1, 3)).toBe("1");
    expect(drawBetween(() => 0.5, 1, 3)).toBe("2");
    expect(drawBetween(() => 0.999999999999, 0, 1)).toBe("0.999999999999");
    // 1/3 of a range of 1 above 0.1, the draw read at 12 decimals
    expect(drawBetween(() => 1 / 3, 0.1, 1.1)).toBe("0.433333333333");
    // 0.5 × 0.333333333333 = 0.1666666666665: the 13th decimal dropped, not rounded up
    expect(drawBetween(() => 1 / 3, 0, 0.5)).toBe("0.166666666666");
    expect(drawBetween(() => 0.9, 2, 2)).toBe("2");
    expect(drawBetween(() => 0.9, 5, 2)).toBe("5");
  });

  it("sizes quote / price truncated toward zero to the pair's amount decimals, and 0 at price 0", () => {
    expect(amountFor(new Decimal(100), new Decimal(3), 4).toFixed()).toBe("33.3333");
    expect(amountFor(new Decimal(200), new Decimal(3), 2).toFixed()).toBe("66.66");
    expect(amountFor(new Decimal(10), new Decimal(4), 0).toFixed()).toBe("2");
    expect(amountFor(new Decimal(10), new Decimal(0), 4).toFixed()).toBe("0");
  });

  it("compares an order with a wanted one as numbers, side, price and amount each", () => {
    const order = own({ side: "Sell", price: "1.50", amount: "2.000" });
    expect(sameOrder(order, { slot: 0, side: "Sell", price: "1.5", amount: "2" })).toBe(true);
    expect(sameOrder(order, { slot: 0, side: "Buy", price: "1.5", amount: "2" })).toBe(false);
    expect(sameOrder(order, { slot: 0, side: "Sell", price: "1.51", amount: "2" })).toBe(false);
    expect(sameOrder(order, { slot: 0, side: "Sell", price: "1.5", amount: "2.0001" })).toBe(false);
  });

  it("counts the quote of a fill as filled amount × the order's price", () => {
    expect(filledQuote(own({ price: "100.5" }), "0.3").toFixed()).toBe("30.15");
    expect(filledQuote(own({ price: "100.5" }), "0").toFixed()).toBe("0");
  });

  it("writes an own order as the seed's open limit Order", () => {
    expect(asOrder("BTC/USDT", own({ filled: "0.5" }))).toEqual({
      pair: "BTC/USDT",
      id: "o1",
      clientOrderId: "c1",
      price: "100",
      amount: "2",
      filled: "0.5",
      type: "limit",
      side: "Buy",
      status: "open",
      timestamp: 1_700_000_000_000,
    });
  });

  it("finds the others' best bid and ask: a level made only of the bot's unfilled orders is skipped", () => {
    const bids = [
      ["100", "2"],
      ["99", "5"],
    ] as const;
    const asks = [
      ["101", "1.5"],
      ["102", "1"],
    ] as const;
    // its Buy of 2 at 100 is the whole level: the others' bid is 99
    expect(othersInside(bids, asks, [own({})])).toEqual({ bid: new Decimal(99), ask: new Decimal(101) });
    // half filled, it rests 1 of the 2: someone else holds the other 1
    const both = othersInside(bids, asks, [own({ filled: "1" })]);
    expect(both.bid?.toFixed()).toBe("100");
    // its Sell at 101 (two orders summing to the level) is skipped on the ask side only
    const sells = [
      own({ side: "Sell", price: "101", amount: "1" }),
      own({ id: "o2", side: "Sell", price: "101.0", amount: "0.5" }),
    ];
    const out = othersInside(bids, asks, sells);
    expect(out.bid?.toFixed()).toBe("100");
    expect(out.ask?.toFixed()).toBe("102");
    // a Buy at the ask's price is not a Sell: the ask stays
    expect(othersInside(bids, asks, [own({ price: "101", amount: "1.5" })]).ask?.toFixed()).toBe("101");
    // a level bigger than its own order by a hair is the others'
    expect(othersInside([["100", "2.00000001"]], [], [own({})]).bid?.toFixed()).toBe("100");
    // nothing but its own: no inside price
    expect(othersInside([["100", "2"]], [], [own({})])).toEqual({ bid: undefined, ask: undefined });
  });
});
