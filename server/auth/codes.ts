/**
 * One-time e-mail codes (PRODUCT D8: 8 characters, valid 10 minutes, 5 attempts, single use) and
 * their delivery (PRODUCT D18): by SMTP when the server has an `smtp` configuration
 * (server/mail.ts); without it every message is appended to `outbox.jsonl` in the data directory.
 * Either way the database keeps the message with the code masked and the log shows it masked.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { API_ERROR, SERVER_LIMITS } from "../../lib/api.js";
import type { App } from "../app.js";
import { ApiError, taskFailed } from "../errors.js";
import { maskCode } from "../log.js";
import { generateCode, safeEqual, sha256Hex } from "./secrets.js";

export function outboxFile(dataDir: string): string {
  return join(dataDir, "outbox.jsonl");
}

export function codeMailText(code: string): string {
  const minutes = SERVER_LIMITS.codeValidityMs / 60_000;
  return `Your spotdesk sign-in code is ${code}\n\nIt is valid for ${minutes} minutes and works once.\nIf you did not ask for it, ignore this message.\n`;
}

/** Delivers a code: SMTP when configured, else the outbox file. A failed send throws 600 (502). */
export async function sendMessage(app: App, to: string, subject: string, code: string): Promise<void> {
  const ts = app.now();
  if (app.mailer) {
    try {
      await app.mailer.send({ to, subject, text: codeMailText(code) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      app.logger.warn("mail failed", { to, subject, via: app.mailer.describe, error: reason });
      throw taskFailed(`The code could not be sent by e-mail (${reason}): try again later`, 502);
    }
  } else {
    appendFileSync(outboxFile(app.config.dataDir), `${JSON.stringify({ ts, to, subject, code })}\n`, { mode: 0o600 });
  }
  await app.storage.addOutbox({ ts, to, subject, body: maskCode(code) });
  app.logger.info(app.mailer ? "mail sent" : "mail queued", { to, subject, masked: maskCode(code), ...(app.mailer ? { via: app.mailer.describe } : {}) });
}

/** POST /code: a new code, at most 5 per e-mail per hour (604). */
export async function issueEmailCode(app: App, email: string): Promise<void> {
  const now = app.now();
  const recent = await app.storage.countEmailCodesSince(email, now - 3600_000);
  if (recent >= app.config.codeRequestsPerHour) throw new ApiError(API_ERROR.RATE_LIMIT);
  const code = generateCode();
  // Stored before the send so concurrent requests count against the limit; removed again when the
  // send fails, because a code nobody received must neither sign in nor spend the hourly quota.
  const id = await app.storage.addEmailCode({
    email,
    codeHash: sha256Hex(code),
    expires: now + SERVER_LIMITS.codeValidityMs,
    attempts: 0,
    used: false,
    created: now,
  });
  try {
    await sendMessage(app, email, "Your spotdesk sign-in code", code);
  } catch (error) {
    await app.storage.removeEmailCode(id);
    throw error;
  }
}

export const WRONG_CREDENTIALS = "Wrong e-mail code or password";

/**
 * Checks a code against the e-mail's newest live code. A mismatch uses one of the 5 attempts;
 * `consume` marks a match used (single use). Returns the code's id for `spendAttempt`.
 */
export async function checkEmailCode(app: App, email: string, code: string): Promise<number> {
  const record = await app.storage.latestEmailCode(email, app.now());
  if (!record || record.attempts >= SERVER_LIMITS.codeAttempts) {
    throw taskFailed("No valid code for this e-mail: request a new one", 401);
  }
  if (!safeEqual(sha256Hex(code.toUpperCase()), record.codeHash)) {
    await app.storage.markEmailCode(record.id, { attempt: true });
    throw taskFailed(WRONG_CREDENTIALS, 401);
  }
  return record.id;
}
