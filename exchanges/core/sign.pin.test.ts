import { describe, expect, it } from "vitest";
import { hmacSha256Base64, hmacSha256Hex, hmacSha512Hex, md5Hex, sha256Hex, sha512Hex } from "./sign.js";

/*
 * The signing helpers every adapter signs with, against published vectors: RFC 4231 test case 2
 * (key "Jefe") for HMAC, FIPS 180-2 / RFC 1321 "abc" for the plain digests. A wrong algorithm or
 * encoding here would make every signed request of the adapters that use it fail (docs/mutation.md).
 */
const KEY = "Jefe";
const DATA = "what do ya want for nothing?";

describe("signing helpers (exchanges/core/sign.ts) against published vectors", () => {
  it("HMAC-SHA256 in hex and base64 (RFC 4231 case 2), from a text or a Buffer key", () => {
    const hex = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
    expect(hmacSha256Hex(KEY, DATA)).toBe(hex);
    expect(hmacSha256Hex(Buffer.from(KEY), DATA)).toBe(hex);
    expect(hmacSha256Base64(KEY, DATA)).toBe("W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=");
    expect(hmacSha256Base64(KEY, DATA)).toBe(Buffer.from(hex, "hex").toString("base64"));
  });

  it("HMAC-SHA512 in hex (RFC 4231 case 2)", () => {
    expect(hmacSha512Hex(KEY, DATA)).toBe(
      "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
    );
  });

  it("SHA-512, SHA-256 and MD5 of 'abc' in hex (FIPS 180-2, RFC 1321)", () => {
    expect(sha512Hex("abc")).toBe(
      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    );
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(md5Hex("abc")).toBe("900150983cd24fb0d6963f7d28e17f72");
  });

  it("signs the payload it is given: a different payload or key gives a different signature", () => {
    expect(hmacSha256Hex(KEY, `${DATA}!`)).not.toBe(hmacSha256Hex(KEY, DATA));
    expect(hmacSha256Hex("Jeff", DATA)).not.toBe(hmacSha256Hex(KEY, DATA));
    expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});
