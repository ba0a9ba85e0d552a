import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { API_ERROR_MESSAGES, CODE_ALPHABET, readAccessToken } from "../../lib/api.js";
import {
  call,
  cookieOf,
  outboxCode,
  PASSWORD,
  permitAndRegister,
  registerFirstAdmin,
  SoftAuthenticator,
  startTestServer,
  type TestServer,
} from "./helpers.js";
import { callFrom } from "./raw.js";

let server: TestServer;
afterEach(async () => {
  await server?.cleanup();
});

describe("sign-in (docs/api.md#calls, docs/decisions.md#d5, #d7, #d8, #d18)", () => {
  it("writes a one-time setup code to setup-code (0600) on an empty database and makes its account the first admin with scope all (docs/decisions.md#d5, #d18)", async () => {
    server = await startTestServer();
    const file = join(server.dataDir, "setup-code");
    expect(readFileSync(file, "utf8").trim()).toBe(server.setupCode);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const admin = await registerFirstAdmin(server);
    expect(admin.session.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(admin.session.refreshTokenExpiry).toBeGreaterThan(server.clock.now);
    expect(readAccessToken(admin.session.accessToken)?.expires).toBeGreaterThan(server.clock.now);
    expect(admin.session.admin).toBe(true);
    const me = await call(server, "GET", "/token/me", { token: admin.session.accessToken });
    expect(me.body).toMatchObject({ email: "admin@example.com", admin: true, scope: "all" });
    expect(existsSync(file)).toBe(false);
    // single use: the same code cannot make a second admin
    const again = await call(server, "POST", "/register", {
      headers: { email: "other@example.com", password: PASSWORD, code: server.setupCode! },
    });
    expect(again.body.code).toBe(606);
  });

  it('says on GET /health whether the server has no user yet, for the registration page\'s setup-code hint (docs/dashboard.md "First run")', async () => {
    server = await startTestServer();
    const before = await call(server, "GET", "/health");
    expect(before.body).toMatchObject({ status: "ok", firstRun: true });
    const admin = await registerFirstAdmin(server);
    expect((await call(server, "GET", "/health")).body).toMatchObject({ status: "ok", firstRun: false });
    // an admin cannot remove their own account: 600 with the reason, and the account stays
    const self = await call(server, "DELETE", `/token/admin/user/${admin.session.uuid}`, {
      token: admin.session.accessToken,
    });
    expect(self.body).toMatchObject({ code: 600, msg: "An admin cannot remove their own account" });
    expect((await call(server, "GET", "/token/me", { token: admin.session.accessToken })).body.admin).toBe(true);
  });

  it("refuses registration and codes for an e-mail no admin permitted with 606 (docs/decisions.md#d5)", async () => {
    server = await startTestServer();
    await registerFirstAdmin(server);
    const code = await call(server, "POST", "/code", { headers: { email: "stranger@example.com" } });
    expect(code.status).toBe(403);
    expect(code.body).toEqual({ code: 606, msg: API_ERROR_MESSAGES[606] });
    const reg = await call(server, "POST", "/register", {
      headers: { email: "stranger@example.com", password: PASSWORD, code: "ABCDEFGH" },
    });
    expect(reg.body.code).toBe(606);
  });

  it("sends 8-character codes from the unambiguous alphabet to outbox.jsonl and logs them masked (docs/decisions.md#d8, #d18)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    await call(server, "POST", "/token/admin/user", {
      token: admin.session.accessToken,
      body: { userId: "Trader@Example.com", scope: ["Demo"] },
    });
    const sent = await call(server, "POST", "/code", { headers: { email: "trader@example.com" } });
    expect(sent.status).toBe(200);
    const line = JSON.parse(readFileSync(join(server.dataDir, "outbox.jsonl"), "utf8").trim().split("\n").pop()!);
    expect(Object.keys(line).sort()).toEqual(["code", "subject", "to", "ts"]);
    expect(line.to).toBe("trader@example.com");
    expect(line.code).toHaveLength(8);
    for (const ch of line.code) expect(CODE_ALPHABET).toContain(ch);
    const logged = server.logs.join("\n");
    expect(logged).not.toContain(line.code);
    expect(logged).toContain("mail queued");
  });

  it("registers a permitted user with the e-mailed code, single use, and signs in with password + code + timestamp", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const user = await permitAndRegister(server, admin, "trader@example.com", ["Demo"]);
    expect(user.session.admin).toBe(false);
    // the code was used: a second registration with it fails
    const code = outboxCode(server.dataDir, "trader@example.com");
    const again = await call(server, "POST", "/register", {
      headers: { email: "trader@example.com", password: PASSWORD, code },
    });
    expect(again.status).not.toBe(200);
    await call(server, "POST", "/code", { headers: { email: "trader@example.com" } });
    const fresh = outboxCode(server.dataDir, "trader@example.com");
    const login = await call(server, "POST", "/login/password", {
      headers: { email: "trader@example.com", password: PASSWORD, code: fresh, timestamp: String(server.clock.now) },
    });
    expect(login.status).toBe(200);
    expect(login.body.uuid).toBe(user.session.uuid);
    const replay = await call(server, "POST", "/login/password", {
      headers: { email: "trader@example.com", password: PASSWORD, code: fresh, timestamp: String(server.clock.now) },
    });
    expect(replay.status).toBe(401);
  });

  it("wrong codes spend none of the owner's code: after 5 wrong guesses from another address the right code still registers (docs/server-limits.md)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    await call(server, "POST", "/token/admin/user", {
      token: admin.session.accessToken,
      body: { userId: "t@example.com", scope: "all" },
    });
    await call(server, "POST", "/code", { headers: { email: "t@example.com" } });
    const code = outboxCode(server.dataDir, "t@example.com");
    const wrong = code === "AAAAAAAA" ? "BBBBBBBB" : "AAAAAAAA";
    for (let i = 0; i < 5; i++) {
      const r = await callFrom(server, "127.0.0.2", "POST", "/register", {
        headers: { email: "t@example.com", password: PASSWORD, code: wrong },
      });
      expect(r.status).toBe(401);
    }
    const right = await call(server, "POST", "/register", {
      headers: { email: "t@example.com", password: PASSWORD, code },
    });
    expect(right.status).toBe(200);
  });

  it("expires codes after 10 minutes (docs/decisions.md#d8)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    await call(server, "POST", "/token/admin/user", {
      token: admin.session.accessToken,
      body: { userId: "t@example.com", scope: "all" },
    });
    await call(server, "POST", "/code", { headers: { email: "t@example.com" } });
    const code = outboxCode(server.dataDir, "t@example.com");
    server.clock.now += 10 * 60_000 + 1;
    const r = await call(server, "POST", "/register", {
      headers: { email: "t@example.com", password: PASSWORD, code },
    });
    expect(r.status).toBe(401);
  });

  it("answers 604 to the sixth code request for one e-mail within an hour (docs/decisions.md#d8)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    await call(server, "POST", "/token/admin/user", {
      token: admin.session.accessToken,
      body: { userId: "t@example.com", scope: "all" },
    });
    for (let i = 0; i < 5; i++)
      expect((await call(server, "POST", "/code", { headers: { email: "t@example.com" } })).status).toBe(200);
    const sixth = await call(server, "POST", "/code", { headers: { email: "t@example.com" } });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ code: 604, msg: API_ERROR_MESSAGES[604] });
    server.clock.now += 3600_001;
    expect((await call(server, "POST", "/code", { headers: { email: "t@example.com" } })).status).toBe(200);
  });

  it("refuses a password shorter than 8 characters and a code that is not 8 characters (docs/dashboard-rules.md#validation)", async () => {
    server = await startTestServer();
    const short = await call(server, "POST", "/register", {
      headers: { email: "a@example.com", password: "short", code: server.setupCode! },
    });
    expect(short.body.code).toBe(600);
    expect(short.body.msg).toMatch(/at least 8/);
    const code7 = await call(server, "POST", "/register", {
      headers: { email: "a@example.com", password: PASSWORD, code: "ABCDEFG" },
    });
    expect(code7.body.code).toBe(600);
    expect(await server.storage.countUsers()).toBe(0);
  });

  it("answers 605 when the timestamp is more than 30 s from the server clock (docs/decisions.md#d8)", async () => {
    server = await startTestServer();
    await registerFirstAdmin(server);
    const r = await call(server, "POST", "/login/password", {
      headers: {
        email: "admin@example.com",
        password: PASSWORD,
        code: "ABCDEFGH",
        timestamp: String(server.clock.now - 30_001),
      },
    });
    expect(r.body).toEqual({ code: 605, msg: API_ERROR_MESSAGES[605] });
  });

  it("answers 601 when a header is missing (docs/api.md#errors)", async () => {
    server = await startTestServer();
    for (const [method, path, headers] of [
      ["POST", "/code", {}],
      ["GET", "/credentials", {}],
      ["POST", "/register", { email: "a@example.com", password: PASSWORD }],
      ["POST", "/login/password", { email: "a@example.com", password: PASSWORD, code: "ABCDEFGH" }],
      ["POST", "/login/signature", { email: "a@example.com" }],
      ["POST", "/user/refresh", { timestamp: String(server.clock.now) }],
      ["GET", "/token/clients", {}],
    ] as const) {
      const r = await call(server, method, path, { headers: headers as Record<string, string> });
      expect(r.body, `${method} ${path}`).toEqual({ code: 601, msg: API_ERROR_MESSAGES[601] });
      expect(r.status).toBe(400);
    }
  });

  it("key login: a key created at registration verifies an ES256 assertion over timestamp, method and path (docs/api.md#calls)", async () => {
    server = await startTestServer();
    const auth = new SoftAuthenticator(`http://localhost:${server.port}`);
    const reg = await call(server, "POST", "/register", {
      headers: {
        email: "admin@example.com",
        password: PASSWORD,
        code: server.setupCode!,
        ...auth.create("admin@example.com", server.setupCode!),
      },
    });
    expect(reg.status).toBe(200);
    expect(reg.body.credentialsId).toBe(auth.id);
    const ids = await call(server, "GET", "/credentials", { headers: { email: "admin@example.com" } });
    expect(ids.body).toEqual([auth.id]);
    const login = await call(server, "POST", "/login/signature", {
      headers: auth.sign("admin@example.com", server.clock.now),
    });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ uuid: reg.body.uuid, credentialsId: auth.id });
    const me = await call(server, "GET", "/token/me", { token: login.body.accessToken });
    expect(me.body.email).toBe("admin@example.com");
  });

  it("key login refuses a replayed assertion, one signed for another path, and a foreign key", async () => {
    server = await startTestServer();
    const auth = new SoftAuthenticator(`http://localhost:${server.port}`);
    await call(server, "POST", "/register", {
      headers: {
        email: "admin@example.com",
        password: PASSWORD,
        code: server.setupCode!,
        ...auth.create("admin@example.com", server.setupCode!),
      },
    });
    const headers = auth.sign("admin@example.com", server.clock.now);
    expect((await call(server, "POST", "/login/signature", { headers })).status).toBe(200);
    const replay = await call(server, "POST", "/login/signature", { headers });
    expect(replay.status).toBe(401);
    server.clock.now += 1000;
    const otherPath = auth.sign("admin@example.com", server.clock.now, "POST", "/register");
    expect((await call(server, "POST", "/login/signature", { headers: otherPath })).status).toBe(401);
    const stranger = new SoftAuthenticator(`http://localhost:${server.port}`);
    const foreign = { ...stranger.sign("admin@example.com", server.clock.now), "credentials-id": auth.id };
    expect((await call(server, "POST", "/login/signature", { headers: foreign })).status).toBe(401);
    // a key made for another origin is refused at registration
    const phish = new SoftAuthenticator("http://evil.example");
    await call(server, "POST", "/code", { headers: { email: "admin@example.com" } });
    const code = outboxCode(server.dataDir, "admin@example.com");
    const r = await call(server, "POST", "/login/password", {
      headers: {
        email: "admin@example.com",
        password: PASSWORD,
        code,
        timestamp: String(server.clock.now),
        ...phish.create("admin@example.com", code),
      },
    });
    expect(r.status).toBe(400);
    expect((await call(server, "GET", "/credentials", { headers: { email: "admin@example.com" } })).body).toHaveLength(
      1,
    );
  });

  it("rotates the refresh token in an HttpOnly SameSite=Strict cookie and refuses the old one (docs/decisions.md#d7)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const first = await call(server, "POST", "/register", { headers: {} }); // noise: 601
    expect(first.body.code).toBe(601);
    const r1 = await call(server, "POST", "/user/refresh", {
      headers: { "user-id": admin.session.uuid, timestamp: String(server.clock.now) },
      cookie: admin.cookie,
    });
    expect(r1.status).toBe(200);
    expect(Object.keys(r1.body).sort()).toEqual(["accessToken", "refreshTokenExpiry"]);
    expect(r1.setCookie).toMatch(/HttpOnly/);
    expect(r1.setCookie).toMatch(/SameSite=Strict/);
    expect(r1.setCookie).not.toMatch(/Secure/); // plain HTTP on loopback
    const rotated = cookieOf(r1.setCookie);
    expect(rotated).not.toBe(admin.cookie);
    expect((await call(server, "GET", "/token/me", { token: r1.body.accessToken })).status).toBe(200);
    // replaying the rotated-out token past the 20 s grace (docs/server-limits.md "Refresh") ends
    // the session (607), and the new one with it
    server.clock.now += 20_000;
    const replay = await call(server, "POST", "/user/refresh", {
      headers: { "user-id": admin.session.uuid, timestamp: String(server.clock.now) },
      cookie: admin.cookie,
    });
    expect(replay.body.code).toBe(607);
    const after = await call(server, "POST", "/user/refresh", {
      headers: { "user-id": admin.session.uuid, timestamp: String(server.clock.now) },
      cookie: rotated,
    });
    expect(after.body.code).toBe(607);
    expect((await call(server, "GET", "/token/me", { token: r1.body.accessToken })).body.code).toBe(607);
  });

  it("answers 602 for an expired access token while the refresh token lives, 603 when both expired (docs/api.md#errors)", async () => {
    server = await startTestServer({ accessTtlMs: 60_000, refreshTtlMs: 3600_000 });
    const admin = await registerFirstAdmin(server);
    server.clock.now += 60_001;
    const r602 = await call(server, "GET", "/token/clients", { token: admin.session.accessToken });
    expect(r602.status).toBe(401);
    expect(r602.body).toEqual({ code: 602, msg: API_ERROR_MESSAGES[602] });
    server.clock.now += 3600_000;
    const r603 = await call(server, "GET", "/token/clients", { token: admin.session.accessToken });
    expect(r603.body).toEqual({ code: 603, msg: API_ERROR_MESSAGES[603] });
    const refresh = await call(server, "POST", "/user/refresh", {
      headers: { "user-id": admin.session.uuid, timestamp: String(server.clock.now) },
      cookie: admin.cookie,
    });
    expect(refresh.body.code).toBe(603);
  });

  it("answers 607 to a forged, tampered or malformed token (docs/api.md#errors)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const [body, sig] = admin.session.accessToken.split(".") as [string, string];
    const payload = JSON.parse(Buffer.from(body, "base64url").toString());
    const longer = Buffer.from(JSON.stringify({ ...payload, expires: payload.expires + 86_400_000 })).toString(
      "base64url",
    );
    for (const token of [`${longer}.${sig}`, `${body}.${sig.slice(0, -2)}AA`, "garbage", `${body}.`]) {
      const r = await call(server, "GET", "/token/clients", { token });
      expect(r.body, token).toEqual({ code: 607, msg: API_ERROR_MESSAGES[607] });
    }
    const notBearer = await call(server, "GET", "/token/clients", {
      headers: { authorization: `Basic ${admin.session.accessToken}` },
    });
    expect(notBearer.body.code).toBe(607);
  });

  it("removing a user ends their sessions: their token is refused with 607 and their e-mail gets 606 (docs/api.md#errors)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const user = await permitAndRegister(server, admin, "t@example.com", "all");
    expect(
      (await call(server, "DELETE", `/token/admin/user/${user.session.uuid}`, { token: admin.session.accessToken }))
        .status,
    ).toBe(200);
    const r = await call(server, "GET", "/token/clients", { token: user.session.accessToken });
    expect(r.body.code).toBe(607);
    expect((await call(server, "GET", "/credentials", { headers: { email: "t@example.com" } })).body.code).toBe(606);
  });

  it("answers 604 past 60 calls in 10 s for one user (docs/decisions.md#d8)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    for (let i = 0; i < 60; i++)
      expect((await call(server, "GET", "/token/clients", { token: admin.session.accessToken })).status).toBe(200);
    const over = await call(server, "GET", "/token/clients", { token: admin.session.accessToken });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ code: 604, msg: API_ERROR_MESSAGES[604] });
    server.clock.now += 10_000;
    expect((await call(server, "GET", "/token/clients", { token: admin.session.accessToken })).status).toBe(200);
  });

  it("logout revokes the refresh token and the session's access tokens (docs/decisions.md#d7)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const out = await call(server, "POST", "/user/logout", { cookie: admin.cookie });
    expect(out.status).toBe(200);
    expect(out.setCookie).toMatch(/Max-Age=0/);
    expect((await call(server, "GET", "/token/me", { token: admin.session.accessToken })).body.code).toBe(607);
    const refresh = await call(server, "POST", "/user/refresh", {
      headers: { "user-id": admin.session.uuid, timestamp: String(server.clock.now) },
      cookie: admin.cookie,
    });
    expect(refresh.body.code).toBe(607);
  });

  it("logout with only the bearer token (scripts) ends that session", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    expect((await call(server, "POST", "/user/logout", { token: admin.session.accessToken })).status).toBe(200);
    expect((await call(server, "GET", "/token/me", { token: admin.session.accessToken })).body.code).toBe(607);
  });

  it("never writes passwords, codes or tokens to the log", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    await permitAndRegister(server, admin, "t@example.com", "all");
    const logged = server.logs.join("\n");
    expect(logged).not.toContain(PASSWORD);
    expect(logged).not.toContain(server.setupCode!);
    expect(logged).not.toContain(admin.session.accessToken);
    expect(logged).not.toContain(admin.cookie.split("=")[1]!);
    expect(logged).not.toContain(outboxCode(server.dataDir, "t@example.com"));
  });
});
