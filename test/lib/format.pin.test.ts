/** Pins of lib/format.ts beyond test/lib/format.test.ts (docs/dashboard-rules.md#constants, docs/exchange-rules.md#chart; docs/mutation.md). */
import { describe, expect, it } from "vitest";
import { formatBalance, formatCompact, formatSpread, orderTooltip } from "../../lib/format.js";

describe("display errors name the value shown", () => {
  it.each([
    ["number", () => formatCompact("abc"), "'abc'"],
    ["balance", () => formatBalance("1..2"), "'1..2'"],
    ["spread", () => formatSpread("NaN"), "'NaN'"],
    ["amount", () => orderTooltip({ amount: "x", total: "1" }), "'x'"],
    ["total", () => orderTooltip({ amount: "1", total: "Infinity" }), "'Infinity'"],
    ["price", () => orderTooltip({ amount: "1", price: "" }), "''"],
  ])("says which %s cannot be displayed", (what, call, shown) => {
    expect(call).toThrow(`Cannot display ${what} ${shown}: not a finite number`);
  });
});

describe("balances below 1 and tooltips without a pair", () => {
  it("shows a negative zero and tiny balances without a stray sign or zero", () => {
    expect(formatBalance("-0")).toBe("0");
    expect(formatBalance("0.000000001234")).toBe("0.00000000123");
    expect(formatBalance("-0.98765")).toBe("-0.987");
  });

  it("writes the amount and volume lines without units when the pair is not known", () => {
    expect(orderTooltip({ amount: "2", price: "3" }).lines).toEqual([
      "Avg. price: 3.000000",
      "Amount: 2",
      "Volume: 6.000000",
    ]);
  });

  it("writes each unit after one space", () => {
    expect(orderTooltip({ amount: "2", total: "5", pair: "ETH/USDC" }).lines).toEqual([
      "Avg. price: 2.500000",
      "Amount: 2 ETH",
      "Volume: 5.000000 USDC",
    ]);
  });
});
