import { z } from "zod";
import { ENTERED_KEY_LENGTHS } from "../../../../lib/envelope.js";

/** docs/dashboard-rules.md#validation: an entered key must be 16, 24 or 32 characters long. */
export function enteredKeyError(text: string): string | undefined {
  return (ENTERED_KEY_LENGTHS as readonly number[]).includes(text.length)
    ? undefined
    : "Length must be 16, 24 or 32 characters";
}

/** The encryption-key dialog's form: the rule above as a schema for react-hook-form. */
export const encryptionKeyFormSchema = z.object({
  key: z.string().superRefine((text, ctx) => {
    const error = enteredKeyError(text);
    if (error) ctx.addIssue({ code: "custom", message: error });
  }),
});
export type EncryptionKeyForm = z.infer<typeof encryptionKeyFormSchema>;
