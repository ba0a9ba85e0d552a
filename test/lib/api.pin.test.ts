/**
 * Pins of lib/api.ts, the contract the server and the dashboard share: the error catalogue and the
 * call table are read from docs/api.md itself (#errors, #calls), the headers and limits from
 * docs/decisions.md#d2, #d7, #d8, #d18 (docs/mutation.md).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as A from "../../lib/api.js";

const doc = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");

describe("error codes (docs/api.md#errors)", () => {
  it("gives each code the message docs/api.md quotes, and 'Undefined msg for {code}...' to the others", () => {
    const rows = [...doc.matchAll(/^\| (6\d\d) \| `([^`]+)` \|$/gm)].map((m) => [Number(m[1]), m[2]] as const);
    expect(rows.map(([code]) => code)).toEqual([600, 601, 602, 603, 604, 605, 606, 607, 609]);
    for (const [code, message] of rows) expect(A.apiErrorMessage(code), String(code)).toBe(message);
    expect(Object.keys(A.API_ERROR_MESSAGES).map(Number)).toEqual(rows.map(([code]) => code));
    expect(A.apiErrorMessage(608)).toBe("Undefined msg for 608...");
    expect(A.apiErrorMessage(700)).toBe("Undefined msg for 700...");
  });

  it("names the codes", () => {
    expect(A.API_ERROR).toEqual({
      TASK_FAILED: 600,
      MISSING_HEADER: 601,
      ACCESS_EXPIRED: 602,
      ALL_EXPIRED: 603,
      RATE_LIMIT: 604,
      CLOCK_SKEW: 605,
      NO_SUCH_USER: 606,
      INVALID_TOKEN: 607,
      EXCHANGE_FAILED: 608,
      EXCHANGE_OBJECT: 609,
    });
  });

  it("shows the server's own message for 600 and 608 only, and the catalogue's otherwise", () => {
    expect(A.messageForError({ code: 600, msg: "pair: Write the pair as BASE/QUOTE" })).toBe(
      "pair: Write the pair as BASE/QUOTE",
    );
    expect(A.messageForError({ code: 608, msg: "ExchangeId: okx, msg: Insufficient balance" })).toBe(
      "ExchangeId: okx, msg: Insufficient balance",
    );
    expect(A.messageForError({ code: 600, msg: "" })).toBe("Task failed to execute...");
    expect(A.messageForError({ code: 608 })).toBe("Undefined msg for 608...");
    expect(A.messageForError({ code: 604, msg: "slow down" })).toBe("Request limit to server exceeded, try later!");
    expect(A.messageForError({ code: 601, msg: "x" })).toBe("Some header were not passed, please contact developers!");
  });

  it("sends each code with an HTTP status a browser accepts (docs/decisions.md#d2)", () => {
    expect(A.HTTP_STATUS_OF_CODE).toEqual({
      600: 400,
      601: 400,
      602: 401,
      603: 401,
      604: 429,
      605: 400,
      606: 403,
      607: 401,
      608: 502,
      609: 422,
    });
  });

  it("knows an error body by a numeric code and a text msg", () => {
    expect(A.isApiErrorBody({ code: 602, msg: "" })).toBe(true);
    expect(A.isApiErrorBody({ code: 602, msg: "x", issues: ["a: b"] })).toBe(true);
    for (const value of [
      null,
      undefined,
      "602",
      602,
      { code: "602", msg: "x" },
      { code: 602 },
      { msg: "x" },
      { code: 602, msg: 1 },
    ])
      expect(A.isApiErrorBody(value), JSON.stringify(value)).toBe(false);
  });
});

describe("headers, cookie and limits (docs/decisions.md#d7, #d8, #d18)", () => {
  it("spells the headers in lower case as on the wire", () => {
    expect(A.HEADER).toEqual({
      email: "email",
      password: "password",
      code: "code",
      timestamp: "timestamp",
      publicKey: "public-key",
      credentialsId: "credentials-id",
      userId: "user-id",
      clientData: "client-data",
      authenticatorData: "authenticator-data",
      signature: "signature",
      path: "path",
      key: "key",
      authorization: "authorization",
    });
    expect(A.REFRESH_COOKIE).toBe("spotdesk_refresh");
    expect(A.LIVE_SUBSCRIBE).toBe("sub_for_bots");
    expect(A.pathHeader(["Acme", "okx", "main"])).toBe('["Acme","okx","main"]');
  });

  it("holds the server's limits", () => {
    expect(A.SERVER_LIMITS).toEqual({
      callsPerWindow: 60,
      windowMs: 10_000,
      codeRequestsPerHour: 5,
      clockSkewMs: 30_000,
      codeLength: 8,
      codeValidityMs: 600_000,
      codeAttempts: 5,
      passwordMinimum: 8,
      bodyLimitBytes: 65_536,
    });
    expect(A.CODE_ALPHABET).toBe("ABCDEFGHJKMNPQRSTUVWXYZ23456789");
    expect(A.CODE_ALPHABET).not.toMatch(/[01OIL]/);
  });

  it("writes the texts a WebAuthn challenge hashes", () => {
    expect(A.loginChallengeText(1_718_000_000_000, "post", "/login/signature")).toBe(
      "1718000000000\nPOST\n/login/signature",
    );
    expect(A.loginChallengeText("17", "Get", "/x")).toBe("17\nGET\n/x");
    expect(A.enrollChallengeText("  Ann@Example.COM ", "ABCD2345")).toBe("spotdesk-enroll\nann@example.com\nABCD2345");
  });
});

describe("readAccessToken (docs/dashboard-rules.md#states)", () => {
  const token = (payload: unknown, body = JSON.stringify(payload)) =>
    `${Buffer.from(body, "utf8").toString("base64url")}.c2ln`;

  it("reads the payload of base64url text of any padding, with - and _ and UTF-8", () => {
    // '?>' and '~~~' encode to '/' and '+' in plain base64, '_' and '-' in base64url
    for (const uid of ["u", "uu", "uuu", "??>~~~", "é-ü-ключ"]) {
      const payload = { uid, expires: 1_700_000_000_000, sid: "s" };
      expect(A.readAccessToken(token(payload)), uid).toEqual(payload);
    }
    const both = token({ uid: "??>~~~", expires: 1, sid: "s" });
    expect(both).toContain("-");
    expect(both).toContain("_");
  });

  it.each([
    ["no dot", Buffer.from('{"uid":"u","expires":1}').toString("base64url")],
    ["nothing before the dot", `.${Buffer.from('{"uid":"u","expires":1}').toString("base64url")}`],
    ["expires as text", token({ uid: "u", expires: "1" })],
    ["no uid", token({ expires: 1 })],
    ["a uid that is no text", token({ uid: 7, expires: 1 })],
    ["JSON that is not", token(undefined, "{uid")],
    ["not base64", "!!!.sig"],
  ])("reads nothing from a token with %s", (_, text) => {
    expect(A.readAccessToken(text)).toBeUndefined();
  });
});

describe("routes (docs/api.md#calls)", () => {
  it("has every call of docs/api.md with its method and path", () => {
    const calls = [...doc.matchAll(/^\| `(GET|POST|PUT|DELETE) (\/[^`]*)` \|/gm)].map(
      (m) => `${m[1]} ${m[2]!.replace(/\{(\w+)\}/g, ":$1")}`,
    );
    expect(calls.length).toBeGreaterThanOrEqual(24);
    const routes = Object.values(A.ROUTES).map((r) => `${r.method} ${r.path}`);
    for (const call of calls) expect(routes, call).toContain(call);
  });

  it("asks each route's token, headers and scope check", () => {
    const table = Object.fromEntries(
      Object.entries(A.ROUTES).map(([name, r]) => [name, [r.method, r.path, r.auth, [...r.headers], r.scoped]]),
    );
    const trade = ["path"];
    expect(table).toEqual({
      health: ["GET", "/health", "public", [], false],
      ready: ["GET", "/health/ready", "public", [], false],
      metrics: ["GET", "/metrics", "public", [], false],
      openapi: ["GET", "/openapi.json", "public", [], false],
      credentials: ["GET", "/credentials", "public", ["email"], false],
      code: ["POST", "/code", "public", ["email"], false],
      register: ["POST", "/register", "public", ["email", "password", "code"], false],
      loginPassword: ["POST", "/login/password", "public", ["email", "password", "code", "timestamp"], false],
      loginSignature: [
        "POST",
        "/login/signature",
        "public",
        ["email", "client-data", "authenticator-data", "credentials-id", "signature", "timestamp"],
        false,
      ],
      refresh: ["POST", "/user/refresh", "public", ["user-id", "timestamp"], false],
      logout: ["POST", "/user/logout", "public", [], false],
      me: ["GET", "/token/me", "user", [], false],
      setApiKeys: ["POST", "/token/admin/apikeys", "admin", [], false],
      removeApiKeys: ["DELETE", "/token/admin/apikeys", "admin", [], false],
      tokenPairs: ["GET", "/token/pair", "user", [], false],
      setTokenPair: ["POST", "/token/pair", "admin", [], false],
      removeTokenPair: ["DELETE", "/token/pair", "admin", [], false],
      createOrder: ["POST", "/token/trade/order/create", "user", trade, true],
      cancelOrder: ["POST", "/token/trade/order/cancel", "user", trade, true],
      cancelAll: ["POST", "/token/trade/order/cancel-all", "user", trade, true],
      balances: ["GET", "/token/trade/balances", "user", trade, true],
      orders: ["GET", "/token/trade/orders", "user", trade, true],
      order: ["GET", "/token/trade/order/:id", "user", trade, true],
      pairRules: ["GET", "/token/trade/pair", "user", trade, true],
      setUser: ["POST", "/token/admin/user", "admin", [], false],
      removeUser: ["DELETE", "/token/admin/user/:id", "admin", [], false],
      users: ["GET", "/token/admin/users", "admin", [], false],
      user: ["GET", "/token/admin/user/:id", "admin", [], false],
      changeScope: ["PUT", "/token/admin/user/:id/scope", "admin", [], false],
      setupBot: ["POST", "/token/bot", "user", trade, true],
      removeBot: ["DELETE", "/token/bot", "user", [], false],
      editBot: ["PUT", "/token/bot", "user", [], false],
      pauseBot: ["POST", "/token/bot/:id/pause", "user", [], false],
      resumeBot: ["POST", "/token/bot/:id/resume", "user", [], false],
      bots: ["GET", "/token/bots", "user", [], false],
      stopAllBots: ["POST", "/token/bot/stop-all", "user", [], false],
      stopBot: ["POST", "/token/bot/:id/stop", "user", [], false],
      botFills: ["GET", "/token/bot/:id/fills", "user", [], false],
      clients: ["GET", "/token/clients", "user", [], false],
      exchanges: ["GET", "/token/exchanges", "user", [], false],
      book: ["GET", "/book/:exchange/:pair", "public", [], false],
      candles: ["GET", "/candles/:exchange/:pair", "public", [], false],
      relayBitteamBook: ["GET", "/api/bitteam/trade/api/orderbooks/:pair", "public", [], false],
      relayKucoinBullet: ["POST", "/api/kucoin/api/v1/bullet-public", "public", [], false],
    });
  });

  it("lists the path prefixes a proxy forwards, each once, none inside another", () => {
    expect(A.routePrefixes()).toEqual([
      "/api/bitteam/trade/api/orderbooks",
      "/api/kucoin/api/v1/bullet-public",
      "/book",
      "/candles",
      "/code",
      "/credentials",
      "/health",
      "/login/password",
      "/login/signature",
      "/metrics",
      "/openapi.json",
      "/register",
      "/token/admin/apikeys",
      "/token/admin/user",
      "/token/bot",
      "/token/clients",
      "/token/exchanges",
      "/token/me",
      "/token/pair",
      "/token/trade/balances",
      "/token/trade/order",
      "/token/trade/pair",
      "/user/logout",
      "/user/refresh",
    ]);
  });
});
