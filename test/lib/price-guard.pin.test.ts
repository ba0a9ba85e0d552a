import { describe, expect, it } from "vitest";
import { checkPrice, type PriceGuardRefusal, parseFarPricePercent } from "../../lib/price-guard.js";

/* The far-price limit a person types (lib/price-guard.ts), at the edges of its pattern (docs/mutation.md). */
describe("parseFarPricePercent: every plain decimal form a person types", () => {
  it("takes several integer digits, several decimals, and decimals without a leading 0", () => {
    expect(parseFarPricePercent("15")).toBe("15");
    expect(parseFarPricePercent("100")).toBe("100");
    expect(parseFarPricePercent("12.25")).toBe("12.25");
    expect(parseFarPricePercent("0.125")).toBe("0.125");
    expect(parseFarPricePercent(".25")).toBe("0.25");
    expect(parseFarPricePercent(".5")).toBe("0.5");
    expect(parseFarPricePercent("5.50")).toBe("5.5");
  });

  it("refuses a trailing or doubled decimal mark, and a mark with no digits", () => {
    for (const bad of ["5.", ".", "1.2.3", "..5", ".x", "5\n", "5 ", "\t5", " ", "+5", "-0"])
      expect(parseFarPricePercent(bad)).toBeNull();
  });
});

/*
 * The far-price guard's inputs at their edges (docs/orders.md "Far-price guard", docs/mutation.md):
 * what counts as a best price, a limit and a mid, and every sentence the user reads, word for word.
 */
const book = { bestBid: "70000", bestAsk: "70010", pair: "BTC/USDT" };
const OVERRIDE = "re-run with --allow-far-price to send it anyway";

function refusal(result: ReturnType<typeof checkPrice>): PriceGuardRefusal {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result;
}

describe("far-price guard: a best price that is no best price", () => {
  const empty = [null, undefined, "", "0", 0, "-0", "-1", -70010, "Infinity"] as const;

  it("refuses a Buy as no-book when the best ask is missing, empty, zero, negative or infinite", () => {
    for (const bestAsk of empty) {
      const result = refusal(checkPrice({ side: "Buy", price: "70010", bestBid: "70000", bestAsk, pair: "BTC/USDT" }));
      expect(result, String(bestAsk)).toEqual({
        ok: false,
        reason: "no-book",
        price: "70010",
        best: null,
        distancePercent: null,
        costVsMid: null,
        mid: null,
        limitPercent: "5",
        message: `Buy at 70010 USDT not checked: no live BTC/USDT order book (no best ask) to measure it against (far-price limit 5%); ${OVERRIDE}`,
      });
    }
  });

  it("refuses a Sell as no-book the same way when the best bid is not a positive number", () => {
    for (const bestBid of empty) {
      const result = refusal(
        checkPrice({ side: "Sell", price: "69000.5", bestBid, bestAsk: "70010", pair: "BTC/USDT" }),
      );
      expect(result.reason, String(bestBid)).toBe("no-book");
      expect(result.message).toBe(
        `Sell at 69000.5 USDT not checked: no live BTC/USDT order book (no best bid) to measure it against (far-price limit 5%); ${OVERRIDE}`,
      );
    }
  });

  it("says only 'no live order book' when the book is not live, whatever its best prices", () => {
    const stale = refusal(checkPrice({ side: "Sell", price: "70000", live: false, ...book }));
    expect(stale.message).toBe(
      `Sell at 70000 USDT not checked: no live BTC/USDT order book to measure it against (far-price limit 5%); ${OVERRIDE}`,
    );
    expect(checkPrice({ side: "Buy", price: "70010", live: true, ...book }).ok).toBe(true);
  });

  it("names no pair and no currency when it has no pair", () => {
    expect(refusal(checkPrice({ side: "Buy", price: "1.50" })).message).toBe(
      `Buy at 1.5 not checked: no live order book (no best ask) to measure it against (far-price limit 5%); ${OVERRIDE}`,
    );
    expect(refusal(checkPrice({ side: "Sell", price: "2", bestAsk: "2", live: false })).message).toBe(
      `Sell at 2 not checked: no live order book to measure it against (far-price limit 5%); ${OVERRIDE}`,
    );
  });
});

describe("far-price guard: the limit", () => {
  it("falls back to 5% for a limit that is missing, empty, negative or infinite", () => {
    for (const limitPercent of [null, undefined, "", "-1", -0.5, "Infinity"] as const) {
      expect(checkPrice({ side: "Sell", price: "66500", limitPercent, ...book }), String(limitPercent)).toEqual({
        ok: true,
        price: "66500",
        best: "70000",
        distancePercent: "5",
        limitPercent: "5",
      });
      const far = refusal(checkPrice({ side: "Sell", price: "66499.99", limitPercent, ...book }));
      expect(far.limitPercent, String(limitPercent)).toBe("5");
      expect(far.message).toContain("(far-price limit 5%)");
    }
  });

  it("takes a fractional limit as it is, inclusive", () => {
    // 2.5% through the bid: 70000 x 0.975
    expect(checkPrice({ side: "Sell", price: "68250", limitPercent: "2.5", ...book })).toMatchObject({
      ok: true,
      distancePercent: "2.5",
      limitPercent: "2.5",
    });
    expect(refusal(checkPrice({ side: "Sell", price: "68249.99", limitPercent: "2.5", ...book })).distancePercent).toBe(
      "2.5",
    );
  });
});

describe("far-price guard: the mid and the cost against it", () => {
  it("measures the cost against the caller's mid when it gives one", () => {
    const result = refusal(checkPrice({ side: "Sell", price: "35000", amount: "0.01", mid: "70004", ...book }));
    expect(result.mid).toBe("70004");
    // 0.01 x (70004 - 35000)
    expect(result.costVsMid).toBe("350.04");
    expect(result.message).toBe(
      `Sell price 35000 USDT is 50% below the best bid 70000 USDT (far-price limit 5%), about 350.04 USDT less than at the mid 70004; ${OVERRIDE}`,
    );
  });

  it("falls back to (bid + ask) / 2 for a mid that is missing, empty, zero or negative", () => {
    for (const mid of [null, undefined, "", "0", "-70004"] as const) {
      const result = refusal(checkPrice({ side: "Sell", price: "35000", amount: "0.01", mid, ...book }));
      expect(result.mid, String(mid)).toBe("70005");
      expect(result.costVsMid).toBe("350.05");
    }
  });

  it("has no mid and no cost with one side of the book only, and says nothing of a cost", () => {
    const buy = refusal(checkPrice({ side: "Buy", price: "105015", bestAsk: "70010", amount: "1", pair: "BTC/USDT" }));
    expect(buy).toMatchObject({ reason: "far", best: "70010", distancePercent: "50", mid: null, costVsMid: null });
    expect(buy.message).toBe(
      `Buy price 105015 USDT is 50% above the best ask 70010 USDT (far-price limit 5%); ${OVERRIDE}`,
    );
    const sell = refusal(checkPrice({ side: "Sell", price: "35000", bestBid: "70000", amount: "1" }));
    expect(sell).toMatchObject({ reason: "far", mid: null, costVsMid: null });
    expect(sell.message).toBe(`Sell price 35000 is 50% below the best bid 70000 (far-price limit 5%); ${OVERRIDE}`);
  });

  it("has a mid but no cost without an amount, or with an amount of 0", () => {
    for (const amount of [undefined, null, "", "0"] as const) {
      const result = refusal(checkPrice({ side: "Buy", price: "105015", amount, ...book }));
      expect(result.mid, String(amount)).toBe("70005");
      expect(result.costVsMid).toBeNull();
      expect(result.message).toBe(
        `Buy price 105015 USDT is 50% above the best ask 70010 USDT (far-price limit 5%); ${OVERRIDE}`,
      );
    }
  });

  it("counts a cost only when the order loses against the mid", () => {
    // a caller's mid at or above a far Buy's price: buying there costs nothing against it
    for (const mid of ["105015", "200000"]) {
      const result = refusal(checkPrice({ side: "Buy", price: "105015", amount: "1", mid, ...book }));
      expect(result.mid).toBe(mid);
      expect(result.costVsMid, mid).toBeNull();
      expect(result.message).not.toContain("about");
    }
    // and a Sell below a caller's mid under its price
    const sell = refusal(checkPrice({ side: "Sell", price: "35000", amount: "1", mid: "30000", ...book }));
    expect(sell.costVsMid).toBeNull();
  });

  it("says 'more' for a Buy, with the cost rounded half up to 8 decimals and no currency without a pair", () => {
    // mid 1, 1 x 0.123456785 above it: 0.12345679 (half up, not half even)
    const result = refusal(checkPrice({ side: "Buy", price: "2", bestBid: "1", bestAsk: "1", amount: "0.123456785" }));
    expect(result.costVsMid).toBe("0.12345679");
    expect(result.message).toBe(
      `Buy price 2 is 100% above the best ask 1 (far-price limit 5%), about 0.12345679 more than at the mid 1; ${OVERRIDE}`,
    );
    const withPair = refusal(checkPrice({ side: "Buy", price: "105015", amount: "2", mid: "70000", ...book }));
    expect(withPair.message).toBe(
      `Buy price 105015 USDT is 50% above the best ask 70010 USDT (far-price limit 5%), about 70030 USDT more than at the mid 70000; ${OVERRIDE}`,
    );
  });
});
