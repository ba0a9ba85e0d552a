/** Pins of lib/panel-state.ts beyond test/web/lib-dashboard.test.ts (docs/dashboard-rules.md#entities "panel_state"; docs/mutation.md). */
import { describe, expect, it } from "vitest";
import { decodePanelState, encodePanelState, PANEL_STATE_KEY, splitPieces, xorHex } from "../../lib/panel-state.js";

const GENERATED = "0123456789abcdef".repeat(4);

describe("panel_state, exact pieces", () => {
  it("is kept under the key 'panel_state'", () => {
    expect(PANEL_STATE_KEY).toBe("panel_state");
  });

  it("XORs each hex digit, upper or lower case, and refuses a character that is not hex on either side", () => {
    expect(xorHex("0123456789abcdef", "fedcba9876543210")).toBe("ffffffffffffffff");
    expect(xorHex("A5", "5a")).toBe("ff");
    expect(xorHex("", "")).toBe("");
    expect(() => xorHex("g0", "00")).toThrow("Invalid hex string");
    expect(() => xorHex("00", "0g")).toThrow("Invalid hex string");
  });

  it("splits at a half and three quarters, rounding down", () => {
    expect(splitPieces("abcdefgh")).toEqual(["abcd", "ef", "gh"]);
    expect(splitPieces("abcdefg")).toEqual(["abc", "de", "fg"]);
    expect(splitPieces("abcdefghij")).toEqual(["abcde", "fg", "hij"]);
    expect(splitPieces("")).toEqual(["", "", ""]);
  });

  it("stores a generated key XORed with the mask, both in pieces, as 'g'", () => {
    const mask = "f".repeat(64);
    const state = JSON.parse(encodePanelState(GENERATED, mask));
    const secret = xorHex(GENERATED, mask);
    expect(state).toEqual({ k: splitPieces(secret), m: splitPieces(mask), t: "g" });
    expect(decodePanelState(JSON.stringify(state))).toBe(GENERATED);
  });

  it.each([
    ["upper-case hex", GENERATED.toUpperCase()],
    ["63 hex characters", GENERATED.slice(1)],
    ["65 hex characters", `${GENERATED}a`],
    ["a prefix before 64 hex", `x${GENERATED}`],
  ])("stores %s as an entered key: its UTF-8 text in hex, 'e'", (_, key) => {
    const payload = Buffer.from(key, "utf8").toString("hex");
    const mask = "0".repeat(payload.length);
    const state = JSON.parse(encodePanelState(key, mask));
    expect(state).toEqual({ k: splitPieces(payload), m: splitPieces(mask), t: "e" });
    expect(decodePanelState(JSON.stringify(state))).toBe(key);
  });

  it("stores an entered key with characters beyond ASCII and reads it back", () => {
    const key = "clé-été-ключ-キー";
    const text = encodePanelState(key);
    const state = JSON.parse(text);
    expect(state.t).toBe("e");
    expect(xorHex(state.k.join(""), state.m.join(""))).toBe(Buffer.from(key, "utf8").toString("hex"));
    expect(decodePanelState(text)).toBe(key);
  });

  it("draws a fresh random mask of the payload's length when none is given", () => {
    const a = JSON.parse(encodePanelState(GENERATED));
    const b = JSON.parse(encodePanelState(GENERATED));
    expect(a.m.join("")).toMatch(/^[0-9a-f]{64}$/);
    expect(a.m.join("")).not.toBe(b.m.join(""));
    expect(a.k.join("")).not.toBe(GENERATED);
    expect(xorHex(a.k.join(""), a.m.join(""))).toBe(GENERATED);
  });

  it.each([
    ["empty text", ""],
    ["undefined", undefined],
    ["JSON null", "null"],
    ["k not a list", JSON.stringify({ k: "ab", m: ["a", "b", "c"], t: "g" })],
    ["m not a list", JSON.stringify({ k: ["a", "b", "c"], m: "abc", t: "g" })],
    ["two pieces of k", JSON.stringify({ k: ["a", "b"], m: ["a", "b", "c"], t: "g" })],
    ["four pieces of m", JSON.stringify({ k: ["a", "b", "c"], m: ["a", "b", "c", "d"], t: "g" })],
    ["pieces that are not hex", JSON.stringify({ k: ["x", "b", "c"], m: ["a", "b", "c"], t: "g" })],
    // the same length joined, but not three pieces on one side
    ["two pieces of k, as long as m", JSON.stringify({ k: ["ab", "cd"], m: ["a", "b", "cd"], t: "g" })],
    ["four pieces of m, as long as k", JSON.stringify({ k: ["a", "b", "cd"], m: ["a", "b", "c", "d"], t: "g" })],
  ])("reads nothing from %s", (_, text) => {
    expect(decodePanelState(text)).toBeUndefined();
  });

  it("keeps bytes below 0x10 of an entered key and reads back an empty one", () => {
    const key = "tab\there\u0001-and-more";
    const state = JSON.parse(encodePanelState(key, "0".repeat(key.length * 2)));
    expect(state.k.join("")).toBe(Buffer.from(key, "utf8").toString("hex"));
    expect(decodePanelState(JSON.stringify(state))).toBe(key);
    expect(decodePanelState(JSON.stringify({ k: ["", "", ""], m: ["", "", ""], t: "e" }))).toBe("");
  });

  it("reads a state with neither 'g' nor 'e' as an entered key", () => {
    const state = { k: splitPieces("6869"), m: splitPieces("0000"), t: "x" };
    expect(decodePanelState(JSON.stringify(state))).toBe("hi");
  });
});
