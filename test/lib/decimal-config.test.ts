import { describe, expect, it } from "vitest";

describe("the shared Decimal configuration (lib/decimal.ts)", () => {
  // Imported inside the test, so that a configuration bignumber.js refuses fails here, by name,
  // instead of failing to load every suite that uses lib/decimal.ts.
  it("writes numbers in plain digits from 1e-39 to 1e39 and divides to 30 decimal places", async () => {
    const { Decimal } = await import("../../lib/decimal.js");
    expect(new Decimal("1e-39").toString()).toBe(`0.${"0".repeat(38)}1`);
    expect(new Decimal("1e39").toString()).toBe(`1${"0".repeat(39)}`);
    expect(new Decimal("1e40").toString()).toBe("1e+40");
    expect(new Decimal("1e-41").toString()).toBe("1e-41");
    expect(new Decimal(1).dividedBy(3).toFixed()).toBe(`0.${"3".repeat(30)}`);
  });
});
