/**
 * One rule for success codes at every boundary (docs/decisions.md#d20, docs/feeds.md "Success codes"):
 * compared by value, the same in REST adapters and feeds.
 */
import { describe, expect, it } from "vitest";
import { codeText, codeValue, isCode, isSuccessCode } from "./success.js";

describe("success codes compared by value (docs/decisions.md#d20)", () => {
  it('takes 0 and "0", 1000 and "1000", "00000" and 0, "200000" and 200000 as the same code', () => {
    expect(isCode("0", 0)).toBe(true);
    expect(isCode(0, "0")).toBe(true);
    expect(isCode("1000", 1000)).toBe(true);
    expect(isCode(1000, "1000")).toBe(true);
    expect(isCode("00000", "00000")).toBe(true);
    expect(isCode(0, "00000")).toBe(true);
    expect(isCode(200000, "200000")).toBe(true);
  });

  it("does not take other codes, or values that only Number() would call 0, for success", () => {
    expect(isCode("1001", 1000)).toBe(false);
    expect(isCode(1, 0)).toBe(false);
    for (const notZero of ["", " ", null, undefined, false, true, [], "0x0", "0.0", "0e1", Number.NaN, 0.5, {}]) {
      expect(isCode(notZero, 0), JSON.stringify(notZero)).toBe(false);
    }
    expect(codeValue("-1")).toBe(-1n);
    expect(codeValue(2 ** 60)).toBeUndefined();
  });

  it("treats a missing code as success only where the venue documents it (bitrue)", () => {
    expect(isSuccessCode(undefined, 0)).toBe(false);
    expect(isSuccessCode(undefined, 0, true)).toBe(true);
    expect(isSuccessCode("0", 0, true)).toBe(true);
    expect(isSuccessCode("-1121", 0, true)).toBe(false);
  });

  it("shows a code as text for errors", () => {
    expect(codeText(1000)).toBe("1000");
    expect(codeText("30002")).toBe("30002");
    expect(codeText(null)).toBeUndefined();
  });

  it("reads a signed code, and only safe whole numbers as numbers", () => {
    expect(isCode("+7", 7)).toBe(true);
    expect(isCode("-7", -7)).toBe(true);
    expect(isCode("-7", 7)).toBe(false);
    expect(codeValue(Number.MAX_SAFE_INTEGER)).toBe(9007199254740991n);
    expect(codeValue(Number.MAX_SAFE_INTEGER + 1)).toBeUndefined();
    expect(codeValue("90071992547409931")).toBe(90071992547409931n);
    expect(codeValue("7 ")).toBeUndefined();
    expect(codeValue("a7")).toBeUndefined();
    expect(isCode(undefined, undefined as unknown as number)).toBe(false);
    expect(isCode(["0"], 0)).toBe(false);
    expect(isCode({ toString: () => "0" }, 0)).toBe(false);
  });

  it("a null code is not a missing one, even where a missing code is success", () => {
    expect(isSuccessCode(null, 0, true)).toBe(false);
    expect(isSuccessCode(0, 0)).toBe(true);
    expect(codeText(undefined)).toBeUndefined();
    expect(codeText(true)).toBeUndefined();
    expect(codeText(0)).toBe("0");
  });
});
