/**
 * Random hexadecimal text from WebCrypto (Node 20 and browsers alike). `globalThis.crypto` is
 * reached only when called, so a command that never needs randomness (a paper `balances`) does
 * not load the crypto module at start.
 *
 * Bytes are drawn from a pool filled 4 KiB at a time (as Node's own `randomUUID` does), so an
 * order id costs no system call each (docs/server-speed.md); each byte is used once.
 */
const POOL_BYTES = 4096;
let pool: Uint8Array | undefined;
let used = POOL_BYTES;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

export function randomHex(bytes: number): string {
  if (bytes > POOL_BYTES) {
    let out = "";
    for (const b of globalThis.crypto.getRandomValues(new Uint8Array(bytes))) out += HEX[b];
    return out;
  }
  if (used + bytes > POOL_BYTES) {
    pool = globalThis.crypto.getRandomValues(new Uint8Array(POOL_BYTES));
    used = 0;
  }
  let out = "";
  for (let i = used; i < used + bytes; i++) out += HEX[pool![i]!];
  used += bytes;
  return out;
}
