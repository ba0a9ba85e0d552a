/**
 * A bot on a real exchange's adapter under `serve` (bybit's REST and socket mocks): the server
 * trades with its own re-wrapped copy of the credentials (docs/decisions.md#d4), nobody signed in; a restart
 * adopts the orders; removing the API key stops the bot; removing the bot cancels its orders.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BybitMock as BybitRest, startBybitMock } from "../../exchanges/bybit/mock.js";
import { BybitMock as BybitSocket } from "../../exchanges/bybit/ws-mock.js";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { sealCredentials } from "../../lib/envelope.js";
import { call, registerFirstAdmin, type SignedIn, startTestServer, type TestServer } from "../server/helpers.js";
import { waitFor } from "./helpers.js";

const KEY = "0123456789abcdef0123456789abcdef";
const CREDENTIALS = { api: "bot-api-key", secret: "bot-api-secret" };
const ACME: AccountPath = ["Acme", "bybit", "main"];

let rest: BybitRest;
let socket: BybitSocket;
let server: TestServer;
let admin: SignedIn;

beforeEach(async () => {
  rest = await startBybitMock(CREDENTIALS);
  socket = await BybitSocket.start();
  socket.truth.reset([["99.90", "1"]], [["100.10", "1"]]);
  server = await startTestServer({ runBots: true, botEndpoints: { bybit: { baseUrl: rest.url, wsUrl: socket.url } } });
  admin = await registerFirstAdmin(server);
  const t = admin.session.accessToken;
  const apis = await sealCredentials(CREDENTIALS, "BTC/USDT", KEY);
  expect((await call(server, "POST", "/token/admin/apikeys", { token: t, body: { path: ACME, apis } })).status).toBe(
    200,
  );
  expect(
    (
      await call(server, "POST", "/token/pair", {
        token: t,
        body: { exchangeId: "bybit", pair: "BTC/USDT", decimals: { price: 2, amount: 6 } },
      })
    ).status,
  ).toBe(200);
});

afterEach(async () => {
  await server.cleanup();
  await rest.close();
  await socket.close();
});

const resting = () => [...rest.orders.values()].filter((o) => o.orderStatus === "New");

async function createGrid(): Promise<string> {
  const created = await call(server, "POST", "/token/bot", {
    token: admin.session.accessToken,
    headers: { path: pathHeader(ACME), key: KEY },
    body: { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 400, percent: 2, size: 4 } },
  });
  expect(created.status).toBe(200);
  return created.body.botId as string;
}

describe("a bybit bot under serve (docs/decisions.md#d4, #d25)", () => {
  it("trades with the server's copy of the credentials, survives a restart without doubling, and remove cancels", async () => {
    const botId = await createGrid();
    await waitFor(() => resting().length === 4, "the grid on the exchange", 10_000);
    expect(
      resting()
        .map((o) => [o.side, o.price, o.qty])
        .sort(),
    ).toEqual([
      ["Buy", "98", "1.020408"],
      ["Buy", "99", "1.010101"],
      ["Sell", "101", "0.990099"],
      ["Sell", "102", "0.980392"],
    ]);
    // signed with the API key of the envelope, which the server never stored in clear
    expect(
      rest.server.requests
        .filter((r) => r.path === "/v5/order/create")
        .every((r) => r.headers["x-bapi-api-key"] === CREDENTIALS.api),
    ).toBe(true);
    const ids = resting()
      .map((o) => o.orderId)
      .sort();
    // --keep-orders: the orders stay resting across the restart (docs/bots.md#safety-net)
    server = await server.restart({
      runBots: true,
      keepOrders: true,
      botEndpoints: { bybit: { baseUrl: rest.url, wsUrl: socket.url } },
    });
    await waitFor(() => server.bots!.runnerOf(botId)?.openOrders.length === 4, "adoption after the restart", 10_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(
      resting()
        .map((o) => o.orderId)
        .sort(),
    ).toEqual(ids);
    const removed = await call(server, "DELETE", "/token/bot", { token: admin.session.accessToken, body: { botId } });
    expect(removed.status).toBe(200);
    expect(resting()).toEqual([]);
  });

  it("removing the account's API key deletes the bot's credentials: the bot stops and says why", async () => {
    const botId = await createGrid();
    await waitFor(() => resting().length === 4, "the grid on the exchange", 10_000);
    const t = admin.session.accessToken;
    expect((await call(server, "DELETE", "/token/admin/apikeys", { token: t, body: { path: ACME } })).status).toBe(200);
    await waitFor(() => server.bots!.runnerOf(botId) === undefined, "the bot stopped");
    const bots = (await call(server, "GET", "/token/bots", { token: t })).body as {
      botId: string;
      status: string;
      reason?: string;
    }[];
    expect(bots.find((b) => b.botId === botId)).toMatchObject({
      status: "stopped",
      reason: expect.stringMatching(/API key was removed/),
    });
  });

  it("a DELETE the exchange refuses answers 608 and keeps the bot running with its orders", async () => {
    const botId = await createGrid();
    await waitFor(() => resting().length === 4, "the grid on the exchange", 10_000);
    rest.server.intercept((req) => (req.path.startsWith("/v5/order") ? { status: 503, body: "down" } : undefined));
    const refused = await call(server, "DELETE", "/token/bot", { token: admin.session.accessToken, body: { botId } });
    expect(refused.body.code).toBe(608);
    expect(resting()).toHaveLength(4);
    expect(server.bots!.runnerOf(botId)).toBeDefined();
    rest.server.intercept(undefined);
    const removed = await call(server, "DELETE", "/token/bot", { token: admin.session.accessToken, body: { botId } });
    expect(removed.status).toBe(200);
    expect(resting()).toEqual([]);
  });

  it("a clean stop whose cancels the exchange refuses names every order left open (docs/bots.md#safety-net)", async () => {
    const botId = await createGrid();
    await waitFor(() => resting().length === 4, "the grid on the exchange", 10_000);
    rest.server.intercept((req) =>
      req.path === "/v5/order/cancel" || req.path === "/v5/order/cancel-batch"
        ? { status: 503, body: "service unavailable" }
        : undefined,
    );
    const stopping = server;
    await stopping.close();
    const report = stopping.ordersLeftOpen();
    const open = resting();
    expect(report.orders.map((o) => o.id).sort()).toEqual(open.map((o) => o.orderId).sort());
    for (const order of open)
      expect(report.orders).toContainEqual({
        exchange: "bybit",
        pair: "BTC/USDT",
        id: order.orderId,
        side: order.side,
        price: order.price,
        reason: expect.stringContaining("service unavailable"),
      });
    expect(report.problems).toEqual([expect.stringContaining(`bot ${botId}: 4 orders could not be cancelled`)]);
    const logged = stopping.logs.map((l) => JSON.parse(l)).find((r) => r.msg === "bot orders left open at stop");
    expect(logged).toMatchObject({
      botId,
      orders: expect.arrayContaining([expect.stringMatching(/^bybit BTC\/USDT order /)]),
    });
    rest.server.intercept(undefined);
  });

  it('pause cancels its orders on the exchange (batch cancel) and resume quotes again; edit re-quotes with the new setup (docs/bots.md "Create, edit, pause")', async () => {
    const botId = await createGrid();
    const t = admin.session.accessToken;
    await waitFor(() => resting().length === 4, "the grid's 4 orders");
    const paused = await call(server, "POST", `/token/bot/${botId}/pause`, { token: t });
    expect(paused.body).toMatchObject({ status: "paused" });
    expect(resting()).toEqual([]);
    expect(rest.server.requests.filter((r) => r.path === "/v5/order/cancel-batch")).toHaveLength(1);
    expect((await call(server, "POST", `/token/bot/${botId}/resume`, { token: t })).status).toBe(200);
    await waitFor(() => resting().length === 4, "4 orders again");
    const edited = await call(server, "PUT", "/token/bot", {
      token: t,
      body: { botId, botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 200, percent: 2, size: 2 } },
    });
    expect(edited.status).toBe(200);
    await waitFor(() => resting().length === 2, "the edited grid's 2 orders");
  });
});
