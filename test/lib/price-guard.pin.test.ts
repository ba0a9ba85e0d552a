import { describe, expect, it } from "vitest";
import { parseFarPricePercent } from "../../lib/price-guard.js";

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
    for (const bad of ["5.", ".", "1.2.3", "..5", ".x", "5\n"]) expect(parseFarPricePercent(bad)).toBeNull();
  });
});
