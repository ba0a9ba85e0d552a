/** Pins of lib/decimal.ts's averagePrice, which the okx and gate adapters read an order's average with (docs/exchange-rules.md#limits; docs/mutation.md). */
import { describe, expect, it } from "vitest";
import { averagePrice } from "../../lib/decimal.js";

describe("averagePrice", () => {
  it.each([
    ["30123.5", "0.5", "30123.5"],
    [" 42.10 ", "1", "42.1"],
    [30_000.25, "2", "30000.25"],
    ["0.000000000000000001", "0.000000000000000001", "0.000000000000000001"],
    ["123456789012345678901.5", "3", "123456789012345678901.5"],
  ])("reads %j with %s filled as %s", (average, filled, expected) => {
    expect(averagePrice(average, filled)).toBe(expected);
  });

  it.each([
    ["an empty text", "", "1"],
    ["nothing", undefined, "1"],
    ["null", null, "1"],
    ["zero", "0", "1"],
    ["zero with decimals", "0.000", "1"],
    ["a negative price", "-5", "1"],
    ["a text that is no number", "abc", "1"],
    ["a hex text", "0x10", "1"],
    ["nothing filled", "30000", "0"],
    ["nothing filled, with decimals", "30000", "0.000"],
  ])("has no average for %s", (_, average, filled) => {
    expect(averagePrice(average, filled)).toBeUndefined();
  });
});
