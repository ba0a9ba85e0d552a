/**
 * One rule for the success codes venues put in their answers (docs/decisions.md#d20, docs/feeds.md
 * "Success codes"): a code is compared by value, so `0` and `"0"`, `1000` and `"1000"`, `"00000"`
 * and `0` mean the same, in REST answers and websocket messages alike. Only a whole decimal
 * integer counts: `""`, `null`, `true`, `"0x0"` or `" "` are not 0 (Number() would say they are).
 */

/** A code as venues write it: a number, or a string of decimal digits. */
export type VenueCode = number | string;

const INTEGER_TEXT = /^[+-]?\d+$/;

/** The code's integer value, or undefined when the value is not a whole decimal integer. */
export function codeValue(value: unknown): bigint | undefined {
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : undefined;
  if (typeof value === "string" && INTEGER_TEXT.test(value)) return BigInt(value);
  return undefined;
}

/** True when `value` is the documented code `expected`, whether either is written as a number or as text. */
export function isCode(value: unknown, expected: VenueCode): boolean {
  const got = codeValue(value);
  return got !== undefined && got === codeValue(expected);
}

/**
 * A message's code means success: `expected` is the venue's documented success (0, 1000,
 * "200000", "00000", …); a missing code is a success only when `missingIsSuccess` says so (bitrue
 * answers without a code on success, docs/decisions.md#d20; acknowledgements without a code).
 */
export function isSuccessCode(value: unknown, expected: VenueCode, missingIsSuccess = false): boolean {
  if (value === undefined) return missingIsSuccess;
  return isCode(value, expected);
}

/** The code as text for errors and logs, or undefined when there is none to show. */
export function codeText(value: unknown): string | undefined {
  if (typeof value === "number" || typeof value === "string") return String(value);
  return undefined;
}
