/** Sign-in rules of docs/dashboard-rules.md#validation, in one place (the forms only call these). */
import { z } from "zod";
import { codeSchema, emailSchema, passwordSchema } from "../../../../lib/schemas.js";

/** docs/dashboard-rules.md#constants: e-mail input debounce 500 ms. */
export const EMAIL_DEBOUNCE_MS = 500;

/** docs/dashboard-rules.md#validation: a standard e-mail pattern, on the trimmed input. */
export function isValidEmail(text: string): boolean {
  return emailSchema.safeParse(text.trim()).success;
}

/** docs/dashboard-rules.md#validation: at least 8 characters. */
export function isValidPassword(text: string): boolean {
  return passwordSchema.safeParse(text).success;
}

/** docs/dashboard-rules.md#validation: exactly 8 characters. */
export function isValidCode(text: string): boolean {
  return codeSchema.safeParse(text.trim()).success;
}

/** docs/dashboard-rules.md#validation: on registration a repeat that does not match makes the password count as empty. */
export function effectivePassword(password: string, repeat: string): string {
  return password === repeat ? password : "";
}

/** docs/dashboard-rules.md#validation: Submit only when e-mail, password and code are all valid. */
export function canSubmit(fields: { email: string; password: string; code: string }): boolean {
  return isValidEmail(fields.email) && isValidPassword(fields.password) && isValidCode(fields.code);
}

/** docs/dashboard-rules.md#validation: Send code only with a valid e-mail. */
export function canSendCode(email: string): boolean {
  return isValidEmail(email);
}

/** docs/dashboard-rules.md#validation: key login needs a valid e-mail and at least one credential returned for it. */
export function canKeyLogin(email: string, credentialIds: readonly string[] | undefined): boolean {
  return isValidEmail(email) && (credentialIds?.length ?? 0) > 0;
}

/**
 * The sign-in forms' schemas for react-hook-form, built from the lib schemas above (the rules stay
 * in lib/schemas.ts): a trimmed e-mail, a password of at least 8, a code of exactly 8 after trimming.
 */
const codeField = z.string().trim().pipe(codeSchema);
export const loginFormSchema = z.object({
  email: emailSchema,
  password: passwordSchema,
  code: codeField,
  createKey: z.boolean(),
});
export type LoginForm = z.input<typeof loginFormSchema>;

/** Registration adds the repeat; a repeat that does not match leaves no valid password (docs/dashboard-rules.md#validation). */
export const registrationFormSchema = loginFormSchema
  .extend({ repeat: z.string() })
  .refine((f) => isValidPassword(effectivePassword(f.password, f.repeat)), {
    path: ["repeat"],
    message: "Passwords do not match",
  });
export type RegistrationForm = z.input<typeof registrationFormSchema>;

export const keyLoginFormSchema = z.object({ email: emailSchema });
export type KeyLoginForm = z.input<typeof keyLoginFormSchema>;
