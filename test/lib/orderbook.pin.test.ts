import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../lib/errors.js";
import { OrderBook } from "../../lib/orderbook.js";
import type { BookLevel } from "../../lib/types.js";

/*
 * Edges of the order book's exact keys that the randomized comparison in orderbook.test.ts does not
 * reach: keys that a double can no longer hold apart (past 2^53, where doubles are 16 apart), docs/mutation.md.
 * Each sequence is checked against the order a user must see, written out by hand.
 */

function feed(side: "bid" | "ask", prices: readonly string[]): OrderBook {
  const book = new OrderBook();
  prices.forEach((price, i) => {
    book.applyDelta(side, price, String(i + 1));
  });
  return book;
}

const prices = (levels: BookLevel[]): string[] => levels.map(([p]) => p);

describe("order book: keys within a double's rounding of each other past 2^53 (docs/mutation.md)", () => {
  it("moves a bid side to exact keys when a finer price would rescale its largest key past 2^53, however small its smallest", () => {
    // "1" and 2^53 - 1 share a chunk; "1.1" asks for scale 1, where 2^53 - 1 becomes 90071992547409910,
    // which no double holds (the nearest is ...904). Rescaling by the smallest key would let that in,
    // and "9007199254740990.9" (...909) would then read as the better bid.
    const book = feed("bid", ["1", "9007199254740991", "1.1", "9007199254740990.9"]);
    expect(prices(book.top(10).bids)).toEqual(["9007199254740991", "9007199254740990.9", "1.1", "1"]);
    expect(book.bestBid()).toEqual(["9007199254740991", "2"]);
  });

  it("moves an ask side to exact keys in the same case (keys stored negated)", () => {
    const book = feed("ask", ["1", "9007199254740991", "1.1", "9007199254740991.5"]);
    expect(prices(book.top(10).asks)).toEqual(["1", "1.1", "9007199254740991", "9007199254740991.5"]);
    const upper = feed("ask", ["1", "9007199254740991", "1.1", "9007199254740990.5"]);
    expect(prices(upper.top(10).asks)).toEqual(["1", "1.1", "9007199254740990.5", "9007199254740991"]);
  });

  it("gives a coarse price exact keys when the side's finer scale would put its ticks past 2^53", () => {
    // scale 1 from "0.1": 2^53 - 1 in tenths is 90071992547409910, past what a double holds exactly
    const bids = feed("bid", ["0.1", "9007199254740991", "9007199254740990.9"]);
    expect(prices(bids.top(3).bids)).toEqual(["9007199254740991", "9007199254740990.9", "0.1"]);
    const asks = feed("ask", ["0.1", "9007199254740991", "9007199254740990.5"]);
    expect(prices(asks.top(3).asks)).toEqual(["0.1", "9007199254740990.5", "9007199254740991"]);
  });

  it("orders a price 23 or more decimals coarser than the side (past the exact powers of ten)", () => {
    const tick = `0.${"0".repeat(22)}1`; // 23 decimals
    const book = feed("bid", [tick, "2", "1", `0.${"0".repeat(21)}3`]);
    expect(prices(book.top(10).bids)).toEqual(["2", "1", `0.${"0".repeat(21)}3`, tick]);
    const asks = feed("ask", [tick, "2", "1"]);
    expect(prices(asks.top(10).asks)).toEqual([tick, "1", "2"]);
    expect(asks.askCount).toBe(3);
  });
});

describe("order book: top(n) for any n a screen asks (docs/mutation.md)", () => {
  const book = feed("bid", ["5", "1", "4", "2", "3"]);
  const big = feed("ask", ["1", "9007199254740991", "0.5", "3"]); // BigInt keys: 0.5 at scale 1 after 2^53 - 1

  it("gives no level for 0 or a negative n, the whole part of a fractional n, all levels past the count", () => {
    expect(book.top(0)).toEqual({ bids: [], asks: [] });
    expect(book.top(-3).bids).toEqual([]);
    expect(prices(book.top(2.7).bids)).toEqual(["5", "4"]);
    expect(prices(book.top(5).bids)).toEqual(["5", "4", "3", "2", "1"]);
    expect(prices(book.top(99).bids)).toEqual(["5", "4", "3", "2", "1"]);
    expect(book.top(99).asks).toEqual([]);
  });

  it("reads the top of a side on exact BigInt keys the same way", () => {
    expect(prices(big.top(2).asks)).toEqual(["0.5", "1"]);
    expect(prices(big.top(1.5).asks)).toEqual(["0.5"]);
    expect(big.top(-1).asks).toEqual([]);
    expect(prices(big.top(10).asks)).toEqual(["0.5", "1", "3", "9007199254740991"]);
    expect(big.bestAsk()).toEqual(["0.5", "3"]);
  });

  it("reads the top across chunks, from the best chunk down, for any n", () => {
    const deep = feed(
      "bid",
      Array.from({ length: 700 }, (_, i) => String((i * 389) % 700)),
    );
    expect(deep.bidCount).toBe(700);
    const want = Array.from({ length: 700 }, (_, i) => String(699 - i));
    for (const n of [1, 255, 256, 257, 300, 512, 699, 700, 701])
      expect(prices(deep.top(n).bids)).toEqual(want.slice(0, n));
  });
});

describe("order book: numbers from a feed's JSON that are not text (docs/mutation.md)", () => {
  it("refuses a null or missing price or amount as bad input naming it, and keeps the book", () => {
    const book = feed("bid", ["100"]);
    for (const [price, amount, what] of [
      [null, "1", "price 'null'"],
      [undefined, "1", "price 'undefined'"],
      ["101", null, "amount 'null'"],
      ["101", undefined, "amount 'undefined'"],
    ] as const) {
      let caught: unknown;
      try {
        book.applyDelta("bid", price as unknown as string, amount as unknown as string);
      } catch (error) {
        caught = error;
      }
      expect(caught, what).toBeInstanceOf(ExchangeError);
      expect((caught as ExchangeError).kind).toBe("bad-input");
      expect((caught as ExchangeError).message).toContain(`Invalid order-book ${what}: not a number`);
    }
    expect(book.top(5).bids).toEqual([["100", "1"]]);
  });

  it("keeps a numeric price and amount as their decimal text", () => {
    const book = new OrderBook();
    book.applyDelta("ask", 0.5 as unknown as string, 2 as unknown as string);
    book.applyDelta("ask", 1e-7 as unknown as string, 1e21 as unknown as string);
    expect(book.top(5).asks).toEqual([
      ["0.0000001", "1000000000000000000000"],
      ["0.5", "2"],
    ]);
  });
});

describe("order book: a price 23 decimals finer than the side (past the exact powers of ten)", () => {
  it("moves the side to exact keys instead of rescaling by a power of ten no double holds", () => {
    const fine = `0.${"0".repeat(22)}1`; // 23 decimals on a side of scale 0
    const bids = feed("bid", ["1", "2", fine, "3"]);
    expect(bids.top(10).bids).toEqual([
      ["3", "4"],
      ["2", "2"],
      ["1", "1"],
      [fine, "3"],
    ]);
    const asks = feed("ask", ["2", "1", fine]);
    expect(asks.top(10).asks).toEqual([
      [fine, "3"],
      ["1", "2"],
      ["2", "1"],
    ]);
  });
});

describe("order book: a price of zero written without digits before or after the mark, on exact keys", () => {
  it("reads '.0' and '0.00' as the one level 0 on a side already past 2^53", () => {
    const book = feed("bid", ["9007199254740993", ".0"]);
    expect(book.top(5).bids).toEqual([
      ["9007199254740993", "1"],
      [".0", "2"],
    ]);
    book.applyDelta("bid", "0.00", "3");
    expect(book.top(5).bids).toEqual([
      ["9007199254740993", "1"],
      ["0.00", "3"],
    ]);
    book.applyDelta("bid", "0", "0");
    expect(book.top(5).bids).toEqual([["9007199254740993", "1"]]);
  });
});
