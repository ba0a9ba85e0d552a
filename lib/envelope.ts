/**
 * AES-GCM 256 envelopes with WebCrypto (docs/dashboard-rules.md#entities, #validation; docs/decisions.md#d3). Isomorphic: Node 20 and
 * browsers both expose `globalThis.crypto.subtle`.
 */

export interface Envelope {
  /** 12-byte random IV in hex, then the ciphertext-with-tag in hex */
  data: string;
  pair: string;
  active: boolean;
}

/** docs/dashboard-rules.md#validation: an entered encryption key is 16, 24 or 32 characters long. */
export const ENTERED_KEY_LENGTHS = [16, 24, 32] as const;
const IV_BYTES = 12;

function subtle(): SubtleCrypto {
  const c = globalThis.crypto;
  if (!c?.subtle) throw new Error("WebCrypto is not available: a secure context (https or localhost) is required");
  return c.subtle;
}

export function bytesToHex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

export function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) throw new Error("Invalid hex string");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** What a typed encryption key is: 16, 24 or 32 characters, or the 64 hex characters of a generated key. */
export const KEY_LENGTH_ERROR =
  "Encryption key must be 16, 24 or 32 characters, or the 64 hex characters of a generated key";

/**
 * Reads an encryption key typed by a person (docs/decisions.md#d36): 16, 24 or 32 characters are
 * the key as typed; 64 hex characters are the 32 bytes they encode, written back as lowercase hex
 * (as Generate writes them, so the AES key of docs/decisions.md#d3 is the generated key's) and
 * taken whole even with spaces or a line break around them (a paste). Anything else is refused.
 */
export function readEncryptionKey(text: string): { key: string } | { error: string } {
  const trimmed = text.trim();
  if (/^[0-9a-f]{64}$/i.test(trimmed)) return { key: bytesToHex(hexToBytes(trimmed)) };
  if ((ENTERED_KEY_LENGTHS as readonly number[]).includes(text.length)) return { key: text };
  return { error: KEY_LENGTH_ERROR };
}

/** Checks an encryption key typed by a person (readEncryptionKey): undefined when it is one, else why not. */
export function validateEncryptionKey(key: string): string | undefined {
  const read = readEncryptionKey(key);
  return "error" in read ? read.error : undefined;
}

/** docs/dashboard-rules.md#validation: a generated key is 32 random bytes as hex. */
export function generateEncryptionKey(): string {
  return bytesToHex(globalThis.crypto.getRandomValues(new Uint8Array(32)));
}

/** docs/decisions.md#d3: the AES-256-GCM key is SHA-256 of the encryption key's UTF-8 text. */
export async function deriveAesKey(encryptionKey: string): Promise<CryptoKey> {
  const digest = await subtle().digest("SHA-256", new TextEncoder().encode(encryptionKey));
  return subtle().importKey("raw", digest, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

export async function encryptText(plain: string, encryptionKey: string, iv?: Uint8Array): Promise<string> {
  const nonce = new Uint8Array(iv ?? globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES)));
  if (nonce.length !== IV_BYTES) throw new Error("The IV must be 12 bytes");
  const key = await deriveAesKey(encryptionKey);
  const sealed = new Uint8Array(
    await subtle().encrypt({ name: "AES-GCM", iv: nonce }, key, new TextEncoder().encode(plain)),
  );
  return bytesToHex(nonce) + bytesToHex(sealed);
}

export async function decryptText(data: string, encryptionKey: string): Promise<string> {
  if (data.length < IV_BYTES * 2 + 32) throw new Error("Envelope data is too short");
  const iv = hexToBytes(data.slice(0, IV_BYTES * 2));
  const sealed = hexToBytes(data.slice(IV_BYTES * 2));
  const key = await deriveAesKey(encryptionKey);
  try {
    const plain = await subtle().decrypt({ name: "AES-GCM", iv }, key, sealed);
    return new TextDecoder().decode(plain);
  } catch {
    // Never echo the key or the data: only say that they do not match.
    throw new Error("Cannot decrypt: wrong encryption key or corrupted data");
  }
}

export interface StoredCredentials {
  api: string;
  secret: string;
  password?: string;
}

/** docs/dashboard-rules.md#entities "Stored API credentials": {api, secret, password} encrypted; pair and active beside. */
export async function sealCredentials(
  credentials: StoredCredentials,
  pair: string,
  encryptionKey: string,
  iv?: Uint8Array,
): Promise<Envelope> {
  const body = JSON.stringify({
    api: credentials.api,
    secret: credentials.secret,
    password: credentials.password ?? "",
  });
  return { data: await encryptText(body, encryptionKey, iv), pair, active: true };
}

export async function openCredentials(envelope: Envelope, encryptionKey: string): Promise<StoredCredentials> {
  const plain = await decryptText(envelope.data, encryptionKey);
  let parsed: Record<string, unknown>;
  try {
    // JSON.parse's own message quotes the text, which here is a secret.
    parsed = JSON.parse(plain) as Record<string, unknown>;
  } /* Stryker disable next-line BlockStatement: emptied, parsed stays undefined and is refused below with the same message */ catch {
    throw new Error("Envelope does not hold API credentials");
  }
  if (
    parsed === null ||
    // Stryker disable next-line ConditionalExpression: a number, text or boolean has no text api either
    typeof parsed !== "object" ||
    typeof parsed.api !== "string" ||
    typeof parsed.secret !== "string"
  ) {
    throw new Error("Envelope does not hold API credentials");
  }
  const out: StoredCredentials = { api: parsed.api, secret: parsed.secret };
  if (typeof parsed.password === "string" && parsed.password !== "") out.password = parsed.password;
  return out;
}
