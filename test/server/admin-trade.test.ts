import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AccountPath, API_ERROR_MESSAGES, pathHeader } from "../../lib/api.js";
import { ZERO_AMOUNT_MESSAGE } from "../../lib/decimal.js";
import { sealCredentials } from "../../lib/envelope.js";
import {
  call,
  permitAndRegister,
  registerFirstAdmin,
  type SignedIn,
  startTestServer,
  type TestServer,
} from "./helpers.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
const ACME: AccountPath = ["Acme", "bybit", "sub1"];
const ACME_PAPER: AccountPath = ["Acme", "paper", "desk"];
const KEY = "0123456789abcdef0123456789abcdef";

let server: TestServer;
let admin: SignedIn;
beforeEach(async () => {
  server = await startTestServer();
  admin = await registerFirstAdmin(server);
});
afterEach(async () => {
  await server.cleanup();
});

const trade = (path: AccountPath, token: string, extra: Record<string, string> = {}) => ({
  token,
  headers: { path: pathHeader(path), ...extra },
});

describe("clients, API keys and admin calls (docs/api.md#calls, docs/decisions.md#d5, #d13)", () => {
  it("a fresh install lists one demo client with a paper account", async () => {
    const clients = await call(server, "GET", "/token/clients", { token: admin.session.accessToken });
    expect(clients.body).toEqual(["Demo"]);
    const accounts = await call(server, "GET", "/token/exchanges", { token: admin.session.accessToken });
    expect(accounts.body).toEqual([
      { path: DEMO, client: "Demo", exchange: "paper", account: "main", pair: "BTC/USDT", active: true, bots: [] },
    ]);
  });

  it("stores the API-key envelope exactly as sent, never in clear, and removes it (docs/dashboard-rules.md#entities)", async () => {
    const envelope = await sealCredentials({ api: "AK-visible-in-clear?", secret: "SK-very-secret" }, "btc/usdt", KEY);
    const set = await call(server, "POST", "/token/admin/apikeys", {
      token: admin.session.accessToken,
      body: { path: ACME, apis: envelope },
    });
    expect(set.status).toBe(200);
    let row: { envelope: string };
    if (server.storage.kind === "sqlite") {
      const db = new Database(join(server.dataDir, "spotdesk.sqlite"), { readonly: true });
      row = db.prepare("SELECT envelope FROM api_keys WHERE client = 'Acme'").get() as { envelope: string };
      db.close();
    } else {
      // SPOTDESK_TEST_STORAGE=postgres (test/server/helpers.ts): the row as the storage reads it
      row = { envelope: JSON.stringify((await server.storage.getApiKey(ACME))?.envelope) };
    }
    expect(JSON.parse(row.envelope)).toEqual(envelope);
    expect(row.envelope).not.toContain("SK-very-secret");
    const accounts = await call(server, "GET", "/token/exchanges", { token: admin.session.accessToken });
    expect(accounts.body.map((a: { path: AccountPath }) => a.path)).toEqual([ACME, DEMO]);
    // "`eth/usdt` is accepted on API Keys, and then every Buy is refused": the envelope keeps what was sent, answers give it upper case
    expect(accounts.body[0].pair).toBe("BTC/USDT");
    expect(set.body.pair).toBe("BTC/USDT");
    const del = await call(server, "DELETE", "/token/admin/apikeys", {
      token: admin.session.accessToken,
      body: { path: ACME },
    });
    expect(del.status).toBe(200);
    expect((await call(server, "GET", "/token/clients", { token: admin.session.accessToken })).body).toEqual(["Demo"]);
    const again = await call(server, "DELETE", "/token/admin/apikeys", {
      token: admin.session.accessToken,
      body: { path: ACME },
    });
    expect(again.status).toBe(404);
  });

  it("permits, lists, reads, re-scopes and removes users (docs/api.md#calls admin calls)", async () => {
    const permit = await call(server, "POST", "/token/admin/user", {
      token: admin.session.accessToken,
      body: { userId: "ops@example.com", scope: ["Demo"] },
    });
    expect(permit.body).toMatchObject({
      email: "ops@example.com",
      scope: ["Demo"],
      admin: false,
      registered: false,
      lastActive: null,
    });
    const id = permit.body.uuid;
    const dup = await call(server, "POST", "/token/admin/user", {
      token: admin.session.accessToken,
      body: { userId: "ops@example.com", scope: "all" },
    });
    expect(dup.status).toBe(409);
    const users = await call(server, "GET", "/token/admin/users", { token: admin.session.accessToken });
    expect(users.body.map((u: { email: string }) => u.email)).toEqual(["admin@example.com", "ops@example.com"]);
    expect(
      (await call(server, "GET", `/token/admin/user/${id}`, { token: admin.session.accessToken })).body.email,
    ).toBe("ops@example.com");
    const scoped = await call(server, "PUT", `/token/admin/user/${id}/scope`, {
      token: admin.session.accessToken,
      body: { scope: "all" },
    });
    expect(scoped.body.scope).toBe("all");
    expect((await call(server, "DELETE", `/token/admin/user/${id}`, { token: admin.session.accessToken })).status).toBe(
      200,
    );
    const gone = await call(server, "GET", `/token/admin/user/${id}`, { token: admin.session.accessToken });
    expect(gone.body).toEqual({ code: 606, msg: API_ERROR_MESSAGES[606] });
  });

  it("sets and removes token pairs (docs/api.md#calls /token/pair)", async () => {
    const set = await call(server, "POST", "/token/pair", {
      token: admin.session.accessToken,
      body: { exchangeId: "paper", pair: "btc/usdt", decimals: { price: 1, amount: 3 } },
    });
    expect(set.body).toEqual({ exchangeId: "paper", pair: "BTC/USDT", decimals: { price: 1, amount: 3 } });
    expect((await call(server, "GET", "/token/pair", { token: admin.session.accessToken })).body).toEqual([set.body]);
    expect(
      (
        await call(server, "DELETE", "/token/pair", {
          token: admin.session.accessToken,
          body: { exchangeId: "paper", pair: "BTC/USDT" },
        })
      ).status,
    ).toBe(200);
    expect((await call(server, "GET", "/token/pair", { token: admin.session.accessToken })).body).toEqual([]);
  });

  it("refuses every admin call to a user without the admin flag (docs/decisions.md#d5)", async () => {
    const user = await permitAndRegister(server, admin, "t@example.com", "all");
    const t = user.session.accessToken;
    for (const [method, path, body] of [
      ["POST", "/token/admin/apikeys", { path: ACME, apis: { data: "", pair: "BTC/USDT", active: true } }],
      ["DELETE", "/token/admin/apikeys", { path: DEMO }],
      ["POST", "/token/pair", { exchangeId: "paper", pair: "BTC/USDT", decimals: { price: 1, amount: 1 } }],
      ["DELETE", "/token/pair", { exchangeId: "paper", pair: "BTC/USDT" }],
      ["POST", "/token/admin/user", { userId: "x@example.com", scope: "all" }],
      ["GET", "/token/admin/users", undefined],
      ["GET", `/token/admin/user/${admin.session.uuid}`, undefined],
      ["PUT", `/token/admin/user/${user.session.uuid}/scope`, { scope: "all" }],
      ["DELETE", `/token/admin/user/${admin.session.uuid}`, undefined],
    ] as const) {
      const r = await call(server, method, path, { token: t, ...(body ? { body } : {}) });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.code).toBe(600);
    }
    expect((await call(server, "GET", "/token/clients", { token: admin.session.accessToken })).body).toEqual(["Demo"]);
    expect(await server.storage.countUsers()).toBe(2);
  });

  it("a user scoped to one client cannot see, read or trade another's accounts (docs/dashboard-rules.md#roles)", async () => {
    await call(server, "POST", "/token/admin/apikeys", {
      token: admin.session.accessToken,
      body: { path: ACME_PAPER, apis: { data: "", pair: "ETH/USDT", active: true } },
    });
    const user = await permitAndRegister(server, admin, "demo-only@example.com", ["Demo"]);
    const t = user.session.accessToken;
    expect((await call(server, "GET", "/token/clients", { token: t })).body).toEqual(["Demo"]);
    expect(
      (await call(server, "GET", "/token/exchanges", { token: t })).body.map((a: { client: string }) => a.client),
    ).toEqual(["Demo"]);
    for (const [method, path, body] of [
      ["GET", "/token/trade/balances", undefined],
      ["GET", "/token/trade/orders", undefined],
      ["POST", "/token/trade/order/create", { price: "1000", amount: "0.1", side: "Buy" }],
      ["POST", "/token/trade/order/cancel", { id: "x" }],
      ["POST", "/token/trade/order/cancel-all", {}],
      ["GET", "/token/trade/order/x", undefined],
      ["GET", "/token/trade/pair", undefined],
      ["POST", "/token/bot", { botType: "grid-bot", setup: { pair: "ETH/USDT", quote: 10, size: 4 } }],
    ] as const) {
      const r = await call(server, method, path, { ...trade(ACME_PAPER, t), ...(body ? { body } : {}) });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body.msg).toMatch(/scope/);
    }
    expect((await call(server, "GET", "/token/trade/balances", trade(DEMO, t))).status).toBe(200);
  });
});

describe("trading through the exchange layer (docs/api.md#calls, docs/decisions.md#d1, #d2)", () => {
  it("trades on paper end to end: balances, create, open orders, cancel, cancel-all", async () => {
    const t = admin.session.accessToken;
    const balances = await call(server, "GET", "/token/trade/balances", trade(DEMO, t));
    expect(balances.status).toBe(200);
    expect(balances.body.USDT).toEqual({ f: "10000", l: "0" });
    const created = await call(server, "POST", "/token/trade/order/create", {
      ...trade(DEMO, t),
      body: { price: "1000", amount: "0.01", side: "Buy" },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      pair: "BTC/USDT",
      side: "Buy",
      price: "1000",
      amount: "0.01",
      status: "open",
    });
    const second = await call(server, "POST", "/token/trade/order/create", {
      ...trade(DEMO, t),
      body: { price: "1001", amount: "0.02", side: "Buy" },
    });
    expect(second.status).toBe(200);
    const orders = await call(server, "GET", "/token/trade/orders", trade(DEMO, t));
    expect(orders.body.map((o: { id: string }) => o.id).sort()).toEqual([created.body.id, second.body.id].sort());
    const locked = await call(server, "GET", "/token/trade/balances", trade(DEMO, t));
    expect(locked.body.USDT.l).not.toBe("0");
    expect(typeof locked.body.USDT.f).toBe("string");
    const cancel = await call(server, "POST", "/token/trade/order/cancel", {
      ...trade(DEMO, t),
      body: { id: created.body.id, clientOID: created.body.clientOrderId },
    });
    expect(cancel.body).toEqual({ id: created.body.id, pair: "BTC/USDT" });
    const all = await call(server, "POST", "/token/trade/order/cancel-all", {
      ...trade(DEMO, t),
      body: { customPair: "BTC/USDT" },
    });
    expect(all.status).toBe(200);
    expect((await call(server, "GET", "/token/trade/orders", trade(DEMO, t))).body).toEqual([]);
    const after = await call(server, "GET", "/token/trade/balances", trade(DEMO, t));
    expect(after.body.USDT).toEqual({ f: "10000", l: "0" });
  });

  it("answers one order by id, open or not, and the venue's rules of the account's pair (docs/web-trading.md 'Fills', 'Decimals')", async () => {
    const t = admin.session.accessToken;
    const created = await call(server, "POST", "/token/trade/order/create", {
      ...trade(DEMO, t),
      body: { price: "1000", amount: "0.01", side: "Buy" },
    });
    const open = await call(server, "GET", `/token/trade/order/${created.body.id}`, trade(DEMO, t));
    expect(open.status).toBe(200);
    expect(open.body).toMatchObject({ id: created.body.id, status: "open", amount: "0.01", pair: "BTC/USDT" });
    await call(server, "POST", "/token/trade/order/cancel-all", { ...trade(DEMO, t), body: {} });
    const gone = await call(server, "GET", `/token/trade/order/${created.body.id}`, trade(DEMO, t));
    expect(gone.body.status).toBe("canceled");
    const unknown = await call(server, "GET", "/token/trade/order/no-such-order", trade(DEMO, t));
    expect(unknown.status).not.toBe(200);
    expect(unknown.body.code).toBe(608);
    const rules = await call(server, "GET", "/token/trade/pair", trade(DEMO, t));
    expect(rules.status).toBe(200);
    expect(rules.body.pair).toBe("BTC/USDT");
    expect(rules.body.tick).toMatch(/^0\.0*1$/);
    expect(rules.body.lot).toMatch(/^0\.0*1$/);
  });

  it("cancels by the order's clientOID when the exchange does not know the id it was sent; an unknown pair of both is 608 order-not-found (issue 13)", async () => {
    const t = admin.session.accessToken;
    const created = await call(server, "POST", "/token/trade/order/create", {
      ...trade(DEMO, t),
      body: { price: "1000", amount: "0.01", side: "Buy" },
    });
    const stale = await call(server, "POST", "/token/trade/order/cancel", {
      ...trade(DEMO, t),
      body: { id: "an-id-the-exchange-never-gave", clientOID: created.body.clientOrderId },
    });
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual({ id: created.body.id, pair: "BTC/USDT" });
    expect((await call(server, "GET", "/token/trade/orders", trade(DEMO, t))).body).toEqual([]);
    // both unknown: the exchange's refusal, nothing else cancelled
    const other = await call(server, "POST", "/token/trade/order/create", {
      ...trade(DEMO, t),
      body: { price: "1001", amount: "0.01", side: "Buy" },
    });
    const none = await call(server, "POST", "/token/trade/order/cancel", {
      ...trade(DEMO, t),
      body: { id: "no-such-id", clientOID: "no-such-client-id" },
    });
    expect(none.status).toBe(502);
    expect(none.body).toMatchObject({ code: 608, kind: "order-not-found" });
    // the client id of an order already cancelled does not cancel anything else
    const again = await call(server, "POST", "/token/trade/order/cancel", {
      ...trade(DEMO, t),
      body: { id: "no-such-id", clientOID: created.body.clientOrderId },
    });
    expect(again.body).toMatchObject({ code: 608, kind: "order-not-found" });
    expect(
      (await call(server, "GET", "/token/trade/orders", trade(DEMO, t))).body.map((o: { id: string }) => o.id),
    ).toEqual([other.body.id]);
    await call(server, "POST", "/token/trade/order/cancel-all", { ...trade(DEMO, t), body: {} });
  });

  it("serves concurrent orders on one paper account without losing any", async () => {
    const t = admin.session.accessToken;
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        call(server, "POST", "/token/trade/order/create", {
          ...trade(DEMO, t),
          body: { price: String(900 + i), amount: "0.001", side: "Buy" },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(25).fill(200));
    const orders = await call(server, "GET", "/token/trade/orders", trade(DEMO, t));
    expect(orders.body).toHaveLength(25);
  });

  it("truncates price and amount to the token pair's decimals before the zero check (docs/decisions.md#d1)", async () => {
    const t = admin.session.accessToken;
    await call(server, "POST", "/token/pair", {
      token: t,
      body: { exchangeId: "paper", pair: "BTC/USDT", decimals: { price: 0, amount: 2 } },
    });
    const zero = await call(server, "POST", "/token/trade/order/create", {
      ...trade(DEMO, t),
      body: { price: "1000", amount: "0.009", side: "Buy" },
    });
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual({ code: 600, msg: ZERO_AMOUNT_MESSAGE });
    const ok = await call(server, "POST", "/token/trade/order/create", {
      ...trade(DEMO, t),
      body: { price: "1000.9", amount: "0.019", side: "Sell" },
    });
    expect(ok.body).toMatchObject({ price: "1000", amount: "0.01" });
  });

  it("answers 608 with the exchange's message and kind when the exchange refuses (docs/decisions.md#d2)", async () => {
    const t = admin.session.accessToken;
    const r = await call(server, "POST", "/token/trade/order/create", {
      ...trade(DEMO, t),
      body: { price: "1000", amount: "1000", side: "Buy" },
    });
    expect(r.status).toBe(502);
    expect(r.body.code).toBe(608);
    expect(r.body.msg).toMatch(/^ExchangeId: paper, msg: /);
    expect(r.body.kind).toBe("insufficient-funds");
  });

  it("answers 609 when the stored envelope cannot be opened with the key, 601 without a key (docs/api.md#errors)", async () => {
    const t = admin.session.accessToken;
    const envelope = await sealCredentials({ api: "a", secret: "s" }, "BTC/USDT", KEY);
    await call(server, "POST", "/token/admin/apikeys", { token: t, body: { path: ACME, apis: envelope } });
    const wrong = await call(
      server,
      "GET",
      "/token/trade/balances",
      trade(ACME, t, { key: "fedcba9876543210fedcba9876543210" }),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body).toEqual({ code: 609, msg: API_ERROR_MESSAGES[609] });
    const missing = await call(server, "GET", "/token/trade/balances", trade(ACME, t));
    expect(missing.body.code).toBe(601);
    // an envelope that opens but lacks what the exchange needs (bitget: a passphrase) is 609 as well
    const bitget: AccountPath = ["Acme", "bitget", "main"];
    await call(server, "POST", "/token/admin/apikeys", {
      token: t,
      body: { path: bitget, apis: await sealCredentials({ api: "a", secret: "s" }, "BTC/USDT", KEY) },
    });
    const noPass = await call(server, "GET", "/token/trade/balances", trade(bitget, t, { key: KEY }));
    expect(noPass.body.code).toBe(609);
    expect(server.logs.join("\n")).not.toContain(KEY);
  });
});
