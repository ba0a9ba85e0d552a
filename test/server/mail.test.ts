import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveConfig } from "../../server/config.js";
import { createJsonLogger } from "../../server/log.js";
import { call, PASSWORD, registerFirstAdmin, startTestServer, type TestServer } from "./helpers.js";
import { codeInMail, type SmtpMock, startSmtpMock } from "./smtp-mock.js";

const SMTP_PASS = "smtp-Pa55-word-never-logged";
const USER = "trader@example.com";

let smtp: SmtpMock;
let server: TestServer | undefined;
let configDir: string;
beforeEach(async () => {
  smtp = await startSmtpMock();
  configDir = mkdtempSync(join(tmpdir(), "spotdesk-smtp-config-"));
});
afterEach(async () => {
  await server?.cleanup();
  server = undefined;
  await smtp.close();
  rmSync(configDir, { recursive: true, force: true });
});

/** The SMTP settings as a deployment writes them: a config file (server/README.md "E-mail"). */
function smtpConfigFile(extra: Record<string, unknown> = {}): string {
  const file = join(configDir, "config.json");
  const smtpSection = {
    host: "127.0.0.1",
    port: smtp.port,
    secure: false,
    ignoreTLS: true,
    user: "mailer",
    pass: SMTP_PASS,
    from: "spotdesk <noreply@example.com>",
  };
  writeFileSync(file, JSON.stringify({ smtp: smtpSection, ...extra }));
  return file;
}

async function permit(s: TestServer, email: string): Promise<string> {
  const admin = await registerFirstAdmin(s);
  const permitted = await call(s, "POST", "/token/admin/user", {
    token: admin.session.accessToken,
    body: { userId: email, scope: "all" },
  });
  expect(permitted.status).toBe(200);
  return admin.session.accessToken;
}

describe("e-mail codes by SMTP (docs/decisions.md#d18 'SMTP when configured')", () => {
  it("sends the code by SMTP, the mailed code signs in, no outbox.jsonl, and the SMTP password never reaches the log", async () => {
    server = await startTestServer({ configFile: smtpConfigFile() });
    await permit(server, USER);
    const sent = await call(server, "POST", "/code", { headers: { email: USER } });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ sent: true });

    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.from).toBe("noreply@example.com");
    expect(mail.to).toEqual([USER]);
    expect(mail.data).toMatch(/^Subject: Your spotdesk sign-in code$/m);
    expect(smtp.logins).toEqual([{ user: "mailer", pass: SMTP_PASS }]);
    expect(smtp.commands.some((c) => /^STARTTLS/i.test(c))).toBe(false);
    const code = codeInMail(mail);

    const registered = await call(server, "POST", "/register", { headers: { email: USER, password: PASSWORD, code } });
    expect(registered.status).toBe(200);
    expect(registered.body.uuid).toEqual(expect.any(String));
    // single use, as with the outbox
    const again = await call(server, "POST", "/login/password", {
      headers: { email: USER, password: PASSWORD, code, timestamp: String(server.clock.now) },
    });
    expect(again.status).toBe(401);

    expect(existsSync(join(server.dataDir, "outbox.jsonl"))).toBe(false);
    const logs = server.logs.join("\n");
    expect(logs).toContain('"msg":"mail sent"');
    expect(logs).toContain(`"via":"smtp://127.0.0.1:${smtp.port}"`);
    expect(logs).not.toContain(SMTP_PASS);
    expect(logs).not.toContain(code);
  });

  it("answers 600 (502) with the reason when the SMTP server refuses, and a failed send spends none of the hourly code requests", async () => {
    server = await startTestServer({ configFile: smtpConfigFile({ codeRequestsPerHour: 2 }) });
    await permit(server, USER);
    smtp.reject = "rcpt";
    for (let i = 0; i < 3; i++) {
      const failed = await call(server, "POST", "/code", { headers: { email: USER } });
      expect(failed.status).toBe(502);
      expect(failed.body.code).toBe(600);
      expect(failed.body.msg).toMatch(
        /^The code could not be sent by e-mail \(.*550 5\.1\.1 mailbox unavailable.*\): try again later$/,
      );
    }
    expect(smtp.mails).toHaveLength(0);
    smtp.reject = undefined;
    // the limit is 2 an hour: both still available after three failures
    for (let i = 0; i < 2; i++)
      expect((await call(server, "POST", "/code", { headers: { email: USER } })).status).toBe(200);
    const over = await call(server, "POST", "/code", { headers: { email: USER } });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe(604);
    expect(smtp.mails).toHaveLength(2);
    // the newest delivered code signs in
    const code = codeInMail(smtp.mails[1]!);
    expect(
      (await call(server, "POST", "/register", { headers: { email: USER, password: PASSWORD, code } })).status,
    ).toBe(200);
    const logs = server.logs.join("\n");
    expect(logs).toContain('"msg":"mail failed"');
    expect(logs).not.toContain(SMTP_PASS);
  });

  it("answers 600 with a clear message when no SMTP server listens", async () => {
    const port = smtp.port;
    await smtp.close();
    smtp = await startSmtpMock(); // a fresh mock for afterEach; the configured port is closed now
    const file = join(configDir, "config.json");
    writeFileSync(
      file,
      JSON.stringify({
        smtp: { host: "127.0.0.1", port, ignoreTLS: true, from: "noreply@example.com", timeoutMs: 2000 },
      }),
    );
    server = await startTestServer({ configFile: file });
    await permit(server, USER);
    const failed = await call(server, "POST", "/code", { headers: { email: USER } });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({
      code: 600,
      msg: expect.stringMatching(/^The code could not be sent by e-mail \(.*ECONNREFUSED.*\)/),
    });
  });

  it("keeps the outbox.jsonl behaviour without SMTP (docs/decisions.md#d18)", async () => {
    server = await startTestServer();
    await permit(server, USER);
    expect((await call(server, "POST", "/code", { headers: { email: USER } })).status).toBe(200);
    expect(existsSync(join(server.dataDir, "outbox.jsonl"))).toBe(true);
    expect(smtp.commands).toEqual([]);
    expect(server.logs.join("\n")).toContain('"msg":"mail queued"');
  });
});

describe("SMTP configuration (file and environment)", () => {
  const dataDir = join(tmpdir(), "spotdesk-config-unused");

  it("reads SPOTDESK_SMTP_URL: credentials URI-decoded, port, smtps means secure, query flags", () => {
    const config = resolveConfig(
      { dataDir },
      { SPOTDESK_SMTP_URL: "smtp://mailer%40example.com:p%40ss%3Aw0rd@mail.example.com:2525?ignoreTLS=true" },
    );
    expect(config.smtp).toEqual({
      host: "mail.example.com",
      port: 2525,
      secure: false,
      user: "mailer@example.com",
      pass: "p@ss:w0rd",
      from: "mailer@example.com",
      ignoreTLS: true,
      requireTLS: false,
      timeoutMs: 10_000,
    });
    const secure = resolveConfig(
      { dataDir },
      { SPOTDESK_SMTP_URL: "smtps://u:p@mail.example.com", SPOTDESK_SMTP_FROM: "desk@example.com" },
    );
    expect(secure.smtp).toMatchObject({ secure: true, port: 465, from: "desk@example.com" });
    expect(resolveConfig({ dataDir }, {}).smtp).toBeUndefined();
  });

  it("refuses an incomplete SMTP configuration without echoing the password", () => {
    expect(() => resolveConfig({ dataDir }, { SPOTDESK_SMTP_URL: "smtp://user:hunter22@mail.example.com" })).toThrow(
      /smtp\.from/,
    );
    expect(() => resolveConfig({ dataDir }, { SPOTDESK_SMTP_URL: "http://user:hunter22@mail.example.com" })).toThrow(
      /smtp:\/\/ or smtps:\/\//,
    );
    let message = "";
    try {
      resolveConfig({ dataDir }, { SPOTDESK_SMTP_URL: "smtp://user:hunter22@:99999" });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/SPOTDESK_SMTP_URL/);
    expect(message).not.toContain("hunter22");
    expect(() => resolveConfig({ dataDir, smtp: { host: "mail.example.com", user: "a@example.com" } }, {})).toThrow(
      /user and smtp\.pass go together/,
    );
  });
});

describe("server log redaction of SMTP secrets", () => {
  it("redacts an smtp `pass` field and the password of a URL in any logged text", () => {
    const lines: string[] = [];
    const logger = createJsonLogger({ write: (line) => lines.push(line) });
    logger.warn("could not reach smtp://mailer:hunter22@mail.example.com:25", {
      smtp: { host: "mail.example.com", user: "mailer", pass: "hunter22" },
      error: "connect to smtps://mailer:hunter22@mail.example.com failed",
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain("hunter22");
    const entry = JSON.parse(lines[0]!);
    expect(entry.smtp).toEqual({ host: "mail.example.com", user: "mailer", pass: "[redacted]" });
    expect(entry.msg).toBe("could not reach smtp://mailer:[redacted]@mail.example.com:25");
  });
});
