import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { resolveConfig } from "../../server/config.js";
import { grantAdmin } from "../../server/index.js";
import {
  call,
  cookieOf,
  PASSWORD,
  permitAndRegister,
  registerFirstAdmin,
  startTestServer,
  type TestServer,
} from "./helpers.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
let server: TestServer;
afterEach(async () => {
  await server?.cleanup();
});

async function stateOf(s: TestServer) {
  return {
    users: (await s.storage.listUsers()).map((u) => [u.email, u.scope, u.admin]),
    keys: (await s.storage.listApiKeys()).map((k) => k.path),
    pairs: await s.storage.listTokenPairs(),
    bots: (await s.storage.listBots()).length,
  };
}

describe("bad input on every route: a clear error code and no state change (issue 6 Checks)", () => {
  it("refuses huge bodies, invalid JSON, wrong types and unknown fields with 600 and changes nothing", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const t = admin.session.accessToken;
    const before = await stateOf(server);
    const huge = JSON.stringify({
      path: ["A", "paper", "x"],
      apis: { data: "ab".repeat(40_000), pair: "BTC/USDT", active: true },
    });
    const cases: [string, string, { raw?: string; body?: unknown; headers?: Record<string, string> }, number][] = [
      ["POST", "/token/admin/apikeys", { raw: huge }, 413],
      ["POST", "/token/admin/apikeys", { raw: "{not json" }, 400],
      [
        "POST",
        "/token/admin/apikeys",
        { body: { path: "Demo/paper/main", apis: { data: "", pair: "BTC/USDT", active: true } } },
        400,
      ],
      [
        "POST",
        "/token/admin/apikeys",
        { body: { path: ["A", "paper", "x"], apis: { data: "zz", pair: "BTC/USDT", active: true } } },
        400,
      ],
      [
        "POST",
        "/token/admin/apikeys",
        { body: { path: ["A", "paper", "x"], apis: { data: "", pair: "BTC/USDT", active: true }, admin: true } },
        400,
      ],
      [
        "POST",
        "/token/admin/apikeys",
        { body: { path: ["A", "nowhere", "x"], apis: { data: "", pair: "BTC/USDT", active: true } } },
        400,
      ],
      ["DELETE", "/token/admin/apikeys", { body: { path: ["Demo", "paper"] } }, 400],
      [
        "POST",
        "/token/pair",
        { body: { exchangeId: "paper", pair: "BTC/USDT", decimals: { price: -1, amount: 2 } } },
        400,
      ],
      [
        "POST",
        "/token/pair",
        { body: { exchangeId: "paper", pair: "BTCUSDT", decimals: { price: 1, amount: 2 } } },
        400,
      ],
      ["POST", "/token/admin/user", { body: { userId: "not-an-email", scope: "all" } }, 400],
      ["POST", "/token/admin/user", { body: { userId: "x@example.com", scope: "some" } }, 400],
      ["POST", "/token/admin/user", { body: { userId: "x@example.com", scope: [] } }, 400],
      ["POST", "/token/admin/user", { body: [] }, 400],
      ["POST", "/token/admin/user", {}, 400],
      ["PUT", `/token/admin/user/${admin.session.uuid}/scope`, { body: { scope: 42 } }, 400],
      [
        "POST",
        "/token/trade/order/create",
        { headers: { path: pathHeader(DEMO) }, body: { price: "abc", amount: "1", side: "Buy" } },
        400,
      ],
      [
        "POST",
        "/token/trade/order/create",
        { headers: { path: pathHeader(DEMO) }, body: { price: "1", amount: "1", side: "buy" } },
        400,
      ],
      [
        "POST",
        "/token/trade/order/create",
        { headers: { path: pathHeader(DEMO) }, body: { price: "1", amount: "1", side: "Buy", leverage: 100 } },
        400,
      ],
      [
        "POST",
        "/token/trade/order/create",
        { headers: { path: "Demo/paper/main" }, body: { price: "1", amount: "1", side: "Buy" } },
        400,
      ],
      ["POST", "/token/trade/order/cancel", { headers: { path: pathHeader(DEMO) }, body: { id: 5 } }, 400],
      ["POST", "/token/bot", { headers: { path: pathHeader(DEMO) }, body: { botType: "grid-bot" } }, 400],
      ["DELETE", "/token/bot", { body: { botId: "" } }, 400],
    ];
    for (const [method, path, options, status] of cases) {
      const r = await call(server, method, path, { token: t, ...options });
      expect(r.status, `${method} ${path} ${JSON.stringify(options).slice(0, 80)}`).toBe(status);
      expect(r.body.code).toBe(600);
      expect(typeof r.body.msg).toBe("string");
    }
    expect(await stateOf(server)).toEqual(before);
    expect(
      (await call(server, "GET", "/token/trade/orders", { token: t, headers: { path: pathHeader(DEMO) } })).body,
    ).toEqual([]);
    // the server still answers after all that
    expect((await call(server, "GET", "/health")).body.status).toBe("ok");
  });

  it("answers unknown routes and wrong methods with 600 and 404/405", async () => {
    server = await startTestServer();
    expect((await call(server, "GET", "/token/nothing")).status).toBe(404);
    expect((await call(server, "PUT", "/code")).status).toBe(405);
  });
});

describe("operations (docs/decisions.md#d7, issue 6 Operations)", () => {
  it("keeps users, keys, token pairs, bots, sessions and paper orders across a restart", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const t = admin.session.accessToken;
    await call(server, "POST", "/token/admin/apikeys", {
      token: t,
      body: { path: ["Acme", "paper", "desk"], apis: { data: "", pair: "ETH/USDT", active: true } },
    });
    await call(server, "POST", "/token/pair", {
      token: t,
      body: { exchangeId: "paper", pair: "BTC/USDT", decimals: { price: 2, amount: 4 } },
    });
    const user = await permitAndRegister(server, admin, "t@example.com", ["Acme"]);
    const bot = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(DEMO) },
      body: { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 10, size: 2 } },
    });
    const order = await call(server, "POST", "/token/trade/order/create", {
      token: t,
      headers: { path: pathHeader(DEMO) },
      body: { price: "1000", amount: "0.01", side: "Buy" },
    });
    expect(order.status).toBe(200);
    const before = await stateOf(server);

    server = await server.restart();
    expect(server.setupCode).toBeUndefined();
    expect(await stateOf(server)).toEqual(before);
    expect((await call(server, "GET", "/token/me", { token: user.session.accessToken })).body.email).toBe(
      "t@example.com",
    );
    const refreshed = await call(server, "POST", "/user/refresh", {
      headers: { "user-id": admin.session.uuid, timestamp: String(server.clock.now) },
      cookie: admin.cookie,
    });
    expect(refreshed.status).toBe(200);
    expect(cookieOf(refreshed.setCookie)).not.toBe(admin.cookie);
    const orders = await call(server, "GET", "/token/trade/orders", { token: t, headers: { path: pathHeader(DEMO) } });
    expect(orders.body.map((o: { id: string }) => o.id)).toEqual([order.body.id]);
    const bots = await call(server, "GET", "/token/bots", { token: t });
    expect(bots.body.map((b: { botId: string }) => b.botId)).toEqual([bot.body.botId]);
    const login = await call(server, "POST", "/register", {
      headers: { email: "admin@example.com", password: PASSWORD, code: "ABCDEFGH" },
    });
    expect(login.status).toBe(409);
  });

  it("answers GET /health and refuses new requests while shutting down", async () => {
    server = await startTestServer();
    const health = await call(server, "GET", "/health");
    expect(health.body).toMatchObject({
      status: "ok",
      storage: process.env.SPOTDESK_TEST_STORAGE === "postgres" ? "postgres" : "sqlite",
    });
    await server.close();
    await expect(fetch(`${server.url}/health`)).rejects.toThrow();
  });

  it("refuses plain HTTP on a non-loopback address without TLS or --behind-tls-proxy (docs/decisions.md#d7)", () => {
    expect(() => resolveConfig({ host: "0.0.0.0", dataDir: "/tmp/x" }, {})).toThrow(
      /Refusing to serve plain HTTP on 0\.0\.0\.0/,
    );
    expect(resolveConfig({ host: "0.0.0.0", dataDir: "/tmp/x", behindTlsProxy: true }, {}).host).toBe("0.0.0.0");
    expect(resolveConfig({ dataDir: "/tmp/x" }, {}).host).toBe("127.0.0.1");
    expect(resolveConfig({}, { SPOTDESK_DATA_DIR: "/tmp/from-env" }).dataDir).toBe("/tmp/from-env");
  });

  it("grant-admin makes an existing user an admin with scope all (docs/decisions.md#d5)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const user = await permitAndRegister(server, admin, "t@example.com", ["Demo"]);
    expect((await call(server, "GET", "/token/admin/users", { token: user.session.accessToken })).status).toBe(403);
    const granted = await grantAdmin("T@example.com", server.dataDir, server.config.database);
    expect(granted).toEqual({ uuid: user.session.uuid, created: false });
    const users = await call(server, "GET", "/token/admin/users", { token: user.session.accessToken });
    expect(users.status).toBe(200);
    expect(existsSync(join(server.dataDir, "spotdesk.sqlite"))).toBe(server.storage.kind === "sqlite");
  });
});

describe("spotdesk serve (docs/decisions.md#d5, #d18)", () => {
  it("serveCommand prints the setup code once, keeps the database owner-only and stops on SIGTERM", async () => {
    const { mkdtempSync, statSync, rmSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { serveCommand } = await import("../../server/index.js");
    const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-serve-"));
    const written: string[] = [];
    const original = process.stderr.write.bind(process.stderr);
    const stdout = process.stdout.write.bind(process.stdout);
    process.stderr.write = ((chunk: string) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      const done = serveCommand({ port: "0", data: dataDir });
      while (!written.join("").includes("setup code")) await new Promise((r) => setTimeout(r, 20));
      const url = /on (http:\/\/\S+)/.exec(written.join(""))![1]!;
      expect((await call({ url }, "GET", "/health")).body.status).toBe("ok");
      const code = /setup code (\w{8})/.exec(written.join(""))![1]!;
      expect(
        (await call({ url }, "POST", "/register", { headers: { email: "root@example.com", password: PASSWORD, code } }))
          .status,
      ).toBe(200);
      expect(statSync(join(dataDir, "spotdesk.sqlite")).mode & 0o777).toBe(0o600);
      process.emit("SIGTERM");
      await done;
      await expect(fetch(`${url}/health`)).rejects.toThrow();
    } finally {
      process.stderr.write = original;
      process.stdout.write = stdout;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
