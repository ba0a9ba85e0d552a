import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { call, registerFirstAdmin, type SignedIn, startTestServer, type TestServer } from "./helpers.js";

/*
 * The trade routes' `customPair` (server/routes/trade.ts, docs/decisions.md#d1): cancel and cancel-all act on
 * the pair named, not the account's, so a cancel-all of another pair leaves this pair's orders
 * alone (docs/mutation.md). Real server on loopback, the demo paper account (pair BTC/USDT).
 */
const DEMO: AccountPath = ["Demo", "paper", "main"];
let server: TestServer;
let admin: SignedIn;
beforeEach(async () => {
  server = await startTestServer();
  admin = await registerFirstAdmin(server);
});
afterEach(async () => {
  await server.cleanup();
});

const trade = (token: string) => ({ token, headers: { path: pathHeader(DEMO) } });

describe("trade routes: the pair of a cancel (docs/decisions.md#d1)", () => {
  it("cancels all of the pair named in customPair only, and of the account's pair without it", async () => {
    const t = admin.session.accessToken;
    const created = await call(server, "POST", "/token/trade/order/create", {
      ...trade(t),
      body: { price: "1000", amount: "0.01", side: "Buy" },
    });
    expect(created.status).toBe(200);
    const other = await call(server, "POST", "/token/trade/order/cancel-all", {
      ...trade(t),
      body: { customPair: "ETH/USDT" },
    });
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ ids: [], pair: "ETH/USDT" });
    const open = await call(server, "GET", "/token/trade/orders", trade(t));
    expect(open.body.map((o: { id: string }) => o.id)).toEqual([created.body.id]);
    const own = await call(server, "POST", "/token/trade/order/cancel-all", { ...trade(t), body: {} });
    expect(own.body).toEqual({ ids: [created.body.id], pair: "BTC/USDT" });
    expect((await call(server, "GET", "/token/trade/orders", trade(t))).body).toEqual([]);
  });

  it("cancels one order on the pair named in customPair, and says which pair", async () => {
    const t = admin.session.accessToken;
    const created = await call(server, "POST", "/token/trade/order/create", {
      ...trade(t),
      body: { price: "1000", amount: "0.01", side: "Buy" },
    });
    const wrongPair = await call(server, "POST", "/token/trade/order/cancel", {
      ...trade(t),
      body: { id: created.body.id, customPair: "ETH/USDT" },
    });
    expect(wrongPair.status).toBe(502);
    expect(wrongPair.body).toMatchObject({ code: 608, kind: "order-not-found" });
    expect((await call(server, "GET", "/token/trade/orders", trade(t))).body).toHaveLength(1);
    const right = await call(server, "POST", "/token/trade/order/cancel", {
      ...trade(t),
      body: { id: created.body.id, customPair: "BTC/USDT" },
    });
    expect(right.body).toEqual({ id: created.body.id, pair: "BTC/USDT" });
  });
});

describe("trade routes: the clientOID fallback of a cancel (issue 13)", () => {
  it("an exchange refusal other than order-not-found is answered as it is: nothing is looked up or cancelled by clientOID", async () => {
    const t = admin.session.accessToken;
    const create = (price: string) =>
      call(server, "POST", "/token/trade/order/create", { ...trade(t), body: { price, amount: "0.01", side: "Buy" } });
    const first = await create("1000");
    expect(
      (await call(server, "POST", "/token/trade/order/cancel", { ...trade(t), body: { id: first.body.id } })).status,
    ).toBe(200);
    const second = await create("1001");
    // paper refuses to cancel an order already cancelled (invalid-order); the clientOID names another order
    const refused = await call(server, "POST", "/token/trade/order/cancel", {
      ...trade(t),
      body: { id: first.body.id, clientOID: second.body.clientOrderId },
    });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ code: 608, kind: "invalid-order" });
    expect(refused.body.msg).toMatch(/cannot be canceled: it is canceled/);
    const open = await call(server, "GET", "/token/trade/orders", trade(t));
    expect(open.body.map((o: { id: string }) => o.id)).toEqual([second.body.id]);
  });

  it("without a clientOID an unknown id is the exchange's order-not-found, with its message", async () => {
    const t = admin.session.accessToken;
    const unknown = await call(server, "POST", "/token/trade/order/cancel", {
      ...trade(t),
      body: { id: "no-such-id" },
    });
    expect(unknown.status).toBe(502);
    expect(unknown.body).toMatchObject({ code: 608, kind: "order-not-found" });
    expect(unknown.body.msg).toMatch(/Order 'no-such-id' not found on BTC\/USDT/);
  });
});
