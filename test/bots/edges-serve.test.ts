/**
 * The edges of creating bots under `serve` (docs/bots.md "Create, edit, pause", docs/api.md#calls):
 * an unknown pair is refused at create with 600 (400) naming it, on paper and on a real venue's
 * pair list (bybit's mock); `botEndpoints` is read from config.json (server/README.md) and checked;
 * a bot is edited (PUT /token/bot: same id, validated, re-quoted), paused (orders cancelled, still
 * paused after a restart) and resumed.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type BybitMock as BybitRest, startBybitMock } from "../../exchanges/bybit/mock.js";
import { BybitMock as BybitSocket } from "../../exchanges/bybit/ws-mock.js";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { sealCredentials } from "../../lib/envelope.js";
import { resolveBotEndpoints, resolveConfig } from "../../server/config.js";
import { call, registerFirstAdmin, startTestServer, type TestServer } from "../server/helpers.js";
import { waitFor } from "./helpers.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
const ACME: AccountPath = ["Acme", "bybit", "main"];
const KEY = "0123456789abcdef0123456789abcdef";
const CREDENTIALS = { api: "bot-api-key", secret: "bot-api-secret" };

let server: TestServer | undefined;
let rest: BybitRest | undefined;
let socket: BybitSocket | undefined;
afterEach(async () => {
  await server?.cleanup();
  await rest?.close();
  await socket?.close();
  server = rest = socket = undefined;
});

function configFile(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), "spotdesk-config-")), "config.json");
  writeFileSync(file, JSON.stringify(content));
  return file;
}

describe("an unknown pair is refused at create (docs/bots.md)", () => {
  it("paper: 600 (400) naming the pair and paper's pairs; nothing is stored or started", async () => {
    server = await startTestServer({ runBots: true });
    const t = (await registerFirstAdmin(server)).session.accessToken;
    const refused = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(DEMO) },
      body: { botType: "grid-bot", setup: { pair: "DOGE/USDT", quote: 100, size: 4 } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe(600);
    expect(refused.body.msg).toBe(
      "setup.pair: Unknown pair 'DOGE/USDT'. Known pairs on paper: BTC/USDT, ETH/USDT, SOL/USDT, ETH/BTC",
    );
    const floating = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(DEMO) },
      body: {
        botType: "floating-bot",
        setup: { main: { pair: "XRP/EUR", side: "Buy", quote: 5, percent: 1, marginOfError: 1 } },
      },
    });
    expect(floating.status).toBe(400);
    expect(floating.body.msg).toContain("'XRP/EUR'");
    expect((await call(server, "GET", "/token/bots", { token: t })).body).toEqual([]);
    expect(server.bots!.size).toBe(0);
  });

  it("a real venue (bybit's mock, reached through botEndpoints in config.json): its pair list decides", async () => {
    rest = await startBybitMock(CREDENTIALS);
    socket = await BybitSocket.start();
    socket.truth.reset([["99.90", "1.000001"]], [["100.10", "1.000001"]]);
    server = await startTestServer({
      runBots: true,
      configFile: configFile({ botEndpoints: { bybit: { baseUrl: rest.url, wsUrl: socket.url } } }),
    });
    const t = (await registerFirstAdmin(server)).session.accessToken;
    const apis = await sealCredentials(CREDENTIALS, "BTC/USDT", KEY);
    await call(server, "POST", "/token/admin/apikeys", { token: t, body: { path: ACME, apis } });
    const create = (pair: string) =>
      call(server!, "POST", "/token/bot", {
        token: t,
        headers: { path: pathHeader(ACME), key: KEY },
        body: { botType: "grid-bot", setup: { pair, quote: 400, percent: 2, size: 4 } },
      });
    const refused = await create("DOGE/USDT");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 600,
      msg: "setup.pair: bybit does not trade 'DOGE/USDT' (unknown pair)",
    });
    // a listed pair is accepted and the bot trades on the mock named only in config.json
    const created = await create("BTC/USDT");
    expect(created.status).toBe(200);
    await waitFor(
      () => [...rest!.orders.values()].filter((o) => o.orderStatus === "New").length === 4,
      "the grid's 4 orders on the mock",
    );
  });
});

describe("botEndpoints in config.json (server/README.md)", () => {
  it("is read from the file and checked: an unknown exchange, a key or a scheme is refused by name", () => {
    const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-config-"));
    const resolved = resolveConfig({
      dataDir,
      configFile: configFile({
        botEndpoints: { bybit: { baseUrl: "https://api-testnet.bybit.com", wsUrl: "wss://stream-testnet.bybit.com" } },
      }),
    });
    expect(resolved.botEndpoints).toEqual({
      bybit: { baseUrl: "https://api-testnet.bybit.com", wsUrl: "wss://stream-testnet.bybit.com" },
    });
    expect(resolveConfig({ dataDir, configFile: configFile({}) }).botEndpoints).toEqual({});
    expect(() => resolveBotEndpoints({ bibyt: { baseUrl: "https://x" } })).toThrow(
      /botEndpoints\.bibyt: not an exchange id/,
    );
    expect(() => resolveBotEndpoints({ bybit: { baseURL: "https://x" } })).toThrow(
      "botEndpoints.bybit.baseURL: unknown key (baseUrl, wsUrl)",
    );
    expect(() => resolveBotEndpoints({ bybit: { wsUrl: "https://user:secret@x" } })).toThrow(
      "botEndpoints.bybit.wsUrl must be a ws:// or wss:// URL",
    );
    expect(() => resolveBotEndpoints({ bybit: { wsUrl: "https://user:secret@x" } })).not.toThrow(/secret/);
    expect(() => resolveBotEndpoints(["bybit"])).toThrow(/botEndpoints must be an object by exchange id/);
  });
});

const openOrders = async (s: TestServer, path: AccountPath, token: string) =>
  (await call(s, "GET", "/token/trade/orders", { token, headers: { path: pathHeader(path) } })).body as {
    id: string;
    side: string;
    price: string;
    amount: string;
  }[];

describe('edit, pause and resume (docs/bots.md "Create, edit, pause")', () => {
  const grid = (size: number, pair = "BTC/USDT") => ({
    botType: "grid-bot",
    setup: { pair, quote: 60 * size, percent: 2, size },
  });

  it("PUT /token/bot keeps the id, validates like a create and re-quotes the bot with its new setup", async () => {
    server = await startTestServer({ runBots: true });
    const t = (await registerFirstAdmin(server)).session.accessToken;
    const created = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(DEMO) },
      body: grid(4),
    });
    const botId = created.body.botId as string;
    await waitFor(async () => (await openOrders(server!, DEMO, t)).length === 4, "the 4 grid orders");
    const put = (body: unknown) => call(server!, "PUT", "/token/bot", { token: t, body });
    // refused as a create would be, and nothing changes
    const odd = await put({ botId, ...grid(3) });
    expect(odd.body).toMatchObject({
      code: 600,
      msg: expect.stringContaining("Order count must be greater than 0 and even"),
    });
    expect((await put({ botId, ...grid(4, "DOGE/USDT") })).body.msg).toContain("Unknown pair 'DOGE/USDT'");
    expect((await put({ botId, botType: "floating-bot", setup: {} })).status).toBe(400);
    expect((await put({ botId: "no-such-bot", ...grid(4) })).status).toBe(404);
    const typeChange = await put({
      botId,
      botType: "liquidity-arranger-bot",
      setup: { pair: "BTC/USDT", ordersAmount: 2, P0: 1, P1: 2, Q0: 1, Q1: 1 },
    });
    expect(typeChange.body.msg).toBe("botType: a grid-bot stays one; remove it and create a liquidity-arranger-bot");
    expect((await openOrders(server, DEMO, t)).length).toBe(4);
    // size 4 → 6: the same bot, six orders
    const edited = await put({ botId, ...grid(6) });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ botId, setup: { size: 6, quote: 360 } });
    await waitFor(async () => (await openOrders(server!, DEMO, t)).length === 6, "the 6 grid orders");
    const bots = (await call(server, "GET", "/token/bots", { token: t })).body as { botId: string; onBuy: number }[];
    expect(bots.map((b) => b.botId)).toEqual([botId]);
    await waitFor(
      async () => ((await call(server!, "GET", "/token/bots", { token: t })).body[0].onBuy as number) === 3,
      "3 Buys in its state",
    );
    // another pair: the old pair's orders are cancelled first, the new pair quoted
    expect((await put({ botId, ...grid(2, "ETH/USDT") })).status).toBe(200);
    expect(await openOrders(server, DEMO, t)).toEqual([]); // the account's pair (BTC/USDT) is left empty at once
    const eth = await waitFor(async () => {
      const rows = (
        await call(server!, "GET", "/token/trade/orders", {
          token: t,
          headers: { path: pathHeader(DEMO) },
        })
      ).body as unknown[];
      const bot = (await call(server!, "GET", "/token/bots", { token: t })).body[0] as {
        onBuy?: number;
        onSell?: number;
      };
      return rows.length === 0 && bot.onBuy === 1 && bot.onSell === 1 ? bot : undefined;
    }, "the ETH/USDT grid");
    expect(eth).toMatchObject({ botId, setup: { pair: "ETH/USDT", size: 2 } });
  });

  it("pause cancels its orders and keeps it paused across a restart; resume starts it again", async () => {
    server = await startTestServer({ runBots: true });
    const t = (await registerFirstAdmin(server)).session.accessToken;
    const created = await call(server, "POST", "/token/bot", {
      token: t,
      headers: { path: pathHeader(DEMO) },
      body: {
        botType: "floating-bot",
        setup: { main: { pair: "BTC/USDT", side: "Buy", quote: 50, percent: 1, marginOfError: 0.1 } },
      },
    });
    const botId = created.body.botId as string;
    await waitFor(async () => (await openOrders(server!, DEMO, t)).length === 1, "the order");
    const paused = await call(server, "POST", `/token/bot/${botId}/pause`, { token: t });
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({
      botId,
      status: "paused",
      reason: "Paused: its orders were cancelled; resume it to start again",
    });
    expect(await openOrders(server, DEMO, t)).toEqual([]);
    expect(server.bots!.size).toBe(0);
    server = await server.restart({ runBots: true });
    const t2 = t; // the same data directory: the access token still holds
    const listed = (await call(server, "GET", "/token/bots", { token: t2 })).body as { status: string }[];
    expect(listed[0]).toMatchObject({ botId, status: "paused" });
    expect(server.bots!.size).toBe(0);
    expect(await openOrders(server, DEMO, t2)).toEqual([]);
    const resumed = await call(server, "POST", `/token/bot/${botId}/resume`, { token: t2 });
    expect(resumed.status).toBe(200);
    await waitFor(async () => (await openOrders(server!, DEMO, t2)).length === 1, "the order again");
    await waitFor(
      async () => ((await call(server!, "GET", "/token/bots", { token: t2 })).body[0].status as string) === "running",
      "running",
    );
    expect((await call(server, "POST", "/token/bot/no-such-bot/pause", { token: t2 })).status).toBe(404);
  });
});
