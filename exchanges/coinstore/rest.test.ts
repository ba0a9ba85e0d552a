import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { placedBefore } from "../../lib/errors.js";
import { rejection, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import {
  COINSTORE_KEY,
  COINSTORE_MOCK_SYMBOLS,
  COINSTORE_SECRET,
  type CoinstoreMock,
  startCoinstoreMock,
} from "./mock.js";
import {
  COINSTORE_PATHS,
  CoinstoreAdapter,
  coinstoreBucketKey,
  coinstoreOrderFromInfo,
  coinstoreSignedRequest,
  parseCoinstoreBalances,
  parseCoinstoreOrder,
} from "./rest.js";

const credentials = { api: COINSTORE_KEY, secret: COINSTORE_SECRET };
let mock: CoinstoreMock;
let coinstore: ExchangeAdapter;

beforeEach(async () => {
  mock = await startCoinstoreMock();
  coinstore = createExchange("coinstore", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

const buy = { pair: "BTC/USDT", side: "Buy" as const, amount: "0.01", price: "30000" };
const lastBody = () => JSON.parse(mock.server.requests.at(-1)!.body) as Record<string, unknown>;
const routes = () => mock.server.requests.map((r) => `${r.method} ${r.path}`);

describe("coinstore signing (docs/exchange-rules.md#calls double HMAC keyed by the 30-second bucket)", () => {
  it("keys the HMAC with hex HMAC-SHA256(secret, floor(expires/30000)) and signs the JSON body of a POST", () => {
    const expires = 1_700_000_012_345;
    const request = coinstoreSignedRequest(credentials, expires, "POST", COINSTORE_PATHS.place, { symbol: "BTCUSDT" });
    const key = createHmac("sha256", COINSTORE_SECRET)
      .update(String(Math.floor(expires / 30000)))
      .digest("hex");
    expect(coinstoreBucketKey(COINSTORE_SECRET, expires)).toBe(key);
    expect(request.body).toBe('{"symbol":"BTCUSDT"}');
    expect(request.headers).toMatchObject({
      "X-CS-APIKEY": COINSTORE_KEY,
      "X-CS-EXPIRES": String(expires),
      "X-CS-SIGN": createHmac("sha256", key).update(request.body).digest("hex"),
    });
  });

  it("signs the query string of a GET, and the key changes only at the 30-second boundary", () => {
    const request = coinstoreSignedRequest(credentials, 1_700_000_010_000, "GET", COINSTORE_PATHS.active, {
      symbol: "BTCUSDT",
    });
    expect(request.query).toBe("symbol=BTCUSDT");
    const key = coinstoreBucketKey(COINSTORE_SECRET, 1_700_000_010_000);
    expect(request.headers["X-CS-SIGN"]).toBe(createHmac("sha256", key).update("symbol=BTCUSDT").digest("hex"));
    // 1_700_000_010_000 / 30000 = 56666667.0: same bucket up to +29_999 ms, a new one at +30_000
    expect(coinstoreBucketKey(COINSTORE_SECRET, 1_700_000_039_999)).toBe(key);
    expect(coinstoreBucketKey(COINSTORE_SECRET, 1_700_000_040_000)).not.toBe(key);
  });
});

describe("coinstore operations (docs/exchange-rules.md#operations, #calls) against the signature-checking mock", () => {
  it("places a LIMIT GTC BUY on BTCUSDT with a 32-hex clOrdId; the 19-digit ordId stays exact (docs/exchange-rules.md#limits)", async () => {
    const order = await coinstore.createOrder(buy);
    expect(routes()).toEqual([`POST ${COINSTORE_PATHS.place}`]);
    const b = lastBody();
    expect(b).toMatchObject({
      symbol: "BTCUSDT",
      side: "BUY",
      ordType: "LIMIT",
      ordPrice: "30000",
      ordQty: "0.01",
      timeInForce: "GTC",
    });
    expect(b.clOrdId).toMatch(/^[0-9a-f]{32}$/);
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      id: "1694171424893030000",
      clientOrderId: b.clOrdId,
      status: "open",
      side: "Buy",
    });
  });

  it("places a LIMIT SELL", async () => {
    await coinstore.createOrder({ ...buy, side: "Sell" });
    expect(lastBody().side).toBe("SELL");
  });

  it("sends the documented required `timestamp` (ms) in the place and placeBatch bodies", async () => {
    const mockNow = Date.now();
    await coinstore.createOrder(buy);
    expect(Math.abs(Number(lastBody().timestamp) - mockNow)).toBeLessThan(5000);
    await coinstore.createBatch("BTC/USDT", [{ side: "Buy", amount: "0.01", price: "29000" }]);
    expect(typeof lastBody().timestamp).toBe("number");
  });

  it("places a batch through placeBatch with the orders in `orders`", async () => {
    const orders = await coinstore.createBatch("BTC/USDT", [
      { side: "Buy", amount: "0.01", price: "29000" },
      { side: "Sell", amount: "0.02", price: "33000" },
    ]);
    expect(orders.map((o) => o.id)).toEqual([...mock.orders.keys()]);
    expect((lastBody().orders as unknown[]).length).toBe(2);
  });

  it("fails a batch when one item is refused: 'One of orders threw an error' (docs/exchange-rules.md#validation)", async () => {
    mock.refuseNextBatchItem(1, 3103, "invalid price or quantity");
    const error = await rejection(
      coinstore.createBatch("BTC/USDT", [
        { side: "Buy", amount: "0.01", price: "29000" },
        { side: "Buy", amount: "0.01", price: "1" },
      ]),
    );
    expect(error.detail).toBe("One of orders threw an error (3103, invalid price or quantity)");
    // docs/orders.md "Partly placed batches": the error carries the order the exchange did place.
    const kept = placedBefore(error) ?? [];
    expect(kept.map((o) => [o.side, o.price])).toEqual([["Buy", "29000"]]);
    expect((await coinstore.fetchOrder("BTC/USDT", kept[0]!.id)).id).toBe(kept[0]!.id);
  });

  it("rejects a batch of 41 with \"Maximum for 'createBatch' is: 40\" and a cancel batch of 41 likewise, before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    const items = Array.from({ length: 41 }, () => ({ side: "Buy" as const, amount: "1", price: "1" }));
    expect((await rejection(coinstore.createBatch("BTC/USDT", items))).message).toBe(
      "ExchangeId: coinstore, msg: Maximum for 'createBatch' is: 40",
    );
    expect(
      (
        await rejection(
          coinstore.cancelBatch(
            "BTC/USDT",
            items.map((_, i) => String(i)),
          ),
        )
      ).message,
    ).toBe("ExchangeId: coinstore, msg: Maximum for 'cancelBatch' is: 40");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels one (cancel {symbol, ordId}) and a batch (cancelBatch {symbol, orderIds})", async () => {
    const a = await coinstore.createOrder(buy);
    const b = await coinstore.createOrder(buy);
    const c = await coinstore.createOrder(buy);
    await expect(coinstore.cancelOrder("BTC/USDT", a.id)).resolves.toBe(a.id);
    expect(lastBody()).toEqual({ symbol: "BTCUSDT", ordId: a.id });
    await expect(coinstore.cancelBatch("BTC/USDT", [b.id, c.id])).resolves.toEqual([b.id, c.id]);
    expect(lastBody()).toEqual({ symbol: "BTCUSDT", orderIds: [b.id, c.id] });
    expect([...mock.orders.values()].every((o) => o.ordStatus === "CANCELED")).toBe(true);
  });

  it("a partly failed batch cancel resolves to the ids in success; the rejected ones are not among them", async () => {
    const a = await coinstore.createOrder(buy);
    const b = await coinstore.createOrder({ ...buy, price: "30001" });
    await coinstore.cancelOrder("BTC/USDT", b.id);
    await expect(coinstore.cancelBatch("BTC/USDT", [b.id, a.id, "777"])).resolves.toEqual([a.id]);
    expect(mock.orders.get(a.id)!.ordStatus).toBe("CANCELED");
    await expect(coinstore.cancelBatch("BTC/USDT", ["778"])).resolves.toEqual([]);
  });

  it("sends every documented required parameter on every call; the mock refuses a call without one (400)", async () => {
    const [a, b] = await coinstore.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Sell", amount: "2", price: "200" },
    ]);
    await coinstore.createOrder(buy);
    await coinstore.fetchOrder("BTC/USDT", a!.id);
    await coinstore.cancelOrder("BTC/USDT", a!.id);
    await coinstore.cancelBatch("BTC/USDT", [b!.id]);
    const order = { ordType: "LIMIT", timeInForce: "GTC" };
    expect(
      mock.server.requests.map((r) => [r.path, r.method === "GET" ? parseQuery(r.query) : JSON.parse(r.body)]),
    ).toEqual([
      [
        "/api/trade/order/placeBatch",
        {
          symbol: "BTCUSDT",
          timestamp: expect.any(Number),
          orders: [
            expect.objectContaining({ ...order, side: "BUY", ordQty: "1", ordPrice: "100" }),
            expect.objectContaining({ ...order, side: "SELL", ordQty: "2", ordPrice: "200" }),
          ],
        },
      ],
      [
        "/api/trade/order/place",
        expect.objectContaining({ ...order, symbol: "BTCUSDT", side: "BUY", ordQty: "0.01", ordPrice: "30000" }),
      ],
      ["/api/v2/trade/order/orderInfo", { ordId: a!.id }],
      ["/api/trade/order/cancel", { symbol: "BTCUSDT", ordId: a!.id }],
      ["/api/trade/order/cancelBatch", { symbol: "BTCUSDT", orderIds: [b!.id] }],
    ]);
    const ts = Date.now();
    for (const [method, path, params, field] of [
      [
        "POST",
        "/api/trade/order/place",
        { symbol: "BTCUSDT", ...order, side: "BUY", ordPrice: "1", timestamp: ts },
        "ordQty",
      ],
      [
        "POST",
        "/api/trade/order/place",
        { symbol: "BTCUSDT", ...order, side: "BUY", ordPrice: "1", ordQty: "1" },
        "timestamp",
      ],
      [
        "POST",
        "/api/trade/order/placeBatch",
        { symbol: "BTCUSDT", orders: [{ ...order, ordPrice: "1", ordQty: "1" }], timestamp: ts },
        "side",
      ],
      ["POST", "/api/trade/order/cancel", { symbol: "BTCUSDT" }, "ordId"],
      ["POST", "/api/trade/order/cancelBatch", { orderIds: ["1"] }, "symbol"],
      ["GET", "/api/v2/trade/order/orderInfo", {}, "ordId or clOrdId"],
    ] as const) {
      const request = coinstoreSignedRequest(credentials, ts, method, path, params);
      const bare = await fetch(`${mock.url}${path}${request.query ? `?${request.query}` : ""}`, {
        method,
        headers: request.headers,
        ...(method === "POST" ? { body: request.body } : {}),
      });
      expect([path, bare.status, await bare.json()]).toEqual([
        path,
        400,
        { code: 400, message: `${field} is required`, data: null },
      ]);
    }
    expect(mock.orders.size).toBe(3);
  });

  it('rejects cancel all with "Not supported for coinstore" before any request (docs/exchange-rules.md#limits)', async () => {
    expect(await rejection(coinstore.cancelAll("BTC/USDT"))).toMatchObject({
      kind: "unsupported",
      message: "ExchangeId: coinstore, msg: Not supported for coinstore",
    });
    expect(mock.server.requests).toHaveLength(0);
  });

  it("fetches one order (v2 orderInfo) and the open ones (v2 active)", async () => {
    const a = await coinstore.createOrder(buy);
    const b = await coinstore.createOrder(buy);
    await coinstore.cancelOrder("BTC/USDT", b.id);
    expect(await coinstore.fetchOrder("BTC/USDT", b.id)).toMatchObject({
      id: b.id,
      status: "canceled",
      clientOrderId: b.clientOrderId,
      pair: "BTC/USDT",
    });
    expect(parseQuery(mock.server.requests.at(-1)!.query)).toEqual({ ordId: b.id });
    expect((await coinstore.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([a.id]);
  });

  it("reads balances from accountList: AVAILABLE free, FROZEN locked, all-zero dropped, codes upper-cased (docs/exchange-rules.md#entities)", async () => {
    await expect(coinstore.fetchBalances()).resolves.toEqual({
      USDT: { f: "1000.123456789012345678", l: "20" },
      BTC: { f: "0.5", l: "0" },
    });
    expect(mock.server.requests[0]!.body).toBe("{}");
  });
});

describe("coinstore errors (docs/exchange-rules.md#errors: success code 0)", () => {
  it("answers a wrong secret with an auth error after exactly one request", async () => {
    const wrong = new CoinstoreAdapter({ ...credentials, secret: "wrong-secret" }, { baseUrl: mock.url });
    const error = await rejection(wrong.createOrder(buy));
    expect(error).toMatchObject({
      kind: "auth",
      code: 401,
      message: "ExchangeId: coinstore, msg: Signature-Failed (code 401)",
    });
    expect(mock.server.requests).toHaveLength(1);
  });

  it("passes an exchange error code and message through as an invalid order", async () => {
    mock.failNext(3103, "invalid price or quantity");
    expect(await rejection(coinstore.createOrder(buy))).toMatchObject({
      kind: "invalid-order",
      code: 3103,
      message: "ExchangeId: coinstore, msg: invalid price or quantity (code 3103)",
    });
  });

  it("maps HTTP 429 to rate-limit with the Retry-After hint", async () => {
    mock.rateLimitNext();
    expect(await rejection(coinstore.fetchBalances())).toMatchObject({ kind: "rate-limit", retryAfterMs: 2000 });
  });
});

describe("coinstore time-out on create (docs/exchange-rules.md#contract: never two orders)", () => {
  it("looks the order up by clOrdId after a time-out and returns it; one order on the mock", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("coinstore", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: only!.ordId, clientOrderId: only!.clOrdId, status: "open" });
    expect(routes()).toEqual([`POST ${COINSTORE_PATHS.place}`, `GET ${COINSTORE_PATHS.orderInfo}`]);
    expect(parseQuery(mock.server.requests[1]!.query)).toEqual({ clOrdId: only!.clOrdId });
  });
});

describe("coinstore status and timestamp rules (docs/exchange-rules.md#entities, #states) with the documented order fields", () => {
  const documented = {
    baseCurrency: "BTC",
    quoteCurrency: "USDT",
    symbol: "BTCUSDT",
    timestamp: 1694171424,
    side: "BUY",
    accountId: 1138204,
    ordId: 1694171424893030000n.toString(),
    clOrdId: "",
    ordType: "LIMIT",
    ordState: "SUBMITTED",
    ordPrice: "25000",
    ordQty: "0.01",
    ordAmt: "0",
    cumAmt: "0",
    cumQty: "0",
    leavesQty: "0.01",
    avgPrice: "0",
    feeCurrency: "USDT",
    timeInForce: "GTC",
  };
  const status = (s: string) => parseCoinstoreOrder({ ...documented, ordState: s }, "BTC/USDT").status;

  // The docs' "Get order information V2" answer: data is a list, the status is `ordStatus`, times in ms.
  const v2 = {
    baseCurrency: "A123",
    quoteCurrency: "USDT",
    side: "BUY",
    cumQty: "0",
    ordId: "1758065956225025",
    clOrdId: "tLCGVA4g19zuEBwsITXi9g3U624Al0Bw",
    ordType: "LIMIT",
    ordQty: "10",
    cumAmt: "0",
    accountId: 1134912,
    timeInForce: "GTC",
    ordPrice: "100",
    leavesQty: "10",
    avgPrice: "0",
    ordStatus: "SUBMITTED",
    symbol: "A123USDT",
    orderUpdateTime: 1676622290389,
    timestamp: 1676622290389,
  };
  it("reads the docs' v2 orderInfo answer (a list, ordStatus, millisecond timestamp); NOT_FOUND is no order", () => {
    expect(coinstoreOrderFromInfo([v2], "A123/USDT")).toMatchObject({
      id: "1758065956225025",
      pair: "A123/USDT",
      status: "open",
      rawStatus: "SUBMITTED",
      timestamp: 1676622290389,
      amount: "10",
      price: "100",
    });
    expect(coinstoreOrderFromInfo([{ ...v2, ordStatus: "NOT_FOUND" }], "A123/USDT")).toBeUndefined();
    expect(coinstoreOrderFromInfo([], "A123/USDT")).toBeUndefined();
  });
  it("multiplies second timestamps by 1000 (docs/exchange-rules.md#entities 'coinstore-like sources give seconds')", () => {
    expect(parseCoinstoreOrder(documented, "BTC/USDT").timestamp).toBe(1694171424000);
  });
  it("maps SUBMITTING, SUBMITTED, PARTIAL_FILLED to open, FILLED to closed, CANCELED to canceled, unknown to undefined", () => {
    expect(["SUBMITTING", "SUBMITTED", "PARTIAL_FILLED", "FILLED", "CANCELED", "WHATEVER"].map(status)).toEqual([
      "open",
      "open",
      "open",
      "closed",
      "canceled",
      undefined,
    ]);
  });
  it("drops all-zero balances", () => {
    expect(parseCoinstoreBalances([{ currency: "X", balance: "0", type: 1, typeName: "AVAILABLE" }])).toEqual({});
  });
});

describe("coinstore through the built CLI", () => {
  const env = { SPOTDESK_API_KEY: COINSTORE_KEY, SPOTDESK_API_SECRET: COINSTORE_SECRET };

  it("buy, order, orders, cancel, batch, cancel-batch, balances end to end; cancel-all is 'Not supported'", async () => {
    await runCliScenario({
      id: "coinstore",
      mock,
      env,
      status: (o) => o.ordStatus,
      open: "SUBMITTED",
      canceled: "CANCELED",
      cancelBatchAll: true,
      unsupported: ["cancel-all"],
      balances: { USDT: { f: "1000.123456789012345678", l: "20" } },
    });
  });
});

describe("coinstore off the happy path (issue 25)", () => {
  const ok = (data: unknown, status = 200) => ({ status, body: { code: 0, message: "", data } });

  it("signs a GET's query with no body and a POST's JSON body, always with JSON headers", () => {
    const get = coinstoreSignedRequest(credentials, 60_000, "GET", "/p", { a: "1" });
    expect([get.query, get.body, get.headers["Content-Type"]]).toEqual(["a=1", "", "application/json"]);
    const key = createHmac("sha256", COINSTORE_SECRET).update("2").digest("hex");
    expect(get.headers["X-CS-SIGN"]).toBe(createHmac("sha256", key).update("a=1").digest("hex"));
    const post = coinstoreSignedRequest(credentials, 60_000, "POST", "/p", { a: "1" });
    expect([post.query, post.body, post.headers["X-CS-EXPIRES"]]).toEqual(["", '{"a":"1"}', "60000"]);
  });

  it("reads an order without currencies, client id or type, its v1 ordState, and no rawStatus without a state", () => {
    expect(parseCoinstoreOrder({ ordId: 5, side: "SELL", timestamp: 1700000000000 }, "ETH/USDT")).toStrictEqual({
      pair: "ETH/USDT",
      id: "5",
      clientOrderId: "",
      price: "0",
      amount: "0",
      filled: "0",
      type: "limit",
      side: "Sell",
      status: undefined,
      timestamp: 1700000000000,
    });
    expect(
      parseCoinstoreOrder({ ordId: 5, side: "BUY", ordState: "FILLED", ordType: "MARKET", baseCurrency: "BTC" }, "X/Y"),
    ).toMatchObject({ pair: "X/Y", type: "market", status: "closed", rawStatus: "FILLED" });
    expect(coinstoreOrderFromInfo([], "BTC/USDT")).toBeUndefined();
    expect(coinstoreOrderFromInfo(null, "BTC/USDT")).toBeUndefined();
    expect(coinstoreOrderFromInfo({ ordId: 1, side: "BUY", ordStatus: "SUBMITTED" }, "BTC/USDT")?.id).toBe("1");
  });

  it("reads type 4 as FROZEN without a typeName, anything else as available", () => {
    expect(
      parseCoinstoreBalances([
        { currency: "a", balance: "1", type: 4 },
        { currency: "a", balance: "2", type: 1 },
        { currency: "b", balance: "3" },
      ]),
    ).toEqual({ A: { f: "2", l: "1" }, B: { f: "3", l: "0" } });
  });

  it("answers a placed order with filled 0 and type limit, reads order_id too, and sells as SELL", async () => {
    expect(await coinstore.createOrder({ ...buy, side: "Sell" })).toMatchObject({ filled: "0", type: "limit" });
    expect(lastBody()).toMatchObject({ side: "SELL" });
    mock.fake.replyNext(ok({ order_id: "77" }));
    expect((await coinstore.createOrder(buy)).id).toBe("77");
  });

  it("reads code 0 under HTTP 4xx as a failure, the message from message or msg, else the HTTP status", async () => {
    mock.fake.replyNext(ok({}, 400));
    expect((await rejection(coinstore.fetchBalances())).message).toBe("ExchangeId: coinstore, msg: HTTP 400 (code 0)");
    mock.fake.replyNext({ status: 200, body: { code: 3101, message: "", msg: "from msg" } });
    expect((await rejection(coinstore.fetchBalances())).message).toBe(
      "ExchangeId: coinstore, msg: from msg (code 3101)",
    );
    mock.fake.replyNext({ status: 502, body: { code: { odd: true }, message: 5 } });
    const error = await rejection(coinstore.fetchBalances());
    expect([error.code, error.message]).toEqual([undefined, "ExchangeId: coinstore, msg: HTTP 502"]);
  });

  it("fails a batch shorter than asked, or with an item without ordId, naming no code", async () => {
    const two = [
      { side: "Buy" as const, amount: "1", price: "1" },
      { side: "Buy" as const, amount: "1", price: "2" },
    ];
    mock.fake.replyNext(ok([{ ordId: "1" }]));
    expect((await rejection(coinstore.createBatch("BTC/USDT", two))).detail).toBe(
      "One of orders threw an error (, not placed)",
    );
    mock.fake.replyNext(
      ok([
        { ordId: "1", errno: 0 },
        { clOrdId: "x", errno: null },
      ]),
    );
    expect((await rejection(coinstore.createBatch("BTC/USDT", two))).detail).toBe(
      "One of orders threw an error (, not placed)",
    );
    mock.fake.replyNext(ok([{ ordId: "1", errno: 0 }, { ordId: "2" }]));
    expect((await coinstore.createBatch("BTC/USDT", two)).map((o) => o.id)).toEqual(["1", "2"]);
  });

  it("takes the ordId of a cancel answer, else the id asked; a batch cancel without success list is none", async () => {
    mock.fake.replyNext(ok({ ordId: 99 }));
    await expect(coinstore.cancelOrder("BTC/USDT", "5")).resolves.toBe("99");
    mock.fake.replyNext(ok(null));
    await expect(coinstore.cancelOrder("BTC/USDT", "5")).resolves.toBe("5");
    mock.fake.replyNext(ok({ reject: ["5"] }));
    await expect(coinstore.cancelBatch("BTC/USDT", ["5"])).resolves.toEqual([]);
  });

  it("reads NOT_FOUND as order-not-found and a null list of open orders as none", async () => {
    expect(await rejection(coinstore.fetchOrder("BTC/USDT", "123"))).toMatchObject({
      kind: "order-not-found",
      message: "ExchangeId: coinstore, msg: Order 123 not found",
    });
    mock.fake.replyNext(ok(null));
    await expect(coinstore.fetchOpenOrders("BTC/USDT")).resolves.toEqual([]);
  });

  it("reads the pair from both currencies, FROZEN by its typeName, and codes by kind under HTTP 200", async () => {
    expect(parseCoinstoreOrder({ ordId: 1, side: "BUY", baseCurrency: "ETH", quoteCurrency: "BTC" }, "X/Y").pair).toBe(
      "ETH/BTC",
    );
    expect(parseCoinstoreBalances([{ currency: "a", balance: "1", typeName: "FROZEN" }])).toEqual({
      A: { f: "0", l: "1" },
    });
    for (const [code, kind] of [
      [401, "auth"],
      [403, "auth"],
      [429, "rate-limit"],
      [404, "order-not-found"],
      ["3101", "invalid-order"],
    ] as const) {
      mock.fake.replyNext({ status: 200, body: { code, message: "x" } });
      expect([code, await rejection(coinstore.fetchBalances())]).toMatchObject([code, { kind, code }]);
    }
    mock.fake.replyNext({ status: 502, body: { code: "x", msg: 7 } });
    expect((await rejection(coinstore.fetchBalances())).message).toBe("ExchangeId: coinstore, msg: HTTP 502 (code x)");
  });

  it("fails a create answered without ordId or order_id, and a batch with an item naming an errno beside its ordId", async () => {
    mock.fake.replyNext(ok({}));
    await expect(coinstore.createOrder(buy)).rejects.toThrow();
    expect(mock.orders.size).toBe(0);
    mock.fake.replyNext(ok([{ ordId: "1" }, { ordId: "2", errno: 3101, errMsg: "symbol not found" }]));
    expect(
      await rejection(
        coinstore.createBatch("BTC/USDT", [
          { side: "Buy", amount: "1", price: "1" },
          { side: "Buy", amount: "1", price: "2" },
        ]),
      ),
    ).toMatchObject({ code: 3101, detail: "One of orders threw an error (3101, symbol not found)" });
  });

  it("re-sends a timed-out create after a look-up answered 404, not after one that failed otherwise", async () => {
    for (const [code, resent] of [
      [404, true],
      [401, false],
    ] as const) {
      mock.orders.clear();
      mock.server.requests.length = 0;
      let step = 0;
      mock.server.intercept((req) => {
        if (req.path === "/api/trade/order/place" && step === 0) {
          step = 1;
          return { status: 504, body: {}, delayMs: 1500 };
        }
        if (req.path === "/api/v2/trade/order/orderInfo" && step === 1) {
          step = 2;
          return { status: 200, body: { code, message: "no", data: null } };
        }
        return undefined;
      });
      const slow = createExchange("coinstore", credentials, { baseUrl: mock.url, timeoutMs: 400 });
      if (resent) await slow.createOrder(buy);
      else await rejection(slow.createOrder(buy));
      expect(routes()).toHaveLength(resent ? 3 : 2);
    }
    const adapter = new CoinstoreAdapter(credentials, {}) as unknown as { rest: { baseUrl: string } };
    expect(adapter.rest.baseUrl).toBe("https://api.coinstore.com");
  });

  it("re-sends a timed-out create once the look-up finds nothing, and only then", async () => {
    let lost = false;
    mock.server.intercept((req) => {
      if (req.path !== "/api/trade/order/place" || lost) return undefined;
      lost = true;
      return { status: 504, body: {}, delayMs: 1500 };
    });
    const slow = createExchange("coinstore", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect([...mock.orders.keys()]).toEqual([order.id]);
    expect(routes()).toEqual([
      "POST /api/trade/order/place",
      "GET /api/v2/trade/order/orderInfo",
      "POST /api/trade/order/place",
    ]);
  });
});

describe("coinstore fetchPairs (docs/exchange-rules.md#pairs)", () => {
  const keyless = () => new CoinstoreAdapter({ api: "", secret: "" }, { baseUrl: mock.url });

  it("lists the symbols open to trade, sorted: tick 10^-tickSz, lot 10^-lotSz, minLmtSz", async () => {
    await expect(keyless().fetchPairs()).resolves.toEqual([
      { pair: "BTC/USDT", tick: "1", lot: "0.0001", minAmount: "0.2" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.00001", minAmount: "0.001" },
      { pair: "SHIB/USDT", tick: "0.0000000001", lot: "1", minAmount: "100000" },
    ]);
    // one unsigned POST of an empty filter (every symbol) to the documented path, on the base URL given
    const [request, ...more] = mock.server.requests;
    expect(more).toEqual([]);
    expect([request!.method, request!.path, request!.query, request!.body]).toEqual([
      "POST",
      "/api/v2/public/config/spot/symbols",
      "",
      "{}",
    ]);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["x-cs-apikey"]).toBeUndefined();
  });

  it("leaves out a symbol closed to trade", async () => {
    const listed = (await new CoinstoreAdapter(credentials, { baseUrl: mock.url }).fetchPairs()).map((p) => p.pair);
    expect(COINSTORE_MOCK_SYMBOLS.find((s) => !s.openTrade)?.symbolCode).toBe("OLDUSDT");
    expect(listed).not.toContain("OLD/USDT");
  });

  it("names the field of a malformed answer", async () => {
    mock.server.intercept((req) =>
      req.path === "/api/v2/public/config/spot/symbols"
        ? { body: { code: "0", message: "Success", data: [{ ...COINSTORE_MOCK_SYMBOLS[0], openTrade: "yes" }] } }
        : undefined,
    );
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe('Unexpected answer from coinstore: data[0].openTrade expected boolean, got "yes"');
  });
});
