/**
 * A tiny SMTP server on 127.0.0.1 (node:net, plain text, no TLS) that captures what it receives:
 * EHLO/HELO, AUTH PLAIN and LOGIN, MAIL FROM, RCPT TO, DATA, RSET, NOOP, QUIT (STARTTLS is
 * offered and refused, so a client without `ignoreTLS` fails). `reject` makes
 * it refuse a stage with a permanent error, to provoke send failures.
 */

import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";

export interface CapturedMail {
  from: string;
  to: string[];
  /** the DATA section as received (headers and body, dot-stuffing undone) */
  data: string;
}

export interface SmtpMock {
  port: number;
  mails: CapturedMail[];
  /** user and password of every successful AUTH */
  logins: { user: string; pass: string }[];
  /** every command line received, in order */
  commands: string[];
  /** refuse this stage with a 5xx answer (undefined: accept everything) */
  reject?: "mail" | "rcpt" | "data";
  close(): Promise<void>;
}

export async function startSmtpMock(): Promise<SmtpMock> {
  const sockets = new Set<Socket>();
  const mock = { port: 0, mails: [], logins: [], commands: [] } as unknown as SmtpMock;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    const reply = (line: string) => socket.write(`${line}\r\n`);
    let buffer = "";
    let state: "command" | "data" | "auth-plain" | "auth-login-user" | "auth-login-pass" = "command";
    let mail: CapturedMail = { from: "", to: [], data: "" };
    let dataLines: string[] = [];
    let loginUser = "";
    const handle = (line: string) => {
      if (state === "data") {
        if (line === ".") {
          mail.data = dataLines.join("\r\n");
          state = "command";
          if (mock.reject === "data") {
            reply("554 5.6.0 message refused");
          } else {
            mock.mails.push(mail);
            reply("250 2.0.0 queued");
          }
          mail = { from: "", to: [], data: "" };
          dataLines = [];
        } else {
          dataLines.push(line.startsWith("..") ? line.slice(1) : line);
        }
        return;
      }
      if (state === "auth-plain") {
        state = "command";
        authPlain(line);
        return;
      }
      if (state === "auth-login-user") {
        loginUser = Buffer.from(line, "base64").toString("utf8");
        state = "auth-login-pass";
        reply(`334 ${Buffer.from("Password:").toString("base64")}`);
        return;
      }
      if (state === "auth-login-pass") {
        state = "command";
        mock.logins.push({ user: loginUser, pass: Buffer.from(line, "base64").toString("utf8") });
        reply("235 2.7.0 authenticated");
        return;
      }
      mock.commands.push(line);
      const verb = line.split(" ")[0]!.toUpperCase();
      if (verb === "EHLO") {
        reply("250-mock.local");
        reply("250-STARTTLS"); // offered but unusable here: `ignoreTLS` must keep the client from asking
        reply("250-AUTH PLAIN LOGIN");
        reply("250 8BITMIME");
      } else if (verb === "HELO") {
        reply("250 mock.local");
      } else if (verb === "AUTH") {
        const [, mechanism, initial] = line.split(" ");
        if (mechanism?.toUpperCase() === "PLAIN") {
          if (initial) authPlain(initial);
          else {
            state = "auth-plain";
            reply("334 ");
          }
        } else if (mechanism?.toUpperCase() === "LOGIN") {
          state = "auth-login-user";
          reply(`334 ${Buffer.from("Username:").toString("base64")}`);
        } else reply("504 5.5.4 unknown mechanism");
      } else if (verb === "MAIL") {
        if (mock.reject === "mail") return void reply("550 5.7.1 sender refused");
        mail.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
        reply("250 2.1.0 ok");
      } else if (verb === "RCPT") {
        if (mock.reject === "rcpt") return void reply("550 5.1.1 mailbox unavailable");
        mail.to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
        reply("250 2.1.5 ok");
      } else if (verb === "DATA") {
        state = "data";
        reply("354 end with <CRLF>.<CRLF>");
      } else if (verb === "RSET") {
        mail = { from: "", to: [], data: "" };
        reply("250 2.0.0 ok");
      } else if (verb === "STARTTLS") {
        reply("454 4.7.0 TLS not available");
      } else if (verb === "NOOP") {
        reply("250 2.0.0 ok");
      } else if (verb === "QUIT") {
        reply("221 2.0.0 bye");
        socket.end();
      } else reply("502 5.5.2 command not implemented");
    };
    const authPlain = (b64: string) => {
      const [, user = "", pass = ""] = Buffer.from(b64, "base64").toString("utf8").split("\0");
      mock.logins.push({ user, pass });
      reply("235 2.7.0 authenticated");
    };
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let eol = buffer.indexOf("\r\n"); eol >= 0; eol = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        handle(line);
      }
    });
    reply("220 mock.local ESMTP ready");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  mock.port = (server.address() as AddressInfo).port;
  mock.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return mock;
}

/** The code in a captured sign-in mail (server/auth/codes.ts codeMailText). */
export function codeInMail(mail: CapturedMail): string {
  const match = /sign-in code is ([A-Z0-9]{8})\b/.exec(mail.data);
  if (!match) throw new Error(`no code in the mail:\n${mail.data}`);
  return match[1]!;
}
