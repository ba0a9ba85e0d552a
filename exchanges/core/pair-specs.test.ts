import { describe, expect, it } from "vitest";
import { parseAnswer } from "./answer.js";
import { digits, pairName, pairSpec, plainStep, sortPairs, step, stepOfDigits } from "./pair-specs.js";

describe("pair specs (docs/exchange-rules.md#pairs)", () => {
  it("reads a precision of n digits as 10^-n", () => {
    expect([0, 1, 2, 8, 12].map(stepOfDigits)).toEqual(["1", "0.1", "0.01", "0.00000001", "0.000000000001"]);
  });

  it("takes digits as a JSON number or text and refuses anything else, naming the field", () => {
    expect(parseAnswer("acme", digits, "4")).toBe(4);
    expect(parseAnswer("acme", digits, 0)).toBe(0);
    for (const bad of [-1, 2.5, "two", "", 31, null]) {
      expect(() => parseAnswer("acme", digits, bad, "precision")).toThrow(/Unexpected answer from acme: precision /);
    }
  });

  it("keeps a step exact in its plain form and refuses zero or text that is no number", () => {
    expect(plainStep(parseAnswer("acme", step, "1e-8"))).toBe("0.00000001");
    expect(plainStep(parseAnswer("acme", step, "0.0100"))).toBe("0.01");
    expect(plainStep(parseAnswer("acme", step, 0.001))).toBe("0.001");
    for (const bad of ["0", 0, "abc", "-0.1"]) {
      expect(() => parseAnswer("acme", step, bad, "tickSize")).toThrow(
        /Unexpected answer from acme: tickSize expected a decimal above zero/,
      );
    }
  });

  it("names the pair upper case, keeps minimums above zero only, and sorts by pair", () => {
    expect(pairName(" eth", "usdt ")).toBe("ETH/USDT");
    expect(pairSpec("A/B", "0.1", "1", { amount: "0", notional: 5 })).toEqual({
      pair: "A/B",
      tick: "0.1",
      lot: "1",
      minNotional: "5",
    });
    expect(pairSpec("A/B", "0.1", "1", { amount: "0.5", notional: "" })).toEqual({
      pair: "A/B",
      tick: "0.1",
      lot: "1",
      minAmount: "0.5",
    });
    const list = ["XRP/USDT", "BTC/USDT", "BTC/EUR", "ETH/BTC"].map((pair) => pairSpec(pair, "1", "1"));
    expect(sortPairs(list).map((p) => p.pair)).toEqual(["BTC/EUR", "BTC/USDT", "ETH/BTC", "XRP/USDT"]);
  });
});
