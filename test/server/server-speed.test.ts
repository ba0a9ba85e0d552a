/**
 * The caches and shortcuts of the request path (docs/server-speed.md) keep every rule: a change
 * made through the API or by another process (`spotdesk users grant-admin`) counts on the next
 * call, a revoked session or a forged token is refused whatever was remembered, the log lines are
 * the ones the two-pass redaction wrote, the limiter counts like a plain list of times, and the
 * router still picks the first matching route.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pathHeader } from "../../lib/api.js";
import { redact } from "../../lib/log.js";
import { randomHex } from "../../lib/random.js";
import { RateLimiter } from "../../server/app.js";
import { createRouter, type Route } from "../../server/http.js";
import { grantAdmin } from "../../server/index.js";
import { createJsonLogger, redactServer } from "../../server/log.js";
import { openSqliteStorage } from "../../server/storage/sqlite.js";
import {
  call,
  permitAndRegister,
  registerFirstAdmin,
  SQLITE_ONLY,
  startTestServer,
  type TestServer,
} from "./helpers.js";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.cleanup();
  server = undefined;
});

const DEMO = { path: pathHeader(["Demo", "paper", "main"]) };

describe.skipIf(SQLITE_ONLY !== undefined)(
  `cached reads of the request path${SQLITE_ONLY ? ` (${SQLITE_ONLY})` : ""}`,
  () => {
    it("a user made admin by grant-admin (another connection to the file) is admin on the next call", async () => {
      server = await startTestServer();
      const admin = await registerFirstAdmin(server);
      const user = await permitAndRegister(server, admin, "trader@example.com", ["Demo"]);
      // the user's row is read (and remembered) by these calls
      expect(
        (await call(server, "GET", "/token/trade/balances", { token: user.session.accessToken, headers: DEMO })).status,
      ).toBe(200);
      expect((await call(server, "GET", "/token/admin/users", { token: user.session.accessToken })).status).toBe(403);
      await grantAdmin("trader@example.com", server.dataDir);
      const after = await call(server, "GET", "/token/admin/users", { token: user.session.accessToken });
      expect(after.status).toBe(200);
    });

    it("a scope change, a removed account and a logout count on the very next call", async () => {
      server = await startTestServer();
      const admin = await registerFirstAdmin(server);
      const user = await permitAndRegister(server, admin, "trader@example.com", ["Demo"]);
      const token = user.session.accessToken;
      expect((await call(server, "GET", "/token/trade/balances", { token, headers: DEMO })).status).toBe(200);

      const scope = await call(server, "PUT", `/token/admin/user/${user.session.uuid}/scope`, {
        token: admin.session.accessToken,
        body: { scope: ["Elsewhere"] },
      });
      expect(scope.status).toBe(200);
      const refused = await call(server, "GET", "/token/trade/balances", { token, headers: DEMO });
      expect(refused.status).toBe(403);

      // the admin's own reads of the demo account are remembered, then the account goes
      expect(
        (await call(server, "GET", "/token/trade/balances", { token: admin.session.accessToken, headers: DEMO }))
          .status,
      ).toBe(200);
      const removed = await call(server, "DELETE", "/token/admin/apikeys", {
        token: admin.session.accessToken,
        body: { path: ["Demo", "paper", "main"] },
      });
      expect(removed.status).toBe(200);
      expect(
        (await call(server, "GET", "/token/trade/balances", { token: admin.session.accessToken, headers: DEMO }))
          .status,
      ).toBe(404);

      expect((await call(server, "POST", "/user/logout", { token: admin.session.accessToken })).status).toBe(200);
      const after = await call(server, "GET", "/token/admin/users", { token: admin.session.accessToken });
      expect(after.status).toBe(401);
      expect(after.body.code).toBe(607);
    });

    it("a token verified once does not vouch for a token with another signature", async () => {
      server = await startTestServer();
      const admin = await registerFirstAdmin(server);
      const token = admin.session.accessToken;
      expect((await call(server, "GET", "/token/admin/users", { token })).status).toBe(200);
      const last = token.at(-1) === "A" ? "B" : "A";
      const forged = await call(server, "GET", "/token/admin/users", { token: `${token.slice(0, -1)}${last}` });
      expect(forged.body.code).toBe(607);
      const [body] = token.split(".");
      expect((await call(server, "GET", "/token/admin/users", { token: `${body}.` })).body.code).toBe(607);
      expect((await call(server, "GET", "/token/admin/users", { token })).status).toBe(200);
    });

    it("storage: own writes are read at once, another connection's commits from the next event-loop turn", async () => {
      const dir = mkdtempSync(join(tmpdir(), "spotdesk-cache-"));
      const file = join(dir, "db.sqlite");
      const a = openSqliteStorage(file);
      const b = openSqliteStorage(file);
      try {
        const user = {
          id: "u1",
          email: "u1@example.com",
          passwordHash: null,
          admin: false,
          scope: ["A"],
          lastActive: null,
          created: 1,
        };
        expect(await a.getUser("u1")).toBeUndefined(); // an absence is remembered too
        await a.createUser(user);
        expect((await a.getUser("u1"))?.scope).toEqual(["A"]);
        const copy = await a.getUser("u1");
        (copy!.scope as string[]).push("mutated");
        expect((await a.getUser("u1"))?.scope).toEqual(["A"]); // a caller's change stays its own

        await a.createSession({
          id: "s1",
          userId: "u1",
          refreshHash: "h1",
          previousHash: null,
          expires: 10,
          created: 1,
          rotated: null,
        });
        expect((await a.getSession("s1"))?.userId).toBe("u1");
        await b.updateUser("u1", { scope: "all", admin: true });
        await b.deleteSession("s1");
        await new Promise((resolve) => setImmediate(resolve));
        expect(await a.getUser("u1")).toMatchObject({ scope: "all", admin: true });
        expect(await a.getSession("s1")).toBeUndefined();

        await a.setTokenPair({ exchangeId: "paper", pair: "BTC/USDT", priceDecimals: 2, amountDecimals: 4 });
        expect((await a.getTokenPair("paper", "BTC/USDT"))?.priceDecimals).toBe(2);
        await a.deleteTokenPair("paper", "BTC/USDT");
        expect(await a.getTokenPair("paper", "BTC/USDT")).toBeUndefined();
      } finally {
        await a.close();
        await b.close();
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);

describe("the JSON logger", () => {
  it("writes the lines the two-pass redaction wrote, field for field", () => {
    const lines: string[] = [];
    const logger = createJsonLogger({
      level: "debug",
      write: (line) => lines.push(line),
      now: () => 1_764_000_000_000,
    });
    let deep: Record<string, unknown> = { leaf: "smtp://u:p@h", password: "x" };
    for (let i = 0; i < 9; i++) deep = { next: deep, url: `https://user:pw${i}@host/x` };
    const corpus: [string, Record<string, unknown> | undefined][] = [
      ["request", { method: "GET", path: "/token/trade/balances", status: 200, user: "u", ms: 0.4 }],
      ["odd path", { path: "/x/http://a:b@c/y", code: 607 }],
      [
        "credentials",
        {
          password: "p",
          accessToken: "t",
          apiKey: "k",
          key: "k2",
          pass: "smtp",
          smtpUrl: "smtp://a:b@c",
          authorization: "Bearer x",
        },
      ],
      [
        "nested",
        {
          list: [{ token: "a" }, "ftp://x:y@z", 3, null, [{ SPOTDESK_SMTP_URL: "s" }]],
          obj: { cookie: "c", fine: true },
        },
      ],
      ["overrides", { ts: "mine", msg: "theirs", level: "x" }],
      ["deep", deep],
      ["url in message smtp://me:secret@mail", undefined],
    ];
    for (const [msg, fields] of corpus) logger.info(msg, fields);
    const expected = corpus.map(([msg, fields]) =>
      JSON.stringify({
        ts: new Date(1_764_000_000_000).toISOString(),
        level: "info",
        msg: redactServer(msg),
        ...(fields ? (redactServer(redact(fields)) as Record<string, unknown>) : {}),
      }),
    );
    expect(lines).toEqual(expected);
    // within the depth the redaction walks (6 levels), nothing secret is left
    expect(lines.filter((line) => !line.includes('"deep"')).join("\n")).not.toMatch(/secret|:b@|:y@|"p"|"t"|"k"/);
  });

  it("standard output gets every line, in order, also when the process exits at once", () => {
    const script = `
      import { createJsonLogger } from ${JSON.stringify(join(process.cwd(), "server/log.ts"))};
      const logger = createJsonLogger({ level: "info" });
      for (let i = 0; i < 300; i++) logger.info("line", { i });
      setTimeout(() => { logger.info("later", { i: 300 }); process.exit(3); }, 5);
    `;
    const run = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status).toBe(3);
    const numbers = run.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { i: number }).i);
    expect(numbers).toEqual(Array.from({ length: 301 }, (_, i) => i));
  });
});

describe("the rate limiter", () => {
  it("answers like a plain list of call times, over many windows", () => {
    const limiter = new RateLimiter();
    const naive = new Map<string, number[]>();
    const inWindow = (key: string, windowMs: number, now: number) =>
      (naive.get(key) ?? []).filter((t) => now - t < windowMs);
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let now = 0;
    for (let i = 0; i < 20_000; i++) {
      now += Math.floor(random() * 40);
      const key = `k${Math.floor(random() * 3)}`;
      const windowMs = 1000;
      const op = random();
      if (op < 0.6) {
        const limit = 5 + Math.floor(random() * 60);
        const expected = inWindow(key, windowMs, now).length < limit;
        expect(limiter.take(key, limit, windowMs, now)).toBe(expected);
        if (expected) naive.set(key, [...inWindow(key, windowMs, now), now]);
      } else if (op < 0.8) {
        limiter.record(key, windowMs, now);
        naive.set(key, [...inWindow(key, windowMs, now), now]);
      } else {
        expect(limiter.count(key, windowMs, now)).toBe(inWindow(key, windowMs, now).length);
      }
    }
  });
});

describe("the router", () => {
  it("keeps the first matching route, 405 and 404 for paths served by the literal index", async () => {
    const hit =
      (name: string): Route["handler"] =>
      async (ctx) => ({ name, params: ctx.params });
    const routes: Route[] = [
      { method: "GET", path: "/a/:id", auth: "public", handler: hit("param") },
      { method: "GET", path: "/a/b", auth: "public", handler: hit("literal-get") },
      { method: "POST", path: "/a/b", auth: "public", handler: hit("literal-post") },
      { method: "GET", path: "/c/d", auth: "public", handler: hit("c") },
    ];
    const handle = createRouter(routes, {
      authenticate: async () => {},
      limitPublic: async () => {},
      logger: createJsonLogger({ write: () => {} }),
      corsOrigins: new Set(),
      draining: () => false,
      clientAddress: () => "127.0.0.1",
    });
    const http = createServer((req, res) => void handle(req, res));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    try {
      const get = async (path: string, method = "GET") => {
        const res = await fetch(base + path, { method });
        return { status: res.status, body: (await res.json()) as { name?: string; params?: Record<string, string> } };
      };
      expect((await get("/a/b")).body).toEqual({ name: "param", params: { id: "b" } });
      expect((await get("/a/b", "POST")).body.name).toBe("literal-post");
      expect((await get("/a//b/", "POST")).body.name).toBe("literal-post");
      expect((await get("/a/b", "PUT")).status).toBe(405);
      expect((await get("/c/d", "POST")).status).toBe(405);
      expect((await get("/c/d")).body.name).toBe("c");
      expect((await get("/a/x%20y")).body).toEqual({ name: "param", params: { id: "x y" } });
      expect((await get("/c")).status).toBe(404);
      // params are the request's own: a handler changing them changes no later request
      const first = await get("/a/b");
      expect(first.body.params).toEqual({ id: "b" });
    } finally {
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});

describe("randomHex from a pool", () => {
  it("gives hex of the asked length, never the same bytes twice, across refills and above the pool", () => {
    const seen = new Set<string>();
    const digits = new Set<string>();
    let drawn = 0;
    for (let i = 0; i < 6000; i++) {
      const bytes = 1 + (i % 13);
      const hex = randomHex(bytes);
      expect(hex).toMatch(new RegExp(`^[0-9a-f]{${bytes * 2}}$`));
      for (const d of hex) digits.add(d);
      if (bytes >= 8) {
        expect(seen.has(hex)).toBe(false);
        seen.add(hex);
      }
      drawn += bytes;
    }
    expect(drawn).toBeGreaterThan(4096 * 8); // the pool was refilled many times
    expect(digits.size).toBe(16);
    const big = randomHex(5000);
    expect(big).toMatch(/^[0-9a-f]{10000}$/);
    expect(randomHex(0)).toBe("");
  });
});
