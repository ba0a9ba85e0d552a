import { describe, expect, it } from "vitest";
import { parseAnswer } from "./answer.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepDecimals, stepText, stepValue } from "./pair-list.js";

describe("reading a venue's pair list (docs/exchange-rules.md#pairs)", () => {
  it("reads a precision in digits n as 10^-n", () => {
    expect(digitsToStep(0)).toBe("1");
    expect(digitsToStep("2")).toBe("0.01");
    expect(digitsToStep(8)).toBe("0.00000001");
    expect(digitsToStep(" 10 ")).toBe("0.0000000001");
  });

  it("reads a step exactly, a JSON number with an exponent included", () => {
    expect(stepText(1e-8)).toBe("0.00000001");
    expect(stepText("1e-8")).toBe("0.00000001");
    expect(stepText(" 0.000100 ")).toBe("0.0001");
    expect(stepText(0.1)).toBe("0.1");
  });

  it("keeps a minimum only above zero", () => {
    expect(minimum("0")).toBeUndefined();
    expect(minimum(0)).toBeUndefined();
    expect(minimum(null)).toBeUndefined();
    expect(minimum("")).toBeUndefined();
    expect(minimum("5.00")).toBe("5");
  });

  it("counts a step's decimals", () => {
    expect(stepDecimals("1")).toBe(0);
    expect(stepDecimals("0.01")).toBe(2);
    expect(stepDecimals("0.5")).toBe(1);
    expect(stepDecimals("0.00000001")).toBe(8);
    expect(stepDecimals("10")).toBe(0);
  });

  it("refuses a step or a precision in another shape, naming the field", () => {
    expect(() => parseAnswer("okx", stepValue, "0.0x1", "tickSz")).toThrow(
      'Unexpected answer from okx: tickSz expected a decimal number, got "0.0x1"',
    );
    expect(() => parseAnswer("okx", stepValue, -1, "tickSz")).toThrow("Unexpected answer from okx: tickSz");
    expect(() => parseAnswer("gate", precisionDigits, "31", "precision")).toThrow(
      'Unexpected answer from gate: precision expected a number of digits, got "31"',
    );
    expect(() => parseAnswer("gate", precisionDigits, 2.5, "precision")).toThrow(
      "Unexpected answer from gate: precision",
    );
    expect(parseAnswer("gate", precisionDigits, "12", "precision")).toBe("12");
  });

  it("finishes a list: upper case BTC/USDT, sorted, one row per pair, untradeable rows left out", () => {
    const row = { tick: "0.01", lot: "0.001" };
    expect(
      finishPairs([
        { base: "eth", quote: "usdt", ...row, minAmount: "0.01" },
        { base: "BTC", quote: "USDT", ...row, minNotional: "5" },
        { base: "ETH", quote: "USDT", tick: "0.1", lot: "1" },
        { base: "1000SATS", quote: "USDT", ...row },
        { base: "BAD-NAME", quote: "USDT", ...row },
        { base: "", quote: "USDT", ...row },
        { base: "ZERO", quote: "USDT", tick: "0", lot: "1" },
        { base: "ETH", quote: "BTC", ...row },
      ]),
    ).toEqual([
      { pair: "1000SATS/USDT", ...row },
      { pair: "BTC/USDT", ...row, minNotional: "5" },
      { pair: "ETH/BTC", ...row },
      { pair: "ETH/USDT", ...row, minAmount: "0.01" },
    ]);
  });

  it("takes a step as plain or exponent decimal text with spaces around, or a finite number >= 0, and nothing else", () => {
    for (const ok of ["0.01", " 0.01 ", "1", "5.", ".5", ".25", "1e-8", "1E+2", "2.5e-3", "1e8", "1e-10", 0, 0.001]) {
      expect(stepValue.safeParse(ok).success, String(ok)).toBe(true);
    }
    for (const bad of [
      "",
      "-0.01",
      "+1",
      "0.01x",
      "x0.01",
      "1e",
      "e5",
      "1 2",
      -0.001,
      Number.POSITIVE_INFINITY,
      Number.NaN,
    ]) {
      expect(stepValue.safeParse(bad).success, String(bad)).toBe(false);
    }
  });

  it("takes a precision of 0 to 30 digits, text or whole number", () => {
    for (const ok of [0, 30, "0", "9", "19", "29", "30", " 8 "])
      expect(precisionDigits.safeParse(ok).success, String(ok)).toBe(true);
    for (const bad of [-1, 31, "31", "40", "-1", "3x", "x3", "", "300"]) {
      expect(precisionDigits.safeParse(bad).success, String(bad)).toBe(false);
    }
    expect(digitsToStep(1)).toBe("0.1");
  });

  it("keeps a minimum written with spaces or as a number, and none when undefined", () => {
    expect(minimum(undefined)).toBeUndefined();
    expect(minimum(" 0.50 ")).toBe("0.5");
    expect(minimum(1e-7)).toBe("0.0000001");
    expect(minimum("0.000")).toBeUndefined();
  });

  it("leaves out a row whose lot is zero, and keeps the first of two rows of a pair, whatever its case", () => {
    expect(
      finishPairs([
        { base: "btc", quote: "usdt", tick: "0.1", lot: "0" },
        { base: "xrp", quote: "usdt", tick: "0.0001", lot: "1" },
        { base: "XRP", quote: "USDT", tick: "0.01", lot: "10" },
        { base: "ADA", quote: "USDT", tick: "0.001", lot: "1" },
      ]),
    ).toStrictEqual([
      { pair: "ADA/USDT", tick: "0.001", lot: "1" },
      { pair: "XRP/USDT", tick: "0.0001", lot: "1" },
    ]);
    // no minimum given, no key: a JSON list or table shows none
    const [spec] = finishPairs([{ base: "ADA", quote: "USDT", tick: "0.001", lot: "1", minAmount: undefined }]);
    expect(Object.keys(spec ?? {})).toEqual(["pair", "tick", "lot"]);
    const [withMinimums] = finishPairs([
      { base: "ADA", quote: "USDT", tick: "0.001", lot: "1", minAmount: "1", minNotional: "5" },
    ]);
    expect(Object.keys(withMinimums ?? {})).toEqual(["pair", "tick", "lot", "minAmount", "minNotional"]);
  });
});
