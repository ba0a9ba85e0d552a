import { describe, expect, it } from "vitest";
import { parseTypedNumber, resolveTypedOrder } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";

// docs/orders.md "Numbers on the command line"
function thrown(work: () => unknown): ExchangeError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error("expected an error");
}

describe("numbers typed on the command line (docs/orders.md)", () => {
  it("refuses a comma followed by exactly three digits as ambiguous, showing both readings", () => {
    const error = thrown(() => parseTypedNumber("70,000", "price"));
    expect(error.kind).toBe("bad-input");
    expect(error.detail).toBe(
      "Ambiguous price '70,000': it reads as 70.000 (comma as decimal mark) or 70000 (comma as thousands separator); write 70.000 or 70000",
    );
    expect(thrown(() => parseTypedNumber("1,234", "amount")).detail).toContain("1.234");
    expect(thrown(() => parseTypedNumber("1,234", "amount")).detail).toContain("1234");
    expect(thrown(() => parseTypedNumber("-12,500", "amount")).kind).toBe("bad-input");
  });

  it("keeps the comma decimal mark where it cannot be a thousands separator", () => {
    expect(parseTypedNumber("0,5", "amount").toFixed()).toBe("0.5");
    expect(parseTypedNumber("12,25", "price").toFixed()).toBe("12.25");
    expect(parseTypedNumber("1,2345", "price").toFixed()).toBe("1.2345");
    // a whole part of 0 is never a thousands group
    expect(parseTypedNumber("0,500", "amount").toFixed()).toBe("0.5");
    expect(parseTypedNumber("0,002", "amount").toFixed()).toBe("0.002");
    expect(parseTypedNumber("70000", "price").toFixed()).toBe("70000");
  });

  it("refuses leading or trailing spaces", () => {
    for (const text of [" 1", "1 ", "\t0.5", "0.5\n"]) {
      expect(thrown(() => parseTypedNumber(text, "amount")).detail).toContain("spaces");
    }
  });

  it("refuses digits beyond the pair's decimals, naming them (PRODUCT D1)", () => {
    expect(thrown(() => parseTypedNumber("65000.123", "price", { decimals: 2, pair: "BTC/USDT" })).detail).toBe(
      "Invalid price '65000.123': BTC/USDT prices allow at most 2 decimals",
    );
    expect(parseTypedNumber("65000.12", "price", { decimals: 2 }).toFixed()).toBe("65000.12");
    // trailing zeros are not extra digits
    expect(parseTypedNumber("65000.1200", "price", { decimals: 2 }).toFixed()).toBe("65000.12");
  });

  it("rounds a --quote amount down to the pair's decimals and says it did", () => {
    const order = resolveTypedOrder({ price: "30000", quote: "100", amountDecimals: 6 });
    expect(order.amount.toFixed()).toBe("0.003333");
    expect(order.roundedFrom?.toFixed(10)).toBe("0.0033333333");
    const exact = resolveTypedOrder({ price: "25", quote: "100", amountDecimals: 6 });
    expect(exact.amount.toFixed()).toBe("4");
    expect(exact.roundedFrom).toBeUndefined();
    expect(
      thrown(() => resolveTypedOrder({ price: "30000", amount: "0.0000001", amountDecimals: 6 })).detail,
    ).toContain("at most 6 decimals");
    expect(thrown(() => resolveTypedOrder({ price: "30000", quote: "0.0001", amountDecimals: 6 })).detail).toBe(
      "Incorrect amount / It is zero!",
    );
    expect(thrown(() => resolveTypedOrder({ price: "0", amount: "1" })).detail).toContain("zero");
    expect(thrown(() => resolveTypedOrder({ price: "-1", amount: "1" })).detail).toContain("positive");
  });
});
