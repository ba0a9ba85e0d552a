import { describe, expect, it } from "vitest";
import { Decimal } from "../../lib/decimal.js";
import { formatBalance, formatCompact, formatSpread, formatUtcTimestamp, orderTooltip } from "../../lib/format.js";

describe("docs/dashboard-rules.md#constants Number display: '1e3 or more is shown with K, 1e6 with M, 1e9 or more with B'", () => {
  it("leaves values below 1e3 without a suffix", () => {
    expect(formatCompact("999.994")).toBe("999.99");
    expect(formatCompact("12")).toBe("12");
    expect(formatCompact("0")).toBe("0");
  });

  it("shows 1e3 or more with K (docs/dashboard-rules.md#constants)", () => {
    expect(formatCompact("1000")).toBe("1K");
    expect(formatCompact("1500")).toBe("1.5K");
    expect(formatCompact("999999")).toBe("999.99K");
  });

  it("shows 1e6 or more with M (docs/dashboard-rules.md#constants)", () => {
    expect(formatCompact("1000000")).toBe("1M");
    expect(formatCompact("2345678")).toBe("2.34M");
    expect(formatCompact("999999999")).toBe("999.99M");
  });

  it("shows 1e9 or more with B as the value divided by 1e9, not 1e6 (docs/dashboard-rules.md#constants, docs/decisions.md#d15)", () => {
    expect(formatCompact("1000000000")).toBe("1B");
    expect(formatCompact("2500000000")).toBe("2.5B");
    expect(formatCompact("1234567890123")).toBe("1234.56B");
  });

  it("keeps the sign and the threshold for negative values", () => {
    expect(formatCompact("-1500")).toBe("-1.5K");
    expect(formatCompact("-999")).toBe("-999");
    expect(formatCompact("-0.001")).toBe("0");
  });

  it("takes decimal strings beyond 15 digits and BigNumber values exactly (docs/exchange-rules.md#limits)", () => {
    expect(formatCompact("123456789012345678901", 3)).toBe("123456789012.345B");
    expect(formatCompact(new Decimal("1234.5678"), 4)).toBe("1.2345K");
  });

  it("refuses a value that is not a number", () => {
    expect(() => formatCompact("abc")).toThrow("not a finite number");
  });
});

describe("docs/dashboard-rules.md#constants 'Balances are shown to 4 decimals when at least 1, otherwise about 3 significant digits'", () => {
  it("shows 4 decimals when at least 1 (docs/dashboard-rules.md#constants)", () => {
    expect(formatBalance("1")).toBe("1.0000");
    expect(formatBalance("1.23456789")).toBe("1.2345");
    expect(formatBalance("30123.4")).toBe("30123.4000");
    expect(formatBalance("123456789012345678.99999")).toBe("123456789012345678.9999");
  });

  it("shows about 3 significant digits below 1 (docs/dashboard-rules.md#constants)", () => {
    expect(formatBalance("0.123456")).toBe("0.123");
    expect(formatBalance("0.000123456")).toBe("0.000123");
    expect(formatBalance("0.00000000987654")).toBe("0.00000000987");
    expect(formatBalance("0.5")).toBe("0.5");
  });

  it("cuts toward zero: a balance never reads more than is held", () => {
    expect(formatBalance("0.9999")).toBe("0.999");
    expect(formatBalance("1.99999")).toBe("1.9999");
    expect(formatBalance("-2.55559")).toBe("-2.5555");
  });

  it("shows zero as 0", () => {
    expect(formatBalance("0")).toBe("0");
    expect(formatBalance("0.0000")).toBe("0");
  });
});

describe("'Last update' UTC timestamp (docs/dashboard-rules.md#screens)", () => {
  it("writes milliseconds as a UTC date and time", () => {
    expect(formatUtcTimestamp(0)).toBe("1970-01-01 00:00:00 UTC");
    expect(formatUtcTimestamp(Date.UTC(2024, 4, 1, 12, 3, 9, 999))).toBe("2024-05-01 12:03:09 UTC");
    expect(formatUtcTimestamp(new Date(Date.UTC(2031, 11, 31, 23, 59, 59)))).toBe("2031-12-31 23:59:59 UTC");
  });

  it("does not depend on the machine's time zone", () => {
    const previous = process.env.TZ;
    process.env.TZ = "Asia/Tokyo";
    try {
      expect(formatUtcTimestamp(Date.UTC(2024, 0, 1, 0, 0, 0))).toBe("2024-01-01 00:00:00 UTC");
    } finally {
      process.env.TZ = previous;
    }
  });

  it("reads '-' for an invalid time", () => {
    expect(formatUtcTimestamp(Number.NaN)).toBe("-");
  });
});

describe("order book middle row (docs/dashboard-rules.md#screens 'the spread percent (prefixed with ~)')", () => {
  it("prefixes the spread with ~", () => {
    expect(formatSpread("0.0531")).toBe("~0.05%");
    expect(formatSpread("1.5", 3)).toBe("~1.500%");
  });
});

describe("docs/exchange-rules.md#chart Order tooltip", () => {
  it("shows 'Avg. price: total divided by amount, 6 decimals' (docs/exchange-rules.md#chart)", () => {
    const t = orderTooltip({ amount: "3", total: "10", pair: "BTC/USDT" });
    expect(t.avgPrice).toBe("3.333333");
  });

  it("shows 'Volume: in the quote currency, 6 decimals' and 'Amount: in the base currency' (docs/exchange-rules.md#chart)", () => {
    const t = orderTooltip({ amount: "0.5", price: "30123.45", pair: "BTC/USDT" });
    expect(t.volume).toBe("15061.725000");
    expect(t.avgPrice).toBe("30123.450000");
    expect(t.amount).toBe("0.5");
    expect(t.lines).toEqual(["Avg. price: 30123.450000", "Amount: 0.5 BTC", "Volume: 15061.725000 USDT"]);
  });

  it("computes exactly with long values (docs/exchange-rules.md#limits)", () => {
    const t = orderTooltip({ amount: "0.1", total: "0.3" });
    expect(t.avgPrice).toBe("3.000000");
    expect(orderTooltip({ amount: "123456789012345678", price: "0.000001" }).volume).toBe("123456789012.345678");
  });

  it("has no average price for a zero amount", () => {
    const t = orderTooltip({ amount: "0", total: "0" });
    expect(t.avgPrice).toBeUndefined();
    expect(t.lines[0]).toBe("Avg. price: -");
  });

  it("needs a total or a price", () => {
    expect(() => orderTooltip({ amount: "1" })).toThrow("total or a price");
  });
});
