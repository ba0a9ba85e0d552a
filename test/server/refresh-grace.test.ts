/**
 * Refreshes with one cookie at once (docs/server-limits.md "Refresh"): dashboard tabs opened
 * together each refresh with the same cookie. Within `refreshGraceMs` (20 s) of its rotation the
 * rotated-out token is answered with the token it was rotated to, so every tab stays signed in;
 * past it, presenting it again is a replay and ends the session, as before (docs/decisions.md#d7).
 */
import { afterEach, describe, expect, it } from "vitest";
import { API_ERROR_MESSAGES } from "../../lib/api.js";
import { resolveConfig } from "../../server/config.js";
import { call, cookieOf, registerFirstAdmin, type SignedIn, startTestServer, type TestServer } from "./helpers.js";

let server: TestServer;
afterEach(async () => {
  await server?.cleanup();
});

const refresh = (user: SignedIn, cookie: string, userId = user.session.uuid) =>
  call(server, "POST", "/user/refresh", {
    headers: { "user-id": userId, timestamp: String(server.clock.now) },
    cookie,
  });
const me = (token: string) => call(server, "GET", "/token/me", { token });

describe("refreshes with the same cookie (issue 31, docs/server-limits.md)", () => {
  it("8 refreshes at once with one cookie all succeed with the same new cookie, and the session lives on", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const answers = await Promise.all(Array.from({ length: 8 }, () => refresh(admin, admin.cookie)));
    // the issue: "Two refreshes with the same cookie read as a stolen token and end the session"
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    const cookies = new Set(answers.map((a) => cookieOf(a.setCookie)));
    expect(cookies.size).toBe(1);
    expect([...cookies][0]).not.toBe(admin.cookie);
    expect(new Set(answers.map((a) => a.body.refreshTokenExpiry)).size).toBe(1);
    for (const answer of answers) expect((await me(answer.body.accessToken)).status).toBe(200);
    // the shared new cookie rotates on as usual
    server.clock.now += 60_000;
    const next = await refresh(admin, [...cookies][0]!);
    expect(next.status).toBe(200);
    expect((await me(next.body.accessToken)).status).toBe(200);
  });

  it("two refreshes that both read the cookie as current before either rotates: one rotates, the other gets the same cookie", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    // each of the two first reads waits for the other, so both see the cookie as the current one
    const storage = server.storage;
    const find = storage.findSessionByRefreshHash.bind(storage);
    const waiting: (() => void)[] = [];
    storage.findSessionByRefreshHash = async (hash) => {
      const found = await find(hash);
      if (found && !found.replay && waiting.length < 2)
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          if (waiting.length === 2) for (const go of waiting) go();
        });
      return found;
    };
    const answers = await Promise.all([refresh(admin, admin.cookie), refresh(admin, admin.cookie)]);
    storage.findSessionByRefreshHash = find;
    expect(waiting).toHaveLength(2);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    expect(cookieOf(answers[0]!.setCookie)).toBe(cookieOf(answers[1]!.setCookie));
    for (const answer of answers) expect((await me(answer.body.accessToken)).status).toBe(200);
  });

  it("answers the rotated-out cookie within 20 s with the same new cookie and expiry, sequentially too", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const first = await refresh(admin, admin.cookie);
    server.clock.now += 19_999;
    const late = await refresh(admin, admin.cookie);
    expect(late.status).toBe(200);
    expect(cookieOf(late.setCookie)).toBe(cookieOf(first.setCookie));
    expect(late.body.refreshTokenExpiry).toBe(first.body.refreshTokenExpiry);
    expect((await me(late.body.accessToken)).status).toBe(200);
    // another user id with it is refused and ends nothing
    expect((await refresh(admin, admin.cookie, "someone-else")).body).toEqual({
      code: 607,
      msg: API_ERROR_MESSAGES[607],
    });
    expect((await me(first.body.accessToken)).status).toBe(200);
  });

  it("a replay past the 20 s grace still ends the session: the cookie is cleared and every token of it is 607", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const first = await refresh(admin, admin.cookie);
    expect(first.status).toBe(200);
    server.clock.now += 20_000;
    const replay = await refresh(admin, admin.cookie);
    expect(replay.body).toEqual({ code: 607, msg: API_ERROR_MESSAGES[607] });
    expect(replay.setCookie).toBe("spotdesk_refresh=; Path=/user; HttpOnly; SameSite=Strict; Max-Age=0");
    expect(server.logs.some((line) => line.includes("refresh token replayed: session revoked"))).toBe(true);
    expect((await refresh(admin, cookieOf(first.setCookie))).body.code).toBe(607);
    expect((await me(first.body.accessToken)).body.code).toBe(607);
  });

  it("a cookie two rotations old is refused within the grace too, without ending the session", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const first = await refresh(admin, admin.cookie);
    const second = await refresh(admin, cookieOf(first.setCookie));
    expect(second.status).toBe(200);
    expect((await refresh(admin, admin.cookie)).body.code).toBe(607);
    expect((await me(second.body.accessToken)).status).toBe(200);
  });

  it("refreshGraceMs 0 turns the grace off: the second of two refreshes with one cookie is a replay", async () => {
    server = await startTestServer({ refreshGraceMs: 0 });
    const admin = await registerFirstAdmin(server);
    expect((await refresh(admin, admin.cookie)).status).toBe(200);
    expect((await refresh(admin, admin.cookie)).body.code).toBe(607);
  });

  it("refuses a refreshGraceMs that is not whole milliseconds below the refresh lifetime, naming it", () => {
    expect(() => resolveConfig({ dataDir: "/tmp/x", refreshGraceMs: -1 }, {})).toThrow(
      "Invalid refreshGraceMs -1: whole milliseconds, 0 or more and less than refreshTtlMs",
    );
    expect(() => resolveConfig({ dataDir: "/tmp/x", refreshGraceMs: 60_000, refreshTtlMs: 60_000 }, {})).toThrow(
      "Invalid refreshGraceMs 60000",
    );
    expect(resolveConfig({ dataDir: "/tmp/x" }, {}).refreshGraceMs).toBe(20_000);
  });
});
