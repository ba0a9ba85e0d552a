import { describe, expect, it } from "vitest";
import { seededRandom, syntheticBookStream } from "../../bench/book-stream.js";
import { Decimal } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { type BookSide, cumulativeRows, OrderBook } from "../../lib/orderbook.js";
import type { BookLevel } from "../../lib/types.js";

/** The simple reference: a Map per side keyed by the exact normalized price, sorted on read. */
class ReferenceBook {
  readonly bids = new Map<string, { price: Decimal; level: BookLevel }>();
  readonly asks = new Map<string, { price: Decimal; level: BookLevel }>();
  private sorted: { bids: BookLevel[]; asks: BookLevel[] } | undefined;

  snapshot(bids: readonly BookLevel[], asks: readonly BookLevel[]): void {
    this.bids.clear();
    this.asks.clear();
    for (const [p, a] of bids) this.delta("bid", p, a);
    for (const [p, a] of asks) this.delta("ask", p, a);
  }

  delta(side: BookSide, price: string, amount: string): void {
    const map = side === "bid" ? this.bids : this.asks;
    const exact = new Decimal(price);
    const key = exact.toFixed();
    if (new Decimal(amount).isZero()) map.delete(key);
    else map.set(key, { price: exact, level: [price, amount] });
    this.sorted = undefined;
  }

  top(n: number): { bids: BookLevel[]; asks: BookLevel[] } {
    if (!this.sorted) {
      const sort = (map: ReferenceBook["bids"], desc: boolean): BookLevel[] =>
        [...map.values()].sort((x, y) => (desc ? -1 : 1) * x.price.comparedTo(y.price)!).map((e) => e.level);
      this.sorted = { bids: sort(this.bids, true), asks: sort(this.asks, false) };
    }
    return { bids: this.sorted.bids.slice(0, n), asks: this.sorted.asks.slice(0, n) };
  }
}

const all = (book: OrderBook): { bids: BookLevel[]; asks: BookLevel[] } => book.top(Number.POSITIVE_INFINITY);

function expectSameBook(book: OrderBook, ref: ReferenceBook, where: string): void {
  const ours = all(book);
  const theirs = ref.top(Number.POSITIVE_INFINITY);
  expect(book.bidCount, `${where}: bid count`).toBe(ref.bids.size);
  expect(book.askCount, `${where}: ask count`).toBe(ref.asks.size);
  expect(ours, where).toEqual(theirs);
}

describe("order book model: sorted sides, snapshot, delta (issue 2, docs/exchange-rules.md#states)", () => {
  it("sorts bids descending and asks ascending, best first", () => {
    const book = new OrderBook();
    book.applySnapshot(
      [
        ["99", "1"],
        ["101", "2"],
        ["100", "3"],
      ],
      [
        ["105", "1"],
        ["103", "2"],
        ["104", "3"],
      ],
    );
    expect(book.top(10)).toEqual({
      bids: [
        ["101", "2"],
        ["100", "3"],
        ["99", "1"],
      ],
      asks: [
        ["103", "2"],
        ["104", "3"],
        ["105", "1"],
      ],
    });
    expect(book.bestBid()).toEqual(["101", "2"]);
    expect(book.bestAsk()).toEqual(["103", "2"]);
  });

  it("removes a level on amount 0: 'An amount of 0 removes a level' (docs/exchange-rules.md#states)", () => {
    const book = new OrderBook();
    book.applySnapshot([["100", "1"]], [["101", "1"]]);
    book.applyDelta("bid", "100", "0");
    expect(book.bidCount).toBe(0);
    expect(book.bestBid()).toBeUndefined();
    book.applyDelta("ask", "101.0", "0.000");
    expect(book.askCount).toBe(0);
    // removing a level that is not there changes nothing
    book.applyDelta("ask", "102", "0");
    expect(book.askCount).toBe(0);
  });

  it("updates an existing level in place and inserts a new one in order", () => {
    const book = new OrderBook();
    book.applySnapshot([["100", "1"]], []);
    book.applyDelta("bid", "100", "5");
    book.applyDelta("bid", "100.5", "2");
    book.applyDelta("bid", "99.5", "3");
    expect(all(book).bids).toEqual([
      ["100.5", "2"],
      ["100", "5"],
      ["99.5", "3"],
    ]);
  });

  it("replaces the whole book on a snapshot, skipping zero amounts", () => {
    const book = new OrderBook();
    book.applySnapshot([["1", "1"]], [["2", "1"]]);
    book.applySnapshot(
      [
        ["10", "1"],
        ["9", "0"],
      ],
      [["11", "2"]],
    );
    expect(all(book)).toEqual({ bids: [["10", "1"]], asks: [["11", "2"]] });
  });

  it("keeps the last non-zero amount of a price listed twice in a snapshot", () => {
    const book = new OrderBook();
    book.applySnapshot(
      [
        ["10", "1"],
        ["10.0", "2"],
        ["10", "0"],
      ],
      [],
    );
    expect(all(book).bids).toEqual([["10.0", "2"]]);
  });

  it("applies several levels of one side as one change", () => {
    const book = new OrderBook();
    const before = book.version;
    book.applyLevels("ask", [
      ["3", "1"],
      ["1", "1"],
      ["2", "1"],
      ["1", "0"],
    ]);
    expect(book.version).toBe(before + 1);
    expect(all(book).asks).toEqual([
      ["2", "1"],
      ["3", "1"],
    ]);
  });

  it("increments the version on every change", () => {
    const book = new OrderBook();
    const v0 = book.version;
    book.applySnapshot([], []);
    book.applyDelta("bid", "1", "1");
    book.clear();
    expect(book.version).toBe(v0 + 3);
    expect(book.bidCount + book.askCount).toBe(0);
  });

  it("reads the top N, or fewer when the side is shorter", () => {
    const book = new OrderBook();
    for (let i = 1; i <= 50; i++) {
      book.applyDelta("bid", String(i), "1");
      book.applyDelta("ask", String(100 + i), "1");
    }
    const top = book.top(20);
    expect(top.bids).toHaveLength(20);
    expect(top.bids[0]).toEqual(["50", "1"]);
    expect(top.bids[19]).toEqual(["31", "1"]);
    expect(top.asks[0]).toEqual(["101", "1"]);
    expect(top.asks[19]).toEqual(["120", "1"]);
    expect(book.top(0)).toEqual({ bids: [], asks: [] });
    expect(book.top(500).bids).toHaveLength(50);
  });
});

describe("order book model: exact decimal prices (issue 2: never binary floats as keys)", () => {
  it("keeps prices that binary floats would merge as separate levels", () => {
    const book = new OrderBook();
    book.applyDelta("bid", "1", "1");
    book.applyDelta("bid", "1.00000000000000001", "2");
    expect(Number.parseFloat("1.00000000000000001")).toBe(1);
    expect(all(book).bids).toEqual([
      ["1.00000000000000001", "2"],
      ["1", "1"],
    ]);
  });

  it("treats '30123.4', '30123.40' and '30123.400' as one level", () => {
    const book = new OrderBook();
    book.applyDelta("ask", "30123.4", "1");
    book.applyDelta("ask", "30123.40", "2");
    book.applyDelta("ask", "30123.400", "3");
    expect(book.askCount).toBe(1);
    expect(book.bestAsk()![1]).toBe("3");
  });

  it("rescales when a price brings more decimals than the book has seen", () => {
    const book = new OrderBook();
    book.applyDelta("bid", "100", "1");
    book.applyDelta("bid", "101", "1");
    book.applyDelta("bid", "100.5", "1");
    book.applyDelta("bid", "100.25", "1");
    book.applyDelta("bid", "100.125", "1");
    book.applyDelta("bid", "100.0000001", "1");
    expect(all(book).bids.map(([p]) => p)).toEqual(["101", "100.5", "100.25", "100.125", "100.0000001", "100"]);
    book.applyDelta("bid", "100.25", "0");
    expect(all(book).bids.map(([p]) => p)).toEqual(["101", "100.5", "100.125", "100.0000001", "100"]);
  });

  it("orders huge prices beyond 2^53 exactly", () => {
    const book = new OrderBook();
    book.applyDelta("ask", "123456789012345678901234", "1");
    book.applyDelta("ask", "123456789012345678901233", "1");
    book.applyDelta("ask", "123456789012345678901235", "1");
    book.applyDelta("ask", "123456789012345678901233", "7");
    expect(all(book).asks).toEqual([
      ["123456789012345678901233", "7"],
      ["123456789012345678901234", "1"],
      ["123456789012345678901235", "1"],
    ]);
  });

  it("orders tiny prices exactly", () => {
    const book = new OrderBook();
    book.applyDelta("bid", "0.000000000000000000000001", "1");
    book.applyDelta("bid", "0.000000000000000000000003", "1");
    book.applyDelta("bid", "0.000000000000000000000002", "1");
    expect(all(book).bids.map(([p]) => p)).toEqual([
      "0.000000000000000000000003",
      "0.000000000000000000000002",
      "0.000000000000000000000001",
    ]);
  });

  it("mixes huge and tiny prices on one side exactly", () => {
    const book = new OrderBook();
    book.applyDelta("bid", "30000.01", "1");
    book.applyDelta("bid", "0.00000001", "1");
    book.applyDelta("bid", "99999999999.123456789", "1");
    book.applyDelta("bid", "30000.010000000000000001", "1");
    expect(all(book).bids.map(([p]) => p)).toEqual([
      "99999999999.123456789",
      "30000.010000000000000001",
      "30000.01",
      "0.00000001",
    ]);
    book.applyDelta("bid", "30000.01", "0");
    expect(all(book).bids.map(([p]) => p)).toEqual(["99999999999.123456789", "30000.010000000000000001", "0.00000001"]);
  });

  it("starts a side over after it empties, huge or not", () => {
    const book = new OrderBook();
    book.applyDelta("ask", "1.000000000000000000001", "1");
    book.applyDelta("ask", "5", "1");
    book.applyDelta("ask", "1.000000000000000000001", "0");
    book.applyDelta("ask", "5", "0");
    expect(book.askCount).toBe(0);
    book.applyDelta("ask", "2.5", "1");
    book.applyDelta("ask", "2", "1");
    expect(all(book).asks).toEqual([
      ["2", "1"],
      ["2.5", "1"],
    ]);
  });

  it("keeps amounts as the exact strings given, beyond 15 digits (docs/exchange-rules.md#limits)", () => {
    const book = new OrderBook();
    book.applyDelta("bid", "100", "0.10000000000000000001");
    book.applyDelta("ask", "101", "123456789012345678.5");
    expect(book.bestBid()).toEqual(["100", "0.10000000000000000001"]);
    expect(book.bestAsk()).toEqual(["101", "123456789012345678.5"]);
  });

  it("writes exponent forms out in plain digits", () => {
    const book = new OrderBook();
    book.applyDelta("bid", "1e-8", "2.5e-3");
    book.applyDelta("bid", "2E-8", "1e2");
    expect(all(book).bids).toEqual([
      ["0.00000002", "100"],
      ["0.00000001", "0.0025"],
    ]);
    book.applyDelta("bid", "1.0e-8", "0e0");
    expect(book.bidCount).toBe(1);
  });

  it("refuses a malformed price or amount with a bad-input error naming it, leaving the book unchanged", () => {
    const book = new OrderBook();
    book.applyDelta("bid", "100", "1");
    const version = book.version;
    for (const [price, amount] of [
      ["abc", "1"],
      ["", "1"],
      ["-5", "1"],
      ["100", "-1"],
      ["100", "x"],
      ["NaN", "1"],
      ["Infinity", "1"],
      ["100", ""],
    ] as const) {
      let caught: unknown;
      try {
        book.applyDelta("bid", price, amount);
      } catch (error) {
        caught = error;
      }
      expect(caught, `${price} ${amount}`).toBeInstanceOf(ExchangeError);
      expect((caught as ExchangeError).kind).toBe("bad-input");
      expect((caught as ExchangeError).message).toMatch(/Invalid order-book (price|amount) '/);
    }
    expect(book.version).toBe(version);
    expect(all(book)).toEqual({ bids: [["100", "1"]], asks: [] });
  });

  it("leaves the book as it was when a snapshot holds a malformed level", () => {
    const book = new OrderBook();
    book.applySnapshot([["100", "1"]], [["101", "1"]]);
    const version = book.version;
    expect(() =>
      book.applySnapshot(
        [
          ["99", "1"],
          ["98", "1"],
        ],
        [["oops", "1"]],
      ),
    ).toThrow(ExchangeError);
    expect(book.version).toBe(version);
    expect(all(book)).toEqual({ bids: [["100", "1"]], asks: [["101", "1"]] });
  });

  it("reads '-0' as a zero amount", () => {
    const book = new OrderBook();
    book.applyDelta("bid", "100", "1");
    book.applyDelta("bid", "100", "-0");
    expect(book.bidCount).toBe(0);
  });
});

describe("order book model: mid price and spread (docs/dashboard-rules.md#screens middle row)", () => {
  it("computes the mid and the spread percent exactly", () => {
    const book = new OrderBook();
    book.applySnapshot([["30000.10", "1"]], [["30000.30", "1"]]);
    expect(book.midPrice()).toBe("30000.2");
    // (0.2 / 30000.2) * 100 = 0.000666…
    expect(book.spreadPercent(6)).toBe("0.000667");
    expect(book.spreadPercent()).toBe("0.00");
  });

  it("has no mid or spread while a side is empty", () => {
    const book = new OrderBook();
    book.applyDelta("bid", "1", "1");
    expect(book.midPrice()).toBeUndefined();
    expect(book.spreadPercent()).toBeUndefined();
  });
});

describe("cumulative rows (docs/dashboard-rules.md#screens 'Hovering a row highlights the cumulative rows')", () => {
  it("sums amount and total (price times amount, docs/exchange-rules.md#entities) from the best level outward", () => {
    const rows = cumulativeRows([
      ["100.5", "2"],
      ["100", "0.1"],
      ["99", "3"],
    ]);
    expect(rows).toEqual([
      { price: "100.5", amount: "2", total: "201", cumAmount: "2", cumTotal: "201" },
      { price: "100", amount: "0.1", total: "10", cumAmount: "2.1", cumTotal: "211" },
      { price: "99", amount: "3", total: "297", cumAmount: "5.1", cumTotal: "508" },
    ]);
  });
});

describe("order book model: randomized comparison against a simple reference", () => {
  /** Random prices with varying decimals around a mid, some far away, some huge. */
  function randomPrice(random: () => number, mid: number, side: BookSide, hugeShare: number): string {
    const r = random();
    if (r < hugeShare) return `${Math.floor(random() * 1e6)}${"0".repeat(15)}.${Math.floor(random() * 1000)}`; // > 2^53 ticks
    const distance = r < 0.8 ? Math.floor(-Math.log(1 - random()) * 10) : Math.floor(random() * 5000);
    const ticks = side === "bid" ? mid - distance : mid + distance;
    const decimals = random() < 0.9 ? 2 : Math.floor(random() * 9);
    const value = new Decimal(ticks)
      .dividedBy(100)
      .plus(decimals > 2 ? new Decimal(Math.floor(random() * 100)).shiftedBy(-decimals) : 0);
    const text = value.toFixed(Math.max(decimals, 2));
    return random() < 0.3 ? value.toFixed() : text;
  }

  /** White-box: whether a side still runs on safe-integer keys, so each test covers the mode it claims. */
  const fastMode = (book: OrderBook, side: "bids" | "asks"): boolean =>
    (book as unknown as Record<string, { bigKeys: unknown }>)[side]!.bigKeys === null;

  for (const [seed, hugeShare] of [
    [1, 0],
    [2, 0],
    [3, 0],
    [4, 0.01],
    [5, 0.01],
  ] as const) {
    const mode = hugeShare === 0 ? "safe-integer keys, rescaled" : "BigInt keys";
    it(`matches the reference level by level over 15,000 random deltas with varying decimals (seed ${seed}, ${mode})`, () => {
      const random = seededRandom(seed);
      const book = new OrderBook();
      const ref = new ReferenceBook();
      const mid = 3_000_000;
      const snapshotBids: BookLevel[] = [];
      const snapshotAsks: BookLevel[] = [];
      for (let i = 0; i < 300; i++) {
        snapshotBids.push([randomPrice(random, mid, "bid", hugeShare), (random() * 10).toFixed(3)]);
        snapshotAsks.push([randomPrice(random, mid, "ask", hugeShare), (random() * 10).toFixed(3)]);
      }
      book.applySnapshot(snapshotBids, snapshotAsks);
      ref.snapshot(snapshotBids, snapshotAsks);
      expectSameBook(book, ref, "after snapshot");
      for (let i = 0; i < 15_000; i++) {
        const side: BookSide = random() < 0.5 ? "bid" : "ask";
        const price = randomPrice(random, mid, side, hugeShare);
        const amount =
          random() < 0.3 ? (random() < 0.5 ? "0" : "0.000") : (random() * 10).toFixed(Math.floor(random() * 6));
        book.applyDelta(side, price, amount);
        ref.delta(side, price, amount);
        if (i % 997 === 0) expectSameBook(book, ref, `after delta ${i}`);
        if (i % 101 === 0) expect(book.top(20), `top 20 after delta ${i}`).toEqual(ref.top(20));
      }
      expectSameBook(book, ref, "at the end");
      expect(fastMode(book, "bids") && fastMode(book, "asks")).toBe(hugeShare === 0);
      expect(book.midPrice()).toBe(
        new Decimal(ref.top(1).bids[0]![0]).plus(ref.top(1).asks[0]![0]).dividedBy(2).toFixed(),
      );
    });
  }

  it("matches the reference on the bench's synthetic stream (100,000 deltas, thousands of levels)", () => {
    const stream = syntheticBookStream({ seed: 7, deltas: 100_000 });
    const book = new OrderBook();
    const ref = new ReferenceBook();
    book.applySnapshot(stream.snapshot.bids, stream.snapshot.asks);
    ref.snapshot(stream.snapshot.bids, stream.snapshot.asks);
    for (let i = 0; i < stream.length; i++) {
      const side: BookSide = stream.sides[i] === 0 ? "bid" : "ask";
      book.applyDelta(side, stream.prices[i]!, stream.amounts[i]!);
      ref.delta(side, stream.prices[i]!, stream.amounts[i]!);
      if (i % 20_000 === 0) expectSameBook(book, ref, `after delta ${i}`);
    }
    expect(book.bidCount).toBeGreaterThan(1000);
    expect(fastMode(book, "bids") && fastMode(book, "asks")).toBe(true);
    expectSameBook(book, ref, "at the end");
  });

  it("keeps order across many chunks when levels arrive in random order", () => {
    const random = seededRandom(99);
    const book = new OrderBook();
    const ref = new ReferenceBook();
    for (let i = 0; i < 5000; i++) {
      const price = (random() * 100000).toFixed(2);
      book.applyDelta("ask", price, "1");
      ref.delta("ask", price, "1");
    }
    const prices = [...ref.asks.values()].map((e) => e.level[0]);
    for (let i = 0; i < 4000; i++) {
      const [price] = prices.splice(Math.floor(random() * prices.length), 1);
      book.applyDelta("ask", price!, "0");
      ref.delta("ask", price!, "0");
    }
    expectSameBook(book, ref, "after removals");
  });
});

describe("order book model: edges found by mutation testing (docs/mutation.md)", () => {
  it("applies a list of levels to the side it names, bids as well as asks", () => {
    const book = new OrderBook();
    book.applyLevels("bid", [
      ["1", "1"],
      ["2", "1"],
    ]);
    book.applyLevels("ask", [["3", "1"]]);
    expect(all(book)).toEqual({
      bids: [
        ["2", "1"],
        ["1", "1"],
      ],
      asks: [["3", "1"]],
    });
  });

  it("says why a number is refused, word for word", () => {
    const reason = (price: string, amount: string): string => {
      try {
        new OrderBook().applyDelta("ask", price, amount);
      } catch (error) {
        expect((error as ExchangeError).exchange).toBe("spotdesk");
        return (error as ExchangeError).detail;
      }
      throw new Error("expected a refusal");
    };
    expect(reason("abc", "1")).toBe("Invalid order-book price 'abc': not a number");
    expect(reason("Infinity", "1")).toBe("Invalid order-book price 'Infinity': not a finite number");
    expect(reason("-5", "1")).toBe("Invalid order-book price '-5': it is negative");
    expect(reason("1", "x")).toBe("Invalid order-book amount 'x': not a number");
  });

  it("has no spread percent on a book whose mid is 0", () => {
    const book = new OrderBook();
    book.applyDelta("bid", "0", "1");
    book.applyDelta("ask", "0", "1");
    expect(book.midPrice()).toBe("0");
    expect(book.spreadPercent()).toBeUndefined();
  });

  it("keeps levels apart when a finer price would push the side's keys past 2^53", () => {
    // keys at scale 2 near 2^53; a price with 3 decimals would multiply them by 10, where doubles
    // are 16 apart: the side must move to exact BigInt keys instead
    const book = new OrderBook();
    const ref = new ReferenceBook();
    const steps: [BookSide, string, string][] = [
      ["bid", "90071992547409.91", "1"],
      ["bid", "90071992547409.9", "2"],
      ["bid", "90071992547409.89", "3"],
      ["bid", "0.001", "4"],
      ["bid", "90071992547409.9", "0"],
      ["bid", "90071992547409.905", "5"],
    ];
    for (const [side, price, amount] of steps) {
      book.applyDelta(side, price, amount);
      ref.delta(side, price, amount);
      expectSameBook(book, ref, `${price} ${amount}`);
    }
  });

  it("empties and refills a side across many chunks, levels removed from the deep end first", () => {
    const book = new OrderBook();
    const ref = new ReferenceBook();
    for (let i = 1; i <= 1200; i++) {
      book.applyDelta("ask", String(i), "1");
      ref.delta("ask", String(i), "1");
    }
    // asks deepest first: the highest prices, whole chunks at a time
    for (let i = 1200; i >= 1; i--) {
      book.applyDelta("ask", String(i), "0");
      ref.delta("ask", String(i), "0");
      if (i % 97 === 0) expectSameBook(book, ref, `removed down to ${i}`);
    }
    expectSameBook(book, ref, "empty");
    // a finer price after emptying starts the side at that scale, not at the old one
    for (const price of ["0.5", "0.25", "7"]) {
      book.applyDelta("ask", price, "1");
      ref.delta("ask", price, "1");
    }
    expectSameBook(book, ref, "refilled");
  });
});

describe("order book model: long and unusual numbers (docs/mutation.md)", () => {
  it("keeps long prices exact whatever their form: no leading 0, many decimals, trailing zeros", () => {
    const book = new OrderBook();
    const ref = new ReferenceBook();
    for (const [price, amount] of [
      [".12345678901234567891", "1"],
      ["0.12345678901234567890", "2"],
      ["0.1234567890123456789", "3"],
      ["0.12345678901234567892", "4"],
      ["12345678901234567890.5", "5"],
    ] as const) {
      book.applyDelta("bid", price, amount);
      ref.delta("bid", price, amount);
      expectSameBook(book, ref, price);
    }
  });

  it("keeps a coarse price exact when the side's fine scale would push its key past 2^53", () => {
    const book = new OrderBook();
    const ref = new ReferenceBook();
    for (const [price, amount] of [
      ["0.000001", "1"],
      ["90071992547", "2"],
      ["90071992547.000001", "3"],
      ["90071992546.999999", "4"],
      ["90071992547", "0"],
    ] as const) {
      book.applyDelta("ask", price, amount);
      ref.delta("ask", price, amount);
      expectSameBook(book, ref, `${price} ${amount}`);
    }
  });

  it("refuses an amount with two decimal marks", () => {
    const book = new OrderBook();
    expect(() => book.applyDelta("bid", "1", "1.2.3")).toThrow("Invalid order-book amount '1.2.3'");
    expect(() => book.applyDelta("bid", "1", "0.0.1")).toThrow("Invalid order-book amount '0.0.1'");
    expect(book.bidCount).toBe(0);
  });
});
