import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { placedBefore } from "../../lib/errors.js";
import { rejection, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { listExchangePairs } from "../open.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import { MEXC_KEY, MEXC_SECRET, MEXC_SYMBOLS, type MexcMock, startMexcMock } from "./mock.js";
import {
  MEXC_BASE_URL,
  MexcAdapter,
  mexcSignature,
  mexcSignedQuery,
  mexcSignedRequest,
  parseMexcBalances,
  parseMexcOrder,
} from "./rest.js";

const credentials = { api: MEXC_KEY, secret: MEXC_SECRET };
let mock: MexcMock;
let mexc: ExchangeAdapter;

beforeEach(async () => {
  mock = await startMexcMock();
  mexc = createExchange("mexc", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

describe("mexc signing (official spot v3 docs)", () => {
  it("signs totalParams (the query before &signature=) with lower-case hex HMAC-SHA256, timestamp and recvWindow 5000 included", () => {
    const query = mexcSignedQuery("sec", { symbol: "BTCUSDT", side: "BUY" }, 1700000000000);
    const [params, signature] = query.split("&signature=");
    expect(params).toBe("symbol=BTCUSDT&side=BUY&timestamp=1700000000000&recvWindow=5000");
    expect(signature).toBe(createHmac("sha256", "sec").update(params!).digest("hex"));
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it("reproduces the docs' worked example (SIGNED Endpoint Examples for POST /api/v3/order)", () => {
    // Docs: secret 45d0b3c26f2644f19bfb98b07741b2f5, totalParams as one query string (example 2)
    // and split between query and body without a joining '&' (example 3).
    const secret = "45d0b3c26f2644f19bfb98b07741b2f5";
    expect(
      mexcSignature(
        secret,
        "symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=11&recvWindow=5000&timestamp=1644489390087",
      ),
    ).toBe("fd3e4e8543c5188531eb7279d68ae7d26a573d0fc5ab0d18eb692451654d837a");
    expect(
      mexcSignature(
        secret,
        "symbol=BTCUSDT&side=BUY&type=LIMIT" + "quantity=1&price=11&recvWindow=5000&timestamp=1644489390087",
      ),
    ).toBe("d1a676610ceb39174c8039b3f548357994b2a34139a8addd33baadba65684592");
    const query = mexcSignedQuery(
      secret,
      { symbol: "BTCUSDT", side: "BUY", type: "LIMIT", quantity: "1", price: "11" },
      1644489390087,
    );
    const [params, signature] = query.split("&signature=");
    expect(signature).toBe(mexcSignature(secret, params!));
  });

  it("url-encodes batch JSON with upper-case escapes before signing", () => {
    const query = mexcSignedQuery("sec", { batchOrders: '[{"a":"1,2"}]' }, 1);
    expect(query.startsWith("batchOrders=%5B%7B%22a%22%3A%221%2C2%22%7D%5D&")).toBe(true);
  });
});

describe("mexc operations (docs/exchange-rules.md#operations) against the signature-checking mock", () => {
  it("creates a LIMIT BUY on BTCUSDT with a 32-hex newClientOrderId (docs/decisions.md#d11)", async () => {
    const order = await mexc.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const req = mock.server.requests.at(-1)!;
    expect(`${req.method} ${req.path}`).toBe("POST /api/v3/order");
    const q = parseQuery(req.query);
    expect(q).toMatchObject({
      symbol: "BTCUSDT",
      side: "BUY",
      type: "LIMIT",
      quantity: "0.01",
      price: "30000",
      recvWindow: "5000",
    });
    expect(q.newClientOrderId).toMatch(/^[0-9a-f]{32}$/);
    expect(req.body).toBe("");
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      id: [...mock.orders.keys()][0],
      clientOrderId: q.newClientOrderId,
      status: "open",
      side: "Buy",
    });
  });

  it("creates a LIMIT SELL", async () => {
    expect((await mexc.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "1", price: "40000" })).side).toBe("Sell");
    expect(parseQuery(mock.server.requests.at(-1)!.query).side).toBe("SELL");
  });

  it("creates a batch through /api/v3/batchOrders", async () => {
    const orders = await mexc.createBatch("BTC/USDT", [
      { side: "Buy", amount: "0.01", price: "29000" },
      { side: "Sell", amount: "0.01", price: "33000" },
    ]);
    expect(orders.map((o) => o.id)).toEqual([...mock.orders.keys()]);
    expect(JSON.parse(parseQuery(mock.server.requests.at(-1)!.query).batchOrders!)).toHaveLength(2);
  });

  it("rejects a batch of 21 with \"Maximum for 'createBatch' is: 20\" before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    const error = await rejection(
      mexc.createBatch(
        "BTC/USDT",
        Array.from({ length: 21 }, () => ({ side: "Buy" as const, amount: "1", price: "1" })),
      ),
    );
    expect(error.message).toBe("ExchangeId: mexc, msg: Maximum for 'createBatch' is: 20");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("fails a batch when one item carries {code, msg}", async () => {
    mock.refuseNextBatchItem(1, 30002, "The minimum transaction volume cannot be less than:0.5USDT");
    const error = await rejection(
      mexc.createBatch("BTC/USDT", [
        { side: "Buy", amount: "0.01", price: "29000" },
        { side: "Buy", amount: "0.00001", price: "1" },
      ]),
    );
    expect(error).toMatchObject({ kind: "invalid-order", code: 30002 });
    expect(error.detail).toContain(
      "One of orders threw an error (30002, The minimum transaction volume cannot be less than:0.5USDT); 1 of 2 placed",
    );
    // docs/orders.md "Partly placed batches": the error carries the order the exchange did place.
    const kept = placedBefore(error) ?? [];
    expect(kept.map((o) => [o.side, o.price])).toEqual([["Buy", "29000"]]);
    expect((await mexc.fetchOrder("BTC/USDT", kept[0]!.id)).id).toBe(kept[0]!.id);
  });

  it("sends every mandatory parameter on every call; the mock refuses a call without one (33333, 700004)", async () => {
    const [a] = await mexc.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "100" }]);
    await mexc.fetchOrder("BTC/USDT", a!.id);
    await mexc.cancelOrder("BTC/USDT", a!.id);
    await mexc.fetchOpenOrders("BTC/USDT");
    await mexc.cancelAll("BTC/USDT");
    await mexc.fetchBalances();
    const sent = mock.server.requests.map((r) => {
      const { timestamp, signature: _s, recvWindow: _r, ...rest } = parseQuery(r.query);
      expect(timestamp, r.path).toMatch(/^\d{13}$/);
      return rest.batchOrders ? { ...rest, batchOrders: JSON.parse(rest.batchOrders) } : rest;
    });
    expect(sent).toEqual([
      {
        batchOrders: [
          expect.objectContaining({ symbol: "BTCUSDT", side: "BUY", type: "LIMIT", quantity: "1", price: "100" }),
        ],
      },
      { symbol: "BTCUSDT", orderId: a!.id },
      { symbol: "BTCUSDT", orderId: a!.id },
      { symbol: "BTCUSDT" },
      { symbol: "BTCUSDT" },
      {},
    ]);
    for (const [query, answer] of [
      [
        { symbol: "BTCUSDT", side: "BUY", type: "LIMIT", price: "1" },
        { code: 33333, msg: "Parameter error: quantity" },
      ],
      [
        { symbol: "BTCUSDT" },
        { code: 700004, msg: "Param 'origClientOrderId' or 'orderId' must be sent, but both were empty/null!" },
      ],
    ] as const) {
      const method = "price" in query ? "POST" : "DELETE";
      const request = mexcSignedRequest(credentials, Date.now(), method, "/api/v3/order", query);
      const bare = await fetch(`${mock.url}/api/v3/order?${request.query}`, { method, headers: request.headers });
      expect([bare.status, await bare.json()]).toEqual([400, answer]);
    }
  });

  it.each([
    [429, "rate-limit"],
    [700008, "invalid-order"],
    [700005, "invalid-order"],
    [10072, "auth"],
    [30005, "insufficient-funds"],
  ])("reads code %s in an HTTP 400 answer as %s", async (code, kind) => {
    mock.failNext(code, "m");
    expect((await rejection(mexc.fetchBalances())).kind).toBe(kind);
  });

  it("reads a failure from the HTTP status or a code other than 0 and 200; an answer without JSON fails too", async () => {
    const balances = { balances: [{ asset: "MX", free: "1", locked: "0" }] };
    for (const code of [0, 200]) {
      mock.fake.replyNext({ body: { code, ...balances } });
      expect(await mexc.fetchBalances(), String(code)).toEqual({ MX: { f: "1", l: "0" } });
    }
    mock.fake.replyNext({ body: { code: 700002, msg: "Signature for this request is not valid." } });
    expect((await rejection(mexc.fetchBalances())).kind).toBe("auth");
    mock.fake.replyNext({ status: 400, body: { code: 0, msg: "odd" } });
    expect((await rejection(mexc.fetchBalances())).detail).toBe("odd (code 0)");
    mock.fake.replyNext({ status: 400, body: { msg: 5 } });
    expect((await rejection(mexc.fetchBalances())).detail).toBe("HTTP 400");
    mock.fake.replyNext({ status: 200, body: "" });
    expect((await rejection(mexc.fetchBalances())).detail).toBe("HTTP 200");
  });

  it("takes a create's time from transactTime, else its own clock, and reads it as an open limit order nothing filled", async () => {
    mock.fake.replyNext({ body: { symbol: "BTCUSDT", orderId: "77", side: "BUY", transactTime: 1700000000123 } });
    const order = await mexc.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    expect([order.id, order.timestamp, order.filled, order.type, order.status]).toEqual([
      "77",
      1700000000123,
      "0",
      "limit",
      "open",
    ]);
    mock.fake.replyNext({ body: { symbol: "BTCUSDT", orderId: "78", side: "BUY" } });
    const bare = await mexc.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    expect(Math.abs(bare.timestamp - Date.now())).toBeLessThan(5000);
  });

  it("counts a batch item with a code, or without an orderId, as failed", async () => {
    const three = [
      { side: "Buy" as const, amount: "1", price: "1" },
      { side: "Buy" as const, amount: "1", price: "1" },
      { side: "Buy" as const, amount: "1", price: "1" },
    ];
    mock.fake.replyNext({
      body: [{ orderId: "1" }, { orderId: "2", code: 30002, msg: "too small" }, { orderId: "3" }],
    });
    expect((await rejection(mexc.createBatch("BTC/USDT", three))).detail).toBe(
      "One of orders threw an error (30002, too small); 2 of 3 placed (code 30002)",
    );
    mock.fake.replyNext({ body: [{ orderId: "1" }, {}, { orderId: "3" }] });
    expect((await rejection(mexc.createBatch("BTC/USDT", three))).detail).toBe(
      "One of orders threw an error (, ); 2 of 3 placed",
    );
  });

  it("after a create time-out that never reached the book, the look-up finds nothing and the create is sent once more", async () => {
    const slow = createExchange("mexc", credentials, { baseUrl: mock.url, timeoutMs: 300 });
    mock.fake.replyNext({ delayMs: 600, body: {} });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    await new Promise((r) => setTimeout(r, 400));
    expect([...mock.orders.keys()]).toEqual([order.id]);
    const sent = mock.server.requests.map((r) => `${r.method} ${parseQuery(r.query).origClientOrderId ?? ""}`);
    expect(sent).toEqual(["POST ", `GET ${order.clientOrderId}`, "POST "]);
  });

  it("after a create time-out whose look-up fails too, sends nothing more", async () => {
    const slow = createExchange("mexc", credentials, { baseUrl: mock.url, timeoutMs: 300 });
    mock.fake.replyNext({ delayMs: 600, body: {} });
    const pending = rejection(slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" }));
    // once the create has reached the mock, the next request (the look-up) is refused
    while (mock.server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    mock.rateLimitNext();
    expect((await pending).kind).not.toBe("rate-limit");
    await new Promise((r) => setTimeout(r, 600));
    expect(mock.server.requests.map((r) => r.method)).toEqual(["POST", "GET"]);
  });

  it("sends JSON to MEXC's production host by default and leaves out parameters without a value", () => {
    expect(MEXC_BASE_URL).toBe("https://api.mexc.com");
    const request = mexcSignedRequest(credentials, 1, "GET", "/api/v3/account", { a: undefined, b: "1" });
    expect(request.query.startsWith("b=1&timestamp=1&")).toBe(true);
    expect(request.headers).toEqual({ "X-MEXC-APIKEY": MEXC_KEY, "Content-Type": "application/json" });
  });

  it('rejects cancel batch with "Not supported for mexc" before any request (docs/exchange-rules.md#limits)', async () => {
    const error = await rejection(mexc.cancelBatch("BTC/USDT", ["1"]));
    expect(error).toMatchObject({ kind: "unsupported", message: "ExchangeId: mexc, msg: Not supported for mexc" });
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels one order with DELETE /api/v3/order and all with DELETE /api/v3/openOrders", async () => {
    const a = await mexc.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await mexc.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30001" });
    const c = await mexc.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30002" });
    await expect(mexc.cancelOrder("BTC/USDT", a.id)).resolves.toBe(a.id);
    expect(mock.orders.get(a.id)!.status).toBe("CANCELED");
    await expect(mexc.cancelAll("BTC/USDT")).resolves.toEqual([b.id, c.id]);
    const last = mock.server.requests.at(-1)!;
    expect(`${last.method} ${last.path}`).toBe("DELETE /api/v3/openOrders");
  });

  it("fetches one order and the open orders", async () => {
    const a = await mexc.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await mexc.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.02", price: "30000" });
    await mexc.cancelOrder("BTC/USDT", b.id);
    expect(await mexc.fetchOrder("BTC/USDT", b.id)).toMatchObject({
      id: b.id,
      status: "canceled",
      amount: "0.02",
      clientOrderId: b.clientOrderId,
      pair: "BTC/USDT",
    });
    expect((await mexc.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([a.id]);
  });

  it("fetches balances without all-zero currencies, long numbers exact (docs/exchange-rules.md#entities, #limits)", async () => {
    await expect(mexc.fetchBalances()).resolves.toEqual({
      NBNTEST: { f: "1112", l: "0" },
      MX: { f: "3", l: "0" },
      BTC: { f: "0.00000000000000000001", l: "0.5" },
    });
  });
});

describe("mexc errors (docs/exchange-rules.md#errors: envelope {code, msg})", () => {
  it("answers a wrong secret with 700002 as auth after exactly one request", async () => {
    const wrong = new MexcAdapter({ ...credentials, secret: "bad-secret-x" }, { baseUrl: mock.url });
    const error = await rejection(wrong.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" }));
    expect(error).toMatchObject({ kind: "auth", code: 700002 });
    expect(error.message).toBe("ExchangeId: mexc, msg: Signature for this request is not valid. (code 700002)");
    expect(mock.server.requests).toHaveLength(1);
  });

  it("answers a clock outside recvWindow with 700003 as auth", async () => {
    const late = new MexcAdapter(credentials, { baseUrl: mock.url, now: () => Date.now() - 10_000 });
    expect((await rejection(late.fetchBalances())).code).toBe(700003);
  });

  it("maps 30004 to insufficient-funds", async () => {
    mock.failNext(30004, "Insufficient position");
    const error = await rejection(mexc.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "10", price: "30000" }));
    expect(error).toMatchObject({ kind: "insufficient-funds", code: 30004 });
  });

  it("maps -2013 (what GET /api/v3/order really answers) and the documented -2011 to order-not-found", async () => {
    expect(await rejection(mexc.fetchOrder("BTC/USDT", "42"))).toMatchObject({ kind: "order-not-found", code: -2013 });
    expect(await rejection(mexc.cancelOrder("BTC/USDT", "42"))).toMatchObject({ kind: "order-not-found", code: -2011 });
  });

  it("maps the documented 10101 to insufficient-funds and 602 to auth", async () => {
    mock.failNext(10101, "Insufficient balance");
    expect((await rejection(mexc.fetchBalances())).kind).toBe("insufficient-funds");
    mock.failNext(602, "Signature verification failed");
    expect((await rejection(mexc.fetchBalances())).kind).toBe("auth");
  });

  it("maps HTTP 418 (IP ban after repeated 429s) to rate-limit with Retry-After", async () => {
    mock.server.intercept(() => ({
      status: 418,
      headers: { "retry-after": "120" },
      body: { code: 418, msg: "banned" },
    }));
    expect(await rejection(mexc.fetchBalances())).toMatchObject({ kind: "rate-limit", retryAfterMs: 120_000 });
  });

  it("maps HTTP 429 to rate-limit with Retry-After", async () => {
    mock.rateLimitNext();
    expect(await rejection(mexc.fetchBalances())).toMatchObject({ kind: "rate-limit", retryAfterMs: 2000 });
  });
});

describe("mexc time-out on create (docs/exchange-rules.md#contract: never two orders)", () => {
  it("looks the order up by origClientOrderId after a time-out and returns it; one order on the mock", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("mexc", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: only!.orderId, clientOrderId: only!.clientOrderId, status: "open" });
    const routes = mock.server.requests.map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(["POST /api/v3/order", "GET /api/v3/order"]);
    expect(parseQuery(mock.server.requests[1]!.query).origClientOrderId).toBe(only!.clientOrderId);
  });
});

describe("mexc status and timestamp rules (docs/exchange-rules.md#states, docs/decisions.md#d9) with the documented order example", () => {
  const documented = {
    symbol: "LTCBTC",
    orderId: "1",
    orderListId: -1,
    clientOrderId: "myOrder1",
    price: "0.1",
    origQty: "1.0",
    executedQty: "0.0",
    cummulativeQuoteQty: "0.0",
    status: "NEW",
    timeInForce: "GTC",
    type: "LIMIT",
    side: "BUY",
    stopPrice: "0.0",
    icebergQty: "0.0",
    time: 1499827319559,
    updateTime: 1499827319559,
    isWorking: true,
    origQuoteOrderQty: "0.000000",
  };
  const status = (s: string) => parseMexcOrder({ ...documented, status: s }, "LTC/BTC").status;

  it("maps NEW and PARTIALLY_FILLED to open, FILLED to closed, CANCELED to canceled", () => {
    expect([status("NEW"), status("PARTIALLY_FILLED"), status("FILLED"), status("CANCELED")]).toEqual([
      "open",
      "open",
      "closed",
      "canceled",
    ]);
  });
  it("maps PARTIALLY_CANCELED to open and keeps the raw status (docs/exchange-rules.md#states, docs/decisions.md#d9)", () => {
    const order = parseMexcOrder({ ...documented, status: "PARTIALLY_CANCELED" }, "LTC/BTC");
    expect(order).toMatchObject({ status: "open", rawStatus: "PARTIALLY_CANCELED" });
  });
  it("reads a missing type as limit, keeps MEXC's type in lower case, and names the raw status only when partly canceled", () => {
    const bare = { symbol: "BTCUSDT", orderId: "1", price: "1", origQty: "1", executedQty: "0", side: "BUY" };
    const order = parseMexcOrder({ ...bare, status: "NEW" }, "BTC/USDT");
    expect([order.type, order.clientOrderId, "rawStatus" in order]).toEqual(["limit", "", false]);
    expect(parseMexcOrder({ ...bare, type: "LIMIT_MAKER", status: "NEW" }, "BTC/USDT").type).toBe("limit_maker");
  });

  it("yields undefined for an unknown status", () => {
    expect(status("SOMETHING")).toBeUndefined();
  });
  it("reads the documented Query Order example, whose quantity field is named Qty", () => {
    const { origQty: _omitted, ...queryOrder } = { ...documented, Qty: "1.0", orderId: 1 };
    expect(parseMexcOrder(queryOrder, "LTC/BTC")).toMatchObject({ id: "1", amount: "1", clientOrderId: "myOrder1" });
  });
  it("takes the order's own client id from a cancel answer (origClientOrderId), not the cancel's clientOrderId", () => {
    const cancel = {
      symbol: "LTCBTC",
      origClientOrderId: "myOrder1",
      orderId: 4,
      clientOrderId: "cancelMyOrder1",
      price: "2.00000000",
      origQty: "1.00000000",
      executedQty: "0.00000000",
      cummulativeQuoteQty: "0.00000000",
      status: "CANCELED",
      timeInForce: "GTC",
      type: "LIMIT",
      side: "BUY",
    };
    expect(parseMexcOrder(cancel, "LTC/BTC")).toMatchObject({
      id: "4",
      clientOrderId: "myOrder1",
      status: "canceled",
      amount: "1",
    });
  });
  it("keeps time in milliseconds and decimals as strings", () => {
    expect(parseMexcOrder(documented, "LTC/BTC")).toMatchObject({
      timestamp: 1499827319559,
      amount: "1",
      price: "0.1",
      filled: "0",
      side: "Buy",
    });
  });
  it("drops all-zero balances", () => {
    expect(parseMexcBalances({ balances: [{ asset: "X", free: "0", locked: "0.0" }] })).toEqual({});
  });
});

describe("mexc through the built CLI", () => {
  const env = { SPOTDESK_API_KEY: MEXC_KEY, SPOTDESK_API_SECRET: MEXC_SECRET };

  it("buy, order, orders, cancel, batch, cancel-all, balances end to end; cancel-batch is 'Not supported'", async () => {
    await runCliScenario({
      id: "mexc",
      mock,
      env,
      status: (o) => o.status,
      open: "NEW",
      canceled: "CANCELED",
      unsupported: ["cancel-batch"],
      balances: "NBNTEST",
    });
  });
});

describe("mexc pair list (docs/exchange-rules.md#pairs)", () => {
  it("lists the online, API-tradable symbols, sorted, with tick and lot from the precisions, without a key", async () => {
    const keyless = new MexcAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
    const expected = [
      { pair: "BTC/USDT", tick: "0.01", lot: "0.000001", minAmount: "0.000001", minNotional: "1" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.00001", minAmount: "0.0001", minNotional: "1" },
      { pair: "PEPE/USDT", tick: "0.0000000001", lot: "1", minNotional: "1" },
    ];
    expect(await keyless.fetchPairs()).toEqual(expected);
    const sent = mock.server.requests.at(-1)!;
    expect([sent.method, sent.path, sent.query]).toEqual(["GET", "/api/v3/exchangeInfo", ""]);
    expect(sent.headers["x-mexc-apikey"]).toBeUndefined();
    expect(await listExchangePairs("mexc", { baseUrl: mock.url, timeoutMs: 2000 })).toEqual(expected);
  });

  it("keeps the older status spelling ENABLED, a status written as a number, and a symbol without tradeSideType", async () => {
    const keyless = new MexcAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
    const [eth] = MEXC_SYMBOLS;
    const { tradeSideType: _side, ...noSide } = eth!;
    const symbols = [
      { ...eth, symbol: "OLDUSDT", baseAsset: "OLD", status: "ENABLED" },
      { ...eth, symbol: "NUMUSDT", baseAsset: "NUM", status: 1 },
      { ...noSide, symbol: "ANYUSDT", baseAsset: "ANY" },
      { ...eth, symbol: "NOPEUSDT", baseAsset: "NOPE", status: "" },
    ];
    mock.server.intercept(() => ({ body: { timezone: "CST", serverTime: 1, symbols } }));
    expect((await keyless.fetchPairs()).map((p) => p.pair)).toEqual(["ANY/USDT", "NUM/USDT", "OLD/USDT"]);
    mock.server.intercept(undefined);
  });

  it("an answer in another shape is mexc's unexpected answer, a refusal its error", async () => {
    const keyless = new MexcAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
    mock.server.intercept(() => ({ body: { timezone: "CST", serverTime: 1 } }));
    await expect(keyless.fetchPairs()).rejects.toThrow(
      "Unexpected answer from mexc: exchangeInfo.symbols expected array, got nothing",
    );
    mock.server.intercept(() => ({ status: 429, body: { code: 429, msg: "Too Many Requests" } }));
    await expect(keyless.fetchPairs()).rejects.toMatchObject({ kind: "rate-limit" });
    mock.server.intercept(undefined);
  });
});
