/**
 * Issue 16 "Sign-in that can't be raced or used against its owner" (docs/server-limits.md):
 * code attempts are spent before the password is checked, atomically; a caller who knows only
 * the owner's e-mail spends its own address's budget, not the owner's code or requests; forged
 * tokens end in 604. Two callers are two loopback addresses (127.0.0.1, 127.0.0.2).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { API_ERROR_MESSAGES } from "../../lib/api.js";
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
    server = await startTestServer({
      signIn: { failuresPerAddress: 1000, failuresPerEmailAndAddress: 1000, failuresPerEmail: 1000 },
    });
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

    // and guesses codes until refused: five failures for this e-mail from its address within 15 minutes
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (
          await callFrom(server, ATTACKER, "POST", "/login/password", {
            headers: loginHeaders(otherCode(ownersCode, i), "guess"),
          })
        ).status,
      );
    }
    expect(statuses).toEqual([...Array(5).fill(401), 429, 429]);
    // and ten from its address whatever the e-mail: five more on e-mails without an account, then 604
    const others: number[] = [];
    for (let i = 0; i < 6; i++) {
      others.push(
        (
          await callFrom(server, ATTACKER, "POST", "/login/password", {
            headers: { ...loginHeaders(otherCode(ownersCode, i), "guess"), email: `nobody${i}@example.com` },
          })
        ).body.code,
      );
    }
    expect(others).toEqual([...Array(5).fill(606), 604]);
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
    // a refresh is never a sign-in: an unknown cookie is 607 even from this address, never 604
    const refresh = await callFrom(server, ATTACKER, "POST", "/user/refresh", {
      headers: { "user-id": admin.session.uuid, timestamp: String(server.clock.now) },
      cookie: "spotdesk_refresh=forged",
    });
    expect(refresh.body.code).toBe(607);
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

describe("strangers on many addresses never lock the owner out (issue 31, docs/server-limits.md)", () => {
  const addresses = (n: number, net: string) => Array.from({ length: n }, (_, i) => `${net}.${i + 1}`);
  const askCode = (address: string) => callFrom(server, address, "POST", "/code", { headers: { email: EMAIL } });
  const mailsTo = (email: string) =>
    readFileSync(join(server.dataDir, "outbox.jsonl"), "utf8")
      .trim()
      .split("\n")
      .filter((line) => (JSON.parse(line) as { to: string }).to === email).length;

  /**
   * Each stranger address asks for codes for the owner's e-mail and guesses codes for it until it
   * is refused (or 6 and 12 times); answers how its code requests went.
   */
  async function strangers(from: string[], ownersCode: string) {
    const requests = { sent: 0, held: 0, refused: 0 };
    for (const address of from) {
      for (let i = 0; i < 6; i++) {
        const answer = await askCode(address);
        if (answer.status === 429) {
          requests.refused++;
          break;
        }
        expect(answer.status).toBe(200);
        if (answer.body.sent) requests.sent++;
        else requests.held++;
      }
      for (let i = 0; i < 12; i++) {
        const guess = await callFrom(server, address, "POST", "/login/password", {
          headers: loginHeaders(otherCode(ownersCode, i), "guess"),
        });
        if (guess.status === 429) break;
        expect(guess.body.msg).toBe(WRONG);
      }
    }
    return requests;
  }

  async function ownerWithCodeInMailbox(): Promise<string> {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    await permitAndRegister(server, admin, EMAIL, "all"); // asked for its code from OWNER
    expect((await askCode(OWNER)).body).toEqual({ sent: true });
    return outboxCode(server.dataDir, EMAIL);
  }

  it("6 addresses: the owner's valid code already in the mailbox signs in, and the owner still gets a code", async () => {
    const inMailbox = await ownerWithCodeInMailbox();
    const requests = await strangers(addresses(6, "127.0.2"), inMailbox);
    // the issue: "a valid code already in the mailbox is refused for 15 minutes"
    const login = await callFrom(server, OWNER, "POST", "/login/password", { headers: loginHeaders(inMailbox) });
    expect(login.status).toBe(200);
    // the e-mail's 30 codes an hour went out (2 to the owner's requests); past them requests are held
    expect(requests.sent).toBe(28);
    expect(requests.held).toBeGreaterThan(0);
    // the issue: "no code can be requested": held, the newest code in the mailbox is fresh and signs in
    expect((await askCode(OWNER)).body).toEqual({ sent: false, held: true });
    const again = await callFrom(server, OWNER, "POST", "/login/password", {
      headers: loginHeaders(outboxCode(server.dataDir, EMAIL)),
    });
    expect(again.status).toBe(200);
  });

  it("60 addresses: the owner still signs in and gets a new code once none is fresh; the mailbox gets 30 codes, and the attack is logged once", async () => {
    const inMailbox = await ownerWithCodeInMailbox();
    const requests = await strangers(addresses(60, "127.0.3"), inMailbox);
    expect(
      (await callFrom(server, OWNER, "POST", "/login/password", { headers: loginHeaders(inMailbox) })).status,
    ).toBe(200);
    expect(requests.sent).toBe(28);
    // the first five addresses got their 5 codes an hour and were refused the sixth; the others were held
    expect(requests.refused).toBe(5);
    expect(requests.held).toBe(55 * 6 - 3);
    expect(mailsTo(EMAIL)).toBe(30);
    const warnings = server.logs.filter((line) => line.includes("sign-in failures for one e-mail from many addresses"));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0]!)).toMatchObject({ email: EMAIL, failures: 50 });
    // 5 minutes later no code in the mailbox has half its 10 minutes left: the next request sends one
    server.clock.now += 5 * 60_000 + 1;
    expect((await askCode("127.0.3.7")).body).toEqual({ sent: true });
    expect((await askCode(OWNER)).body).toEqual({ sent: false, held: true });
    expect(mailsTo(EMAIL)).toBe(31);
    const login = await callFrom(server, OWNER, "POST", "/login/password", {
      headers: loginHeaders(outboxCode(server.dataDir, EMAIL)),
    });
    expect(login.status).toBe(200);
  });

  it("a stranger on the owner's address spends its budget, yet the owner's key still signs in from it", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    await call(server, "POST", "/token/admin/user", {
      token: admin.session.accessToken,
      body: { userId: EMAIL, scope: "all" },
    });
    await askCode(OWNER);
    const code = outboxCode(server.dataDir, EMAIL);
    const key = new SoftAuthenticator(`http://localhost:${server.port}`);
    const registered = await callFrom(server, OWNER, "POST", "/register", {
      headers: { email: EMAIL, password: PASSWORD, code, ...key.create(EMAIL, code) },
    });
    expect(registered.body.credentialsId).toBe(key.id);
    // ten failures from the shared address: wrong codes for the e-mail, then e-mails without an account
    for (let i = 0; i < 10; i++) {
      const email = i < 5 ? EMAIL : `nobody${i}@example.com`;
      await callFrom(server, OWNER, "POST", "/login/password", {
        headers: { ...loginHeaders(otherCode("", i), "guess"), email },
      });
    }
    const refused = await callFrom(server, OWNER, "POST", "/login/password", {
      headers: loginHeaders("ABCDEFGH", "guess"),
    });
    expect(refused.body.code).toBe(604);
    // a signature cannot be guessed: it is checked first, and the owner's valid one signs in
    const login = await callFrom(server, OWNER, "POST", "/login/signature", {
      headers: key.sign(EMAIL, server.clock.now),
    });
    expect(login.status).toBe(200);
    // a refused signature from the address over its budget is 604
    const forged = await callFrom(server, OWNER, "POST", "/login/signature", {
      headers: { ...key.sign(EMAIL, server.clock.now + 1), signature: "AAAA" },
    });
    expect(forged.body.code).toBe(604);
  });

  it("an office behind one address: after 10 failed sign-ins from it, valid refreshes from it still succeed", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const colleague = await permitAndRegister(server, admin, EMAIL, "all");
    const OFFICE = OWNER;
    for (let i = 0; i < 10; i++)
      await callFrom(server, OFFICE, "POST", "/login/password", {
        headers: { ...loginHeaders(otherCode("", i), "guess"), email: `visitor${i}@example.com` },
      });
    expect(
      (await callFrom(server, OFFICE, "POST", "/login/password", { headers: loginHeaders("ABCDEFGH", "guess") })).body
        .code,
    ).toBe(604);
    for (const user of [admin, colleague]) {
      let cookie = user.cookie;
      for (let round = 0; round < 2; round++) {
        server.clock.now += 60_000;
        const refreshed = await callFrom(server, OFFICE, "POST", "/user/refresh", {
          headers: { "user-id": user.session.uuid, timestamp: String(server.clock.now) },
          cookie,
        });
        expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
        expect((await callFrom(server, OFFICE, "GET", "/token/me", { token: refreshed.body.accessToken })).status).toBe(
          200,
        );
        cookie = cookieOf(refreshed.setCookie);
      }
    }
  });
});
