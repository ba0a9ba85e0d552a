import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CODE_ALPHABET, SERVER_LIMITS } from "../../lib/api.js";
import {
  generateCode,
  hashPassword,
  loadOrCreateSecret,
  randomToken,
  safeEqual,
  sha256Base64url,
  sha256Hex,
  signAccessToken,
  verifyAccessToken,
  verifyAccessTokenCached,
  verifyPassword,
} from "../../server/auth/secrets.js";

/*
 * The server's key material, password hashes and access tokens (server/auth/secrets.ts) at their
 * edges (docs/mutation.md), on real files in a temporary directory. test/server/auth.test.ts covers
 * them through the HTTP routes.
 */
const dir = mkdtempSync(join(tmpdir(), "spotdesk-secrets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = "a".repeat(64);
const payload = { uid: "u1", sid: "s1", expires: 1_700_000_900_000 };

/** A token signed the way the server signs, over any body text. */
function signedBody(bodyText: string, secret = SECRET): string {
  const body = Buffer.from(bodyText, "utf8").toString("base64url");
  return `${body}.${createHmac("sha256", secret).update(body).digest("base64url")}`;
}

describe("key files (loadOrCreateSecret)", () => {
  it("creates a 64-hex secret with mode 0600 and reads the same one back", () => {
    const file = join(dir, "token-secret");
    const secret = loadOrCreateSecret(file);
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(file, "utf8")).toBe(`${secret}\n`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadOrCreateSecret(file)).toBe(secret);
  });

  it("reads a hand-written secret trimmed and lower-cased, and refuses one that is not 64 hex characters", () => {
    const file = join(dir, "data-key");
    writeFileSync(file, `  ${"AB".repeat(32)}\n`);
    expect(loadOrCreateSecret(file)).toBe("ab".repeat(32));
    writeFileSync(file, "ab".repeat(31));
    expect(() => loadOrCreateSecret(file)).toThrow(`${file} does not hold 64 hex characters`);
    writeFileSync(file, `${"ab".repeat(32)}0`);
    expect(() => loadOrCreateSecret(file)).toThrow("does not hold 64 hex characters");
    writeFileSync(file, `x${"ab".repeat(32)}`);
    expect(() => loadOrCreateSecret(file)).toThrow("does not hold 64 hex characters");
    writeFileSync(file, `${"ab".repeat(31)}zz`);
    expect(() => loadOrCreateSecret(file)).toThrow("does not hold 64 hex characters");
  });
});

describe("digests, random tokens and codes", () => {
  it("hashes UTF-8 text with SHA-256 in hex and base64url (FIPS 180-2 'abc')", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Base64url("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0");
    // "é" as its UTF-8 bytes c3 a9, not as one Latin-1 byte
    expect(sha256Hex("é")).toBe("4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c");
  });

  it("gives random tokens of the bytes asked, base64url, never the same twice", () => {
    expect(randomToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(Array.from({ length: 50 }, () => randomToken())).size).toBe(50);
  });

  it("draws codes of 8 characters from the unambiguous alphabet (docs/decisions.md#d8), using all of it", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const code = generateCode();
      expect(code).toHaveLength(SERVER_LIMITS.codeLength);
      expect(SERVER_LIMITS.codeLength).toBe(8);
      for (const c of code) seen.add(c);
    }
    expect([...seen].sort().join("")).toBe([...CODE_ALPHABET].sort().join(""));
  });

  it("compares secrets in constant time: equal, different, and of different lengths", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("", "")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("abcd", "abc")).toBe(false);
  });
});

describe("passwords (scrypt)", () => {
  it("stores scrypt$N$8$1$salt$hash, verifies the password and nothing else", async () => {
    const stored = await hashPassword("correct horse", 1024);
    const parts = stored.split("$");
    expect(parts.slice(0, 4)).toEqual(["scrypt", "1024", "8", "1"]);
    expect(parts[4]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(parts[5]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct horsf", stored)).toBe(false);
    expect(await verifyPassword("", stored)).toBe(false);
    // a fresh salt each time
    expect(await hashPassword("correct horse", 1024)).not.toBe(stored);
  });

  it("refuses a stored hash of another shape, scheme or length instead of matching it", async () => {
    const stored = await hashPassword("pw", 1024);
    const parts = stored.split("$");
    expect(await verifyPassword("pw", parts.slice(0, 5).join("$"))).toBe(false);
    expect(await verifyPassword("pw", `${stored}$x`)).toBe(false);
    expect(await verifyPassword("pw", ["bcrypt", ...parts.slice(1)].join("$"))).toBe(false);
    // the hash cut short: the derived key no longer has its length
    expect(await verifyPassword("pw", [...parts.slice(0, 5), parts[5]!.slice(0, 20)].join("$"))).toBe(false);
    // the parameters are read from the stored text: another N derives another key
    expect(await verifyPassword("pw", ["scrypt", "2048", ...parts.slice(2)].join("$"))).toBe(false);
  });
});

describe("access tokens: base64url(JSON) '.' base64url(HMAC-SHA256)", () => {
  it("signs the JSON payload with HMAC-SHA256 of the secret, and reads it back", () => {
    const token = signAccessToken(payload, SECRET);
    const [body, sig] = token.split(".");
    expect(JSON.parse(Buffer.from(body!, "base64url").toString("utf8"))).toEqual(payload);
    expect(sig).toBe(createHmac("sha256", SECRET).update(body!).digest("base64url"));
    expect(verifyAccessToken(token, SECRET)).toEqual(payload);
  });

  it("refuses another secret, a changed signature or body, and a token without a body", () => {
    const token = signAccessToken(payload, SECRET);
    expect(verifyAccessToken(token, "b".repeat(64))).toBeUndefined();
    const flipped = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    expect(verifyAccessToken(flipped, SECRET)).toBeUndefined();
    const other = signAccessToken({ ...payload, uid: "admin" }, SECRET);
    expect(verifyAccessToken(`${other.split(".")[0]}.${token.split(".")[1]}`, SECRET)).toBeUndefined();
    // an empty body signed with the secret is still no token
    const emptyBody = `.${createHmac("sha256", SECRET).update("").digest("base64url")}`;
    expect(verifyAccessToken(emptyBody, SECRET)).toBeUndefined();
    expect(verifyAccessToken("no-dot-at-all", SECRET)).toBeUndefined();
  });

  it("takes a token of 4096 characters and refuses a longer one, however well signed", () => {
    const tokens = Array.from({ length: 160 }, (_, i) =>
      signAccessToken({ ...payload, uid: "u".repeat(2950 + i) }, SECRET),
    );
    const atLimit = tokens.find((t) => t.length === 4096);
    const overLimit = tokens.find((t) => t.length > 4096 && t.length <= 4100);
    expect(atLimit).toBeDefined();
    expect(overLimit).toBeDefined();
    expect(verifyAccessToken(atLimit!, SECRET)?.sid).toBe("s1");
    expect(verifyAccessToken(overLimit!, SECRET)).toBeUndefined();
    // the same payload within the limit is a good token: only its length is refused
    expect(verifyAccessToken(signAccessToken(payload, SECRET), SECRET)).toEqual(payload);
  });

  it("refuses a signed body that is not JSON or lacks a field of the right type, and drops extra fields", () => {
    expect(verifyAccessToken(signedBody("not json"), SECRET)).toBeUndefined();
    expect(verifyAccessToken(signedBody(JSON.stringify({ ...payload, uid: 1 })), SECRET)).toBeUndefined();
    expect(verifyAccessToken(signedBody(JSON.stringify({ ...payload, sid: null })), SECRET)).toBeUndefined();
    expect(verifyAccessToken(signedBody(JSON.stringify({ ...payload, expires: "1" })), SECRET)).toBeUndefined();
    expect(verifyAccessToken(signedBody(JSON.stringify({ uid: "u1", sid: "s1" })), SECRET)).toBeUndefined();
    expect(verifyAccessToken(signedBody(JSON.stringify({ ...payload, admin: true })), SECRET)).toEqual(payload);
  });

  it("remembers verified tokens per secret, hands out copies, and never remembers a forgery", () => {
    const token = signAccessToken({ ...payload, sid: "cached" }, SECRET);
    const first = verifyAccessTokenCached(token, SECRET);
    expect(first).toEqual({ ...payload, sid: "cached" });
    first!.uid = "changed by a caller";
    expect(verifyAccessTokenCached(token, SECRET)).toEqual({ ...payload, sid: "cached" });
    // the same token under another secret is checked again, and fails
    expect(verifyAccessTokenCached(token, "c".repeat(64))).toBeUndefined();
    expect(verifyAccessTokenCached(token, SECRET)?.uid).toBe("u1");
    // after a secret rotation, the same payload signed with the new secret
    const rotated = "d".repeat(64);
    const again = signedBody(Buffer.from(token.split(".")[0]!, "base64url").toString("utf8"), rotated);
    expect(verifyAccessTokenCached(again, rotated)?.sid).toBe("cached");
    expect(verifyAccessTokenCached(again, SECRET)).toBeUndefined();
    const forged = `${token.split(".")[0]}.${"A".repeat(43)}`;
    expect(verifyAccessTokenCached(forged, SECRET)).toBeUndefined();
    expect(verifyAccessTokenCached(forged, SECRET)).toBeUndefined();
  });
});
