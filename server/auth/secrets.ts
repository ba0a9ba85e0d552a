/**
 * Key material of the server, each in its own file in the data directory (mode 0600):
 * `token-secret` signs access tokens; `data-key` (docs/decisions.md#d4) wraps bot credentials and lives
 * beside, not inside, the database, unless SPOTDESK_DATA_KEY gives it.
 */
import { createHash, createHmac, randomBytes, randomInt, scrypt, timingSafeEqual } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type AccessTokenPayload, CODE_ALPHABET, SERVER_LIMITS } from "../../lib/api.js";

/** Reads a 32-byte hex secret from `file`, creating it (0600, exclusive) when missing. */
export function loadOrCreateSecret(file: string): string {
  if (existsSync(file)) {
    const text = readFileSync(file, "utf8").trim();
    if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error(`${file} does not hold 64 hex characters`);
    return text.toLowerCase();
  }
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return secret;
}

export function tokenSecretFile(dataDir: string): string {
  return join(dataDir, "token-secret");
}
export function dataKeyFile(dataDir: string): string {
  return join(dataDir, "data-key");
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export function sha256Base64url(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64url");
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}

/** docs/decisions.md#d8: 8 characters from the unambiguous upper-case alphabet. */
export function generateCode(): string {
  let out = "";
  for (let i = 0; i < SERVER_LIMITS.codeLength; i++) out += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return out;
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

// --- passwords: scrypt (memory-hard), "scrypt$N$r$p$salt$hash" --------------------------------

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, 32, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, N: number): Promise<string> {
  const salt = randomBytes(16);
  const r = 8;
  const p = 1;
  const key = await scryptAsync(password, salt, N, r, p);
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64url")}$${key.toString("base64url")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string];
  const key = await scryptAsync(password, Buffer.from(salt, "base64url"), Number(n), Number(r), Number(p));
  const expected = Buffer.from(hash, "base64url");
  return key.length === expected.length && timingSafeEqual(key, expected);
}

// --- access tokens: base64url(JSON) "." base64url(HMAC-SHA256) --------------------------------

export function signAccessToken(payload: AccessTokenPayload, secret: string): string {
  const body = Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
  const sig = createHmac("sha256", secret).update(body).digest("base64url");
  return `${body}.${sig}`;
}

/** The payload when the signature holds and the JSON is well formed; undefined otherwise (607). */
export function verifyAccessToken(token: string, secret: string): AccessTokenPayload | undefined {
  const dot = token.indexOf(".");
  if (dot <= 0 || token.length > 4096) return undefined;
  const body = token.slice(0, dot);
  const sig = token.slice(dot + 1);
  const expected = createHmac("sha256", secret).update(body).digest("base64url");
  if (!safeEqual(sig, expected)) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<AccessTokenPayload>;
    if (typeof parsed.uid !== "string" || typeof parsed.sid !== "string" || typeof parsed.expires !== "number")
      return undefined;
    return { uid: parsed.uid, sid: parsed.sid, expires: parsed.expires };
  } catch {
    return undefined;
  }
}

/**
 * Tokens whose signature already held, with their payload (docs/server-speed.md): a token is
 * sent with every call of its 15 minutes, so its HMAC is computed once, not on every call. Only
 * tokens that passed `verifyAccessToken` enter (a forged one never does, so forgeries cannot
 * fill it); keyed by the exact token text and the secret, a hit is the same answer the HMAC
 * would give. Expiry, the session and the user are still checked on every call (session.ts).
 */
const verified = new Map<string, { secret: string; payload: AccessTokenPayload }>();
/** tokens remembered (the oldest goes first) */
export const VERIFIED_TOKENS = 4096;

/** `verifyAccessToken`, remembered for the tokens that verify. */
export function verifyAccessTokenCached(token: string, secret: string): AccessTokenPayload | undefined {
  const hit = verified.get(token);
  if (hit !== undefined && hit.secret === secret) return { ...hit.payload };
  const payload = verifyAccessToken(token, secret);
  if (payload === undefined) return undefined;
  if (hit !== undefined) verified.delete(token);
  else if (verified.size >= VERIFIED_TOKENS) verified.delete(verified.keys().next().value!);
  verified.set(token, { secret, payload: { ...payload } });
  return payload;
}
