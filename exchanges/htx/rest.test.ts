import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { placedBefore } from "../../lib/errors.js";
import { rejection, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { runCli } from "../../test/exchanges/run-cli.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import { HTX_KEY, HTX_MOCK_SYMBOLS, HTX_SECRET, type HtxMock, startHtxMock } from "./mock.js";
import {
  HtxAdapter,
  htxCanonicalQuery,
  htxRetryAfterMs,
  htxSignedQuery,
  htxSignedRequest,
  htxTimestamp,
  parseHtxBalances,
  parseHtxOrder,
} from "./rest.js";

const credentials = { api: HTX_KEY, secret: HTX_SECRET };
let mock: HtxMock;
let htx: ExchangeAdapter;

beforeEach(async () => {
  mock = await startHtxMock();
  htx = createExchange("htx", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

const orderRoutes = () =>
  mock.server.requests.filter((r) => r.path.startsWith("/v1/order")).map((r) => `${r.method} ${r.path}`);

describe("htx signature version 2 (official docs)", () => {
  it("writes Timestamp as UTC YYYY-MM-DDThh:mm:ss", () => {
    expect(htxTimestamp(Date.UTC(2017, 4, 11, 15, 19, 30, 123))).toBe("2017-05-11T15:19:30");
  });

  it("sorts parameters by ASCII and URL-encodes them (the documented canonical query)", () => {
    expect(
      htxCanonicalQuery({
        "order-id": "1234567890",
        Timestamp: "2017-05-11T15:19:30",
        AccessKeyId: "e2xxxxxx-99xxxxxx-84xxxxxx-7xxxx",
        SignatureVersion: "2",
        SignatureMethod: "HmacSHA256",
      }),
    ).toBe(
      "AccessKeyId=e2xxxxxx-99xxxxxx-84xxxxxx-7xxxx&SignatureMethod=HmacSHA256&SignatureVersion=2&Timestamp=2017-05-11T15%3A19%3A30&order-id=1234567890",
    );
  });

  it("signs METHOD\\nhost\\npath\\nquery with base64 HMAC-SHA256 and appends the encoded Signature", () => {
    const ms = Date.UTC(2017, 4, 11, 15, 19, 30);
    const query = htxSignedQuery(
      { api: "AK", secret: "SK" },
      "GET",
      "api.huobi.pro",
      "/v1/order/orders",
      { "order-id": "1234567890" },
      ms,
    );
    const [canonical, signature] = query.split("&Signature=");
    const expected = createHmac("sha256", "SK")
      .update(`GET\napi.huobi.pro\n/v1/order/orders\n${canonical}`)
      .digest("base64");
    expect(decodeURIComponent(signature!)).toBe(expected);
  });

  it("signs the host of the base URL actually used, so --base-url reaches the signature too", async () => {
    await htx.fetchBalances();
    // The mock recomputes with the Host header it received: a pass proves host and port were signed.
    expect(mock.server.requests.map((r) => r.path)).toEqual([
      "/v1/account/accounts",
      "/v1/account/accounts/100009/balance",
    ]);
  });
});

describe("htx spot account lookup (docs/exchange-rules.md#validation)", () => {
  it("looks up the spot account id once through the base URL and uses it", async () => {
    await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    await htx.fetchOpenOrders("BTC/USDT");
    expect(mock.server.requests.filter((r) => r.path === "/v1/account/accounts")).toHaveLength(1);
    expect(JSON.parse(mock.server.requests[1]!.body)["account-id"]).toBe("100009");
  });

  it('fails with "No account found for spot trading for this api key" before any order request', async () => {
    mock.spotAccount = undefined;
    const error = await rejection(htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" }));
    expect(error.message).toBe("ExchangeId: htx, msg: No account found for spot trading for this api key");
    expect(orderRoutes()).toEqual([]);
  });
});

describe("htx operations (docs/exchange-rules.md#operations) against the signature-checking mock", () => {
  it("places a buy-limit on btcusdt with a 32-hex client-order-id (docs/decisions.md#d11)", async () => {
    const order = await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const sent = JSON.parse(mock.server.requests.at(-1)!.body);
    expect(sent).toMatchObject({ symbol: "btcusdt", type: "buy-limit", amount: "0.01", price: "30000" });
    expect(sent["client-order-id"]).toMatch(/^[0-9a-f]{32}$/);
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      id: [...mock.orders.keys()][0],
      clientOrderId: sent["client-order-id"],
      status: "open",
      side: "Buy",
    });
  });

  it("places a sell-limit", async () => {
    expect((await htx.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "1", price: "40000" })).side).toBe("Sell");
    expect(JSON.parse(mock.server.requests.at(-1)!.body).type).toBe("sell-limit");
  });

  it("places a batch through /v1/order/batch-orders", async () => {
    const orders = await htx.createBatch("BTC/USDT", [
      { side: "Buy", amount: "0.01", price: "29000" },
      { side: "Sell", amount: "0.01", price: "33000" },
    ]);
    expect(orders.map((o) => o.id)).toEqual([...mock.orders.keys()]);
    expect(orderRoutes()).toEqual(["POST /v1/order/batch-orders"]);
  });

  it("fails a batch per item with 'One of orders threw an error' (docs/exchange-rules.md#validation)", async () => {
    mock.refuseNextBatchItem(1, "order-limitorder-amount-min-error", "limit order amount error, min: `0.0001`");
    const error = await rejection(
      htx.createBatch("BTC/USDT", [
        { side: "Buy", amount: "0.01", price: "29000" },
        { side: "Buy", amount: "0.00001", price: "29000" },
      ]),
    );
    expect(error.message).toBe(
      "ExchangeId: htx, msg: One of orders threw an error (order-limitorder-amount-min-error, limit order amount error, min: `0.0001`)",
    );
    expect(error.kind).toBe("invalid-order");
    // docs/orders.md "Partly placed batches": the error carries the order the exchange did place.
    const kept = placedBefore(error) ?? [];
    expect(kept.map((o) => [o.side, o.price])).toEqual([["Buy", "29000"]]);
    expect((await htx.fetchOrder("BTC/USDT", kept[0]!.id)).id).toBe(kept[0]!.id);
  });

  it("rejects a batch of 11 and a cancel batch of 51 with the seed's maxima before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    const create = await rejection(
      htx.createBatch(
        "BTC/USDT",
        Array.from({ length: 11 }, () => ({ side: "Buy" as const, amount: "1", price: "1" })),
      ),
    );
    expect(create.message).toBe("ExchangeId: htx, msg: Maximum for 'createBatch' is: 10");
    const cancel = await rejection(
      htx.cancelBatch(
        "BTC/USDT",
        Array.from({ length: 51 }, (_, i) => String(i + 1)),
      ),
    );
    expect(cancel.message).toBe("ExchangeId: htx, msg: Maximum for 'cancelBatch' is: 50");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels one with submitcancel, a batch with batchcancel, all with batchCancelOpenOrders (docs/decisions.md#d10)", async () => {
    const o1 = await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const o2 = await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30001" });
    const o3 = await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30002" });
    await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30003" });
    await expect(htx.cancelOrder("BTC/USDT", o1.id)).resolves.toBe(o1.id);
    await expect(htx.cancelBatch("BTC/USDT", [o2.id, o3.id])).resolves.toEqual([o2.id, o3.id]);
    expect(JSON.parse(mock.server.requests.at(-1)!.body)).toEqual({ "order-ids": [o2.id, o3.id] });
    await expect(htx.cancelAll("BTC/USDT")).resolves.toEqual([]);
    expect(JSON.parse(mock.server.requests.at(-1)!.body)).toEqual({
      "account-id": "100009",
      symbol: "btcusdt",
      size: 100,
    });
    expect([...mock.orders.values()].map((o) => o.state)).toEqual(["canceled", "canceled", "canceled", "canceled"]);
    expect(orderRoutes().slice(-3)).toEqual([
      `POST /v1/order/orders/${o1.id}/submitcancel`,
      "POST /v1/order/orders/batchcancel",
      "POST /v1/order/orders/batchCancelOpenOrders",
    ]);
  });

  it("cancels all past the 100 orders one batchCancelOpenOrders call takes, until next-id is -1", async () => {
    await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const template = [...mock.orders.values()][0]!;
    for (let i = 1; i <= 149; i++) mock.orders.set(String(template.id + i), { ...template, id: template.id + i });
    await htx.cancelAll("BTC/USDT");
    expect(orderRoutes().filter((r) => r.endsWith("batchCancelOpenOrders"))).toHaveLength(2);
    expect([...mock.orders.values()].filter((o) => o.state !== "canceled")).toHaveLength(0);
  });

  it("fetches one order and the open orders", async () => {
    const a = await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.02", price: "30000" });
    await htx.cancelOrder("BTC/USDT", b.id);
    expect(await htx.fetchOrder("BTC/USDT", b.id)).toMatchObject({
      id: b.id,
      status: "canceled",
      amount: "0.02",
      clientOrderId: b.clientOrderId,
      pair: "BTC/USDT",
    });
    expect((await htx.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([a.id]);
  });

  it("lists 505 open orders whole, not 500: pages of 500 newest first, the next `from` the last id with `direct` next (docs/exchange-rules.md#paging)", async () => {
    await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const template = [...mock.orders.values()][0]!;
    for (let i = 1; i < 505; i++) mock.orders.set(String(template.id + i), { ...template, id: template.id + i });
    mock.orders.set("1", { ...template, id: 1, symbol: "ethusdt" });
    mock.server.requests.length = 0;
    const open = await htx.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.id)).toEqual(Array.from({ length: 505 }, (_, i) => String(template.id + 504 - i)));
    expect(mock.server.requests.map((r) => parseQuery(r.query))).toEqual([
      expect.objectContaining({ "account-id": "100009", symbol: "btcusdt", size: "500" }),
      expect.objectContaining({ size: "500", from: String(template.id + 5), direct: "next" }),
    ]);
    expect(parseQuery(mock.server.requests[0]!.query).from).toBeUndefined();
  });

  it("asks once more after a full page of 500 and stops at the empty one", async () => {
    await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const template = [...mock.orders.values()][0]!;
    for (let i = 1; i < 500; i++) mock.orders.set(String(template.id + i), { ...template, id: template.id + i });
    mock.server.requests.length = 0;
    expect(await htx.fetchOpenOrders("BTC/USDT")).toHaveLength(500);
    expect(mock.server.requests).toHaveLength(2);
  });

  it("sends every documented required parameter on every call; the mock refuses a call without one", async () => {
    const [a, b] = await htx.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Sell", amount: "2", price: "200" },
    ]);
    await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "3", price: "300" });
    await htx.fetchOrder("BTC/USDT", a!.id);
    await htx.cancelOrder("BTC/USDT", a!.id);
    await htx.cancelBatch("BTC/USDT", [b!.id]);
    await htx.fetchOpenOrders("BTC/USDT");
    await htx.cancelAll("BTC/USDT");
    const sent = mock.server.requests.map((r) => {
      const {
        AccessKeyId: _k,
        SignatureMethod: _m,
        SignatureVersion: _v,
        Timestamp: _t,
        Signature: _s,
        ...query
      } = parseQuery(r.query);
      return [`${r.method} ${r.path}`, r.method === "GET" ? query : JSON.parse(r.body)];
    });
    const item = { "account-id": "100009", symbol: "btcusdt", source: "spot-api" };
    expect(sent).toEqual([
      ["GET /v1/account/accounts", {}],
      [
        "POST /v1/order/batch-orders",
        [
          expect.objectContaining({ ...item, type: "buy-limit", amount: "1", price: "100" }),
          expect.objectContaining({ ...item, type: "sell-limit", amount: "2", price: "200" }),
        ],
      ],
      [
        "POST /v1/order/orders/place",
        expect.objectContaining({ ...item, type: "buy-limit", amount: "3", price: "300" }),
      ],
      [`GET /v1/order/orders/${a!.id}`, {}],
      [`POST /v1/order/orders/${a!.id}/submitcancel`, {}],
      ["POST /v1/order/orders/batchcancel", { "order-ids": [b!.id] }],
      ["GET /v1/order/openOrders", { "account-id": "100009", symbol: "btcusdt", size: "500" }],
      ["POST /v1/order/orders/batchCancelOpenOrders", { "account-id": "100009", symbol: "btcusdt", size: 100 }],
    ]);
    const host = new URL(mock.url).host;
    for (const [method, path, params, payload, field] of [
      ["POST", "/v1/order/orders/place", {}, { ...item, type: "buy-limit", amount: "1" }, "price"],
      ["POST", "/v1/order/batch-orders", {}, [{ ...item, amount: "1", price: "1" }], "type"],
      ["POST", "/v1/order/orders/batchcancel", {}, {}, "order-ids or client-order-ids"],
      ["POST", "/v1/order/orders/batchCancelOpenOrders", {}, { symbol: "btcusdt" }, "account-id"],
      ["GET", "/v1/order/openOrders", { "account-id": "100009" }, undefined, "symbol"],
      ["GET", "/v1/order/orders/getClientOrder", {}, undefined, "clientOrderId"],
    ] as const) {
      const request = htxSignedRequest(credentials, Date.now(), method, host, path, params, payload);
      const bare = await fetch(`${mock.url}${path}?${request.query}`, {
        method,
        headers: request.headers,
        ...(method === "POST" ? { body: request.body } : {}),
      });
      expect([path, await bare.json()]).toEqual([
        path,
        {
          status: "error",
          "err-code": "validation-constraints-required",
          "err-msg": `Field is missing: ${field}.`,
          data: null,
        },
      ]);
    }
    expect(mock.orders.size).toBe(3);
  });

  it("a partly failed batch cancel resolves to the ids in success; the failed ones are not among them", async () => {
    const a = await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30001" });
    await htx.cancelOrder("BTC/USDT", b.id);
    await expect(htx.cancelBatch("BTC/USDT", [b.id, a.id, "777"])).resolves.toEqual([a.id]);
    expect(mock.orders.get(a.id)?.state).toBe("canceled");
    await expect(htx.cancelBatch("BTC/USDT", ["778"])).resolves.toEqual([]);
  });

  it("fetches balances: trade is free, frozen is locked, all-zero dropped, codes upper-cased, long numbers exact (docs/exchange-rules.md#entities, #limits)", async () => {
    await expect(htx.fetchBalances()).resolves.toEqual({
      USDT: { f: "91.850043797676510303", l: "5.160000000000000015" },
      POLY: { f: "0.04", l: "0" },
    });
  });
});

describe('htx errors (docs/exchange-rules.md#errors: status "ok" is success)', () => {
  it("answers a wrong secret with an auth error after exactly one request", async () => {
    const wrong = new HtxAdapter({ ...credentials, secret: "bad-htx-secret" }, { baseUrl: mock.url });
    const error = await rejection(wrong.fetchBalances());
    expect(error).toMatchObject({ kind: "auth", code: "api-signature-not-valid" });
    expect(error.message).not.toContain("bad-htx-secret");
    expect(mock.server.requests).toHaveLength(1);
  });

  it("maps account-balance-insufficient-error to insufficient-funds", async () => {
    await htx.fetchBalances();
    mock.failNext("account-balance-insufficient-error", "trade account balance is not enough, left: `0.0001`");
    const error = await rejection(htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "10", price: "30000" }));
    expect(error).toMatchObject({ kind: "insufficient-funds", code: "account-balance-insufficient-error" });
    expect(error.message).toBe(
      "ExchangeId: htx, msg: trade account balance is not enough, left: `0.0001` (code account-balance-insufficient-error)",
    );
  });

  it("maps base-record-invalid to order-not-found", async () => {
    expect((await rejection(htx.fetchOrder("BTC/USDT", "1"))).kind).toBe("order-not-found");
  });

  it("maps base-request-exceed-frequency-limit and invalid-parameter 'request limit' to rate-limit", async () => {
    mock.failNext(
      "base-request-exceed-frequency-limit",
      "Frequency of requests has exceeded the limit, please try again later",
    );
    expect(await rejection(htx.fetchBalances())).toMatchObject({
      kind: "rate-limit",
      code: "base-request-exceed-frequency-limit",
    });
    mock.failNext("invalid-parameter", "request limit");
    expect(await rejection(htx.fetchBalances())).toMatchObject({ kind: "rate-limit", code: "invalid-parameter" });
    mock.failNext("invalid-parameter", "invalid symbol");
    expect((await rejection(htx.fetchBalances())).kind).toBe("invalid-order");
  });

  it("reads X-HB-RateLimit-Requests-Expire as an epoch deadline or as milliseconds to wait", () => {
    expect(htxRetryAfterMs("1710000001500", 1710000000000)).toBe(1500);
    expect(htxRetryAfterMs("800", 1710000000000)).toBe(800);
    expect(htxRetryAfterMs(undefined, 1)).toBeUndefined();
  });

  it("maps a 429 to rate-limit with the X-HB-RateLimit-Requests-Expire hint", async () => {
    mock.rateLimitNext();
    const error = await rejection(htx.fetchBalances());
    expect(error.kind).toBe("rate-limit");
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(1000);
  });
});

describe("htx time-out on create (docs/exchange-rules.md#contract: never two orders)", () => {
  it("looks the order up with getClientOrder after a time-out and returns it; one order on the mock", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("htx", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: String(only!.id), clientOrderId: only!["client-order-id"], status: "open" });
    expect(orderRoutes()).toEqual(["POST /v1/order/orders/place", "GET /v1/order/orders/getClientOrder"]);
  });
});

describe("htx status and timestamp rules (docs/exchange-rules.md#states) with the documented order example", () => {
  const documented = {
    id: 59378,
    symbol: "ethusdt",
    "account-id": 100009,
    amount: "10.1000000000",
    price: "100.1000000000",
    "created-at": 1494901162595,
    type: "buy-limit",
    "field-amount": "10.1000000000",
    "field-cash-amount": "1011.0100000000",
    "field-fees": "0.0202000000",
    "finished-at": 1494901400468,
    source: "api",
    state: "filled",
    "canceled-at": 0,
  };
  const status = (state: string) => parseHtxOrder({ ...documented, state }, "ETH/USDT").status;

  it("reads the documented filled order: closed, ms timestamp, exact decimals", () => {
    expect(parseHtxOrder(documented, "ETH/USDT")).toMatchObject({
      id: "59378",
      status: "closed",
      timestamp: 1494901162595,
      amount: "10.1",
      price: "100.1",
      filled: "10.1",
      side: "Buy",
      type: "limit",
    });
  });
  it("maps created, submitted and partial-filled to open", () => {
    expect([status("created"), status("submitted"), status("partial-filled")]).toEqual(["open", "open", "open"]);
  });
  it("maps partial-canceled to open and canceling to canceled, keeping HTX's word (docs/exchange-rules.md#states, docs/decisions.md#d9)", () => {
    expect(parseHtxOrder({ ...documented, state: "partial-canceled" }, "ETH/USDT")).toMatchObject({
      status: "open",
      rawStatus: "partial-canceled",
    });
    expect(parseHtxOrder({ ...documented, state: "canceling" }, "ETH/USDT")).toMatchObject({
      status: "canceled",
      rawStatus: "canceling",
    });
  });
  it("maps canceled to canceled and an unknown state to undefined", () => {
    expect([status("canceled"), status("mystery")]).toEqual(["canceled", undefined]);
  });
  it("keeps an order id longer than 15 digits exact when the JSON carries it as a number", async () => {
    const { parseJsonExact } = await import("../core/adapter.js");
    const raw = parseJsonExact(
      '{"id":1234567890123456789,"symbol":"btcusdt","amount":"1","price":"1","created-at":1494901162595,"type":"sell-limit","filled-amount":"0","state":"submitted"}',
    );
    expect(parseHtxOrder(raw, "BTC/USDT").id).toBe("1234567890123456789");
  });
  it("adds nothing for an all-zero currency", () => {
    expect(
      parseHtxBalances({
        list: [
          { currency: "x", type: "trade", balance: "0" },
          { currency: "x", type: "frozen", balance: "0" },
        ],
      }),
    ).toEqual({});
  });
});

describe("htx through the built CLI", () => {
  const env = { SPOTDESK_API_KEY: HTX_KEY, SPOTDESK_API_SECRET: HTX_SECRET };

  it("buy, order, orders, cancel, batch, cancel-batch, cancel-all, balances end to end", async () => {
    await runCliScenario({
      id: "htx",
      mock,
      env,
      status: (o) => o.state,
      open: "submitted",
      canceled: "canceled",
      balances: "USDT",
    });
  });

  it("reports the missing spot account on stderr with a non-zero exit", async () => {
    mock.spotAccount = undefined;
    const result = await runCli(["--exchange", "htx", "--base-url", mock.url, "--json", "balances"], env);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("No account found for spot trading for this api key");
  });
});

describe("htx off the happy path (issue 25)", () => {
  const ok = (data: unknown) => ({ body: { status: "ok", data } });
  const accounts = (data: unknown[]) =>
    mock.server.intercept((req) => (req.path === "/v1/account/accounts" ? ok(data) : undefined));

  it("escapes !'()* in the canonical query as RFC 3986 upper-case %XX", () => {
    expect(htxCanonicalQuery({ a: "x!y'z(1)*" })).toBe("a=x%21y%27z%281%29%2A");
  });

  it("sends no body on a GET and always JSON headers", () => {
    const request = htxSignedRequest(credentials, 0, "GET", "h", "/p");
    expect([request.body, request.headers]).toEqual(["", { "Content-Type": "application/json" }]);
    expect(htxSignedRequest(credentials, 0, "POST", "h", "/p", {}, { a: 1 }).body).toBe('{"a":1}');
  });

  it("reads an expire of 0 or less as no hint, and exactly 1e12 as milliseconds", () => {
    expect([htxRetryAfterMs("0", 5), htxRetryAfterMs("-3", 5), htxRetryAfterMs("x", 5)]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(htxRetryAfterMs("1000000000000", 5)).toBe(1e12);
    expect(htxRetryAfterMs(["700", "9"], 5)).toBe(700);
  });

  it("reads an order without client id or filled field, its type after the side, and no rawStatus when open", () => {
    const base = { id: 1, symbol: "btcusdt", amount: "2", price: "3", "created-at": 1494901162595, state: "submitted" };
    expect(parseHtxOrder({ ...base, type: "buy-market", "filled-amount": "1.5" }, "BTC/USDT")).toEqual({
      pair: "BTC/USDT",
      id: "1",
      clientOrderId: "",
      price: "3",
      amount: "2",
      filled: "1.5",
      type: "market",
      side: "Buy",
      status: "open",
      timestamp: 1494901162595,
    });
    expect(parseHtxOrder({ ...base, type: "sell-stop-limit" }, "BTC/USDT").type).toBe("stop-limit");
    expect(parseHtxOrder({ ...base, type: "sell" }, "BTC/USDT")).toMatchObject({ type: "limit", side: "Sell" });
  });

  it("reads a currency with only a trade row as locked 0 and only a frozen row as free 0", () => {
    expect(
      parseHtxBalances({
        list: [
          { currency: "a", type: "trade", balance: "1" },
          { currency: "b", type: "frozen", balance: "2" },
        ],
      }),
    ).toEqual({ A: { f: "1", l: "0" }, B: { f: "0", l: "2" } });
  });

  it("answers a placed order with filled 0 and type limit", async () => {
    expect(await htx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" })).toMatchObject({
      filled: "0",
      type: "limit",
    });
  });

  it("reads an error whose err-code or err-msg is not text: no code, the HTTP status as message", async () => {
    await htx.fetchBalances();
    mock.fake.replyNext({ status: 200, body: { status: "error", "err-code": 7, "err-msg": 8 } });
    const error = await rejection(htx.fetchBalances());
    expect([error.code, error.message]).toEqual([undefined, "ExchangeId: htx, msg: HTTP 200"]);
  });

  it("takes X-HB-RateLimit-Requests-Expire as the hint on any failure, and 1000 ms for 'request limit' without it", async () => {
    await htx.fetchBalances();
    mock.failNext("base-request-exceed-frequency-limit", "slow down");
    mock.fake.faults.failure!.headers = { "x-hb-ratelimit-requests-expire": "800" };
    expect((await rejection(htx.fetchBalances())).retryAfterMs).toBe(800);
    mock.failNext("invalid-parameter", "request limit");
    mock.fake.faults.failure!.headers = { "x-hb-ratelimit-requests-expire": "700" };
    expect((await rejection(htx.fetchBalances())).retryAfterMs).toBe(700);
    mock.failNext("invalid-parameter", "Request limit reached");
    const error = await rejection(htx.fetchBalances());
    expect(error).toMatchObject({ kind: "rate-limit", retryAfterMs: 1000 });
    expect(error.message).toBe("ExchangeId: htx, msg: Request limit reached (code invalid-parameter)");
    // only invalid-parameter at the start of the text is htx's throttle
    mock.failNext("base-symbol-error", "request limit");
    expect((await rejection(htx.fetchBalances())).kind).toBe("invalid-order");
    mock.failNext("invalid-parameter", "no request limit here");
    expect((await rejection(htx.fetchBalances())).kind).toBe("invalid-order");
  });

  it("picks the working spot account before another spot one, else any spot account, and fails as auth without one", async () => {
    accounts([
      { id: 1, type: "spot", state: "lock" },
      { id: 7, type: "margin", state: "working" },
      { id: 100009, type: "spot", state: "working" },
    ]);
    await htx.fetchBalances();
    expect(mock.server.requests.at(-1)!.path).toBe("/v1/account/accounts/100009/balance");
    for (const only of [
      { id: 100009, type: "spot", state: "lock" },
      { id: 100009, type: "spot" },
    ]) {
      const fresh = createExchange("htx", credentials, { baseUrl: mock.url });
      accounts([{ id: 7, type: "margin", state: "working" }, only]);
      await fresh.fetchBalances();
      expect(mock.server.requests.at(-1)!.path).toBe("/v1/account/accounts/100009/balance");
    }
    // a spot account without a state counts as working, before a locked one
    const fresh = createExchange("htx", credentials, { baseUrl: mock.url });
    accounts([
      { id: 1, type: "spot", state: "lock" },
      { id: 100009, type: "spot" },
    ]);
    await fresh.fetchBalances();
    expect(mock.server.requests.at(-1)!.path).toBe("/v1/account/accounts/100009/balance");
    accounts([{ id: 7, type: "margin", state: "working" }]);
    const error = await rejection(createExchange("htx", credentials, { baseUrl: mock.url }).fetchBalances());
    expect(error).toMatchObject({ kind: "auth", exchange: "htx" });
  });

  it("fails a batch whose item has neither an order-id nor an err-code, naming no code", async () => {
    await htx.fetchBalances();
    mock.fake.replyNext(ok([{ "order-id": 5 }, { "client-order-id": "x" }]));
    const error = await rejection(
      htx.createBatch("BTC/USDT", [
        { side: "Buy", amount: "1", price: "1" },
        { side: "Buy", amount: "1", price: "1" },
      ]),
    );
    expect([error.message, error.detail]).toEqual([
      "ExchangeId: htx, msg: One of orders threw an error (, )",
      "One of orders threw an error (, )",
    ]);
  });

  it("fails a batch whose item names an err-code beside its order-id", async () => {
    await htx.fetchBalances();
    mock.fake.replyNext(ok([{ "order-id": 5 }, { "order-id": 6, "err-code": "invalid-parameter", "err-msg": "bad" }]));
    expect(
      (
        await rejection(
          htx.createBatch("BTC/USDT", [
            { side: "Buy", amount: "1", price: "1" },
            { side: "Buy", amount: "1", price: "1" },
          ]),
        )
      ).detail,
    ).toBe("One of orders threw an error (invalid-parameter, bad)");
  });

  it("does not re-send a timed-out create when the look-up itself fails", async () => {
    mock.server.intercept((req) => {
      if (req.path === "/v1/order/orders/place") return { status: 504, body: {}, delayMs: 1500 };
      if (req.path === "/v1/order/orders/getClientOrder")
        return { body: { status: "error", "err-code": "api-signature-not-valid", "err-msg": "no", data: null } };
      return undefined;
    });
    const slow = createExchange("htx", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    await rejection(slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" }));
    expect(orderRoutes()).toEqual(["POST /v1/order/orders/place", "GET /v1/order/orders/getClientOrder"]);
  });

  it("calls the documented host by default", () => {
    const adapter = new HtxAdapter(credentials, {}) as unknown as { rest: { baseUrl: string } };
    expect(adapter.rest.baseUrl).toBe("https://api.huobi.pro");
  });

  it("cancels all in at most 10 rounds, and stops at a round that cancelled nothing", async () => {
    await htx.fetchBalances();
    let rounds = 0;
    let answer = { "success-count": 100, "failed-count": 0, "next-id": 5 };
    mock.server.intercept((req) => {
      if (!req.path.endsWith("batchCancelOpenOrders")) return undefined;
      rounds++;
      return ok(answer);
    });
    await expect(htx.cancelAll("BTC/USDT")).resolves.toEqual([]);
    expect(rounds).toBe(10);
    rounds = 0;
    answer = { "success-count": 0, "failed-count": 0, "next-id": 5 };
    await htx.cancelAll("BTC/USDT");
    expect(rounds).toBe(1);
  });

  it("re-sends a timed-out create once the look-up finds nothing, and only then", async () => {
    let lost = false;
    mock.server.intercept((req) => {
      if (req.path !== "/v1/order/orders/place" || lost) return undefined;
      lost = true;
      return { status: 504, body: {}, delayMs: 1500 };
    });
    const slow = createExchange("htx", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    expect(mock.orders.size).toBe(1);
    expect(order.id).toBe(String([...mock.orders.values()][0]!.id));
    expect(orderRoutes()).toEqual([
      "POST /v1/order/orders/place",
      "GET /v1/order/orders/getClientOrder",
      "POST /v1/order/orders/place",
    ]);
  });
});

describe("htx fetchPairs (docs/exchange-rules.md#pairs)", () => {
  const keyless = () => new HtxAdapter({ api: "", secret: "" }, { baseUrl: mock.url });

  it("lists the online symbols sorted, with tick and lot from the precisions and the limit order minimums", async () => {
    await expect(keyless().fetchPairs()).resolves.toEqual([
      { pair: "BTC/USDT", tick: "0.01", lot: "0.000001", minAmount: "0.0001", minNotional: "5" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.0001", minAmount: "0.001", minNotional: "5" },
      { pair: "SHIB/USDT", tick: "0.0000000001", lot: "1", minAmount: "100000", minNotional: "1" },
    ]);
    // one unsigned call to the documented path, on the base URL given, without a key
    expect(mock.server.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual(["GET /v1/common/symbols?"]);
  });

  it("leaves out the suspended, the not yet open and the API-closed symbols", async () => {
    const pairs = (await new HtxAdapter(credentials, { baseUrl: mock.url }).fetchPairs()).map((p) => p.pair);
    expect(HTX_MOCK_SYMBOLS.map((s) => `${s.symbol} ${s.state} ${s["api-trading"]}`)).toEqual(
      expect.arrayContaining(["luncusdt suspend enabled", "newbtc pre-online disabled", "htusdt online disabled"]),
    );
    expect(pairs).toEqual(["BTC/USDT", "ETH/USDT", "SHIB/USDT"]);
  });

  it("takes the limit order's minimum amount before min-order-amt, and min-order-amt when it is alone", async () => {
    const [eth] = HTX_MOCK_SYMBOLS;
    const { "limit-order-min-order-amt": _limit, ...withoutLimit } = eth!;
    const rows = [
      { ...eth, "base-currency": "lim", "limit-order-min-order-amt": 0.5, "min-order-amt": 0.001 },
      { ...withoutLimit, "base-currency": "old", "min-order-amt": 0.25 },
    ];
    mock.server.intercept((req) =>
      req.path === "/v1/common/symbols" ? { body: { status: "ok", data: rows } } : undefined,
    );
    const minimums = (await keyless().fetchPairs()).map((p) => [p.pair, p.minAmount]);
    expect(minimums).toEqual([
      ["LIM/USDT", "0.5"],
      ["OLD/USDT", "0.25"],
    ]);
  });

  it("names the field of a malformed answer", async () => {
    mock.server.intercept((req) =>
      req.path === "/v1/common/symbols"
        ? { body: { status: "ok", data: [{ ...HTX_MOCK_SYMBOLS[0], "price-precision": "two" }] } }
        : undefined,
    );
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe(
      'Unexpected answer from htx: data[0].price-precision expected a number of digits, got "two"',
    );
  });

  it("passes the exchange's refusal on as its error", async () => {
    mock.server.intercept((req) =>
      req.path === "/v1/common/symbols"
        ? { body: { status: "error", "err-code": "base-system-error", "err-msg": "system busy", data: null } }
        : undefined,
    );
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe("system busy (code base-system-error)");
  });
});
