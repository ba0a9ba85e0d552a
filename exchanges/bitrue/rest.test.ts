import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rejection, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import { BITRUE_KEY, BITRUE_SECRET, type BitrueMock, startBitrueMock } from "./mock.js";
import {
  BitrueAdapter,
  bitrueSignedQuery,
  bitrueSignedRequest,
  parseBitrueBalances,
  parseBitrueOrder,
} from "./rest.js";

const credentials = { api: BITRUE_KEY, secret: BITRUE_SECRET };
let mock: BitrueMock;
let bitrue: ExchangeAdapter;

beforeEach(async () => {
  mock = await startBitrueMock();
  bitrue = createExchange("bitrue", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

const buy = { pair: "BTC/USDT", side: "Buy" as const, amount: "0.01", price: "30000" };
const routes = () => mock.server.requests.map((r) => `${r.method} ${r.path}`);

describe("bitrue signing (official docs, SIGNED Endpoint Examples for POST /api/v1/order)", () => {
  it("reproduces the documented signature c8db5682… over symbol=LTCBTC&…&recvWindow=5000&timestamp=1499827319559", () => {
    const query = bitrueSignedQuery(
      BITRUE_SECRET,
      { symbol: "LTCBTC", side: "BUY", type: "LIMIT", timeInForce: "GTC", quantity: "1", price: "0.1" },
      1499827319559,
    );
    expect(query).toBe(
      "symbol=LTCBTC&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559" +
        "&signature=c8db56825ae71d6d79447849e617115f4a920fa2acdcab2b053c4b2838bd6b71",
    );
  });
});

describe("bitrue operations (docs/exchange-rules.md#operations, #calls) against the signature-checking mock", () => {
  it("creates a LIMIT GTC BUY on BTCUSDT with a 32-hex newClientOrderId (docs/exchange-rules.md#entities, docs/decisions.md#d11)", async () => {
    const order = await bitrue.createOrder(buy);
    const req = mock.server.requests.at(-1)!;
    expect(`${req.method} ${req.path}`).toBe("POST /api/v1/order");
    const q = parseQuery(req.query);
    expect(q).toMatchObject({
      symbol: "BTCUSDT",
      side: "BUY",
      type: "LIMIT",
      timeInForce: "GTC",
      quantity: "0.01",
      price: "30000",
      recvWindow: "5000",
    });
    expect(q.newClientOrderId).toMatch(/^[0-9a-f]{32}$/);
    expect(req.body).toBe("");
    // the docs' answer: an 18-digit orderId (beyond 2^53) with its orderIdStr, kept exact
    const [only] = [...mock.orders.values()];
    expect(only!.orderId).toMatch(/^\d{18}$/);
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      id: only!.orderId,
      clientOrderId: q.newClientOrderId,
      status: "open",
      side: "Buy",
    });
  });

  it("refuses batch, cancel batch and cancel all with 'Not supported for bitrue' before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    for (const call of [
      bitrue.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "1" }]),
      bitrue.cancelBatch("BTC/USDT", ["1"]),
      bitrue.cancelAll("BTC/USDT"),
    ]) {
      expect(await rejection(call)).toMatchObject({
        kind: "unsupported",
        message: "ExchangeId: bitrue, msg: Not supported for bitrue",
      });
    }
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels with DELETE /api/v1/order, fetches with GET /api/v1/order and GET /api/v1/openOrders", async () => {
    const a = await bitrue.createOrder(buy);
    const b = await bitrue.createOrder({ ...buy, amount: "0.02" });
    await expect(bitrue.cancelOrder("BTC/USDT", b.id)).resolves.toBe(b.id);
    expect(await bitrue.fetchOrder("BTC/USDT", b.id)).toMatchObject({
      id: b.id,
      status: "canceled",
      amount: "0.02",
      clientOrderId: b.clientOrderId,
    });
    expect((await bitrue.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([a.id]);
    expect(routes().slice(-3)).toEqual(["DELETE /api/v1/order", "GET /api/v1/order", "GET /api/v1/openOrders"]);
  });

  it("sends every mandatory parameter on every call; the mock refuses a call without one (-1102, HTTP 412)", async () => {
    const a = await bitrue.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "100" });
    await bitrue.fetchOrder("BTC/USDT", a.id);
    await bitrue.cancelOrder("BTC/USDT", a.id);
    await bitrue.fetchOpenOrders("BTC/USDT");
    await bitrue.fetchBalances();
    const sent = mock.server.requests.map((r) => {
      const { timestamp, signature: _s, recvWindow: _r, ...rest } = parseQuery(r.query);
      expect(timestamp, r.path).toMatch(/^\d{13}$/);
      return [`${r.method} ${r.path}`, rest];
    });
    expect(sent).toEqual([
      [
        "POST /api/v1/order",
        expect.objectContaining({ symbol: "BTCUSDT", side: "BUY", type: "LIMIT", quantity: "1", price: "100" }),
      ],
      ["GET /api/v1/order", { symbol: "BTCUSDT", orderId: a.id }],
      ["DELETE /api/v1/order", { symbol: "BTCUSDT", orderId: a.id }],
      ["GET /api/v1/openOrders", { symbol: "BTCUSDT" }],
      ["GET /api/v1/account", {}],
    ]);
    for (const [method, path, params] of [
      ["POST", "/api/v1/order", { symbol: "BTCUSDT", side: "BUY", type: "LIMIT", price: "1" }],
      ["GET", "/api/v1/order", { symbol: "BTCUSDT" }],
      ["DELETE", "/api/v1/order", { orderId: a.id }],
      ["GET", "/api/v1/openOrders", {}],
      ["GET", "/api/v1/allOrders", {}],
    ] as const) {
      const request = bitrueSignedRequest(credentials, Date.now(), method, path, params);
      const bare = await fetch(`${mock.url}${path}?${request.query}`, { method, headers: request.headers });
      expect([path, bare.status, await bare.json()]).toEqual([
        path,
        412,
        { code: -1102, msg: "Mandatory parameter is missing or illegal." },
      ]);
    }
    expect(mock.orders.size).toBe(1);
  });

  it("fetches balances from GET /api/v1/account: zero dropped, upper-cased, a 22-character number exact (docs/exchange-rules.md#entities, #limits)", async () => {
    await expect(bitrue.fetchBalances()).resolves.toEqual({
      BTC: { f: "4723846.89208129", l: "0" },
      LTC: { f: "4763368.680060111234567", l: "1.5" },
    });
  });
});

describe("bitrue errors (docs/exchange-rules.md#errors: {code, msg})", () => {
  it("answers a wrong secret with the documented -1022 (HTTP 401) as auth after exactly one request (no retry)", async () => {
    const wrong = new BitrueAdapter({ ...credentials, secret: "the-wrong-secret" }, { baseUrl: mock.url });
    const error = await rejection(wrong.createOrder(buy));
    expect(error).toMatchObject({ kind: "auth", code: -1022 });
    expect(error.message).toBe(
      "ExchangeId: bitrue, msg: Invalid signature or Invalid timestamp or Unauthorized for API. (code -1022)",
    );
    expect(error.message).not.toContain("the-wrong-secret");
    expect(mock.server.requests).toHaveLength(1);
    expect(mock.orders.size).toBe(0);
  });

  it("answers a clock outside the 5000 ms recvWindow with -1022 (the docs' one code for signature and timestamp) as auth", async () => {
    const late = new BitrueAdapter(credentials, { baseUrl: mock.url, now: () => Date.now() - 6000 });
    expect(await rejection(late.fetchBalances())).toMatchObject({ kind: "auth", code: -1022 });
  });

  it("maps -2013 (sent with HTTP 200) to order-not-found and a -2010 (406) balance rejection to insufficient-funds", async () => {
    expect(await rejection(bitrue.fetchOrder("BTC/USDT", "42"))).toMatchObject({
      kind: "order-not-found",
      code: -2013,
    });
    expect(await rejection(bitrue.cancelOrder("BTC/USDT", "42"))).toMatchObject({
      kind: "order-not-found",
      code: -2013,
    });
    mock.failNext(-2010, "Account has insufficient balance for requested action.", 406);
    expect(await rejection(bitrue.createOrder(buy))).toMatchObject({ kind: "insufficient-funds", code: -2010 });
    mock.failNext(-1111, "Invalid volume or price or address given.", 412);
    expect(await rejection(bitrue.createOrder(buy))).toMatchObject({ kind: "invalid-order", code: -1111 });
  });

  it("maps HTTP 429 to rate-limit with Retry-After", async () => {
    mock.rateLimitNext();
    expect(await rejection(bitrue.fetchBalances())).toMatchObject({
      kind: "rate-limit",
      code: -1003,
      retryAfterMs: 4000,
    });
  });
});

describe("bitrue time-out on create (docs/exchange-rules.md#contract: a create is never sent twice blindly)", () => {
  it("finds the order by its clientOrderId among the open orders after a time-out; the mock holds one order", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("bitrue", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: only!.orderId, clientOrderId: only!.clientOrderId, status: "open" });
    expect(routes()).toEqual(["POST /api/v1/order", "GET /api/v1/openOrders"]);
  });

  it("a 5xx on create is 'execution status UNKNOWN' (docs): looked up by client order id, then sent once", async () => {
    mock.failNext(-1016, "Service unavailable", 500);
    const order = await bitrue.createOrder(buy);
    expect(routes()).toEqual([
      "POST /api/v1/order",
      "GET /api/v1/openOrders",
      "GET /api/v1/allOrders",
      "POST /api/v1/order",
    ]);
    expect(mock.orders.size).toBe(1);
    expect(order.status).toBe("open");
  });

  // Changed: GET /api/v1/order documents orderId as mandatory, so a look-up by origClientOrderId alone
  // is not a documented call; allOrders ("active, canceled, or filled") carries clientOrderId.
  it("finds the order in GET /api/v1/allOrders when it is no longer open, and resends only when unknown", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("bitrue", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const placing = slow.createOrder(buy);
    // the exchange filled it meanwhile: not open any more
    await new Promise((r) => setTimeout(r, 100));
    [...mock.orders.values()][0]!.status = "FILLED";
    const order = await placing;
    expect(order.status).toBe("closed");
    expect(mock.orders.size).toBe(1);
    expect(routes()).toEqual(["POST /api/v1/order", "GET /api/v1/openOrders", "GET /api/v1/allOrders"]);
    expect(parseQuery(mock.server.requests[2]!.query).symbol).toBe("BTCUSDT");
  });
});

describe("bitrue status and timestamp rules (docs/exchange-rules.md#entities, #states) with the documented order example", () => {
  const documented = {
    symbol: "LTCBTC",
    orderId: 1,
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
  };
  const status = (s: string) => parseBitrueOrder({ ...documented, status: s }, "LTC/BTC").status;

  it("maps NEW, PARTIALLY_FILLED to open, FILLED to closed, CANCELED, PENDING_CANCEL, REJECTED, EXPIRED to canceled", () => {
    expect(
      ["NEW", "PARTIALLY_FILLED", "FILLED", "CANCELED", "PENDING_CANCEL", "REJECTED", "EXPIRED"].map(status),
    ).toEqual(["open", "open", "closed", "canceled", "canceled", "canceled", "canceled"]);
  });
  it("maps PENDING_CREATE ('your order is in queue', docs 2023-07-14) to open and keeps it in rawStatus", () => {
    expect(parseBitrueOrder({ ...documented, status: "PENDING_CREATE" }, "LTC/BTC")).toMatchObject({
      status: "open",
      rawStatus: "PENDING_CREATE",
    });
  });
  it("prefers orderIdStr and keeps an 18-digit orderId exact", () => {
    expect(
      parseBitrueOrder({ ...documented, orderId: "307650651173648896", orderIdStr: "307650651173648896" }, "LTC/BTC")
        .id,
    ).toBe("307650651173648896");
  });
  it("yields undefined for an unknown status", () => {
    expect(status("SOMEWHERE")).toBeUndefined();
  });
  it("keeps time in milliseconds and decimals as strings", () => {
    expect(parseBitrueOrder(documented, "LTC/BTC")).toMatchObject({
      id: "1",
      timestamp: 1499827319559,
      amount: "1",
      price: "0.1",
      filled: "0",
      side: "Buy",
    });
  });
  it("drops all-zero balances", () => {
    expect(parseBitrueBalances({ balances: [{ asset: "BTC", free: "0.00000000", locked: "0.00000000" }] })).toEqual({});
  });
});

describe("bitrue through the built CLI", () => {
  const env = { SPOTDESK_API_KEY: BITRUE_KEY, SPOTDESK_API_SECRET: BITRUE_SECRET };

  it("buy, order, orders, cancel, balances end to end; batch, cancel-batch, cancel-all are 'Not supported'", async () => {
    await runCliScenario({
      id: "bitrue",
      mock,
      env,
      status: (o) => o.status,
      open: "NEW",
      canceled: "CANCELED",
      unsupported: ["batch", "cancel-batch", "cancel-all"],
      balances: { BTC: { f: "4723846.89208129", l: "0" } },
    });
  });
});

import { BITRUE_MOCK_EXCHANGE_INFO } from "./mock.js";

describe("bitrue fetchPairs (docs/exchange-rules.md#pairs)", () => {
  const keyless = () => new BitrueAdapter({ api: "", secret: "" }, { baseUrl: mock.url });
  type Info = { symbols: { filters: Record<string, unknown>[] }[] };
  const info = () => JSON.parse(JSON.stringify(BITRUE_MOCK_EXCHANGE_INFO)) as Info;

  it("lists the TRADING symbols sorted, with steps from tickSize/stepSize or priceScale/volumeScale", async () => {
    await expect(keyless().fetchPairs()).resolves.toEqual([
      { pair: "BTC/USDT", tick: "0.01", lot: "0.000001", minAmount: "0.00001", minNotional: "5" },
      { pair: "ETH/BTC", tick: "0.000001", lot: "0.001", minAmount: "0.001", minNotional: "0.001" },
      { pair: "SHIB/USDT", tick: "0.0000000001", lot: "1", minAmount: "1000", minNotional: "1" },
      { pair: "XRP/USDT", tick: "0.00001", lot: "0.1", minAmount: "0.1", minNotional: "5" },
    ]);
    // one call to the documented path on the base URL given, without key or signature
    expect(mock.server.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual(["GET /api/v1/exchangeInfo?"]);
    expect(mock.server.requests[0]!.headers["x-mbx-apikey"]).toBeUndefined();
  });

  it("leaves out a HALT symbol", async () => {
    const listed = (await new BitrueAdapter(credentials, { baseUrl: mock.url }).fetchPairs()).map((p) => p.pair);
    expect(BITRUE_MOCK_EXCHANGE_INFO.symbols.find((s) => s.status === "HALT")?.symbol).toBe("lunausdt");
    expect(listed).not.toContain("LUNA/USDT");
  });

  it("names the field of a malformed answer", async () => {
    const bad = info();
    bad.symbols[1]!.filters[0]!.priceScale = "five";
    mock.server.intercept((req) => (req.path === "/api/v1/exchangeInfo" ? { body: bad } : undefined));
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe(
      'Unexpected answer from bitrue: symbols[1].filters[0].priceScale expected a number of digits, got "five"',
    );
  });

  it("names PRICE_FILTER when a TRADING symbol has no price step: none, or one without tickSize and priceScale", async () => {
    for (const strip of [
      (f: Record<string, unknown>[]) => f.filter((x) => x.filterType !== "PRICE_FILTER"),
      (f: Record<string, unknown>[]) =>
        f.map((x) => (x.filterType === "PRICE_FILTER" ? { filterType: "PRICE_FILTER" } : x)),
    ]) {
      const bad = info();
      bad.symbols[0]!.filters = strip(bad.symbols[0]!.filters);
      mock.server.intercept((req) => (req.path === "/api/v1/exchangeInfo" ? { body: bad } : undefined));
      const error = await rejection(keyless().fetchPairs());
      expect(error).toMatchObject({ exchange: "bitrue", kind: "invalid-order" });
      expect(error.detail).toBe(
        "Unexpected answer from bitrue: symbols[0].filters expected PRICE_FILTER tickSize or priceScale",
      );
    }
  });

  it("names the filter a TRADING symbol lacks its step in", async () => {
    const bad = info();
    bad.symbols[2]!.filters = bad.symbols[2]!.filters.filter((f) => f.filterType !== "LOT_SIZE");
    mock.server.intercept((req) => (req.path === "/api/v1/exchangeInfo" ? { body: bad } : undefined));
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe(
      "Unexpected answer from bitrue: symbols[2].filters expected LOT_SIZE stepSize or volumeScale",
    );
  });
});

describe("bitrue off the happy path (issue 25)", () => {
  const order = { pair: "BTC/USDT", side: "Buy" as const, amount: "1", price: "2" };

  it("answers a placed order from orderIdStr, the id and time Bitrue names, else its own", async () => {
    mock.fake.replyNext({ body: '{"orderId":307650651173648897,"clientOrderId":"","transactTime":1700000000000}' });
    const placed = await bitrue.createOrder({ ...order, side: "Sell" });
    expect(placed).toMatchObject({ id: "307650651173648897", filled: "0", type: "limit", timestamp: 1700000000000 });
    expect(placed.clientOrderId).toMatch(/^[0-9a-f]{32}$/);
    expect(parseQuery(mock.server.requests.at(-1)!.query)).toMatchObject({ side: "SELL", timeInForce: "GTC" });
    const before = Date.now();
    mock.fake.replyNext({ body: { orderId: 5, orderIdStr: "5", clientOrderId: "mine" } });
    const second = await bitrue.createOrder(order);
    expect([second.id, second.clientOrderId]).toEqual(["5", "mine"]);
    expect(second.timestamp).toBeGreaterThanOrEqual(before);
  });

  it("reads a 5xx as execution status unknown (network) with its code or HTTP status", async () => {
    mock.fake.replyNext({ status: 503, body: { code: -1016, msg: "Service unavailable" } });
    expect(await rejection(bitrue.fetchBalances())).toMatchObject({
      kind: "network",
      code: -1016,
      message: "ExchangeId: bitrue, msg: Service unavailable (HTTP 503: execution status unknown)",
    });
    mock.fake.replyNext({ status: 500, body: {} });
    expect(await rejection(bitrue.fetchBalances())).toMatchObject({
      kind: "network",
      code: 500,
      message: "ExchangeId: bitrue, msg: HTTP 500 (HTTP 500: execution status unknown)",
    });
  });

  it("reads -2010 as insufficient-funds only when its text says so, and a code under HTTP 200 as a failure", async () => {
    mock.failNext(-2010, "Account has insufficient balance for requested action.", 406);
    expect(await rejection(bitrue.createOrder(order))).toMatchObject({ kind: "insufficient-funds", code: -2010 });
    mock.failNext(-2010, "Order would trigger immediately.", 406);
    expect(await rejection(bitrue.createOrder(order))).toMatchObject({ kind: "invalid-order", code: -2010 });
    mock.failNext(-2015, "Invalid API-key", 200);
    expect(await rejection(bitrue.fetchBalances())).toMatchObject({ kind: "auth", code: -2015 });
    mock.failNext(-1003, "Too many requests.", 200);
    expect((await rejection(bitrue.fetchBalances())).kind).toBe("rate-limit");
    mock.failNext(-2011, "Unknown order sent.", 200);
    expect((await rejection(bitrue.fetchBalances())).kind).toBe("order-not-found");
  });

  it("leaves an undefined parameter out of the signed query; reads an order without client id, type or status", () => {
    expect(bitrueSignedQuery("s", { a: "1", b: undefined }, 5)).toMatch(
      /^a=1&timestamp=5&recvWindow=5000&signature=|^a=1&recvWindow=5000&timestamp=5&signature=/,
    );
    const order = parseBitrueOrder({ symbol: "BTCUSDT", orderId: 1, side: "SELL" }, "BTC/USDT");
    expect([order.clientOrderId, order.type, "rawStatus" in order]).toEqual(["", "limit", false]);
    expect(parseBitrueOrder({ symbol: "BTCUSDT", orderId: 1, side: "BUY", type: "LIMIT_MAKER" }, "BTC/USDT").type).toBe(
      "limit_maker",
    );
  });

  it("reads HTTP 400 without a code as a failure, and re-sends a lost create even when another order is open", async () => {
    mock.fake.replyNext({ status: 400, body: {} });
    expect((await rejection(bitrue.fetchBalances())).message).toBe("ExchangeId: bitrue, msg: HTTP 400");
    const other = await bitrue.createOrder(order);
    let lost = false;
    mock.server.intercept((req) => {
      if (req.path !== "/api/v1/order" || req.method !== "POST" || lost) return undefined;
      lost = true;
      return { status: 504, body: {}, delayMs: 1500 };
    });
    const slow = createExchange("bitrue", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const placed = await slow.createOrder(order);
    expect(placed.id).not.toBe(other.id);
    expect(mock.orders.size).toBe(2);
    const adapter = new BitrueAdapter(credentials, {}) as unknown as { rest: { baseUrl: string } };
    expect(adapter.rest.baseUrl).toBe("https://openapi.bitrue.com");
  });

  it("reads an empty 2xx answer as a failure naming its status, and a null or list answer by its schema", async () => {
    mock.fake.replyNext({ status: 200, body: "" });
    expect(await rejection(bitrue.fetchBalances())).toMatchObject({
      kind: "invalid-order",
      message: "ExchangeId: bitrue, msg: HTTP 200",
    });
    mock.fake.replyNext({ status: 200, body: "null" });
    expect((await rejection(bitrue.fetchBalances())).message).toMatch(
      /^ExchangeId: bitrue, msg: Unexpected answer from bitrue/,
    );
    mock.fake.replyNext({ status: 200, body: '[{"code":-1}]' });
    expect((await rejection(bitrue.fetchBalances())).message).toMatch(
      /^ExchangeId: bitrue, msg: Unexpected answer from bitrue/,
    );
    await expect(bitrue.fetchOpenOrders("BTC/USDT")).resolves.toEqual([]);
  });

  it("names the exchange in the refusal of an order or balances answer it cannot read", () => {
    expect(() => parseBitrueOrder({ orderId: 1 }, "BTC/USDT")).toThrow(/Unexpected answer from bitrue: side/);
    expect(() => parseBitrueBalances({ balances: [{ asset: "BTC" }] })).toThrow(
      /Unexpected answer from bitrue: balances/,
    );
  });

  it("names the method and path of a call that timed out: GET for the look-ups, the lists and the balances", async () => {
    let slowPath = "";
    mock.server.intercept((req) => (req.path === slowPath ? { body: [], delayMs: 1500 } : undefined));
    const slow = createExchange("bitrue", credentials, { baseUrl: mock.url, timeoutMs: 300 });
    const timedOut = async (path: string, call: () => Promise<unknown>) => {
      slowPath = path;
      return (await rejection(call())).message;
    };
    const message = (route: string) => `ExchangeId: bitrue, msg: Request timed out after 300 ms (${route})`;
    expect(await timedOut("/api/v1/order", () => slow.fetchOrder("BTC/USDT", "1"))).toBe(message("GET /api/v1/order"));
    expect(await timedOut("/api/v1/openOrders", () => slow.fetchOpenOrders("BTC/USDT"))).toBe(
      message("GET /api/v1/openOrders"),
    );
    expect(await timedOut("/api/v1/account", () => slow.fetchBalances())).toBe(message("GET /api/v1/account"));
    expect(
      await timedOut("/api/v1/allOrders", () =>
        slow.findOrderByClientOrderId("BTC/USDT", "0123456789abcdef0123456789abcdef"),
      ),
    ).toBe(message("GET /api/v1/allOrders"));
  });

  it("takes the cancel answer's orderIdStr, else its orderId", async () => {
    mock.fake.replyNext({ body: { orderId: 9, orderIdStr: "9x" } });
    await expect(bitrue.cancelOrder("BTC/USDT", "1")).resolves.toBe("9x");
    mock.fake.replyNext({ body: '{"orderId":307650651173648899}' });
    await expect(bitrue.cancelOrder("BTC/USDT", "1")).resolves.toBe("307650651173648899");
  });
});
