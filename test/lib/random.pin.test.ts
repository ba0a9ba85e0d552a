/**
 * Pins of lib/random.ts (docs/server-speed.md: bytes drawn from a 4 KiB pool, each used once;
 * docs/mutation.md). WebCrypto's getRandomValues is replaced by a counter for the order tests, so
 * every byte drawn says where in the pool it came from.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { randomHex } from "../../lib/random.js";

let next = 0;
function countingBytes() {
  return vi.spyOn(globalThis.crypto, "getRandomValues").mockImplementation((array) => {
    const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
    for (let i = 0; i < bytes.length; i++) bytes[i] = next++ & 0xff;
    return array;
  });
}
const hexOf = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ((from + i) & 0xff).toString(16).padStart(2, "0")).join("");

afterEach(() => vi.restoreAllMocks());

describe("randomHex", () => {
  it("uses each byte of a pool once, in order, and refills only when the pool cannot serve a call", () => {
    const spy = countingBytes();
    next = 0;
    expect(randomHex(3)).toBe("000102");
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0]![0]!.byteLength).toBe(4096);
    expect(randomHex(2)).toBe("0304");
    // exactly the rest of the pool: no refill
    expect(randomHex(4091)).toBe(hexOf(5, 4091));
    expect(spy).toHaveBeenCalledTimes(1);
    // the pool is used up: the next call refills it
    expect(randomHex(1)).toBe(hexOf(4096, 1));
    expect(spy).toHaveBeenCalledTimes(2);
    // 4095 after 1 fills the pool exactly; 2 more do not fit
    expect(randomHex(4095)).toBe(hexOf(4097, 4095));
    expect(randomHex(2)).toBe(hexOf(8192, 2));
    expect(spy).toHaveBeenCalledTimes(3);
  });

  it("serves a call of exactly 4096 bytes from a fresh pool, and a larger one apart from the pool", () => {
    const spy = countingBytes();
    next = 0;
    randomHex(4096); // whatever the pool held, it is used up after this call
    next = 10_000;
    expect(randomHex(5)).toBe(hexOf(10_000, 5));
    const calls = spy.mock.calls.length;
    // 4096 from the pool: it refills (5 bytes were used), then the pool is used up
    expect(randomHex(4096)).toBe(hexOf(14_096, 4096));
    expect(randomHex(1)).toBe(hexOf(18_192, 1));
    expect(spy.mock.calls.length).toBe(calls + 2);
    // more than the pool: drawn on their own, the pool keeps its place
    next = 50_000;
    expect(randomHex(4097)).toBe(hexOf(50_000, 4097));
    expect(spy.mock.calls.at(-1)![0]!.byteLength).toBe(4097);
    expect(randomHex(1)).toBe(hexOf(18_193, 1));
  });

  it("returns two lower-case hex characters per byte from the real WebCrypto", () => {
    const a = randomHex(16);
    const b = randomHex(16);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
    expect(randomHex(0)).toBe("");
    expect(randomHex(5000)).toMatch(/^[0-9a-f]{10000}$/);
  });
});
