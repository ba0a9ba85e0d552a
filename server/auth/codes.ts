/**
 * One-time e-mail codes (PRODUCT D8: 8 characters, valid 10 minutes, 5 attempts, single use) and
 * the outbox (PRODUCT D18): without SMTP every message is appended to `outbox.jsonl` in the data
 * directory and logged with the code masked. SMTP delivery is not built yet: a deployment that
 * needs it adds a transport here (TODO, documented in server/README.md).
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

export async function sendMessage(app: App, to: string, subject: string, code: string): Promise<void> {
  const ts = app.now();
  appendFileSync(outboxFile(app.config.dataDir), `${JSON.stringify({ ts, to, subject, code })}\n`, { mode: 0o600 });
  await app.storage.addOutbox({ ts, to, subject, body: maskCode(code) });
  app.logger.info("mail queued", { to, subject, masked: maskCode(code) });
}

/** POST /code: a new code, at most 5 per e-mail per hour (604). */
export async function issueEmailCode(app: App, email: string): Promise<void> {
  const now = app.now();
  const recent = await app.storage.countEmailCodesSince(email, now - 3600_000);
  if (recent >= app.config.codeRequestsPerHour) throw new ApiError(API_ERROR.RATE_LIMIT);
  const code = generateCode();
  await app.storage.addEmailCode({
    email,
    codeHash: sha256Hex(code),
    expires: now + SERVER_LIMITS.codeValidityMs,
    attempts: 0,
    used: false,
    created: now,
  });
  await sendMessage(app, email, "Your spotdesk sign-in code", code);
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
