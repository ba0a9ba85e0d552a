import { createHash, createHmac } from "node:crypto";

/** Native HMAC helpers shared by the adapters (issue 3: native HMAC, no hashing in JavaScript). */
export function hmacSha256Hex(secret: string | Buffer, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("hex");
}

export function hmacSha256Base64(secret: string | Buffer, payload: string): string {
  return createHmac("sha256", secret).update(payload).digest("base64");
}

export function hmacSha512Hex(secret: string | Buffer, payload: string): string {
  return createHmac("sha512", secret).update(payload).digest("hex");
}

export function sha512Hex(payload: string): string {
  return createHash("sha512").update(payload).digest("hex");
}

export function md5Hex(payload: string): string {
  return createHash("md5").update(payload).digest("hex");
}

export function sha256Hex(payload: string): string {
  return createHash("sha256").update(payload).digest("hex");
}
