import { z } from "zod";
import { readEncryptionKey } from "../../../../lib/envelope.js";

/**
 * docs/dashboard-rules.md#validation, docs/decisions.md#d36: a typed key is 16, 24 or 32 characters, or the 64
 * hex characters of a generated key (read as the 32 bytes they encode).
 */
export function enteredKeyError(text: string): string | undefined {
  const read = readEncryptionKey(text);
  return "error" in read ? read.error : undefined;
}

/** The key to save for what was typed: a 64-hex key in the lowercase Generate writes (docs/decisions.md#d36). */
export function enteredKey(text: string): string {
  const read = readEncryptionKey(text);
  if ("error" in read) throw new Error(read.error);
  return read.key;
}

/** The encryption-key dialog's form: the rule above as a schema for react-hook-form. */
export const encryptionKeyFormSchema = z.object({
  key: z.string().superRefine((text, ctx) => {
    const error = enteredKeyError(text);
    if (error) ctx.addIssue({ code: "custom", message: error });
  }),
});
export type EncryptionKeyForm = z.infer<typeof encryptionKeyFormSchema>;
