import { describe, expect, it } from "vitest";
import {
  checkPrice,
  DEFAULT_FAR_PRICE_PERCENT,
  type PriceGuardRefusal,
  parseFarPricePercent,
} from "../../lib/price-guard.js";

// docs/orders.md "Far-price guard"
const book = { bestBid: "70000", bestAsk: "70010", pair: "BTC/USDT" };

function refusal(result: ReturnType<typeof checkPrice>): PriceGuardRefusal {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result;
}

describe("far-price guard (docs/orders.md)", () => {
  it("defaults to 5%", () => {
    expect(DEFAULT_FAR_PRICE_PERCENT).toBe(5);
  });

  it("refuses a Sell 50% under the best bid, naming price, best, distance, cost against the mid and the override", () => {
    const result = refusal(checkPrice({ side: "Sell", price: "35000", amount: "0.01", ...book }));
    expect(result.reason).toBe("far");
    expect(result.best).toBe("70000");
    expect(result.distancePercent).toBe("50");
    expect(result.mid).toBe("70005");
    // 0.01 x (70005 - 35000)
    expect(result.costVsMid).toBe("350.05");
    expect(result.message).toBe(
      "Sell price 35000 USDT is 50% below the best bid 70000 USDT (far-price limit 5%), about 350.05 USDT less than at the mid 70005; re-run with --allow-far-price to send it anyway",
    );
  });

  it("refuses a Buy 50% over the best ask", () => {
    const result = refusal(checkPrice({ side: "Buy", price: "105015", ...book }));
    expect(result.reason).toBe("far");
    expect(result.best).toBe("70010");
    expect(result.distancePercent).toBe("50");
    expect(result.costVsMid).toBeNull();
    expect(result.message).toContain("Buy price 105015 USDT is 50% above the best ask 70010 USDT");
  });

  it("the TUI's 90%-under-the-bid sell of issue 20 is refused", () => {
    const result = refusal(checkPrice({ side: "Sell", price: "6370", amount: "0.5", ...book }));
    expect(result.distancePercent).toBe("90.9");
  });

  it("passes prices on the own side of the book and through it up to the limit, inclusive", () => {
    expect(checkPrice({ side: "Buy", price: "60000", ...book })).toMatchObject({ ok: true, distancePercent: "0" });
    expect(checkPrice({ side: "Sell", price: "90000", ...book })).toMatchObject({ ok: true, distancePercent: "0" });
    // exactly 5% through the bid: 70000 x 0.95
    expect(checkPrice({ side: "Sell", price: "66500", ...book })).toMatchObject({ ok: true, distancePercent: "5" });
    expect(checkPrice({ side: "Sell", price: "66499.99", ...book }).ok).toBe(false);
    expect(checkPrice({ side: "Buy", price: "73510.5", ...book })).toMatchObject({ ok: true, distancePercent: "5" });
    expect(checkPrice({ side: "Buy", price: "73510.51", ...book }).ok).toBe(false);
  });

  it("takes the limit from the caller (per account or flag), 0 included", () => {
    expect(checkPrice({ side: "Sell", price: "35000", limitPercent: "60", ...book }).ok).toBe(true);
    expect(checkPrice({ side: "Sell", price: "35000", limitPercent: 49.9, ...book }).ok).toBe(false);
    expect(checkPrice({ side: "Buy", price: "70010", limitPercent: "0", ...book }).ok).toBe(true);
    const tight = refusal(checkPrice({ side: "Buy", price: "70011", limitPercent: "0", ...book }));
    expect(tight.message).toContain("far-price limit 0%");
  });

  it("measures with decimals exactly, no float drift", () => {
    const result = refusal(
      checkPrice({ side: "Buy", price: "0.00000330", bestBid: "0.00000290", bestAsk: "0.00000300", amount: "1000000" }),
    );
    expect(result.distancePercent).toBe("10");
    // mid 0.00000295; 1000000 x 0.00000035
    expect(result.costVsMid).toBe("0.35");
  });

  it("refuses without a book and says there is no live book", () => {
    const none = refusal(checkPrice({ side: "Sell", price: "70000", pair: "BTC/USDT" }));
    expect(none.reason).toBe("no-book");
    expect(none.best).toBeNull();
    expect(none.distancePercent).toBeNull();
    expect(none.message).toContain("no live BTC/USDT order book (no best bid)");
    expect(none.message).toContain("--allow-far-price");
    // a Buy needs the ask side; an empty or zero ask is no book
    expect(checkPrice({ side: "Buy", price: "1", bestBid: "1", bestAsk: "0" }).ok).toBe(false);
    const stale = refusal(checkPrice({ side: "Buy", price: "70010", live: false, ...book }));
    expect(stale.reason).toBe("no-book");
    expect(stale.message).toContain("no live BTC/USDT order book");
  });

  it("uses the caller's override words (TUI, dashboard)", () => {
    const result = refusal(checkPrice({ side: "Sell", price: "1", ...book, override: "press y again to send" }));
    expect(result.message.endsWith("; press y again to send")).toBe(true);
  });

  it("parses a typed limit: non-negative decimals only", () => {
    expect(parseFarPricePercent("5")).toBe("5");
    expect(parseFarPricePercent("0.5")).toBe("0.5");
    expect(parseFarPricePercent("0")).toBe("0");
    for (const bad of ["", "-1", "5%", " 5", "1e3", "abc", "5,5"]) expect(parseFarPricePercent(bad)).toBeNull();
  });
});
