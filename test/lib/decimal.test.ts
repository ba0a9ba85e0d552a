import { describe, expect, it } from "vitest";
import {
  addDecimals,
  Decimal,
  isUserNumber,
  parseUserNumber,
  quoteToAmount,
  resolveOrderAmount,
  toDecimalString,
  truncate,
  ZERO_AMOUNT_MESSAGE,
} from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";

function thrown(fn: () => unknown): ExchangeError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error("expected a throw");
}

describe("docs/dashboard-rules.md#validation Numbers: 'an optional minus sign, digits, and a decimal part with '.' or ','", () => {
  it("accepts digits, an optional minus sign and a '.' decimal part (docs/dashboard-rules.md#validation)", () => {
    expect(parseUserNumber("42").toFixed()).toBe("42");
    expect(parseUserNumber("-42").toFixed()).toBe("-42");
    expect(parseUserNumber("30123.45").toFixed()).toBe("30123.45");
    expect(parseUserNumber("-0.001").toFixed()).toBe("-0.001");
    expect(parseUserNumber(".5").toFixed()).toBe("0.5");
    expect(parseUserNumber("5.").toFixed()).toBe("5");
  });

  it("converts a comma to a dot: 'A comma is converted to a dot' (docs/dashboard-rules.md#validation)", () => {
    expect(parseUserNumber("0,25").toFixed()).toBe("0.25");
    expect(parseUserNumber("-1,5").toFixed()).toBe("-1.5");
    expect(isUserNumber("1,5")).toBe(true);
  });

  it("trims surrounding spaces", () => {
    expect(parseUserNumber("  7.5 ").toFixed()).toBe("7.5");
  });

  it("rejects anything else with a clear error naming the field and the text (docs/dashboard-rules.md#validation)", () => {
    for (const bad of [
      "",
      " ",
      "-",
      "abc",
      "1.2.3",
      "1,2,3",
      "1,000.50",
      "+1",
      "1e5",
      "0x10",
      "Infinity",
      "NaN",
      "--1",
      "1 000",
      "1-",
    ]) {
      expect(isUserNumber(bad), bad).toBe(false);
      const error = thrown(() => parseUserNumber(bad, "price"));
      expect(error.kind).toBe("bad-input");
      expect(error.message).toContain("price");
      expect(error.message).toContain(`'${bad}'`);
    }
  });

  it("keeps numbers longer than 15 characters exact: 'Numbers longer than 15 characters are parsed as big numbers' (docs/exchange-rules.md#limits)", () => {
    expect(parseUserNumber("123456789012345678.123456789").toFixed()).toBe("123456789012345678.123456789");
    expect(parseUserNumber("0,000000000000000001").toFixed()).toBe("0.000000000000000001");
  });
});

describe("docs/dashboard-rules.md#validation Orders: amount = quote / price", () => {
  it("computes 'If the amount is empty and a quote is given, amount = quote / price' (docs/dashboard-rules.md#validation)", () => {
    expect(quoteToAmount("100", "25").toFixed()).toBe("4");
    expect(quoteToAmount("1", "3").toFixed(6)).toBe("0.333333");
    const { amount, price } = resolveOrderAmount({ price: "25", quote: "100" });
    expect(amount.toFixed()).toBe("4");
    expect(price.toFixed()).toBe("25");
  });

  it("divides exactly beyond binary floats: 0.3 / 0.1 = 3 (docs/dashboard-rules.md#validation)", () => {
    expect(quoteToAmount("0.3", "0.1").toFixed()).toBe("3");
  });

  it("prefers a typed amount over the quote", () => {
    expect(resolveOrderAmount({ price: "10", amount: "2", quote: "100" }).amount.toFixed()).toBe("2");
  });

  it("accepts commas in every field (docs/dashboard-rules.md#validation)", () => {
    const r = resolveOrderAmount({ price: "0,5", quote: "1,5" });
    expect(r.price.toFixed()).toBe("0.5");
    expect(r.amount.toFixed()).toBe("3");
  });

  it("shows 'Incorrect amount / It is zero!' when the result is zero (docs/dashboard-rules.md#validation)", () => {
    expect(ZERO_AMOUNT_MESSAGE).toBe("Incorrect amount / It is zero!");
    expect(thrown(() => resolveOrderAmount({ price: "10", amount: "0" })).detail).toBe(
      "Incorrect amount / It is zero!",
    );
    expect(thrown(() => resolveOrderAmount({ price: "10", quote: "0" })).detail).toBe("Incorrect amount / It is zero!");
  });

  it("truncates toward zero with the pair's decimals before the zero check (docs/decisions.md#d1)", () => {
    // 1 / 30000 = 0.0000333…: with 4 amount decimals it truncates to 0
    const error = thrown(() => resolveOrderAmount({ price: "30000", quote: "1", amountDecimals: 4 }));
    expect(error.detail).toBe("Incorrect amount / It is zero!");
    expect(error.kind).toBe("bad-input");
    expect(thrown(() => resolveOrderAmount({ price: "1", amount: "0.00009", amountDecimals: 4 })).detail).toBe(
      "Incorrect amount / It is zero!",
    );
    // 100 / 3 = 33.333…: truncated, never rounded up
    const r = resolveOrderAmount({ price: "3", quote: "100", amountDecimals: 2 });
    expect(r.amount.toFixed()).toBe("33.33");
    const p = resolveOrderAmount({ price: "30123.459", amount: "1.99999", priceDecimals: 2, amountDecimals: 3 });
    expect(p.price.toFixed()).toBe("30123.45");
    expect(p.amount.toFixed()).toBe("1.999");
  });

  it("computes the amount from the truncated price (docs/decisions.md#d1)", () => {
    // price 2.999 with 0 decimals is 2, so a quote of 10 buys 5
    expect(resolveOrderAmount({ price: "2.999", quote: "10", priceDecimals: 0 }).amount.toFixed()).toBe("5");
  });

  it("needs a price and an amount or a quote: 'An order needs a price and an amount or a quote' (docs/dashboard-rules.md#validation)", () => {
    expect(thrown(() => resolveOrderAmount({ price: "10" })).kind).toBe("bad-input");
    expect(thrown(() => resolveOrderAmount({ price: "10", amount: " ", quote: "" })).kind).toBe("bad-input");
    expect(thrown(() => resolveOrderAmount({ price: "", amount: "1" })).message).toContain("price");
  });

  it("rejects negative and zero prices and negative amounts or quotes, naming the field", () => {
    expect(thrown(() => resolveOrderAmount({ price: "-1", amount: "1" })).message).toContain("price");
    expect(thrown(() => resolveOrderAmount({ price: "0", amount: "1" })).message).toContain("price");
    expect(thrown(() => resolveOrderAmount({ price: "0.001", amount: "1", priceDecimals: 2 })).message).toContain(
      "price",
    );
    expect(thrown(() => resolveOrderAmount({ price: "1", amount: "-1" })).message).toContain("amount '-1'");
    expect(thrown(() => resolveOrderAmount({ price: "1", quote: "-5" })).message).toContain("quote '-5'");
    expect(thrown(() => resolveOrderAmount({ price: "1", amount: "x1" })).message).toContain("amount");
  });
});

describe("truncation toward zero (docs/decisions.md#d1)", () => {
  it("cuts digits and never rounds, for positive and negative values", () => {
    expect(truncate("1.239", 2).toFixed()).toBe("1.23");
    expect(truncate("-1.239", 2).toFixed()).toBe("-1.23");
    expect(truncate("0.0099", 2).toFixed()).toBe("0");
    expect(truncate("5", 3).toFixed()).toBe("5");
    expect(truncate("123456789012345678.987654321", 4).toFixed()).toBe("123456789012345678.9876");
  });
});

describe("exchange numbers (docs/exchange-rules.md#limits: values longer than 15 characters are big numbers)", () => {
  it("passes long decimal strings through exactly", () => {
    expect(toDecimalString("123456789012345678.123456789")).toBe("123456789012345678.123456789");
    expect(toDecimalString("0.000000000000000000000001")).toBe("0.000000000000000000000001");
    expect(toDecimalString("1.50")).toBe("1.5");
    expect(toDecimalString(" 2 ")).toBe("2");
  });

  it("writes exponent forms out in plain digits", () => {
    expect(toDecimalString("1e-8")).toBe("0.00000001");
    expect(toDecimalString(1e21)).toBe("1000000000000000000000");
    expect(toDecimalString(1e-7)).toBe("0.0000001");
  });

  it("takes a JSON number by its shortest round-trip text", () => {
    expect(toDecimalString(0.1)).toBe("0.1");
    expect(toDecimalString(30123.45)).toBe("30123.45");
  });

  it("answers the fallback for missing or non-decimal values", () => {
    expect(toDecimalString(undefined)).toBe("0");
    expect(toDecimalString(null, "")).toBe("");
    expect(toDecimalString("")).toBe("0");
    expect(toDecimalString("abc")).toBe("0");
    expect(toDecimalString("0x10")).toBe("0");
    expect(toDecimalString(Number.NaN)).toBe("0");
    expect(toDecimalString(Number.POSITIVE_INFINITY)).toBe("0");
    expect(toDecimalString({})).toBe("0");
    expect(toDecimalString(12n)).toBe("12");
  });

  it("adds decimal strings exactly: the displayed total is f + l (docs/dashboard-rules.md#entities)", () => {
    expect(addDecimals("0.1", "0.2")).toBe("0.3");
    expect(addDecimals("99999999999999999.99999999", "0.00000001")).toBe("100000000000000000");
    expect(addDecimals()).toBe("0");
  });

  it("never prints exponent notation from the shared Decimal", () => {
    expect(new Decimal("1e-30").toString()).toBe("0.000000000000000000000000000001");
    expect(new Decimal("1e30").toString()).toBe("1000000000000000000000000000000");
  });
});

/** An error of the number rules: thrown by spotdesk itself, bad input, with exactly this text. */
function refusal(fn: () => unknown): { exchange: string; kind: string; detail: string } {
  const { exchange, kind, detail } = thrown(fn);
  return { exchange, kind, detail };
}
const badInput = (detail: string) => ({ exchange: "spotdesk", kind: "bad-input", detail });

describe("the number rules at their edges (docs/dashboard-rules.md#validation, docs/decisions.md#d1)", () => {
  it("reads a decimal part without a whole part, of one digit or more, with either mark", () => {
    expect(parseUserNumber(".25").toFixed()).toBe("0.25");
    expect(parseUserNumber(",75").toFixed()).toBe("0.75");
    expect(parseUserNumber("-.5").toFixed()).toBe("-0.5");
    expect(isUserNumber(" 1,5 ")).toBe(true);
    expect(isUserNumber(".")).toBe(false);
  });

  it("names the field 'number' when none is given", () => {
    expect(refusal(() => parseUserNumber("x"))).toEqual(
      badInput("Invalid number 'x': expected digits with an optional '.' or ',' decimal part"),
    );
  });

  it("a quote over a zero price is no amount at all, not an infinite one", () => {
    expect(quoteToAmount("10", "0").toFixed()).toBe("0");
    expect(quoteToAmount("10", "0.000").toFixed()).toBe("0");
  });

  it("a blank amount falls back to the quote, and a blank quote to nothing", () => {
    expect(resolveOrderAmount({ price: "10", amount: " ", quote: "20" }).amount.toFixed()).toBe("2");
    expect(resolveOrderAmount({ price: "10", amount: "", quote: "20" }).amount.toFixed()).toBe("2");
    expect(resolveOrderAmount({ price: "10", amount: "3", quote: " " }).amount.toFixed()).toBe("3");
    expect(refusal(() => resolveOrderAmount({ price: "10", quote: "  " }))).toEqual(
      badInput("An order needs a price and an amount or a quote"),
    );
    expect(refusal(() => resolveOrderAmount({ price: "10" }))).toEqual(
      badInput("An order needs a price and an amount or a quote"),
    );
  });

  it("says exactly what is wrong with a price, an amount or a quote", () => {
    expect(refusal(() => resolveOrderAmount({ price: "-1", amount: "1" }))).toEqual(
      badInput("Invalid price '-1': it must be positive"),
    );
    expect(refusal(() => resolveOrderAmount({ price: "0", amount: "1" }))).toEqual(
      badInput("Invalid price: it is zero"),
    );
    // 0.009 with 2 price decimals is 0
    expect(refusal(() => resolveOrderAmount({ price: "0.009", amount: "1", priceDecimals: 2 }))).toEqual(
      badInput("Invalid price: it is zero"),
    );
    expect(refusal(() => resolveOrderAmount({ price: "1", amount: "-2" }))).toEqual(
      badInput("Invalid amount '-2': it must be positive"),
    );
    expect(refusal(() => resolveOrderAmount({ price: "1", quote: "-0,5" }))).toEqual(
      badInput("Invalid quote '-0,5': it must be positive"),
    );
    expect(refusal(() => resolveOrderAmount({ price: "1", amount: "0" }))).toEqual(badInput(ZERO_AMOUNT_MESSAGE));
  });
});

describe("exchange numbers at their edges (docs/exchange-rules.md#limits)", () => {
  it("reads a leading plus sign, a decimal part without a whole part and every exponent form", () => {
    expect(toDecimalString("+1.5")).toBe("1.5");
    expect(toDecimalString("-.25")).toBe("-0.25");
    expect(toDecimalString(".125")).toBe("0.125");
    expect(toDecimalString("1e8")).toBe("100000000");
    expect(toDecimalString("1E+2")).toBe("100");
    expect(toDecimalString("1.5e-10")).toBe("0.00000000015");
  });

  it("refuses what is not one decimal number", () => {
    for (const bad of ["1.2.3", "1e", "e5", ".", "1-", "++1", "1,5", "Infinity"]) {
      expect(toDecimalString(bad, "?"), bad).toBe("?");
    }
  });
});
