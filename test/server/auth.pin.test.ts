/**
 * The sign-in routes and the session checks at their edges (server/routes/auth.ts, server/auth/,
 * docs/mutation.md): the exact bounds of the timestamp and of the token and session lifetimes, the
 * refusals a sign-in counts against the caller's address, the refresh cookie's attributes, the
 * last-seen write, and the key-enrollment headers. Real server on loopback with a real SQLite file.
 */
import { rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { isoCBOR } from "@simplewebauthn/server/helpers";
import { afterEach, describe, expect, it } from "vitest";
import { API_ERROR_MESSAGES } from "../../lib/api.js";
import { codeMailText } from "../../server/auth/codes.js";
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

const WRONG = "Wrong e-mail code or password";

describe("sign-in edges (docs/decisions.md#d5, #d7, #d8, docs/server-limits.md)", () => {
  it("takes a timestamp exactly 30 s off either way, refuses 30.001 s ahead, and refuses text that is not whole milliseconds", async () => {
    server = await startTestServer();
    await registerFirstAdmin(server);
    const login = (timestamp: string) =>
      call(server, "POST", "/login/password", {
        headers: { email: "admin@example.com", password: PASSWORD, code: "ABCDEFGH", timestamp },
      });
    const now = server.clock.now;
    // inside the window the code is checked (and is wrong): 401, not 605
    expect((await login(String(now - 30_000))).body).toEqual({ code: 600, msg: WRONG });
    expect((await login(String(now + 30_000))).body).toEqual({ code: 600, msg: WRONG });
    expect((await login(String(now + 30_001))).body).toEqual({ code: 605, msg: API_ERROR_MESSAGES[605] });
    for (const text of [`${now}x`, `x${now}`, "1".repeat(17), "1e12"]) {
      const r = await login(text);
      expect(r.status, text).toBe(400);
      expect(r.body, text).toEqual({ code: 600, msg: "Header timestamp must be milliseconds since the epoch" });
    }
  });

  it("names the header a sign-in refuses, and refuses to register an e-mail twice", async () => {
    server = await startTestServer();
    await registerFirstAdmin(server);
    const bad = await call(server, "POST", "/register", {
      headers: { email: "not-an-e-mail", password: PASSWORD, code: "ABCDEFGH" },
    });
    expect(bad.body.code).toBe(600);
    expect(bad.body.msg).toMatch(/^Invalid e-mail: ./);
    const again = await call(server, "POST", "/register", {
      headers: { email: "admin@example.com", password: PASSWORD, code: "ABCDEFGH" },
    });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 600, msg: "This e-mail is already registered: sign in instead" });
  });

  it("a wrong password spends the code's attempt but not the code: the right password signs in with it after", async () => {
    server = await startTestServer();
    await registerFirstAdmin(server);
    await call(server, "POST", "/code", { headers: { email: "admin@example.com" } });
    const code = outboxCode(server.dataDir, "admin@example.com");
    const login = (password: string) =>
      call(server, "POST", "/login/password", {
        headers: { email: "admin@example.com", password, code, timestamp: String(server.clock.now) },
      });
    const wrong = await login("wrong horse battery");
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: 600, msg: WRONG });
    expect((await login(PASSWORD)).status).toBe(200);
  });

  it("counts an unknown e-mail, a wrong setup code and an unknown key against the address: the 11th is 604", async () => {
    server = await startTestServer();
    const setupCode = server.setupCode!;
    const wrongSetup = setupCode === "ABCDEFGH" ? "ABCDEFGJ" : "ABCDEFGH";
    const register = () =>
      call(server, "POST", "/register", { headers: { email: "a@example.com", password: PASSWORD, code: wrongSetup } });
    for (let i = 0; i < 10; i++) expect((await register()).body.code).toBe(606);
    expect((await register()).body).toEqual({ code: 604, msg: API_ERROR_MESSAGES[604] });
    await server.cleanup();

    server = await startTestServer();
    await registerFirstAdmin(server);
    const login = () =>
      call(server, "POST", "/login/password", {
        headers: {
          email: "nobody@example.com",
          password: PASSWORD,
          code: "ABCDEFGH",
          timestamp: String(server.clock.now),
        },
      });
    for (let i = 0; i < 10; i++) expect((await login()).body.code).toBe(606);
    expect((await login()).body.code).toBe(604);
    await server.cleanup();

    server = await startTestServer();
    await registerFirstAdmin(server);
    const stranger = new SoftAuthenticator(`http://localhost:${server.port}`);
    const keyLogin = () =>
      call(server, "POST", "/login/signature", { headers: stranger.sign("admin@example.com", server.clock.now) });
    for (let i = 0; i < 10; i++) {
      const r = await keyLogin();
      expect(r.status).toBe(401);
      expect(r.body.msg).toBe("Unknown key for this e-mail");
    }
    expect((await keyLogin()).body.code).toBe(604);
  });

  it("refuses enrollment headers that are incomplete, not base64url or too long, and a key registered already", async () => {
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
    expect(reg.body.credentialsId).toBe(auth.id);
    const login = async (extra: Record<string, string>) => {
      await call(server, "POST", "/code", { headers: { email: "admin@example.com" } });
      const code = outboxCode(server.dataDir, "admin@example.com");
      const headers = {
        email: "admin@example.com",
        password: PASSWORD,
        code,
        timestamp: String(server.clock.now),
        ...extra,
      };
      return { code, res: await call(server, "POST", "/login/password", { headers }) };
    };
    const partial = await login({ "credentials-id": auth.id });
    expect(partial.res.body).toEqual({ code: 601, msg: API_ERROR_MESSAGES[601] });
    const notB64 = await login({ "credentials-id": "not*base64", "public-key": "AAAA", "client-data": "AAAA" });
    expect(notB64.res.status).toBe(400);
    expect(notB64.res.body.msg).toBe("Header credentials-id must be base64url");
    const long = await login({ "credentials-id": "A".repeat(8193), "public-key": "AAAA", "client-data": "AAAA" });
    expect(long.res.body.msg).toBe("Header credentials-id must be base64url");
    // the same key again: the code's enrollment challenge differs per code, so sign it anew
    await call(server, "POST", "/code", { headers: { email: "admin@example.com" } });
    const code = outboxCode(server.dataDir, "admin@example.com");
    const twice = await call(server, "POST", "/login/password", {
      headers: {
        email: "admin@example.com",
        password: PASSWORD,
        code,
        timestamp: String(server.clock.now),
        ...auth.create("admin@example.com", code),
      },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.msg).toBe("This key is already registered");
  });
});

describe("key enrollment (server/auth/webauthn.ts, docs/api.md#calls)", () => {
  /** The attestation of `headers` with its authenticator-data flags replaced ("none" attestations sign nothing). */
  const withFlags = (headers: Record<string, string>, flags: number): Record<string, string> => {
    const attestation = isoCBOR.decodeFirst<Map<string, unknown>>(Buffer.from(headers["public-key"]!, "base64url"));
    const authData = Buffer.from(attestation.get("authData") as Uint8Array);
    authData[32] = flags;
    attestation.set("authData", authData);
    return { ...headers, "public-key": Buffer.from(isoCBOR.encode(attestation as never)).toString("base64url") };
  };

  it("refuses a key that did not verify its user, and a key whose attested id is not the header's", async () => {
    server = await startTestServer();
    const auth = new SoftAuthenticator(`http://localhost:${server.port}`);
    const register = (headers: Record<string, string>) =>
      call(server, "POST", "/register", {
        headers: { email: "admin@example.com", password: PASSWORD, code: server.setupCode!, ...headers },
      });
    const enroll = auth.create("admin@example.com", server.setupCode!);
    const noUv = await register(withFlags(enroll, 0x41)); // UP | AT, without UV
    expect(noUv.status).toBe(400);
    expect(noUv.body.msg).toMatch(/^The public key could not be verified: .*user could not be verified/i);
    const otherId = await register({ ...enroll, "credentials-id": new SoftAuthenticator("x").id });
    expect(otherId.status).toBe(400);
    expect(otherId.body.msg).toBe("The public key could not be verified: credential id differs from the header");
    // a refused key changed nothing: the setup code still registers the first admin, with the key
    expect(await server.storage.countUsers()).toBe(0);
    const ok = await register(enroll);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ admin: true, credentialsId: auth.id });
  });
});

describe("sessions at their edges (server/auth/session.ts, docs/decisions.md#d7)", () => {
  it("sets the refresh cookie for /user with the refresh lifetime, Secure behind a TLS proxy, and clears it on logout", async () => {
    server = await startTestServer({ refreshTtlMs: 3600_000 });
    const admin = await registerFirstAdmin(server);
    const first = await call(server, "POST", "/user/refresh", {
      headers: { "user-id": admin.session.uuid, timestamp: String(server.clock.now) },
      cookie: admin.cookie,
    });
    expect(first.setCookie).toMatch(/^spotdesk_refresh=[^;]+; Path=\/user; HttpOnly; SameSite=Strict; Max-Age=3600$/);
    const out = await call(server, "POST", "/user/logout", { cookie: cookieOf(first.setCookie) });
    expect(out.body).toEqual({ ok: true });
    expect(out.setCookie).toBe("spotdesk_refresh=; Path=/user; HttpOnly; SameSite=Strict; Max-Age=0");
    await server.cleanup();

    server = await startTestServer({ behindTlsProxy: true });
    const secure = await call(server, "POST", "/register", {
      headers: { email: "admin@example.com", password: PASSWORD, code: server.setupCode! },
    });
    expect(secure.setCookie).toMatch(/; Max-Age=604800; Secure$/);
    const out2 = await call(server, "POST", "/user/logout", { cookie: cookieOf(secure.setCookie) });
    expect(out2.setCookie).toMatch(/; Max-Age=0; Secure$/);
  });

  it("refuses the refresh of another user's id without ending the session, and a session at its very expiry", async () => {
    server = await startTestServer({ refreshTtlMs: 3600_000 });
    const admin = await registerFirstAdmin(server);
    const other = await permitAndRegister(server, admin, "t@example.com", "all");
    const refresh = (userId: string, cookie: string) =>
      call(server, "POST", "/user/refresh", {
        headers: { "user-id": userId, timestamp: String(server.clock.now) },
        cookie,
      });
    expect((await refresh(other.session.uuid, admin.cookie)).body).toEqual({ code: 607, msg: API_ERROR_MESSAGES[607] });
    const ok = await refresh(admin.session.uuid, admin.cookie);
    expect(ok.status).toBe(200);
    expect(ok.body.refreshTokenExpiry).toBe(server.clock.now + 3600_000);
    server.clock.now += 3600_000;
    expect((await refresh(admin.session.uuid, cookieOf(ok.setCookie))).body).toEqual({
      code: 603,
      msg: API_ERROR_MESSAGES[603],
    });
  });

  it("an access token is expired at its very `expires` (602), and the user's last-seen is written at most once a minute", async () => {
    server = await startTestServer({ accessTtlMs: 120_000 });
    const admin = await registerFirstAdmin(server);
    const t0 = server.clock.now;
    const me = async () => (await call(server, "GET", "/token/me", { token: admin.session.accessToken })).body;
    expect(await me()).toEqual({
      uuid: admin.session.uuid,
      email: "admin@example.com",
      admin: true,
      scope: "all",
      lastActive: t0,
    });
    server.clock.now = t0 + 60_000;
    expect((await me()).lastActive).toBe(t0);
    server.clock.now = t0 + 60_001;
    expect((await me()).lastActive).toBe(t0 + 60_001);
    server.clock.now = t0 + 60_002;
    expect((await me()).lastActive).toBe(t0 + 60_001);
    server.clock.now = t0 + 120_000;
    expect(await me()).toEqual({ code: 602, msg: API_ERROR_MESSAGES[602] });
  });

  it("a refresh without its cookie is 603; from an address over its failure budget a valid one still works; a replay clears the cookie", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const other = await permitAndRegister(server, admin, "t@example.com", "all");
    const headers = () => ({ "user-id": admin.session.uuid, timestamp: String(server.clock.now) });
    expect((await call(server, "POST", "/user/refresh", { headers: headers() })).body).toEqual({
      code: 603,
      msg: API_ERROR_MESSAGES[603],
    });
    const rotated = await call(server, "POST", "/user/refresh", { headers: headers(), cookie: admin.cookie });
    expect(rotated.status).toBe(200);
    server.clock.now += 20_000; // past the grace of concurrent refreshes (docs/server-limits.md "Refresh")
    const replay = await call(server, "POST", "/user/refresh", { headers: headers(), cookie: admin.cookie });
    expect(replay.body.code).toBe(607);
    expect(replay.setCookie).toBe("spotdesk_refresh=; Path=/user; HttpOnly; SameSite=Strict; Max-Age=0");

    for (let i = 0; i < 10; i++) {
      const forged = `${Buffer.from(JSON.stringify({ uid: "x", sid: `s${i}`, expires: server.clock.now + 60_000 })).toString("base64url")}.AAAA`;
      await callFrom(server, "127.0.0.2", "GET", "/token/me", { token: forged });
    }
    const over = await callFrom(server, "127.0.0.2", "POST", "/user/refresh", {
      headers: { "user-id": other.session.uuid, timestamp: String(server.clock.now) },
      cookie: other.cookie,
    });
    // a refresh is never refused for its address's failed sign-ins (docs/server-limits.md "Refresh")
    expect(over.status).toBe(200);
    const fine = await call(server, "POST", "/user/refresh", {
      headers: { "user-id": other.session.uuid, timestamp: String(server.clock.now) },
      cookie: cookieOf(over.setCookie),
    });
    expect(fine.status).toBe(200);
  });

  it("logout ends the session of a bearer token written in any case, and of the refresh cookie", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const out = await call(server, "POST", "/user/logout", {
      headers: { authorization: `bearer   ${admin.session.accessToken}` },
    });
    expect(out.status).toBe(200);
    expect((await call(server, "GET", "/token/me", { token: admin.session.accessToken })).body.code).toBe(607);
  });
});

describe("more sign-in edges (server/routes/auth.ts, server/auth/)", () => {
  it("names the e-mail or the code a call refuses, and answers 606 to an e-mail without an account", async () => {
    server = await startTestServer();
    await registerFirstAdmin(server);
    const ts = () => String(server.clock.now);
    const calls: [string, string, Record<string, string>][] = [
      ["GET", "/credentials", { email: "nope" }],
      ["POST", "/code", { email: "nope" }],
      ["POST", "/login/password", { email: "nope", password: PASSWORD, code: "ABCDEFGH", timestamp: ts() }],
      [
        "POST",
        "/login/signature",
        {
          email: "nope",
          "client-data": "A",
          "authenticator-data": "A",
          "credentials-id": "A",
          signature: "A",
          timestamp: ts(),
        },
      ],
    ];
    for (const [method, path, headers] of calls)
      expect((await call(server, method, path, { headers })).body.msg, path).toMatch(/^Invalid e-mail: ./);
    const badCode = await call(server, "POST", "/login/password", {
      headers: { email: "admin@example.com", password: PASSWORD, code: "AB", timestamp: ts() },
    });
    expect(badCode.body.msg).toMatch(/^Invalid code: ./);
    expect((await call(server, "GET", "/credentials", { headers: { email: "nobody@example.com" } })).body.code).toBe(
      606,
    );
  });

  it("a permitted e-mail not registered yet, or unknown, has no password or key login (606); another user's key is unknown", async () => {
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
    const admin = await call(server, "POST", "/login/signature", {
      headers: auth.sign("admin@example.com", server.clock.now),
    });
    const token = admin.body.accessToken as string;
    await call(server, "POST", "/token/admin/user", { token, body: { userId: "new@example.com", scope: "all" } });
    const password = await call(server, "POST", "/login/password", {
      headers: { email: "new@example.com", password: PASSWORD, code: "ABCDEFGH", timestamp: String(server.clock.now) },
    });
    expect(password.body.code).toBe(606);
    expect((await call(server, "GET", "/credentials", { headers: { email: "new@example.com" } })).body.code).toBe(606);
    server.clock.now += 1000;
    for (const email of ["new@example.com", "nobody@example.com"]) {
      const r = await call(server, "POST", "/login/signature", { headers: auth.sign(email, server.clock.now) });
      expect(r.body.code, email).toBe(606);
    }
    const other = await permitAndRegister(
      server,
      { session: admin.body, cookie: "", email: "admin@example.com" },
      "t@example.com",
      "all",
    );
    expect(other.session.uuid).toBeTruthy();
    const foreign = await call(server, "POST", "/login/signature", {
      headers: auth.sign("t@example.com", server.clock.now),
    });
    expect(foreign.status).toBe(401);
    expect(foreign.body.msg).toBe("Unknown key for this e-mail");
  });

  it("needs all three enrollment headers once any is sent", async () => {
    server = await startTestServer();
    const auth = new SoftAuthenticator(`http://localhost:${server.port}`);
    const full = auth.create("admin@example.com", server.setupCode!);
    for (const drop of [
      ["client-data"],
      ["public-key"],
      ["credentials-id"],
      ["public-key", "client-data"],
      ["credentials-id", "client-data"],
    ]) {
      const headers: Record<string, string> = { ...full };
      for (const h of drop) delete headers[h];
      const r = await call(server, "POST", "/register", {
        headers: { email: "admin@example.com", password: PASSWORD, code: server.setupCode!, ...headers },
      });
      expect(r.body, drop.join()).toEqual({ code: 601, msg: API_ERROR_MESSAGES[601] });
    }
    expect(await server.storage.countUsers()).toBe(0);
  });

  it("registers the first admin when the setup-code file is gone already, and logs it; an unpermitted e-mail costs the address nothing", async () => {
    server = await startTestServer();
    rmSync(join(server.dataDir, "setup-code"));
    await registerFirstAdmin(server);
    expect(server.logs.some((l) => l.includes("first admin registered"))).toBe(true);
    for (let i = 0; i < 11; i++) {
      const r = await call(server, "POST", "/register", {
        headers: { email: "stranger@example.com", password: PASSWORD, code: "ABCDEFGH" },
      });
      expect(r.body.code).toBe(606);
    }
  });

  it("takes a padded credentials-id, a header of 8192 characters but not more, and refuses a login without user verification", async () => {
    server = await startTestServer();
    const auth = new SoftAuthenticator(`http://localhost:${server.port}`);
    const enroll = auth.create("admin@example.com", server.setupCode!);
    const reg = await call(server, "POST", "/register", {
      headers: {
        email: "admin@example.com",
        password: PASSWORD,
        code: server.setupCode!,
        ...enroll,
        "credentials-id": `${auth.id}==`,
      },
    });
    expect(reg.body.credentialsId).toBe(auth.id);
    const padded = await call(server, "POST", "/login/signature", {
      headers: { ...auth.sign("admin@example.com", server.clock.now), "credentials-id": `${auth.id}=` },
    });
    expect(padded.status).toBe(200);
    server.clock.now += 1000;
    const padded2 = await call(server, "POST", "/login/signature", {
      headers: { ...auth.sign("admin@example.com", server.clock.now), "credentials-id": `${auth.id}==` },
    });
    expect(padded2.status).toBe(200);
    server.clock.now += 1000;
    const signed = auth.sign("admin@example.com", server.clock.now);
    const bad = await call(server, "POST", "/login/signature", { headers: { ...signed, signature: "*" } });
    expect(bad.body.msg).toBe("Key login refused: Header signature must be base64url");
    const badData = await call(server, "POST", "/login/signature", {
      headers: { ...signed, "authenticator-data": "*" },
    });
    expect(badData.body.msg).toBe("Key login refused: Header authenticator-data must be base64url");
    const badClient = await call(server, "POST", "/login/signature", { headers: { ...signed, "client-data": "*" } });
    expect(badClient.body.msg).toBe("Key login refused: Header client-data must be base64url");
    // UP only: the authenticator did not verify its user
    // biome-ignore lint/suspicious/noExplicitAny: the test authenticator's flags, private in its type
    const soft = auth as any;
    const authData = soft.authData.bind(auth);
    soft.authData = (_flags: number, attested?: Uint8Array) => authData(0x01, attested);
    server.clock.now += 1000;
    const noUv = await call(server, "POST", "/login/signature", {
      headers: auth.sign("admin@example.com", server.clock.now),
    });
    expect(noUv.status).toBe(401);
    expect(noUv.body.msg).toMatch(/^Key login refused: .*user could not be verified/i);

    await call(server, "POST", "/code", { headers: { email: "admin@example.com" } });
    const code = outboxCode(server.dataDir, "admin@example.com");
    const login = (extra: Record<string, string>) =>
      call(server, "POST", "/login/password", {
        headers: {
          email: "admin@example.com",
          password: PASSWORD,
          code,
          timestamp: String(server.clock.now),
          ...extra,
        },
      });
    const long = await login({ "credentials-id": "A".repeat(8192), "public-key": "AAAA", "client-data": "AAAA" });
    expect(long.body.msg).toMatch(/^The public key could not be verified: /);
    const badKey = await login({ "credentials-id": "AAAA", "public-key": "*", "client-data": "AAAA" });
    expect(badKey.body.msg).toBe("The public key could not be verified: Header public-key must be base64url");
    const badKeyClient = await login({ "credentials-id": "AAAA", "public-key": "AAAA", "client-data": "*" });
    expect(badKeyClient.body.msg).toBe("The public key could not be verified: Header client-data must be base64url");
  });

  it("never counts unknown refresh cookies against the address, nor an expired access token, and a logout with an unknown cookie is fine", async () => {
    server = await startTestServer({ accessTtlMs: 60_000 });
    const admin = await registerFirstAdmin(server);
    const refresh = () =>
      callFrom(server, "127.0.0.2", "POST", "/user/refresh", {
        headers: { "user-id": admin.session.uuid, timestamp: String(server.clock.now) },
        cookie: "spotdesk_refresh=forged",
      });
    for (let i = 0; i < 15; i++) expect((await refresh()).body.code).toBe(607);
    // the address has no failure: a forged access token from it is still 607, ten times
    for (let i = 0; i < 10; i++)
      expect((await callFrom(server, "127.0.0.2", "GET", "/token/me", { token: `x${i}.AAAA` })).body.code).toBe(607);
    expect((await callFrom(server, "127.0.0.2", "GET", "/token/me", { token: "x.AAAA" })).body.code).toBe(604);
    server.clock.now += 60_000;
    for (let i = 0; i < 11; i++)
      expect((await call(server, "GET", "/token/me", { token: admin.session.accessToken })).body.code).toBe(602);
    const out = await call(server, "POST", "/user/logout", { cookie: "spotdesk_refresh=unknown" });
    expect(out.status).toBe(200);
  });

  it("keeps outbox.jsonl private (0600), and the mail says how long a code lives", async () => {
    server = await startTestServer();
    await registerFirstAdmin(server);
    await call(server, "POST", "/code", { headers: { email: "admin@example.com" } });
    expect(statSync(join(server.dataDir, "outbox.jsonl")).mode & 0o777).toBe(0o600);
    expect(codeMailText("ABCD2345")).toContain("It is valid for 10 minutes and works once.");
  });
});

describe("the per-user call limit (docs/decisions.md#d8)", () => {
  it("is each user's own: one user past 60 calls in 10 s leaves another's calls alone", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const other = await permitAndRegister(server, admin, "t@example.com", "all");
    const codes: number[] = [];
    for (let i = 0; i < 61; i++)
      codes.push((await call(server, "GET", "/token/me", { token: admin.session.accessToken })).status);
    expect(codes.at(-1)).toBe(429);
    expect((await call(server, "GET", "/token/me", { token: other.session.accessToken })).status).toBe(200);
  });
});
