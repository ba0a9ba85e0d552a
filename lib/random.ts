/**
 * Random hexadecimal text from WebCrypto (Node 20 and browsers alike). `globalThis.crypto` is
 * reached only when called, so a command that never needs randomness (a paper `balances`) does
 * not load the crypto module at start.
 */
export function randomHex(bytes: number): string {
  const buffer = globalThis.crypto.getRandomValues(new Uint8Array(bytes));
  let out = "";
  for (const b of buffer) out += b.toString(16).padStart(2, "0");
  return out;
}
