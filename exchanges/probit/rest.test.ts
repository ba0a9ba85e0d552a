import { createServer, type IncomingMessage } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rejection, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import { PROBIT_KEY, PROBIT_SECRET, type ProbitMock, startProbitMock } from "./mock.js";
import {
  PROBIT_PATHS,
  ProbitAdapter,
  type ProbitToken,
  ProbitTokenCache,
  parseProbitBalances,
  parseProbitOrder,
  probitBasicAuth,
  probitTokenRequest,
} from "./rest.js";

const credentials = { api: PROBIT_KEY, secret: PROBIT_SECRET };
let mock: ProbitMock;
let probit: ExchangeAdapter;

beforeEach(async () => {
  mock = await startProbitMock();
  probit = createExchange("probit", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

const buy = { pair: "BTC/USDT", side: "Buy" as const, amount: "0.001", price: "3772.4" };
const routes = () => mock.server.requests.map((r) => `${r.method} ${r.path}`);

describe("probit bearer token (docs/exchange-rules.md#states, docs-en.probit.com Authorization)", () => {
  it("asks POST /token with Basic base64(clientId:secret) and grant_type client_credentials", () => {
    const request = probitTokenRequest({ api: "12345678", secret: "1a2b3c4d5e6f7g8h" });
    expect(request).toMatchObject({ method: "POST", path: "/token", body: '{"grant_type":"client_credentials"}' });
    expect(request.headers.Authorization).toBe(`Basic ${Buffer.from("12345678:1a2b3c4d5e6f7g8h").toString("base64")}`);
    expect(probitBasicAuth({ api: "a", secret: "b" })).toBe("Basic YTpi");
  });

  it("sends the token as Authorization: Bearer on every private call and reaches the token host through --base-url", async () => {
    await probit.fetchBalances();
    expect(routes()).toEqual(["POST /token", "GET /api/exchange/v1/balance"]);
    expect(String(mock.server.requests[1]!.headers.authorization)).toMatch(/^Bearer [0-9a-f]{32}$/);
  });

  it("fetches one token for many concurrent calls: only one fetch in flight (docs/exchange-rules.md#states)", async () => {
    mock.delayTokens(150);
    const adapter = new ProbitAdapter(credentials, { baseUrl: mock.url });
    const results = await Promise.all(Array.from({ length: 25 }, () => adapter.fetchBalances()));
    expect(results).toHaveLength(25);
    expect(mock.tokenFetches()).toBe(1);
    expect(routes().filter((r) => r === "GET /api/exchange/v1/balance")).toHaveLength(25);
  });

  it("caches the token per key: a second adapter with the same key reuses it (docs/exchange-rules.md#states)", async () => {
    await new ProbitAdapter(credentials, { baseUrl: mock.url }).fetchBalances();
    await new ProbitAdapter(credentials, { baseUrl: mock.url }).fetchOpenOrders("BTC/USDT");
    expect(mock.tokenFetches()).toBe(1);
  });

  it("renews the token at 95% of its lifetime, not before (docs/exchange-rules.md#states, #limits) — injected clock", async () => {
    let clock = 1_700_000_000_000;
    const now = () => clock;
    const timed = await startProbitMock({ now, clients: { "clock-key": "clock-secret" } });
    try {
      timed.expiresIn(100);
      const adapter = new ProbitAdapter({ api: "clock-key", secret: "clock-secret" }, { baseUrl: timed.url, now });
      await adapter.fetchBalances();
      clock += 94_999;
      await adapter.fetchBalances();
      expect(timed.tokenFetches()).toBe(1);
      clock += 1;
      await adapter.fetchBalances();
      expect(timed.tokenFetches()).toBe(2);
    } finally {
      await timed.close();
    }
  });

  it("deduplicates with a pure cache too: 50 waiters, one fetch; a failed fetch is not cached", async () => {
    let calls = 0;
    let fail = true;
    let release: () => void = () => {};
    const fetchToken = () =>
      new Promise<ProbitToken>((resolve, reject) => {
        calls++;
        release = () => (fail ? reject(new Error("down")) : resolve({ accessToken: `t${calls}`, expiresIn: 60 }));
      });
    const cache = new ProbitTokenCache(() => 0);
    const first = Array.from({ length: 50 }, () => cache.get(fetchToken).catch((e: Error) => e.message));
    release();
    expect(new Set(await Promise.all(first))).toEqual(new Set(["down"]));
    expect(calls).toBe(1);
    fail = false;
    const second = Array.from({ length: 50 }, () => cache.get(fetchToken));
    release();
    expect(new Set(await Promise.all(second))).toEqual(new Set(["t2"]));
    expect(calls).toBe(2);
  });
});

describe("probit operations (docs/exchange-rules.md#operations, #calls) against the token-checking mock", () => {
  it("creates a limit gtc buy on BTC-USDT with a 32-hex client_order_id (docs/exchange-rules.md#entities, docs/decisions.md#d11)", async () => {
    const order = await probit.createOrder(buy);
    const req = mock.server.requests.at(-1)!;
    expect(`${req.method} ${req.path}`).toBe(`POST ${PROBIT_PATHS.newOrder}`);
    const body = JSON.parse(req.body) as Record<string, string>;
    expect(body).toMatchObject({
      market_id: "BTC-USDT",
      type: "limit",
      side: "buy",
      time_in_force: "gtc",
      limit_price: "3772.4",
      quantity: "0.001",
    });
    expect(body.client_order_id).toMatch(/^[0-9a-f]{32}$/);
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      id: "853073",
      clientOrderId: body.client_order_id,
      status: "open",
      rawStatus: "open",
      side: "Buy",
      amount: "0.001",
      price: "3772.4",
    });
  });

  it("creates a limit sell", async () => {
    expect((await probit.createOrder({ ...buy, side: "Sell" })).side).toBe("Sell");
    expect(JSON.parse(mock.server.requests.at(-1)!.body).side).toBe("sell");
  });

  it("cancels with POST cancel_order {market_id, order_id} and fetches the order as cancelled → canceled", async () => {
    const a = await probit.createOrder(buy);
    await expect(probit.cancelOrder("BTC/USDT", a.id)).resolves.toBe(a.id);
    expect(JSON.parse(mock.server.requests.at(-1)!.body)).toEqual({ market_id: "BTC-USDT", order_id: a.id });
    expect(await probit.fetchOrder("BTC/USDT", a.id)).toMatchObject({
      id: a.id,
      status: "canceled",
      rawStatus: "cancelled",
      clientOrderId: a.clientOrderId,
    });
    expect(parseQuery(mock.server.requests.at(-1)!.query)).toEqual({ market_id: "BTC-USDT", order_id: a.id });
  });

  it("sends every documented required parameter on every call; the mock refuses a call without one (INVALID_ARGUMENT)", async () => {
    const a = await probit.createOrder(buy);
    await probit.fetchOrder("BTC/USDT", a.id);
    await probit.cancelOrder("BTC/USDT", a.id);
    const sent = mock.server.requests
      .filter((r) => r.path.startsWith("/api/exchange/v1/"))
      .map((r) => [`${r.method} ${r.path}`, r.method === "GET" ? parseQuery(r.query) : JSON.parse(r.body)]);
    expect(sent).toEqual([
      [
        "POST /api/exchange/v1/new_order",
        expect.objectContaining({
          market_id: "BTC-USDT",
          type: "limit",
          side: "buy",
          time_in_force: "gtc",
          limit_price: "3772.4",
          quantity: "0.001",
        }),
      ],
      ["GET /api/exchange/v1/order", { market_id: "BTC-USDT", order_id: a.id }],
      ["POST /api/exchange/v1/cancel_order", { market_id: "BTC-USDT", order_id: a.id }],
    ]);
    const token = await fetch(`${mock.url}/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from(`${PROBIT_KEY}:${PROBIT_SECRET}`).toString("base64")}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({ grant_type: "client_credentials" }),
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const order = { market_id: "BTC-USDT", type: "limit", side: "buy", time_in_force: "gtc", quantity: "1" };
    for (const [method, path, params, field] of [
      ["POST", "/api/exchange/v1/new_order", order, "limit_price"],
      ["POST", "/api/exchange/v1/cancel_order", { market_id: "BTC-USDT" }, "order_id"],
      ["POST", "/api/exchange/v1/cancel_order", { order_id: a.id }, "market_id"],
      ["GET", "/api/exchange/v1/order", { market_id: "BTC-USDT" }, "order_id or client_order_id"],
    ] as const) {
      const get = method === "GET";
      const bare = await fetch(`${mock.url}${path}${get ? `?${new URLSearchParams(params)}` : ""}`, {
        method,
        headers: { Authorization: `Bearer ${token.access_token}`, "Content-Type": "application/json" },
        ...(get ? {} : { body: JSON.stringify(params) }),
      });
      expect([path, bare.status, await bare.json()]).toEqual([
        path,
        400,
        {
          errorCode: "INVALID_ARGUMENT",
          message: "Parameters are not a valid format",
          details: { [field]: "required" },
        },
      ]);
    }
    expect(mock.orders.get(a.id)!.status).toBe("cancelled");
  });

  it("lists open orders with GET open_order?market_id=BTC-USDT", async () => {
    const a = await probit.createOrder(buy);
    const b = await probit.createOrder({ ...buy, price: "3000" });
    await probit.cancelOrder("BTC/USDT", b.id);
    expect((await probit.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([a.id]);
    expect(mock.server.requests.at(-1)!.query).toBe("market_id=BTC-USDT");
  });

  it("reads balances: locked = total − available, all-zero dropped, codes upper-cased, long numbers exact (docs/exchange-rules.md#entities, #limits)", async () => {
    await expect(probit.fetchBalances()).resolves.toEqual({
      XRP: { f: "0", l: "100" },
      USDT: { f: "900.123456789012345678", l: "100" },
      BTC: { f: "0.5", l: "0" },
    });
  });

  it('rejects batch create, cancel batch and cancel all with "Not supported for probit" before any request (docs/exchange-rules.md#validation, #limits)', async () => {
    for (const call of [
      () => probit.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "1" }]),
      () => probit.cancelBatch("BTC/USDT", ["1"]),
      () => probit.cancelAll("BTC/USDT"),
    ]) {
      expect(await rejection(call())).toMatchObject({
        kind: "unsupported",
        message: "ExchangeId: probit, msg: Not supported for probit",
      });
    }
    expect(mock.server.requests).toHaveLength(0);
  });
});

describe("probit errors (docs/exchange-rules.md#errors: {errorCode, message, details})", () => {
  it("answers a wrong secret with an auth error after exactly one token request, nothing else sent", async () => {
    const wrong = new ProbitAdapter({ ...credentials, secret: "wrong-secret" }, { baseUrl: mock.url });
    const error = await rejection(wrong.createOrder(buy));
    expect(error).toMatchObject({ kind: "auth", code: "UNAUTHORIZED" });
    expect(error.message).not.toContain("wrong-secret");
    expect(routes()).toEqual(["POST /token"]);
  });

  it("maps NOT_ENOUGH_BALANCE to insufficient-funds with the message", async () => {
    mock.failNext("NOT_ENOUGH_BALANCE", "not enough ;)");
    const error = await rejection(probit.createOrder(buy));
    expect(error).toMatchObject({ kind: "insufficient-funds", code: "NOT_ENOUGH_BALANCE" });
    expect(error.message).toBe("ExchangeId: probit, msg: not enough ;) (code NOT_ENOUGH_BALANCE)");
  });

  it("maps INVALID_ORDER to order-not-found", async () => {
    expect(await rejection(probit.fetchOrder("BTC/USDT", "1"))).toMatchObject({
      kind: "order-not-found",
      code: "INVALID_ORDER",
    });
  });

  it("maps RATE_LIMIT_EXCEEDED (HTTP 429) to rate-limit with the Retry-After hint", async () => {
    await probit.fetchBalances();
    mock.rateLimitNext();
    expect(await rejection(probit.fetchBalances())).toMatchObject({
      kind: "rate-limit",
      code: "RATE_LIMIT_EXCEEDED",
      retryAfterMs: 3000,
    });
  });
});

describe("probit time-out on create (docs/exchange-rules.md#contract: never two orders)", () => {
  it("looks the order up by client_order_id after a time-out and returns it; one order on the mock", async () => {
    const slow = createExchange("probit", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    await slow.fetchBalances(); // the token is fetched before the slow create
    mock.delayNextCreate(1500);
    const order = await slow.createOrder(buy);
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: only!.id, clientOrderId: only!.client_order_id, status: "open" });
    expect(routes().slice(-2)).toEqual([`POST ${PROBIT_PATHS.newOrder}`, `GET ${PROBIT_PATHS.order}`]);
    expect(parseQuery(mock.server.requests.at(-1)!.query)).toEqual({
      market_id: "BTC-USDT",
      client_order_id: only!.client_order_id,
    });
  });
});

describe("probit status and timestamp rules (docs/exchange-rules.md#entities, #states, docs/decisions.md#d9) with the documented order example", () => {
  // docs-en.probit.com/reference/order-1, response of "Buying 0.001 BTC at 3772.4 USDT"
  const documented = {
    id: "853073",
    user_id: "1c7d2747-9b50-46c8-b917-d8cef81f7595",
    market_id: "BTC-USDT",
    type: "limit",
    side: "buy",
    quantity: "0.001",
    limit_price: "3772.4",
    time_in_force: "gtc",
    filled_cost: "0",
    filled_quantity: "0",
    open_quantity: "0.001",
    cancelled_quantity: "0",
    status: "open",
    time: "2022-12-12T06:55:31.409Z",
    client_order_id: "",
  };

  it("parses the ISO time to milliseconds (docs/exchange-rules.md#entities 'Probit gives an ISO time, which is parsed')", () => {
    expect(parseProbitOrder(documented)).toMatchObject({
      timestamp: Date.UTC(2022, 11, 12, 6, 55, 31, 409),
      pair: "BTC/USDT",
      side: "Buy",
      amount: "0.001",
      price: "3772.4",
      filled: "0",
    });
  });

  it("normalizes open, filled, cancelled by the general rule and keeps ProBit's string in rawStatus (docs/decisions.md#d9)", () => {
    const of = (status: string) => parseProbitOrder({ ...documented, status });
    expect(of("open")).toMatchObject({ status: "open", rawStatus: "open" });
    expect(of("filled")).toMatchObject({ status: "closed", rawStatus: "filled" });
    expect(of("cancelled")).toMatchObject({ status: "canceled", rawStatus: "cancelled" });
    expect(of("mystery")).toMatchObject({ status: undefined, rawStatus: "mystery" });
  });

  it("drops all-zero balances", () => {
    expect(parseProbitBalances({ data: [{ currency_id: "X", total: "0", available: "0" }] })).toEqual({});
  });
});

describe("probit through the built CLI", () => {
  const env = { SPOTDESK_API_KEY: PROBIT_KEY, SPOTDESK_API_SECRET: PROBIT_SECRET };

  it("buy, order, orders, cancel, balances end to end; batch, cancel-batch and cancel-all are 'Not supported'", async () => {
    await runCliScenario({
      id: "probit",
      mock,
      env,
      status: (o) => o.status,
      open: "open",
      canceled: "cancelled",
      buy: ["0.001", "3772.4"],
      unsupported: ["batch", "cancel-batch", "cancel-all"],
      balances: { XRP: { f: "0", l: "100" } },
    });
  });
});

import { PROBIT_MOCK_MARKETS } from "./mock.js";

describe("probit fetchPairs (docs/exchange-rules.md#pairs)", () => {
  const keyless = () => new ProbitAdapter({ api: "", secret: "" }, { baseUrl: mock.url });

  it("lists the open markets sorted: tick price_increment, lot 10^-quantity_precision, min_quantity and min_cost", async () => {
    await expect(keyless().fetchPairs()).resolves.toEqual([
      { pair: "BTC/USDT", tick: "0.1", lot: "0.00000001", minAmount: "0.00000001", minNotional: "1" },
      { pair: "ETH/BTC", tick: "0.000001", lot: "0.0001", minAmount: "0.0001", minNotional: "0.0001" },
      { pair: "PROB/KRW", tick: "0.00000001", lot: "1", minAmount: "1", minNotional: "1000" },
    ]);
    // one call to the market list, no token fetched and no bearer sent
    expect(mock.server.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([
      "GET /api/exchange/v1/market?",
    ]);
    expect(mock.server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("leaves out a closed market", async () => {
    const listed = (await new ProbitAdapter(credentials, { baseUrl: mock.url }).fetchPairs()).map((p) => p.pair);
    expect(PROBIT_MOCK_MARKETS.find((m) => m.closed)?.id).toBe("OLD-USDT");
    expect(listed).not.toContain("OLD/USDT");
  });

  it("names the field of a malformed answer", async () => {
    mock.server.intercept((req) =>
      req.path === "/api/exchange/v1/market"
        ? { body: { data: [{ ...PROBIT_MOCK_MARKETS[0], price_increment: "0,1" }] } }
        : undefined,
    );
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe(
      'Unexpected answer from probit: data[0].price_increment expected a decimal number, got "0,1"',
    );
  });
});

describe("probit off the happy path (issue 25)", () => {
  const row = { id: 7, market_id: "ETH-BTC", side: "sell", status: "open", time: "2018-08-01T00:00:00.000Z" };
  const data = (value: unknown, status = 200) => ({ status, body: { data: value } });

  it("reads an order without quantity as filled + open + cancelled, without type, client id or a valid time", () => {
    expect(
      parseProbitOrder({ ...row, filled_quantity: "1.5", open_quantity: "2", cancelled_quantity: "0.25" }),
    ).toStrictEqual({
      pair: "ETH/BTC",
      id: "7",
      clientOrderId: "",
      price: "0",
      amount: "3.75",
      filled: "1.5",
      type: "limit",
      side: "Sell",
      status: "open",
      timestamp: Date.UTC(2018, 7, 1),
      rawStatus: "open",
    });
    expect(parseProbitOrder({ ...row, time: "not a time", type: "market" })).toMatchObject({
      timestamp: 0,
      type: "market",
    });
  });

  it("sells as sell, and reads a lookup answer that is one object, an empty list or null", async () => {
    const order = await probit.createOrder({ ...buy, side: "Sell" });
    expect(JSON.parse(mock.server.requests.at(-1)!.body)).toMatchObject({ side: "sell" });
    mock.fake.replyNext(data({ ...row, id: order.id }));
    expect((await probit.fetchOrder("BTC/USDT", order.id)).id).toBe(order.id);
    for (const empty of [[], null]) {
      mock.fake.replyNext(data(empty));
      expect(await rejection(probit.fetchOrder("BTC/USDT", "42"))).toMatchObject({
        kind: "order-not-found",
        message: "ExchangeId: probit, msg: Order 42 not found",
      });
    }
  });

  it("reads data under HTTP 3xx or a 2xx without data as a failure, the message or else the HTTP status", async () => {
    await probit.fetchBalances();
    mock.fake.replyNext(data([], 304));
    expect((await rejection(probit.fetchBalances())).message).toBe("ExchangeId: probit, msg: HTTP 304");
    mock.fake.replyNext({ status: 200, body: { errorCode: 5, message: "" } });
    expect(await rejection(probit.fetchBalances())).toMatchObject({
      code: undefined,
      message: "ExchangeId: probit, msg: HTTP 200",
    });
  });

  it("drops the token after an UNAUTHORIZED answer or an HTTP 401, and fetches a new one", async () => {
    await probit.fetchBalances();
    expect(mock.tokenFetches()).toBe(1);
    mock.failNext("UNAUTHORIZED", "You have to login.", 400);
    await rejection(probit.fetchBalances());
    await probit.fetchBalances();
    expect(mock.tokenFetches()).toBe(2);
    mock.failNext("SOMETHING", "expired", 401);
    await rejection(probit.fetchBalances());
    await probit.fetchBalances();
    expect(mock.tokenFetches()).toBe(3);
    mock.failNext("INVALID_ORDER", "no", 400);
    await rejection(probit.fetchBalances());
    await probit.fetchBalances();
    expect(mock.tokenFetches()).toBe(3);
  });

  it("reads a refused token request as auth with ProBit's or OAuth's code and text, a 429 as rate-limit", async () => {
    for (const [status, body, expected] of [
      [
        400,
        { errorCode: "INVALID_ARGUMENT", message: "bad grant" },
        {
          kind: "auth",
          code: "INVALID_ARGUMENT",
          message: "ExchangeId: probit, msg: bad grant (code INVALID_ARGUMENT)",
        },
      ],
      [
        401,
        { error: "invalid_client", error_description: "unknown client" },
        {
          kind: "auth",
          code: "invalid_client",
          message: "ExchangeId: probit, msg: unknown client (code invalid_client)",
        },
      ],
      [
        500,
        "not json",
        { kind: "auth", code: undefined, message: "ExchangeId: probit, msg: Token request refused (HTTP 500)" },
      ],
      [200, { access_token: "t" }, { kind: "auth" }],
      [429, { errorCode: "RATE_LIMIT_EXCEEDED", message: "slow" }, { kind: "rate-limit", code: "RATE_LIMIT_EXCEEDED" }],
    ] as const) {
      mock.server.intercept((req) => (req.path === "/token" ? { status, body } : undefined));
      const fresh = createExchange("probit", { ...credentials, api: `k${status}` }, { baseUrl: mock.url });
      expect([status, await rejection(fresh.fetchBalances())]).toMatchObject([status, expected]);
    }
  });

  it("does not re-send a timed-out create when the look-up itself fails, and calls the documented hosts by default", async () => {
    await probit.fetchBalances();
    mock.server.intercept((req) => {
      if (req.path === "/api/exchange/v1/new_order") return { status: 504, body: {}, delayMs: 1500 };
      if (req.path === "/api/exchange/v1/order")
        return { status: 400, body: { errorCode: "NOT_ENOUGH_BALANCE", message: "no", details: {} } };
      return undefined;
    });
    mock.server.requests.length = 0;
    const slow = createExchange("probit", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    await rejection(slow.createOrder(buy));
    expect(routes().filter((r) => r !== "POST /token")).toEqual([
      "POST /api/exchange/v1/new_order",
      "GET /api/exchange/v1/order",
    ]);
    const adapter = new ProbitAdapter(credentials, {}) as unknown as {
      rest: { baseUrl: string };
      accounts: { baseUrl: string };
    };
    expect([adapter.rest.baseUrl, adapter.accounts.baseUrl]).toEqual([
      "https://api.probit.com",
      "https://accounts.probit.com",
    ]);
  });

  it("re-sends a timed-out create once the look-up finds nothing, and only then", async () => {
    let lost = false;
    mock.server.intercept((req) => {
      if (req.path !== "/api/exchange/v1/new_order" || lost) return undefined;
      lost = true;
      return { status: 504, body: {}, delayMs: 1500 };
    });
    const slow = createExchange("probit", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect([...mock.orders.keys()]).toEqual([order.id]);
    expect(routes().filter((r) => r !== "POST /token")).toEqual([
      "POST /api/exchange/v1/new_order",
      "GET /api/exchange/v1/order",
      "POST /api/exchange/v1/new_order",
    ]);
  });
});

describe("probit off the happy path, continued (issue 25: the survivors of docs/mutation.md group B)", () => {
  it("builds the token request exactly: no query, a JSON content type and the Basic header", () => {
    expect(probitTokenRequest({ api: "id", secret: "pw" })).toEqual({
      method: "POST",
      path: "/token",
      query: "",
      body: '{"grant_type":"client_credentials"}',
      headers: {
        "Content-Type": "application/json",
        Authorization: `Basic ${Buffer.from("id:pw").toString("base64")}`,
      },
    });
  });

  it("sends GET parameters in the query with no body, and POST parameters in the body with no query", async () => {
    const order = await probit.createOrder(buy);
    await probit.fetchOrder("BTC/USDT", order.id);
    await probit.fetchOpenOrders("BTC/USDT");
    await probit.fetchBalances();
    await probit.cancelOrder("BTC/USDT", order.id);
    const sent = mock.server.requests.map((r) => [r.method, r.path, r.method === "GET" ? r.body : r.query]);
    expect(sent).toEqual([
      ["POST", PROBIT_PATHS.token, ""],
      ["POST", PROBIT_PATHS.newOrder, ""],
      ["GET", PROBIT_PATHS.order, ""],
      ["GET", PROBIT_PATHS.openOrder, ""],
      ["GET", PROBIT_PATHS.balance, ""],
      ["POST", PROBIT_PATHS.cancelOrder, ""],
    ]);
  });

  it("forgets only the token it was told about: a late refusal of a replaced token keeps the new one", async () => {
    let calls = 0;
    const fetchToken = async () => ({ accessToken: `t${++calls}`, expiresIn: 60 });
    const cache = new ProbitTokenCache(() => 0);
    cache.invalidate("t0"); // nothing cached yet: nothing to forget, no failure
    expect(await cache.get(fetchToken)).toBe("t1");
    cache.invalidate("t1");
    expect(await cache.get(fetchToken)).toBe("t2");
    cache.invalidate("t1"); // a call that still carried t1 is refused after t2 replaced it
    expect(await cache.get(fetchToken)).toBe("t2");
    expect(calls).toBe(2);
  });

  it("bounds the token request by the adapter's time-out, as the exchange's calls", async () => {
    mock.delayTokens(1500);
    const slow = new ProbitAdapter(credentials, { baseUrl: mock.url, timeoutMs: 300 });
    expect(await rejection(slow.fetchBalances())).toMatchObject({
      kind: "network",
      code: "ETIMEDOUT",
      message: "ExchangeId: probit, msg: Request timed out after 300 ms (POST /token)",
    });
    expect(routes()).toEqual(["POST /token"]);
  });

  it("sends not even the token request in a dry run, and logs the token request like any other", async () => {
    const dry = new ProbitAdapter({ api: "dry-run-key", secret: "s" }, { baseUrl: mock.url, dryRun: true });
    await expect(dry.fetchBalances()).rejects.toThrow("Dry run: POST /token not sent");
    expect(mock.server.requests).toHaveLength(0);
    const lines: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    const record = (message: string, fields?: Record<string, unknown>) => lines.push({ message, fields });
    const logger = { debug: record, info: record, warn: record, error: record };
    await new ProbitAdapter(credentials, { baseUrl: mock.url, logger }).fetchBalances();
    expect(lines.filter((l) => l.message === "http").map((l) => [l.fields?.method, l.fields?.path])).toEqual([
      ["POST", "/token"],
      ["GET", PROBIT_PATHS.balance],
    ]);
  });

  it("reaches the token host through the proxy too (docs/decisions.md#d12)", async () => {
    // An HTTP CONNECT proxy that tunnels every target to the mock and records what it was asked for.
    const tunnels: string[] = [];
    const sockets = new Set<Socket>();
    const proxy = createServer();
    proxy.on("connect", (req: IncomingMessage, client: Socket, head: Buffer) => {
      tunnels.push(String(req.url));
      sockets.add(client);
      const upstream = connect(mock.server.port, "127.0.0.1", () => {
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = proxy.address() as AddressInfo;
      const viaProxy = new ProbitAdapter(
        { ...credentials, httpAgent: `http://127.0.0.1:${port}` },
        { baseUrl: "http://probit.invalid", timeoutMs: 2000 },
      );
      await expect(viaProxy.fetchBalances()).resolves.toMatchObject({ BTC: { f: "0.5", l: "0" } });
      expect(routes()).toEqual(["POST /token", `GET ${PROBIT_PATHS.balance}`]);
      expect(tunnels).toEqual(["probit.invalid:80", "probit.invalid:80"]);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it("reads a token answer or a data answer under HTTP 300 as a refusal (success is 2xx only)", async () => {
    mock.server.intercept((req) =>
      req.path === "/token"
        ? { status: 300, body: { access_token: "t", token_type: "bearer", expires_in: 900 } }
        : undefined,
    );
    expect(await rejection(probit.fetchBalances())).toMatchObject({
      kind: "auth",
      message: "ExchangeId: probit, msg: Token request refused (HTTP 300)",
    });
    mock.server.intercept(undefined);
    await probit.fetchBalances();
    mock.fake.replyNext({ status: 300, body: { data: [] } });
    expect((await rejection(probit.fetchBalances())).message).toBe("ExchangeId: probit, msg: HTTP 300");
  });

  it("reads a refused token request whose error or message is not text as having no code or text", async () => {
    mock.server.intercept((req) =>
      req.path === "/token" ? { status: 400, body: { error: 42, error_description: { x: 1 } } } : undefined,
    );
    expect(await rejection(probit.fetchBalances())).toMatchObject({
      kind: "auth",
      code: undefined,
      message: "ExchangeId: probit, msg: Token request refused (HTTP 400)",
    });
  });

  it("reads a codes' kind under HTTP 200, and a message that is not text as the HTTP status", async () => {
    await probit.fetchBalances();
    mock.fake.replyNext({ status: 200, body: { errorCode: "NOT_ENOUGH_BALANCE", message: "not enough", details: {} } });
    expect(await rejection(probit.fetchBalances())).toMatchObject({
      kind: "insufficient-funds",
      code: "NOT_ENOUGH_BALANCE",
      message: "ExchangeId: probit, msg: not enough (code NOT_ENOUGH_BALANCE)",
    });
    mock.fake.replyNext({ status: 400, body: { errorCode: "INVALID_MARKET", message: 17, details: {} } });
    expect(await rejection(probit.fetchBalances())).toMatchObject({
      kind: "invalid-order",
      message: "ExchangeId: probit, msg: HTTP 400 (code INVALID_MARKET)",
    });
  });

  it("names probit when an order or a balance answer has another shape", () => {
    expect(() => parseProbitOrder({ id: "1", side: "buy" })).toThrow(
      /^ExchangeId: probit, msg: Unexpected answer from probit: /,
    );
    expect(() => parseProbitBalances({ data: "none" })).toThrow(
      /^ExchangeId: probit, msg: Unexpected answer from probit: /,
    );
  });

  it("takes the order's quantity as given, and adds filled, open and cancelled only when it is missing", () => {
    const base = { id: "9", market_id: "BTC-USDT", side: "buy", status: "open", time: "2022-12-12T06:55:31.409Z" };
    expect(parseProbitOrder({ ...base, quantity: "0.5", filled_quantity: "0.1" }).amount).toBe("0.5");
    expect(
      parseProbitOrder({ ...base, filled_quantity: "0.1", open_quantity: "0.3", cancelled_quantity: "0.1" }).amount,
    ).toBe("0.5");
  });
});

describe("probit's shared token cache and each adapter's own client (issue 25)", () => {
  it("fetches the shared token through the adapter that needs it: a dry-run adapter made first neither blocks nor logs for a later one", async () => {
    const dry = new ProbitAdapter(credentials, { baseUrl: mock.url, dryRun: true });
    await expect(dry.fetchBalances()).rejects.toThrow("Dry run: POST /token not sent");
    const lines: string[] = [];
    const record = (message: string, fields?: Record<string, unknown>) => lines.push(`${message} ${fields?.path}`);
    const logger = { debug: record, info: record, warn: record, error: record };
    const live = new ProbitAdapter(credentials, { baseUrl: mock.url, logger });
    await expect(live.fetchBalances()).resolves.toMatchObject({ BTC: { f: "0.5", l: "0" } });
    expect(lines).toEqual(["http /token", `http ${PROBIT_PATHS.balance}`]);
    expect(mock.tokenFetches()).toBe(1);
    await expect(dry.fetchBalances()).rejects.toThrow(`Dry run: GET ${PROBIT_PATHS.balance} not sent`);
  });
});
