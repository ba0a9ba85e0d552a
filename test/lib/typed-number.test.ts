import { describe, expect, it } from "vitest";
import {
  isUserNumber,
  parseTypedNumber,
  parseUserNumber,
  resolveTypedOrder,
  roundDownToStep,
} from "../../lib/decimal.js";
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
    expect([error.exchange, error.kind]).toEqual(["spotdesk", "bad-input"]);
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

  it("refuses digits beyond the pair's decimals, naming them (docs/decisions.md#d1)", () => {
    expect(thrown(() => parseTypedNumber("65000.123", "price", { decimals: 2, pair: "BTC/USDT" })).detail).toBe(
      "Invalid price '65000.123': BTC/USDT prices allow at most 2 decimals",
    );
    expect(parseTypedNumber("65000.12", "price", { decimals: 2 }).toFixed()).toBe("65000.12");
    // trailing zeros are not extra digits
    expect(parseTypedNumber("65000.1200", "price", { decimals: 2 }).toFixed()).toBe("65000.12");
    const error = thrown(() => parseTypedNumber("0.1234567", "amount", { decimals: 6, pair: "BTC/USDT" }));
    expect([error.exchange, error.kind, error.detail]).toEqual([
      "spotdesk",
      "bad-input",
      "Invalid amount '0.1234567': BTC/USDT amounts allow at most 6 decimals",
    ]);
    // without a pair the field is named, and one decimal is singular
    expect(thrown(() => parseTypedNumber("1.25", "price", { decimals: 1 })).detail).toBe(
      "Invalid price '1.25': the price allows at most 1 decimal",
    );
    expect(parseTypedNumber("1.2", "price", { decimals: 1 }).toFixed()).toBe("1.2");
  });

  it("only a number that is nothing but a thousands-like group is ambiguous", () => {
    // a prefix before the group makes it no number at all, not an ambiguous one
    expect(thrown(() => parseTypedNumber("1.5,000", "amount")).detail).toBe(
      "Invalid amount '1.5,000': expected digits with an optional '.' or ',' decimal part",
    );
    const spaced = thrown(() => parseTypedNumber(" 1", "amount"));
    expect([spaced.exchange, spaced.kind, spaced.detail]).toEqual([
      "spotdesk",
      "bad-input",
      "Invalid amount ' 1': remove the leading or trailing spaces",
    ]);
  });

  it("names each field of a typed order in its refusals", () => {
    const detail = (input: Parameters<typeof resolveTypedOrder>[0]) => {
      const error = thrown(() => resolveTypedOrder(input));
      expect([error.exchange, error.kind]).toEqual(["spotdesk", "bad-input"]);
      return error.detail;
    };
    expect(detail({ price: "x", amount: "1" })).toContain("Invalid price 'x'");
    expect(detail({ price: "1.234", amount: "1", priceDecimals: 2, pair: "BTC/USDT" })).toBe(
      "Invalid price '1.234': BTC/USDT prices allow at most 2 decimals",
    );
    expect(detail({ price: "1", amount: "y" })).toContain("Invalid amount 'y'");
    expect(detail({ price: "1", quote: "z" })).toContain("Invalid quote 'z'");
    expect(detail({ price: "1" })).toContain("Invalid quote ''");
    expect(detail({ price: "-1", amount: "1" })).toBe("Invalid price '-1': it must be positive");
    expect(detail({ price: "1", amount: "-2" })).toBe("Invalid amount '-2': it must be positive");
    expect(detail({ price: "1", quote: "-3" })).toBe("Invalid quote '-3': it must be positive");
    expect(detail({ price: "0", amount: "1" })).toBe("Invalid price: it is zero");
    expect(detail({ price: "1", amount: "0" })).toBe("Incorrect amount / It is zero!");
  });

  it("keeps an amount typed with exactly the pair's decimals as typed, and unrounded without decimals", () => {
    const typed = resolveTypedOrder({ price: "3", amount: "1.25", amountDecimals: 2 });
    expect([typed.amount.toFixed(), typed.roundedFrom]).toEqual(["1.25", undefined]);
    // no pair decimals known: a quote's amount stays exact
    const exact = resolveTypedOrder({ price: "3", quote: "1" });
    expect(exact.amount.toFixed(5)).toBe("0.33333");
    expect(exact.roundedFrom).toBeUndefined();
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

describe("an amount from --quote rounded down to the venue's lot (docs/orders.md 'Numbers on the command line')", () => {
  it("rounds down to a multiple of the lot, whatever its form", () => {
    expect(roundDownToStep("0.001587301587301587301587301587", "0.000001").toFixed()).toBe("0.001587");
    expect(roundDownToStep("7.9", "0.5").toFixed()).toBe("7.5");
    expect(roundDownToStep("1234", "10").toFixed()).toBe("1230");
    expect(roundDownToStep("1.23", "0").toFixed()).toBe("1.23");
  });

  it("uses the lot for a quote, never for a typed amount, and says what it rounded", () => {
    const quoted = resolveTypedOrder({ price: "63000", quote: "100", amountDecimals: 6, amountLot: "0.000001" });
    expect([quoted.amount.toFixed(), quoted.roundedFrom?.toFixed()]).toEqual([
      "0.001587",
      "0.001587301587301587301587301587",
    ]);
    const halves = resolveTypedOrder({ price: "2", quote: "15.8", amountDecimals: 1, amountLot: "0.5" });
    expect(halves.amount.toFixed()).toBe("7.5");
    const typed = resolveTypedOrder({ price: "2", amount: "7.9", amountDecimals: 1, amountLot: "0.5" });
    expect([typed.amount.toFixed(), typed.roundedFrom]).toEqual(["7.9", undefined]);
  });
});

describe("a number typed in the dashboard (parseUserNumber, docs/orders.md 'Numbers on the command line')", () => {
  it("refuses '1,000' as ambiguous in the CLI's words, as the CLI does, and keeps 0,5 and 12,25", () => {
    expect(() => parseUserNumber("1,000", "price")).toThrow(
      "Ambiguous price '1,000': it reads as 1.000 (comma as decimal mark) or 1000 (comma as thousands separator); write 1.000 or 1000",
    );
    expect(isUserNumber("1,000")).toBe(false);
    expect(isUserNumber(" -12,500 ")).toBe(false);
    expect(parseUserNumber("0,500").toFixed()).toBe("0.5");
    expect(parseUserNumber("12,25").toFixed()).toBe("12.25");
    expect(isUserNumber("1,0000")).toBe(true);
  });
});
