/**
 * Issue 16 "Sign-in that can't be raced or used against its owner" (docs/server-limits.md):
 * code attempts are spent before the password is checked, atomically; a caller who knows only
 * the owner's e-mail spends its own address's budget, not the owner's code or requests; forged
 * tokens end in 604. Two callers are two loopback addresses (127.0.0.1, 127.0.0.2).
 */
import { afterEach, describe, expect, it } from "vitest";
import { API_ERROR_MESSAGES } from "../../lib/api.js";
import {
  call,
  outboxCode,
  PASSWORD,
  permitAndRegister,
  registerFirstAdmin,
  startTestServer,
  type TestServer,
} from "./helpers.js";
import { callFrom } from "./raw.js";

const OWNER = "127.0.0.1";
const ATTACKER = "127.0.0.2";
const EMAIL = "owner@example.com";
const WRONG = "Wrong e-mail code or password";

let server: TestServer;
afterEach(async () => {
  await server?.cleanup();
});

/** a code that is not `code` */
const otherCode = (code: string, i: number) => {
  const alphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
  let out = "";
  for (let k = 0; k < 8; k++) out += alphabet[(i * 7 + k * 3) % alphabet.length];
  return out === code ? "ZZZZZZZZ" : out;
};

const loginHeaders = (code: string, password = PASSWORD) => ({
  email: EMAIL,
  password,
  code,
  timestamp: String(server.clock.now),
});

describe("sign-in limits (issue 16, docs/server-limits.md)", () => {
  it("checks at most 5 of 41 parallel password guesses made with one valid code (docs/decisions.md#d8)", async () => {
    // a high address budget, so only the code's own 5 attempts stop the guesses
    server = await startTestServer({ signIn: { failuresPerAddress: 1000, failuresPerEmail: 1000 } });
    const admin = await registerFirstAdmin(server);
    await permitAndRegister(server, admin, EMAIL, "all");
    await call(server, "POST", "/code", { headers: { email: EMAIL } });
    const code = outboxCode(server.dataDir, EMAIL);
    const guesses = Array.from({ length: 40 }, (_, i) => `wrong password ${i}`);
    guesses.splice(20, 0, PASSWORD); // the right one somewhere in the middle
    const answers = await Promise.all(
      guesses.map((p) => call(server, "POST", "/login/password", { headers: loginHeaders(code, p) })),
    );
    const checked = answers.filter((a) => a.status === 200 || a.body?.msg === WRONG);
    const refused = answers.filter(
      (a) => a.status === 401 && a.body?.msg === "This code was tried 5 times: request a new one",
    );
    expect(checked.length).toBe(5);
    expect(refused.length).toBe(36);
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(1);
    // the code is spent either way: a sixth try with the right password is refused
    const after = await call(server, "POST", "/login/password", { headers: loginHeaders(code) });
    expect(after.status).toBe(401);
  });

  it("uses a valid code once under parallel sign-ins: one session, the others refused", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    await permitAndRegister(server, admin, EMAIL, "all");
    await call(server, "POST", "/code", { headers: { email: EMAIL } });
    const code = outboxCode(server.dataDir, EMAIL);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => call(server, "POST", "/login/password", { headers: loginHeaders(code) })),
    );
    expect(answers.filter((a) => a.status === 200).length).toBe(1);
    expect(answers.filter((a) => a.status === 401).length).toBe(3);
  });

  it("an address that knows only the owner's e-mail cannot block the owner's code or requests from another address", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    await permitAndRegister(server, admin, EMAIL, "all");
    // the owner asks for a code and is about to type it
    expect((await callFrom(server, OWNER, "POST", "/code", { headers: { email: EMAIL } })).status).toBe(200);
    const ownersCode = outboxCode(server.dataDir, EMAIL);

    // the attacker asks for codes until refused: five an hour for this e-mail from its address
    for (let i = 0; i < 5; i++)
      expect((await callFrom(server, ATTACKER, "POST", "/code", { headers: { email: EMAIL } })).status).toBe(200);
    const sixth = await callFrom(server, ATTACKER, "POST", "/code", { headers: { email: EMAIL } });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ code: 604, msg: API_ERROR_MESSAGES[604] });

    // and guesses codes until refused: ten failures from its address within 15 minutes
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      statuses.push(
        (
          await callFrom(server, ATTACKER, "POST", "/login/password", {
            headers: loginHeaders(otherCode(ownersCode, i), "guess"),
          })
        ).status,
      );
    }
    expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
    // past its budget the attacker's address is refused before anything is checked, even the right code
    const blocked = await callFrom(server, ATTACKER, "POST", "/login/password", { headers: loginHeaders(ownersCode) });
    expect(blocked.body.code).toBe(604);

    // the owner, from another address, still gets a code…
    expect((await callFrom(server, OWNER, "POST", "/code", { headers: { email: EMAIL } })).status).toBe(200);
    // …and the first code (newer ones do not replace it, wrong guesses did not spend it) signs in
    const login = await callFrom(server, OWNER, "POST", "/login/password", { headers: loginHeaders(ownersCode) });
    expect(login.status).toBe(200);

    // a quarter of an hour later the attacker's address has its budget back
    server.clock.now += 15 * 60_000 + 1;
    const later = await callFrom(server, ATTACKER, "POST", "/login/password", {
      headers: loginHeaders(otherCode(ownersCode, 99), "guess"),
    });
    expect(later.status).toBe(401);
  });

  it("caps failures and code requests per e-mail well above one address's share, across addresses", async () => {
    server = await startTestServer({
      signIn: { failuresPerAddress: 3, failuresPerEmail: 6, codeRequestsPerEmail: 4, failureWindowMs: 60_000 },
    });
    const admin = await registerFirstAdmin(server);
    await permitAndRegister(server, admin, EMAIL, "all"); // spends one code request of the e-mail
    await callFrom(server, OWNER, "POST", "/code", { headers: { email: EMAIL } });
    const code = outboxCode(server.dataDir, EMAIL);
    // two more addresses ask for codes: the e-mail's 4 an hour are then used up, from any address
    expect((await callFrom(server, "127.0.0.3", "POST", "/code", { headers: { email: EMAIL } })).status).toBe(200);
    expect((await callFrom(server, "127.0.0.4", "POST", "/code", { headers: { email: EMAIL } })).status).toBe(200);
    expect((await callFrom(server, "127.0.0.5", "POST", "/code", { headers: { email: EMAIL } })).body.code).toBe(604);
    // two addresses spend their 3 failures each: the e-mail's 6 are used up
    for (const address of ["127.0.0.3", "127.0.0.4"]) {
      for (let i = 0; i < 3; i++) {
        expect(
          (
            await callFrom(server, address, "POST", "/login/password", {
              headers: loginHeaders(otherCode(code, i), "guess"),
            })
          ).status,
        ).toBe(401);
      }
    }
    const owner = await callFrom(server, OWNER, "POST", "/login/password", { headers: loginHeaders(code) });
    expect(owner.body.code).toBe(604);
    server.clock.now += 60_001;
    expect((await callFrom(server, OWNER, "POST", "/login/password", { headers: loginHeaders(code) })).status).toBe(
      200,
    );
  });

  it("counts forged tokens against the address: 607 ten times, then 604; a valid token still works", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const codes: number[] = [];
    for (let i = 0; i < 200; i++) {
      const forged = `${Buffer.from(JSON.stringify({ uid: "x", sid: String(i), expires: server.clock.now + 60_000 })).toString("base64url")}.AAAA`;
      codes.push((await callFrom(server, ATTACKER, "GET", "/token/me", { token: forged })).body.code);
    }
    expect(codes.slice(0, 12), JSON.stringify(codes.slice(0, 12))).toEqual([...Array(10).fill(607), 604, 604]);
    expect(new Set(codes.slice(10))).toEqual(new Set([604]));
    // the token is checked first: a valid one works from either address
    expect((await callFrom(server, ATTACKER, "GET", "/token/me", { token: admin.session.accessToken })).status).toBe(
      200,
    );
    expect((await callFrom(server, OWNER, "GET", "/token/me", { token: admin.session.accessToken })).status).toBe(200);
    // an unknown refresh cookie is a failed token check too
    const refresh = await callFrom(server, ATTACKER, "POST", "/user/refresh", {
      headers: { "user-id": admin.session.uuid, timestamp: String(server.clock.now) },
      cookie: "spotdesk_refresh=forged",
    });
    expect(refresh.body.code).toBe(604);
  });

  it("takes the address from the proxy's X-Forwarded-For entry only with --behind-tls-proxy", async () => {
    const forged = (i: number) =>
      `${Buffer.from(JSON.stringify({ uid: "x", sid: `s${i}`, expires: server.clock.now + 60_000 })).toString("base64url")}.AAAA`;
    const burn = async (xff: string) => {
      const codes: number[] = [];
      for (let i = 0; i < 11; i++)
        codes.push(
          (await call(server, "GET", "/token/me", { token: forged(i), headers: { "x-forwarded-for": xff } })).body.code,
        );
      return codes;
    };
    server = await startTestServer({ behindTlsProxy: true });
    // the client wrote "6.6.6.6", the proxy appended the address it saw: the last entry counts
    expect(await burn("6.6.6.6, 203.0.113.7")).toEqual([...Array(10).fill(607), 604]);
    expect((await burn("6.6.6.6, 203.0.113.8"))[0]).toBe(607);
    expect((await burn("7.7.7.7, 203.0.113.7"))[0]).toBe(604);
    await server.cleanup();

    // without the flag the header is the caller's own text and is ignored
    server = await startTestServer();
    expect(await burn("203.0.113.7")).toEqual([...Array(10).fill(607), 604]);
    expect((await burn("203.0.113.8"))[0]).toBe(604);
  });
});
