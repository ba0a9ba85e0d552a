import { randomHex } from "../../lib/random.js";

/**
 * Generated hexadecimal client order ids (seed 001 §3, PRODUCT D11), shaped to each exchange's
 * documented rule: an optional prefix (gate's "t-") and a total length.
 */
export function newClientOrderId(rule: { length?: number; prefix?: string } = {}): string {
  const prefix = rule.prefix ?? "";
  const length = rule.length ?? 32;
  const hexLength = length - prefix.length;
  if (hexLength < 8) throw new Error(`Client order id rule leaves too few characters (${hexLength})`);
  return prefix + randomHex(Math.ceil(hexLength / 2)).slice(0, hexLength);
}
