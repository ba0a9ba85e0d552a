import { createCipheriv, createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  bytesToHex,
  decryptText,
  deriveAesKey,
  encryptText,
  generateEncryptionKey,
  hexToBytes,
  openCredentials,
  readEncryptionKey,
  sealCredentials,
  validateEncryptionKey,
} from "../../lib/envelope.js";
import { anyRejection as rejection } from "../rejection.js";
import { ENVELOPE_VECTORS } from "./envelope-vectors.js";

/** An independent implementation with node:crypto, to check the WebCrypto one against. */
function nodeSeal(key: string, ivHex: string, plain: string): string {
  const aesKey = createHash("sha256").update(key, "utf8").digest();
  const cipher = createCipheriv("aes-256-gcm", aesKey, Buffer.from(ivHex, "hex"));
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return ivHex + sealed.toString("hex");
}

describe("fixed envelope vectors (docs/dashboard-rules.md#entities 'data (12-byte random IV in hex, then the ciphertext in hex)', docs/decisions.md#d3)", () => {
  for (const v of ENVELOPE_VECTORS) {
    it(`matches node:crypto for a ${v.key.length}-character key and ${v.plain.length}-character text`, async () => {
      expect(createHash("sha256").update(v.key, "utf8").digest("hex")).toBe(v.aesKeyHex);
      expect(nodeSeal(v.key, v.iv, v.plain)).toBe(v.data);
    });

    it(`writes and reads the vector with WebCrypto (key '${v.key.slice(0, 8)}…')`, async () => {
      expect(await encryptText(v.plain, v.key, hexToBytes(v.iv))).toBe(v.data);
      expect(await decryptText(v.data, v.key)).toBe(v.plain);
    });
  }

  it("derives the AES-256 key as SHA-256 of the key's UTF-8 text (docs/decisions.md#d3)", async () => {
    const v = ENVELOPE_VECTORS[0]!;
    // A key imported from the expected raw bytes decrypts what deriveAesKey's key encrypted.
    const raw = await crypto.subtle.importKey("raw", hexToBytes(v.aesKeyHex), { name: "AES-GCM" }, false, ["decrypt"]);
    const data = hexToBytes(v.data);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: data.slice(0, 12) }, raw, data.slice(12));
    expect(new TextDecoder().decode(plain)).toBe(v.plain);
    const derived = await deriveAesKey(v.key);
    expect(derived.algorithm).toMatchObject({ name: "AES-GCM", length: 256 });
    expect(derived.extractable).toBe(false);
  });

  it("seals credentials into the seed's envelope {data, pair, active} (docs/dashboard-rules.md#entities)", async () => {
    const v = ENVELOPE_VECTORS[1]!;
    const envelope = await sealCredentials({ api: "k-123", secret: "s-456" }, "BTC/USDT", v.key, hexToBytes(v.iv));
    expect(envelope).toEqual({ data: v.data, pair: "BTC/USDT", active: true });
    expect(await openCredentials(envelope, v.key)).toEqual({ api: "k-123", secret: "s-456" });
  });
});

describe("envelopes (docs/dashboard-rules.md#validation 'Cipher: AES-GCM 256-bit', docs/dashboard-rules.md#constants '12-byte IV')", () => {
  it("starts data with a fresh random 12-byte IV in hex on every seal (docs/dashboard-rules.md#entities)", async () => {
    const a = await encryptText("same", "0123456789abcdef");
    const b = await encryptText("same", "0123456789abcdef");
    expect(a.slice(0, 24)).toMatch(/^[0-9a-f]{24}$/);
    expect(a.slice(0, 24)).not.toBe(b.slice(0, 24));
    // IV (12) + ciphertext (4) + tag (16) bytes
    expect(a.length).toBe((12 + 4 + 16) * 2);
  });

  it("round-trips credentials with a passphrase", async () => {
    const key = generateEncryptionKey();
    const envelope = await sealCredentials({ api: "a", secret: "b", password: "pass" }, "ETH/USDT", key);
    expect(await openCredentials(envelope, key)).toEqual({ api: "a", secret: "b", password: "pass" });
  });

  it("refuses a wrong key with an error that holds no secret", async () => {
    const v = ENVELOPE_VECTORS[1]!;
    const wrongKey = "fedcba9876543210";
    const error = await rejection(decryptText(v.data, wrongKey));
    expect(error.message).toBe("Cannot decrypt: wrong encryption key or corrupted data");
    for (const secret of [wrongKey, v.key, v.data, "k-123", "s-456"]) expect(error.message).not.toContain(secret);
    expect(String(error.stack)).not.toContain(wrongKey);
  });

  it("refuses an envelope whose text is not credentials without quoting the decrypted text", async () => {
    const v = ENVELOPE_VECTORS[0]!;
    const error = await rejection(openCredentials({ data: v.data, pair: "BTC/USDT", active: true }, v.key));
    expect(error.message).toBe("Envelope does not hold API credentials");
    expect(error.message).not.toContain(v.plain);
    const nullBody = await encryptText("null", v.key);
    expect((await rejection(openCredentials({ data: nullBody, pair: "", active: true }, v.key))).message).toBe(
      "Envelope does not hold API credentials",
    );
  });

  it("refuses tampered data (GCM tag)", async () => {
    const v = ENVELOPE_VECTORS[0]!;
    const last = v.data.at(-1) === "0" ? "1" : "0";
    const tampered = v.data.slice(0, -1) + last;
    expect((await rejection(decryptText(tampered, v.key))).message).toBe(
      "Cannot decrypt: wrong encryption key or corrupted data",
    );
  });

  it("refuses data too short or not hex, without echoing it", async () => {
    expect((await rejection(decryptText("abcd", "0123456789abcdef"))).message).toBe("Envelope data is too short");
    const notHex = "zz".repeat(40);
    const error = await rejection(decryptText(notHex, "0123456789abcdef"));
    expect(error.message).not.toContain(notHex);
  });

  it("refuses an IV that is not 12 bytes", async () => {
    expect((await rejection(encryptText("x", "0123456789abcdef", new Uint8Array(16)))).message).toContain("12 bytes");
  });

  it("accepts entered keys of 16, 24 or 32 characters and generated 64-hex keys: 'Length must be 16, 24 or 32 when entered' (docs/dashboard-rules.md#validation)", () => {
    for (const n of [16, 24, 32]) expect(validateEncryptionKey("k".repeat(n))).toBeUndefined();
    for (const n of [0, 15, 17, 31, 33, 64]) expect(validateEncryptionKey("k".repeat(n))).toBeDefined();
    expect(validateEncryptionKey(generateEncryptionKey())).toBeUndefined();
  });

  describe("reading a typed key (docs/decisions.md#d36)", () => {
    const refused = {
      error: "Encryption key must be 16, 24 or 32 characters, or the 64 hex characters of a generated key",
    };
    it("takes 16, 24 or 32 characters as typed, spaces included", () => {
      for (const n of [16, 24, 32]) expect(readEncryptionKey("k".repeat(n))).toEqual({ key: "k".repeat(n) });
      expect(readEncryptionKey(" 0123456789abcd ")).toEqual({ key: " 0123456789abcd " });
      // 32 hex characters are a 32-character key, not 16 bytes
      expect(readEncryptionKey("ab".repeat(16))).toEqual({ key: "ab".repeat(16) });
    });
    it("reads 64 hex characters as the 32 bytes they encode: capitals and a pasted line break give the generated key back", () => {
      const generated = generateEncryptionKey();
      expect(readEncryptionKey(generated)).toEqual({ key: generated });
      expect(readEncryptionKey(generated.toUpperCase())).toEqual({ key: generated });
      expect(readEncryptionKey(`  ${generated}\n`)).toEqual({ key: generated });
    });
    it("refuses anything else with a message naming what a key is", () => {
      for (const text of [
        "",
        "k".repeat(15),
        "k".repeat(33),
        "k".repeat(64),
        `${"a".repeat(63)}g`,
        "a".repeat(62),
        "a".repeat(66),
      ])
        expect(readEncryptionKey(text)).toEqual(refused);
    });
    it("opens with the key typed back what was sealed with the generated key (the 64-hex key typed in capitals too)", async () => {
      const generated = generateEncryptionKey();
      const envelope = await sealCredentials({ api: "a", secret: "s" }, "BTC/USDT", generated);
      for (const typed of [generated, generated.toUpperCase()]) {
        const read = readEncryptionKey(typed);
        if ("error" in read) throw new Error(read.error);
        expect(await openCredentials(envelope, read.key)).toEqual({ api: "a", secret: "s" });
      }
    });
  });

  it("generates '32 random bytes as hex' (docs/dashboard-rules.md#validation)", () => {
    const key = generateEncryptionKey();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(generateEncryptionKey()).not.toBe(key);
  });

  it("converts hex both ways and rejects bad hex", () => {
    expect(bytesToHex(new Uint8Array([0, 15, 255]))).toBe("000fff");
    expect([...hexToBytes("000fFF")]).toEqual([0, 15, 255]);
    expect(() => hexToBytes("abc")).toThrow("Invalid hex string");
    expect(() => hexToBytes("zz")).toThrow("Invalid hex string");
  });
});
