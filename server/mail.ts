/**
 * SMTP delivery of the server's messages (docs/decisions.md#d18 "SMTP when configured"), with nodemailer.
 * Without an `smtp` configuration there is no mailer and codes go to `outbox.jsonl` instead
 * (server/auth/codes.ts).
 */
import { createTransport } from "nodemailer";
import type { ResolvedSmtp } from "./config.js";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** `smtp://host:port` (no credentials), for logs */
  readonly describe: string;
  /** resolves when the SMTP server accepted the message; rejects with a message free of the password */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Removes the SMTP password from a text that might echo it (an error from the transport). */
function withoutSecret(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join("[redacted]") : text;
}

export function createSmtpMailer(smtp: ResolvedSmtp): Mailer {
  const transport = createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ignoreTLS: smtp.ignoreTLS,
    requireTLS: smtp.requireTLS,
    ...(smtp.user !== undefined ? { auth: { user: smtp.user, pass: smtp.pass ?? "" } } : {}),
    // A sign-in request waits for the send: bound every phase (nodemailer's defaults reach minutes).
    connectionTimeout: smtp.timeoutMs,
    greetingTimeout: smtp.timeoutMs,
    socketTimeout: smtp.timeoutMs,
    // nodemailer's own logger would print the SMTP dialogue, AUTH included: never on.
    logger: false,
    debug: false,
  });
  return {
    describe: `${smtp.secure ? "smtps" : "smtp"}://${smtp.host}:${smtp.port}`,
    async send(message) {
      try {
        await transport.sendMail({ from: smtp.from, to: message.to, subject: message.subject, text: message.text });
      } catch (error) {
        throw new Error(withoutSecret(error instanceof Error ? error.message : String(error), smtp.pass));
      }
    },
    close() {
      transport.close();
    },
  };
}
