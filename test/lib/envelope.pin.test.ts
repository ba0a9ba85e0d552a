/** Pins of lib/envelope.ts beyond test/lib/envelope.test.ts (docs/dashboard-rules.md#validation, docs/decisions.md#d3; docs/mutation.md). */
import { afterEach, describe, expect, it, vi } from "vitest";
import { decryptText, deriveAesKey, encryptText, openCredentials, validateEncryptionKey } from "../../lib/envelope.js";
import { anyRejection as rejection } from "../rejection.js";

const KEY = "0123456789abcdef";
const HEX64 = "0123456789abcdef".repeat(4);

/** An envelope {data, pair, active} around any text. */
async function around(text: string) {
  return { data: await encryptText(text, KEY), pair: "BTC/USDT", active: true };
}

afterEach(() => vi.unstubAllGlobals());

describe("envelopes, the edges", () => {
  it("says WebCrypto is missing outside a secure context", async () => {
    const message = "WebCrypto is not available: a secure context (https or localhost) is required";
    vi.stubGlobal("crypto", undefined);
    expect((await rejection(deriveAesKey(KEY))).message).toBe(message);
    vi.stubGlobal("crypto", {});
    expect((await rejection(deriveAesKey(KEY))).message).toBe(message);
  });

  it("accepts 64 hex characters only as the whole key, and names the lengths otherwise", () => {
    const error = "Encryption key must be 16, 24 or 32 characters, or the 64 hex characters of a generated key";
    expect(validateEncryptionKey(HEX64)).toBeUndefined();
    expect(validateEncryptionKey(HEX64.toUpperCase())).toBeUndefined();
    expect(validateEncryptionKey(`${HEX64}a`)).toBe(error);
    expect(validateEncryptionKey(`x${HEX64.slice(1)}`)).toBe(error);
    expect(validateEncryptionKey(`${HEX64.slice(1)}x`)).toBe(error);
    expect(validateEncryptionKey("k".repeat(20))).toBe(error);
  });

  it("calls data shorter than the IV and the GCM tag too short (24 + 32 hex characters)", async () => {
    for (const length of [0, 38, 40, 54]) {
      expect((await rejection(decryptText("a".repeat(length), KEY))).message).toBe("Envelope data is too short");
    }
    // 56 characters is the IV and a tag around nothing: long enough, and then not decryptable
    expect((await rejection(decryptText("a".repeat(56), KEY))).message).toBe(
      "Cannot decrypt: wrong encryption key or corrupted data",
    );
    const empty = await encryptText("", KEY);
    expect(empty).toHaveLength(56);
    expect(await decryptText(empty, KEY)).toBe("");
  });

  it.each([
    ["no api", { secret: "s" }],
    ["no secret", { api: "a" }],
    ["an api that is not text", { api: 1, secret: "s" }],
    ["a secret that is not text", { api: "a", secret: ["s"] }],
  ])("refuses credentials with %s", async (_, body) => {
    const error = await rejection(openCredentials(await around(JSON.stringify(body)), KEY));
    expect(error.message).toBe("Envelope does not hold API credentials");
  });

  it.each(["7", '"text"', "not json {", "[]"])(
    "refuses a decrypted text %s that is no credentials object",
    async (text) => {
      const error = await rejection(openCredentials(await around(text), KEY));
      expect(error.message).toBe("Envelope does not hold API credentials");
      expect(error.message).not.toContain(text);
    },
  );

  it("keeps only a passphrase that is non-empty text", async () => {
    expect(await openCredentials(await around(JSON.stringify({ api: "a", secret: "s", password: 5 })), KEY)).toEqual({
      api: "a",
      secret: "s",
    });
    const read = await openCredentials(await around(JSON.stringify({ api: "a", secret: "s", password: "" })), KEY);
    expect(Object.hasOwn(read, "password")).toBe(false);
    expect(await openCredentials(await around(JSON.stringify({ api: "a", secret: "s", password: "p" })), KEY)).toEqual({
      api: "a",
      secret: "s",
      password: "p",
    });
  });
});
