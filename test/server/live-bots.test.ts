import { afterEach, beforeEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { decryptText, sealCredentials } from "../../lib/envelope.js";
import { WASH_TRADING_REASON } from "../../lib/schemas.js";
import {
  call,
  openLive,
  permitAndRegister,
  registerFirstAdmin,
  type SignedIn,
  startTestServer,
  type TestServer,
} from "./helpers.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
const ACME: AccountPath = ["Acme", "paper", "desk"];

let server: TestServer;
let admin: SignedIn;
beforeEach(async () => {
  server = await startTestServer();
  admin = await registerFirstAdmin(server);
});
afterEach(async () => {
  await server.cleanup();
});

const grid = { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4 } };

describe("live channel (docs/dashboard-rules.md#states, docs/api.md#calls, docs/decisions.md#d6)", () => {
  it("answers sub_for_bots with {purpose, result}, then a snapshot, then deltas in order; answers 'ping' with 'pong' (docs/decisions.md#d37)", async () => {
    const t = admin.session.accessToken;
    const existing = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(DEMO) },
      body: grid,
    });
    expect(existing.status).toBe(200);
    const live = await openLive(server.wsUrl);
    live.ws.send("ping");
    live.ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: admin.session.uuid, token: t }));
    const [pong, reply, snapshot] = await live.next(3);
    expect(pong).toBe("pong");
    expect(reply).toEqual({ purpose: "sub_for_bots", result: true });
    expect(snapshot.type).toBe("snapshot");
    expect(snapshot.data.map((b: { botId: string }) => b.botId)).toEqual([existing.body.botId]);
    const created = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(DEMO) },
      body: {
        botType: "volume-bot",
        setup: {
          pair: "BTC/USDT",
          volume: 1000,
          minQuote: 5,
          priceRange: { min: 1, max: 2 },
          stepRange: { min: 10, max: 20 },
        },
      },
    });
    const [delta] = await live.next();
    expect(delta).toMatchObject({
      type: "delta",
      data: { botId: created.body.botId, botType: "volume-bot", status: "not run", reason: WASH_TRADING_REASON },
    });
    expect(delta.data.lastTrade).toBeUndefined();
    await call(server, "DELETE", "/token/bot", { token: t, body: { botId: existing.body.botId } });
    const [removed] = await live.next();
    expect(removed).toEqual({ type: "delta", data: { botId: existing.body.botId, removed: true } });
    live.ws.close();
  });

  it("refuses a subscription with a forged token or another user's id: result false", async () => {
    const live = await openLive(server.wsUrl);
    live.ws.send(
      JSON.stringify({ purpose: "sub_for_bots", userId: admin.session.uuid, token: `${admin.session.accessToken}x` }),
    );
    const [bad] = await live.next();
    expect(bad).toMatchObject({ purpose: "sub_for_bots", result: false });
    live.ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: "someone-else", token: admin.session.accessToken }));
    const [other] = await live.next();
    expect(other).toMatchObject({ purpose: "sub_for_bots", result: false });
    await call(server, "POST", "/token/bot", {
      token: admin.session.accessToken,
      headers: { path: pathHeader(DEMO) },
      body: grid,
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(live.messages).toHaveLength(2); // no bot state reached the unsubscribed socket
    live.ws.close();
  });

  it("sends a user only the bots of clients in their scope (docs/decisions.md#d6)", async () => {
    const t = admin.session.accessToken;
    await call(server, "POST", "/token/admin/apikeys", {
      token: t,
      body: { path: ACME, apis: { data: "", pair: "ETH/USDT", active: true } },
    });
    const acmeBot = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(ACME) },
      body: { botType: "grid-bot", setup: { pair: "ETH/USDT", quote: 5, size: 2 } },
    });
    expect(acmeBot.status).toBe(200);
    const user = await permitAndRegister(server, admin, "demo@example.com", ["Demo"]);
    const live = await openLive(server.wsUrl);
    live.ws.send(
      JSON.stringify({ purpose: "sub_for_bots", userId: user.session.uuid, token: user.session.accessToken }),
    );
    const [, snapshot] = await live.next(2);
    expect(snapshot).toEqual({ type: "snapshot", data: [] });
    await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(ACME) },
      body: { botType: "grid-bot", setup: { pair: "ETH/USDT", quote: 6, size: 2 } },
    });
    const demoBot = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(DEMO) },
      body: grid,
    });
    const [delta] = await live.next();
    expect(delta.data.botId).toBe(demoBot.body.botId);
    live.ws.close();
  });

  it("shows and removes a bot that uses accounts of several clients only for users whose scope holds every one (docs/decisions.md#d26)", async () => {
    const t = admin.session.accessToken;
    await call(server, "POST", "/token/admin/apikeys", {
      token: t,
      body: { path: ACME, apis: { data: "", pair: "BTC/USDT", active: true } },
    });
    const range = { min: 1, max: 2 };
    const heavy = {
      botType: "heavy-volume-bot",
      setup: { pair: "BTC/USDT", priceRange: range, tradesRange: range, quoteRange: range, stepRange: range },
      paths: [ACME],
    };
    const create = async (body: unknown) =>
      (await call(server, "POST", "/token/bot", { token: t, headers: { path: pathHeader(DEMO) }, body })).body
        .botId as string;
    const both = await create(heavy);
    const demoOnly = await create(grid);
    const a = await permitAndRegister(server, admin, "demo@example.com", ["Demo"]);
    const ab = await permitAndRegister(server, admin, "both@example.com", ["Demo", "Acme"]);
    const list = async (user: SignedIn) =>
      (await call(server, "GET", "/token/bots", { token: user.session.accessToken })).body.map(
        (b: { botId: string }) => b.botId,
      );
    const accountBots = async (user: SignedIn) =>
      (await call(server, "GET", "/token/exchanges", { token: user.session.accessToken })).body
        .find((acc: { client: string }) => acc.client === "Demo")
        .bots.map((b: { botId: string }) => b.botId);
    expect(await list(a)).toEqual([demoOnly]);
    expect(await accountBots(a)).toEqual([demoOnly]);
    expect((await list(ab)).sort()).toEqual([both, demoOnly].sort());
    expect((await accountBots(ab)).sort()).toEqual([both, demoOnly].sort());

    const subscribe = async (user: SignedIn) => {
      const live = await openLive(server.wsUrl);
      const { uuid, accessToken } = user.session;
      live.ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: uuid, token: accessToken }));
      const [, snapshot] = await live.next(2);
      return { live, snapshot: snapshot.data.map((b: { botId: string }) => b.botId).sort() };
    };
    const liveA = await subscribe(a);
    const liveAB = await subscribe(ab);
    expect(liveA.snapshot).toEqual([demoOnly]);
    expect(liveAB.snapshot).toEqual([both, demoOnly].sort());

    // deltas: a new two-client bot reaches only the user with both clients
    const both2 = await create(heavy);
    const demo2 = await create(grid);
    expect((await liveAB.live.next(2)).map((m) => m.data.botId)).toEqual([both2, demo2]);
    expect((await liveA.live.next()).map((m) => m.data.botId)).toEqual([demo2]);

    // removal: 403 for the user scoped to Demo only, and the bot stays; the user with both removes it
    const refused = await call(server, "DELETE", "/token/bot", { token: a.session.accessToken, body: { botId: both } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 600, msg: "Forbidden: client 'Acme' is not in your scope" });
    expect((await list(ab)).sort()).toEqual([both, both2, demoOnly, demo2].sort());
    const removed = await call(server, "DELETE", "/token/bot", {
      token: ab.session.accessToken,
      body: { botId: both },
    });
    expect(removed.status).toBe(200);
    expect(await liveAB.live.next()).toEqual([{ type: "delta", data: { botId: both, removed: true } }]);
    // the removal delta did not reach the Demo-only user: its next message is the next Demo bot
    const demo3 = await create(grid);
    expect((await liveA.live.next()).map((m) => m.data)).toEqual([expect.objectContaining({ botId: demo3 })]);
    liveA.live.ws.close();
    liveAB.live.ws.close();
  });

  it("relays the paper order book over HTTP and the /book websocket", async () => {
    const snap = await call(server, "GET", "/book/paper/BTC%2FUSDT?depth=5");
    expect(snap.status).toBe(200);
    expect(snap.body.bids).toHaveLength(5);
    expect(snap.body.asks).toHaveLength(5);
    expect(Number(snap.body.asks[0][0])).toBeGreaterThan(Number(snap.body.bids[0][0]));
    const ws = new WebSocket(`${server.wsUrl}/book?exchange=paper&pair=BTC-USDT&depth=3`);
    const first = await new Promise<{
      type?: string;
      data: { state?: string; bids?: unknown[]; [k: string]: unknown };
    }>((resolve, reject) => {
      ws.once("message", (d) => resolve(JSON.parse(d.toString())));
      ws.once("error", reject);
    });
    expect(first.type).toBe("book");
    expect(first.data).toMatchObject({ exchange: "paper", pair: "BTC/USDT" });
    // the upstream feed's state rides along (issue 13): the reader knows whether the book is live
    expect(["connecting", "live"]).toContain(first.data.state);
    expect(first.data.bids).toHaveLength(3);
    ws.close();
    expect((await call(server, "GET", "/book/nowhere/BTC-USDT")).body.code).toBe(600);
  });
});

describe("bots registry (docs/dashboard-rules.md#validation, docs/api.md#calls, docs/decisions.md#d4, #d16)", () => {
  it("validates setups with the seed's rules and stores nothing on failure (docs/dashboard-rules.md#validation)", async () => {
    const t = admin.session.accessToken;
    const h = { path: pathHeader(DEMO) };
    for (const body of [
      { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 3 } }, // odd order count
      { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 0, size: 4 } }, // quote > 0
      {
        botType: "volume-bot",
        setup: {
          pair: "BTC/USDT",
          volume: 1,
          minQuote: 1,
          priceRange: { min: 3, max: 2 },
          stepRange: { min: 1, max: 2 },
        },
      },
      { botType: "candle-closer-bot", setup: { pair: "BTC/USDT", quote: 5, acceptableSpread: 1 } }, // spread > 1
      {
        botType: "floating-bot",
        setup: { main: { pair: "BTC/USDT", side: "Buy", quote: 10 }, modules: { "dynamic-price": { step: -1 } } },
      },
      {
        botType: "liquidity-arranger-bot",
        setup: { pair: "BTC/USDT", ordersAmount: 3, side: "Both", P0: 1, P1: 2, Q0: 1, Q1: 2 },
      },
      { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4, extra: true } }, // unknown field
      { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4 }, paths: [DEMO] }, // paths only for heavy volume
      { botType: "teleport-bot", setup: {} },
    ]) {
      const r = await call(server, "POST", "/token/bot", { token: t, headers: h, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe(600);
    }
    const floating = await call(server, "POST", "/token/bot", {
      token: t,
      headers: h,
      body: {
        botType: "floating-bot",
        setup: { main: { pair: "BTC/USDT", side: "Buy", quote: 10 }, modules: { "dynamic-price": { step: -1 } } },
      },
    });
    expect(floating.body.issues.join()).toContain("Incorrect params for dynamic-price module");
    expect(await server.storage.listBots()).toEqual([]);
  });

  it("applies the seed's defaults and reports volume bots as not run with the wash-trading reason (docs/dashboard-rules.md#constants, docs/product.md#bots)", async () => {
    const t = admin.session.accessToken;
    const h = { path: pathHeader(DEMO) };
    const g = await call(server, "POST", "/token/bot", { token: t, headers: h, body: grid });
    expect(g.body.setup).toEqual({ pair: "BTC/USDT", quote: 100, size: 4, profit: 0.2, percent: 5, RF: 0.5 });
    const sd = await call(server, "POST", "/token/bot", {
      token: t,
      headers: h,
      body: { botType: "spread-decompression-bot", setup: { pair: "BTC/USDT" } },
    });
    expect(sd.body.setup).toMatchObject({
      quoteUp: 10,
      dailyQuoteUp: 100,
      quoteDown: 10,
      dailyQuoteDown: 100,
      refillPeriod: 60,
      delay: 10,
      minQuote: 2,
    });
    const hv = await call(server, "POST", "/token/bot", {
      token: t,
      headers: h,
      body: {
        botType: "heavy-volume-bot",
        setup: {
          pair: "BTC/USDT",
          priceRange: { min: 1, max: 2 },
          tradesRange: { min: 1, max: 3 },
          quoteRange: { min: 5, max: 9 },
          stepRange: { min: 1, max: 1 },
        },
        paths: [DEMO],
      },
    });
    expect(hv.body).toMatchObject({ status: "not run", reason: WASH_TRADING_REASON, paths: [DEMO] });
    const accounts = await call(server, "GET", "/token/exchanges", { token: t });
    expect(accounts.body[0].bots.map((b: { botType: string }) => b.botType)).toEqual([
      "grid-bot",
      "spread-decompression-bot",
      "heavy-volume-bot",
    ]);
  });

  it("re-wraps a bot's credentials under the server's data key and deletes the copy with the API key (docs/decisions.md#d4)", async () => {
    const t = admin.session.accessToken;
    const key = "0123456789abcdef0123456789abcdef";
    const path: AccountPath = ["Acme", "bybit", "main"];
    await call(server, "POST", "/token/admin/apikeys", {
      token: t,
      body: { path, apis: await sealCredentials({ api: "AK1", secret: "SK1" }, "BTC/USDT", key) },
    });
    const bot = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(path), key },
      body: grid,
    });
    expect(bot.status).toBe(200);
    const stored = await server.storage.getBot(bot.body.botId);
    expect(stored!.wrappedCredentials).not.toContain("SK1");
    const { readFileSync } = await import("node:fs");
    const dataKey = readFileSync(`${server.dataDir}/data-key`, "utf8").trim();
    const clear = JSON.parse(await decryptText(stored!.wrappedCredentials!, dataKey));
    expect(clear[JSON.stringify(path)]).toEqual({ api: "AK1", secret: "SK1" });
    const wrongKey = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(path), key: "fedcba9876543210fedcba9876543210" },
      body: grid,
    });
    expect(wrongKey.body.code).toBe(609);
    await call(server, "DELETE", "/token/admin/apikeys", { token: t, body: { path } });
    expect((await server.storage.getBot(bot.body.botId))!.wrappedCredentials).toBeNull();
  });
});
