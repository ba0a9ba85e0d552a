import { ENTERED_KEY_LENGTHS } from "../../../../lib/envelope.js";

/** Seed 000 §5: an entered key must be 16, 24 or 32 characters long. */
export function enteredKeyError(text: string): string | undefined {
  return (ENTERED_KEY_LENGTHS as readonly number[]).includes(text.length) ? undefined : "Length must be 16, 24 or 32 characters";
}
