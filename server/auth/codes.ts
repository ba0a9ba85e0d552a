/**
 * One-time e-mail codes (docs/decisions.md#d8: 8 characters, valid 10 minutes, 5 attempts, single use) and
 * their delivery (docs/decisions.md#d18): by SMTP when the server has an `smtp` configuration
 * (server/mail.ts); without it every message is appended to `outbox.jsonl` in the data directory.
 * Either way the database keeps the message with the code masked and the log shows it masked.
 */
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { API_ERROR, SERVER_LIMITS } from "../../lib/api.js";
import type { App } from "../app.js";
import { ApiError, taskFailed } from "../errors.js";
import { maskCode } from "../log.js";
import { generateCode, sha256Hex } from "./secrets.js";

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
  app.logger.info(app.mailer ? "mail sent" : "mail queued", {
    to,
    subject,
    masked: maskCode(code),
    ...(app.mailer ? { via: app.mailer.describe } : {}),
  });
}

/**
 * POST /code: a new code (docs/server-limits.md "Sign-in"): at most `codeRequestsPerHour` (5) an
 * hour for one e-mail from one address and `signIn.codeRequestsPerAddress` (20) from one address;
 * past either 604. Past `signIn.codeRequestsPerEmail` (30) for one e-mail, from any addresses,
 * the request is held, never refused: no new code while the e-mail has a code with at least half
 * of its 10 minutes left, which is in the owner's mailbox whoever asked for it ("held"); else a
 * new code is sent. So strangers from many addresses cannot keep the owner from having a valid
 * code, and the mailbox gets at most one more code every 5 minutes. A code does not replace the
 * earlier ones: each stays valid for its 10 minutes, so a stranger asking for codes does not
 * spoil the one the owner is typing.
 */
export async function issueEmailCode(app: App, email: string, address: string): Promise<"sent" | "held"> {
  const now = app.now();
  const code = generateCode();
  // Counted and stored in one transaction before the send, so parallel requests count against the
  // limit; removed again when the send fails, because a code nobody received must neither sign in
  // nor spend the hourly quota.
  const id = await app.storage.addEmailCode(
    {
      email,
      address,
      codeHash: sha256Hex(code),
      expires: now + SERVER_LIMITS.codeValidityMs,
      attempts: 0,
      used: false,
      created: now,
    },
    {
      since: now - 3600_000,
      perEmailAndAddress: app.config.codeRequestsPerHour,
      perAddress: app.config.signIn.codeRequestsPerAddress,
      perEmail: app.config.signIn.codeRequestsPerEmail,
      freshUntil: now + SERVER_LIMITS.codeValidityMs / 2,
      maxAttempts: SERVER_LIMITS.codeAttempts,
    },
  );
  if (id === undefined) throw new ApiError(API_ERROR.RATE_LIMIT);
  if (id === "held") {
    app.logger.debug("code request held: the e-mail is past its code requests an hour and has a fresh code", {
      to: email,
      address,
    });
    return "held";
  }
  try {
    await sendMessage(app, email, "Your spotdesk sign-in code", code);
  } catch (error) {
    await app.storage.removeEmailCode(id);
    throw error;
  }
  return "sent";
}

export const WRONG_CREDENTIALS = "Wrong e-mail code or password";

/**
 * Claims one use of a code before anything is checked with it (docs/server-limits.md): the
 * attempt is spent atomically in storage, so of parallel password guesses with one valid code at
 * most 5 are checked (docs/decisions.md#d8). A code that matches no live code of the e-mail spends nothing
 * of the owner's codes (someone who knows only the e-mail must not burn them); it is a failure
 * of the caller's address and of the e-mail (server/auth/limits.ts). Returns the code's id for
 * `consumeEmailCode`.
 */
export async function claimEmailCode(app: App, email: string, code: string, address: string): Promise<number> {
  const claimed = await app.storage.claimEmailCode(
    email,
    sha256Hex(code.toUpperCase()),
    app.now(),
    SERVER_LIMITS.codeAttempts,
  );
  if (claimed === "exhausted") {
    await app.signIn.fail(address, email);
    throw taskFailed(`This code was tried ${SERVER_LIMITS.codeAttempts} times: request a new one`, 401);
  }
  if (!claimed) {
    await app.signIn.fail(address, email);
    throw taskFailed(WRONG_CREDENTIALS, 401);
  }
  return claimed.id;
}
