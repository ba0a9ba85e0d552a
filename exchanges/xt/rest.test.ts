import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rejection, runCliScenario, THREE_ORDERS } from "../../test/exchanges/cli-scenario.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import { startXtMock, XT_KEY, XT_MOCK_SYMBOLS, XT_SECRET, type XtMock } from "./mock.js";
import { parseXtBalances, parseXtOrder, XtAdapter, xtSignedRequest } from "./rest.js";

const credentials = { api: XT_KEY, secret: XT_SECRET };
let mock: XtMock;
let xt: ExchangeAdapter;

beforeEach(async () => {
  mock = await startXtMock();
  xt = createExchange("xt", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

const buy = { pair: "BTC/USDT", side: "Buy" as const, amount: "0.01", price: "30000" };
const routes = () => mock.server.requests.map((r) => `${r.method} ${r.path}`);
const lastBody = () => JSON.parse(mock.server.requests.at(-1)!.body || "{}") as Record<string, unknown>;

describe("xt signing (official docs, Signature generation)", () => {
  // The docs' demo signature (2b5eb11e…, secret bc6630d0…, timestamp 1641446237201) cannot serve as a
  // vector: no rendering of its sample body reproduces it, and the "Complete Example" gives no secret.
  // The rule (X sorted headers + #METHOD#path[#query][#body]) is checked here and by the mock.
  it("signs X + Y: the four validate-* headers sorted, then #POST#/v4/order#{raw JSON body}", () => {
    const body = { symbol: "btc_usdt", side: "BUY", type: "LIMIT", timeInForce: "GTC", price: "39000", quantity: "2" };
    const request = xtSignedRequest(credentials, 1641446237201, "POST", "/v4/order", {}, body);
    const original =
      `validate-algorithms=HmacSHA256&validate-appkey=${XT_KEY}&validate-recvwindow=5000&validate-timestamp=1641446237201` +
      `#POST#/v4/order#${JSON.stringify(body)}`;
    expect(request.headers).toMatchObject({
      "validate-algorithms": "HmacSHA256",
      "validate-appkey": XT_KEY,
      "validate-recvwindow": "5000",
      "validate-timestamp": "1641446237201",
      "validate-signature": createHmac("sha256", XT_SECRET).update(original).digest("hex"),
    });
    expect(request.body).toBe(JSON.stringify(body));
  });

  it("puts the query with sorted keys after the path and leaves out an empty body (#METHOD#path#query)", () => {
    const request = xtSignedRequest(credentials, 1, "GET", "/v4/open-order", { symbol: "btc_usdt", bizType: "SPOT" });
    expect(request.query).toBe("bizType=SPOT&symbol=btc_usdt");
    const original = `validate-algorithms=HmacSHA256&validate-appkey=${XT_KEY}&validate-recvwindow=5000&validate-timestamp=1#GET#/v4/open-order#bizType=SPOT&symbol=btc_usdt`;
    expect(request.headers["validate-signature"]).toBe(createHmac("sha256", XT_SECRET).update(original).digest("hex"));
  });
});

describe("xt operations (docs/exchange-rules.md#operations, #calls) against the signature-checking mock", () => {
  it("creates a LIMIT GTC SPOT buy on btc_usdt with a 22-hex clientOrderId (docs/exchange-rules.md#entities, docs/decisions.md#d11)", async () => {
    const order = await xt.createOrder(buy);
    expect(routes()).toEqual(["POST /v4/order"]);
    const body = lastBody();
    expect(body).toMatchObject({
      symbol: "btc_usdt",
      side: "BUY",
      type: "LIMIT",
      timeInForce: "GTC",
      bizType: "SPOT",
      price: "30000",
      quantity: "0.01",
    });
    expect(body.clientOrderId).toMatch(/^[0-9a-f]{22}$/);
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      id: "6216559590087220004",
      clientOrderId: body.clientOrderId,
      status: "open",
    });
  });

  it("creates a batch through POST /v4/batch-order (items)", async () => {
    const orders = await xt.createBatch("BTC/USDT", [
      { side: "Buy", amount: "0.01", price: "29000" },
      { side: "Sell", amount: "0.01", price: "33000" },
    ]);
    expect(orders.map((o) => o.id)).toEqual([...mock.orders.keys()]);
    expect((lastBody().items as unknown[]).length).toBe(2);
  });

  it("skips rejected batch items and returns the accepted ones (docs/exchange-rules.md#validation 'xt batch skips rejected items')", async () => {
    mock.rejectNextBatchItem(1);
    const orders = await xt.createBatch("BTC/USDT", [
      { side: "Buy", amount: "0.01", price: "29000" },
      { side: "Buy", amount: "0.01", price: "29001" },
      { side: "Buy", amount: "0.01", price: "29002" },
    ]);
    expect(orders.map((o) => o.price)).toEqual(["29000", "29002"]);
    expect(mock.orders.size).toBe(2);
  });

  it("rejects batches over 40 with the seed's messages before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    const items = Array.from({ length: 41 }, () => ({ side: "Buy" as const, amount: "1", price: "1" }));
    expect((await rejection(xt.createBatch("BTC/USDT", items))).message).toBe(
      "ExchangeId: xt, msg: Maximum for 'createBatch' is: 40",
    );
    expect(
      (
        await rejection(
          xt.cancelBatch(
            "BTC/USDT",
            Array.from({ length: 41 }, (_, i) => String(i)),
          ),
        )
      ).message,
    ).toBe("ExchangeId: xt, msg: Maximum for 'cancelBatch' is: 40");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels one (DELETE /v4/order/{id}), a batch (DELETE /v4/batch-order) and all (DELETE /v4/open-order)", async () => {
    const [a, b, c, d] = await Promise.all(["1", "2", "3", "4"].map((p) => xt.createOrder({ ...buy, price: p })));
    await expect(xt.cancelOrder("BTC/USDT", a!.id)).resolves.toBe(a!.id);
    await expect(xt.cancelBatch("BTC/USDT", [b!.id, c!.id])).resolves.toEqual([b!.id, c!.id]);
    expect(lastBody()).toEqual({ orderIds: [b!.id, c!.id] });
    await expect(xt.cancelAll("BTC/USDT")).resolves.toEqual([]);
    expect(lastBody()).toEqual({ symbol: "btc_usdt", bizType: "SPOT" });
    expect(mock.orders.get(d!.id)!.state).toBe("CANCELED");
    expect(routes().slice(-3)).toEqual([
      `DELETE /v4/order/${a!.id}`,
      "DELETE /v4/batch-order",
      "DELETE /v4/open-order",
    ]);
  });

  it("sends every documented required parameter on every call; the mock refuses a call without one (ORDER_001)", async () => {
    const [a, b] = await xt.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Sell", amount: "2", price: "200" },
    ]);
    await xt.createOrder(buy);
    await xt.cancelOrder("BTC/USDT", a!.id);
    await xt.cancelBatch("BTC/USDT", [b!.id]);
    await xt.cancelAll("BTC/USDT");
    const order = { symbol: "btc_usdt", type: "LIMIT", timeInForce: "GTC", bizType: "SPOT" };
    expect(mock.server.requests.map((r) => [`${r.method} ${r.path}`, JSON.parse(r.body || "{}")])).toEqual([
      [
        "POST /v4/batch-order",
        {
          items: [
            expect.objectContaining({ ...order, side: "BUY", quantity: "1", price: "100" }),
            expect.objectContaining({ ...order, side: "SELL", quantity: "2", price: "200" }),
          ],
        },
      ],
      ["POST /v4/order", expect.objectContaining({ ...order, side: "BUY", quantity: "0.01", price: "30000" })],
      [`DELETE /v4/order/${a!.id}`, {}],
      ["DELETE /v4/batch-order", { orderIds: [b!.id] }],
      ["DELETE /v4/open-order", { symbol: "btc_usdt", bizType: "SPOT" }],
    ]);
    for (const [method, path, query, body, field] of [
      ["POST", "/v4/order", {}, { ...order, side: "BUY", price: "1" }, "quantity"],
      ["POST", "/v4/batch-order", {}, { items: [{ ...order, price: "1", quantity: "1" }] }, "side"],
      ["GET", "/v4/order", {}, undefined, "orderId or clientOrderId"],
      ["DELETE", "/v4/batch-order", {}, {}, "orderIds"],
      ["DELETE", "/v4/open-order", {}, { symbol: "btc_usdt" }, "bizType"],
    ] as const) {
      const request = xtSignedRequest(credentials, Date.now(), method, path, query, body);
      const bare = await fetch(`${mock.url}${path}`, {
        method,
        headers: request.headers,
        ...(body === undefined ? {} : { body: request.body }),
      });
      expect([path, await bare.json()]).toEqual([path, { rc: 1, mc: "ORDER_001", ma: [field], result: null }]);
    }
    expect(mock.orders.size).toBe(3);
  });

  it("a batch cancel naming an unknown or closed order fails as a whole (ORDER_005) and cancels none", async () => {
    const a = await xt.createOrder(buy);
    const b = await xt.createOrder({ ...buy, price: "30001" });
    await xt.cancelOrder("BTC/USDT", b.id);
    expect(await rejection(xt.cancelBatch("BTC/USDT", [a.id, b.id]))).toMatchObject({
      kind: "order-not-found",
      code: "ORDER_005",
    });
    expect(mock.orders.get(a.id)!.state).toBe("NEW");
    await expect(xt.cancelBatch("BTC/USDT", [a.id])).resolves.toEqual([a.id]);
  });

  it("fetches one order (GET /v4/order/{id}) and the open orders (GET /v4/open-order)", async () => {
    const a = await xt.createOrder(buy);
    const b = await xt.createOrder({ ...buy, amount: "0.02" });
    await xt.cancelOrder("BTC/USDT", b.id);
    expect(await xt.fetchOrder("BTC/USDT", b.id)).toMatchObject({
      id: b.id,
      status: "canceled",
      amount: "0.02",
      clientOrderId: b.clientOrderId,
    });
    expect((await xt.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([a.id]);
    expect(parseQuery(mock.server.requests.at(-1)!.query)).toEqual({ bizType: "SPOT", symbol: "btc_usdt" });
  });

  it("fetches balances: availableAmount/frozenAmount, zero dropped, upper-cased, a 22-character number exact (docs/exchange-rules.md#entities, #limits)", async () => {
    await expect(xt.fetchBalances()).resolves.toEqual({
      USDT: { f: "1000.5", l: "120" },
      BTC: { f: "0.1234567890123456789", l: "0" },
    });
  });
});

describe("xt errors (docs/exchange-rules.md#errors: rc 0 is success, mc names the failure)", () => {
  it("answers a wrong secret with AUTH_103 as auth after exactly one request (no retry)", async () => {
    const wrong = new XtAdapter({ ...credentials, secret: "secret-that-is-wrong" }, { baseUrl: mock.url });
    const error = await rejection(wrong.createOrder(buy));
    expect(error).toMatchObject({ kind: "auth", code: "AUTH_103" });
    expect(error.message).toBe("ExchangeId: xt, msg: Signature error (code AUTH_103)");
    expect(error.message).not.toContain("secret-that-is-wrong");
    expect(mock.server.requests).toHaveLength(1);
    expect(mock.orders.size).toBe(0);
  });

  it("answers a clock outside validate-recvwindow with AUTH_105 as auth", async () => {
    const late = new XtAdapter(credentials, { baseUrl: mock.url, now: () => Date.now() - 6000 });
    expect(await rejection(late.fetchBalances())).toMatchObject({ kind: "auth", code: "AUTH_105" });
  });

  it("maps ORDER_002 to insufficient-funds and ORDER_005 to order-not-found", async () => {
    mock.failNext("ORDER_002");
    expect(await rejection(xt.createOrder(buy))).toMatchObject({ kind: "insufficient-funds", code: "ORDER_002" });
    expect(await rejection(xt.fetchOrder("BTC/USDT", "42"))).toMatchObject({
      kind: "order-not-found",
      code: "ORDER_005",
    });
  });

  it("maps HTTP 429 to rate-limit with Retry-After", async () => {
    mock.rateLimitNext();
    expect(await rejection(xt.fetchBalances())).toMatchObject({ kind: "rate-limit", retryAfterMs: 3000 });
  });
});

describe("xt time-out on create (docs/exchange-rules.md#contract: a create is never sent twice blindly)", () => {
  it("looks the order up with GET /v4/order?clientOrderId= after a time-out; the mock holds one order", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("xt", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: only!.orderId, clientOrderId: only!.clientOrderId, status: "open" });
    expect(routes()).toEqual(["POST /v4/order", "GET /v4/order"]);
    expect(parseQuery(mock.server.requests[1]!.query)).toEqual({ clientOrderId: only!.clientOrderId });
  });
});

describe("xt status and timestamp rules (docs/exchange-rules.md#entities, #states) with the documented order example", () => {
  const documented = {
    symbol: "BTC_USDT",
    orderId: "6216559590087220004",
    clientOrderId: "16559590087220001",
    baseCurrency: "string",
    quoteCurrency: "string",
    side: "BUY",
    type: "LIMIT",
    timeInForce: "GTC",
    price: "40000",
    origQty: "2",
    origQuoteQty: "48000",
    executedQty: "1.2",
    leavingQty: "string",
    tradeBase: "2",
    tradeQuote: "48000",
    avgPrice: "42350",
    fee: "string",
    feeCurrency: "string",
    state: "NEW",
    time: 1655958915583,
    ip: "127.0.0.1",
    updatedTime: 1655958915583,
  };
  const status = (state: string) => parseXtOrder({ ...documented, state }, "BTC/USDT").status;

  it("maps NEW and PARTIALLY_FILLED to open, FILLED to closed, CANCELED, REJECTED and EXPIRED to canceled", () => {
    expect(["NEW", "PARTIALLY_FILLED", "FILLED", "CANCELED", "REJECTED", "EXPIRED"].map(status)).toEqual([
      "open",
      "open",
      "closed",
      "canceled",
      "canceled",
      "canceled",
    ]);
  });
  it("yields undefined for an unknown status", () => {
    expect(status("LIMBO")).toBeUndefined();
  });
  it("keeps time in milliseconds, the 19-digit id and the decimals", () => {
    expect(parseXtOrder(documented, "BTC/USDT")).toMatchObject({
      id: "6216559590087220004",
      timestamp: 1655958915583,
      amount: "2",
      filled: "1.2",
      price: "40000",
      side: "Buy",
    });
  });
  it("drops all-zero balances of the documented shape", () => {
    expect(
      parseXtBalances({
        totalBtcAmount: 0,
        assets: [
          { currency: "x", currencyId: 0, frozenAmount: 0, availableAmount: 0, totalAmount: 0, convertBtcAmount: 0 },
        ],
      }),
    ).toEqual({});
  });
});

describe("xt through the built CLI", () => {
  const env = { SPOTDESK_API_KEY: XT_KEY, SPOTDESK_API_SECRET: XT_SECRET };

  it("buy, order, orders, cancel, batch, cancel-batch, cancel-all, balances end to end", async () => {
    await runCliScenario({
      id: "xt",
      mock,
      env,
      status: (o) => o.state,
      open: "NEW",
      canceled: "CANCELED",
      batch: THREE_ORDERS,
      balances: { USDT: { f: "1000.5", l: "120" } },
    });
  });
});

describe("xt off the happy path (issue 25)", () => {
  const ok = (result: unknown, status = 200) => ({ status, body: { rc: 0, mc: "SUCCESS", ma: [], result } });
  const sign = (text: string) => createHmac("sha256", XT_SECRET).update(text).digest("hex");
  const signedHeaders = (ts: string) =>
    `validate-algorithms=HmacSHA256&validate-appkey=${XT_KEY}&validate-recvwindow=5000&validate-timestamp=${ts}`;

  it("signs #METHOD#path alone when there is neither query nor body, and sends no Content-Type then", () => {
    const request = xtSignedRequest(credentials, 7, "GET", "/v4/balances");
    expect([request.query, request.body, request.headers]).toEqual([
      "",
      "",
      {
        "validate-algorithms": "HmacSHA256",
        "validate-appkey": XT_KEY,
        "validate-recvwindow": "5000",
        "validate-timestamp": "7",
        "validate-signature": sign(`${signedHeaders("7")}#GET#/v4/balances`),
      },
    ]);
    const post = xtSignedRequest(credentials, 7, "POST", "/v4/order", { b: "2", a: "1" }, { x: 1 });
    expect([post.query, post.headers["Content-Type"], post.headers["validate-signature"]]).toEqual([
      "a=1&b=2",
      "application/json",
      sign(`${signedHeaders("7")}#POST#/v4/order#a=1&b=2#{"x":1}`),
    ]);
  });

  it("reads an order without client id, type or state, and keeps XT's state in rawStatus", () => {
    expect(parseXtOrder({ orderId: 5, side: "SELL", time: 1700000000000 }, "BTC/USDT")).toStrictEqual({
      pair: "BTC/USDT",
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
    expect(parseXtOrder({ orderId: 5, side: "BUY", state: "NEW", type: "MARKET" }, "BTC/USDT")).toMatchObject({
      type: "market",
      rawStatus: "NEW",
    });
    expect(parseXtBalances({ assets: null })).toEqual({});
  });

  it("answers a placed order with filled 0 and type limit, and sells as SELL", async () => {
    expect(await xt.createOrder({ ...buy, side: "Sell" })).toMatchObject({ filled: "0", type: "limit", side: "Sell" });
    expect(lastBody()).toMatchObject({ side: "SELL" });
  });

  it("reads an answer that is not XT's envelope, rc 0 under HTTP 4xx, an unknown mc and no mc at all", async () => {
    mock.fake.replyNext({ status: 200, body: { nothing: true } });
    expect((await rejection(xt.fetchBalances())).message).toBe("ExchangeId: xt, msg: Unexpected answer (HTTP 200)");
    mock.fake.replyNext(ok({}, 400));
    expect((await rejection(xt.fetchBalances())).message).toContain("SUCCESS");
    mock.fake.replyNext({ status: 200, body: { rc: 1, mc: "SOMETHING_NEW", ma: [], result: null } });
    expect((await rejection(xt.fetchBalances())).message).toBe(
      "ExchangeId: xt, msg: SOMETHING_NEW (code SOMETHING_NEW)",
    );
    mock.fake.replyNext({ status: 503, body: { rc: 1, result: null } });
    expect((await rejection(xt.fetchBalances())).message).toBe("ExchangeId: xt, msg: HTTP 503");
  });

  it("reads a null result as no order, no open orders and no balances", async () => {
    mock.fake.replyNext(ok(null));
    expect((await rejection(xt.fetchOrder("BTC/USDT", "1"))).kind).toBe("order-not-found");
    mock.fake.replyNext(ok(null));
    await expect(xt.fetchOpenOrders("BTC/USDT")).resolves.toEqual([]);
    mock.fake.replyNext(ok(null));
    await expect(xt.fetchBalances()).resolves.toEqual({});
  });

  it("matches batch items by clientOrderId, else by index, and skips an item without orderId", async () => {
    const two = [
      { side: "Buy" as const, amount: "1", price: "1", clientOrderId: "aaaa" },
      { side: "Buy" as const, amount: "1", price: "2", clientOrderId: "bbbb" },
    ];
    mock.fake.replyNext(
      ok({
        items: [
          { index: 0, clientOrderId: "bbbb", orderId: "22", reject: false },
          { index: 1, clientOrderId: null, orderId: "11", reject: false },
        ],
      }),
    );
    expect((await xt.createBatch("BTC/USDT", two)).map((o) => [o.clientOrderId, o.id])).toEqual([
      ["bbbb", "22"],
      ["bbbb", "11"],
    ]);
    mock.fake.replyNext(
      ok({
        items: [
          { clientOrderId: "aaaa", orderId: null },
          { clientOrderId: "bbbb", orderId: "5" },
        ],
      }),
    );
    expect((await xt.createBatch("BTC/USDT", two)).map((o) => o.id)).toEqual(["5"]);
    mock.fake.replyNext(ok({ items: null }));
    await expect(xt.createBatch("BTC/USDT", two)).resolves.toEqual([]);
  });

  it("reads every documented AUTH_ code as auth under HTTP 200, and a missing order's id in its message", async () => {
    for (const code of ["AUTH_001", "AUTH_002", "AUTH_003", "AUTH_004", "AUTH_005", "AUTH_006", "AUTH_007"]) {
      mock.failNext(code);
      expect([code, (await rejection(xt.fetchBalances())).kind]).toEqual([code, "auth"]);
    }
    for (const code of ["AUTH_101", "AUTH_102", "AUTH_104", "AUTH_106"]) {
      mock.failNext(code);
      expect([code, (await rejection(xt.fetchBalances())).kind]).toEqual([code, "auth"]);
    }
    mock.fake.replyNext(ok(null));
    expect((await rejection(xt.fetchOrder("BTC/USDT", "77"))).message).toBe("ExchangeId: xt, msg: Order 77 not found");
  });

  it("places batch items by their index when no clientOrderId matches, and skips an index it did not send", async () => {
    const two = [
      { side: "Buy" as const, amount: "1", price: "1", clientOrderId: "aaaa" },
      { side: "Buy" as const, amount: "1", price: "2", clientOrderId: "bbbb" },
    ];
    mock.fake.replyNext(
      ok({
        items: [
          { index: 1, orderId: "B" },
          { index: 0, orderId: "A" },
          { index: 5, orderId: "X" },
        ],
      }),
    );
    expect((await xt.createBatch("BTC/USDT", two)).map((o) => [o.clientOrderId, o.id])).toEqual([
      ["bbbb", "B"],
      ["aaaa", "A"],
    ]);
  });

  it("does not re-send a timed-out create when the look-up itself fails, and calls the documented host by default", async () => {
    mock.server.intercept((req) => {
      if (req.path === "/v4/order" && req.method === "POST") return { status: 504, body: {}, delayMs: 1500 };
      if (req.path === "/v4/order") return { body: { rc: 1, mc: "AUTH_103", ma: [], result: null } };
      return undefined;
    });
    const slow = createExchange("xt", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    await rejection(slow.createOrder(buy));
    expect(routes()).toEqual(["POST /v4/order", "GET /v4/order"]);
    const adapter = new XtAdapter(credentials, {}) as unknown as { rest: { baseUrl: string } };
    expect(adapter.rest.baseUrl).toBe("https://sapi.xt.com");
  });

  it("takes the cancelId XT names, else the id asked", async () => {
    mock.fake.replyNext(ok({ cancelId: "99" }));
    await expect(xt.cancelOrder("BTC/USDT", "5")).resolves.toBe("99");
    mock.fake.replyNext(ok(null));
    await expect(xt.cancelOrder("BTC/USDT", "5")).resolves.toBe("5");
  });

  it("re-sends a timed-out create once the look-up finds nothing, and only then", async () => {
    let lost = false;
    mock.server.intercept((req) => {
      if (req.path !== "/v4/order" || req.method !== "POST" || lost) return undefined;
      lost = true;
      return { status: 504, body: {}, delayMs: 1500 };
    });
    const slow = createExchange("xt", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect([...mock.orders.keys()]).toEqual([order.id]);
    expect(routes()).toEqual(["POST /v4/order", "GET /v4/order", "POST /v4/order"]);
  });
});

describe("xt fetchPairs (docs/exchange-rules.md#pairs)", () => {
  const keyless = () => new XtAdapter({ api: "", secret: "" }, { baseUrl: mock.url });
  const answer = (result: unknown) => ({ body: { rc: 0, mc: "SUCCESS", ma: [], result } });

  it("lists the ONLINE symbols open to trading, sorted, with the filters' steps or else the precisions", async () => {
    await expect(keyless().fetchPairs()).resolves.toEqual([
      { pair: "BTC/USDT", tick: "0.01", lot: "0.000001", minAmount: "0.00001", minNotional: "1" },
      { pair: "XT/USDT", tick: "0.0001", lot: "0.01" },
    ]);
    // one unsigned call to the documented path on the base URL given
    expect(mock.server.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual(["GET /v4/public/symbol?"]);
    expect(mock.server.requests[0]!.headers["validate-signature"]).toBeUndefined();
  });

  it("leaves out a suspended, a delisted and a trading-disabled symbol", async () => {
    const listed = (await new XtAdapter(credentials, { baseUrl: mock.url }).fetchPairs()).map((p) => p.pair);
    const all = XT_MOCK_SYMBOLS.symbols.map((s) => s.symbol);
    expect(all).toEqual(expect.arrayContaining(["pepe_usdt", "luna_usdt", "old_btc"]));
    expect(listed).toEqual(["BTC/USDT", "XT/USDT"]);
  });

  it("takes tick and lot from the filters over the precisions, the precisions without filters, and leaves out a symbol closed to the API", async () => {
    const [first] = XT_MOCK_SYMBOLS.symbols;
    const row = (base: string, more: Record<string, unknown>) => ({
      ...first,
      symbol: `${base}_usdt`,
      baseCurrency: base,
      ...more,
    });
    const symbols = [
      row("step", {
        pricePrecision: 2,
        quantityPrecision: 6,
        filters: [
          { filter: "PRICE", min: null, max: null, tickSize: "0.05" },
          { filter: "QUANTITY", min: "2", max: null, tickSize: "0.5" },
          { filter: "QUOTE_QTY", min: "3" },
        ],
      }),
      row("bare", { pricePrecision: 4, quantityPrecision: 2, filters: null }),
      row("none", { pricePrecision: 3, quantityPrecision: 1, filters: [] }),
      row("noapi", { openapiEnabled: false }),
    ];
    mock.server.intercept((req) => (req.path === "/v4/public/symbol" ? answer({ symbols }) : undefined));
    await expect(keyless().fetchPairs()).resolves.toEqual([
      { pair: "BARE/USDT", tick: "0.0001", lot: "0.01" },
      { pair: "NONE/USDT", tick: "0.001", lot: "0.1" },
      { pair: "STEP/USDT", tick: "0.05", lot: "0.5", minAmount: "2", minNotional: "3" },
    ]);
  });

  it("names the field of a malformed answer", async () => {
    const [first] = XT_MOCK_SYMBOLS.symbols;
    const filters = first!.filters.map((f) => (f.filter === "QUANTITY" ? { ...f, tickSize: "0.0l" } : f));
    mock.server.intercept((req) =>
      req.path === "/v4/public/symbol" ? answer({ symbols: [{ ...first, filters }] }) : undefined,
    );
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe(
      'Unexpected answer from xt: result.symbols[0].filters[4].tickSize expected a decimal number, got "0.0l"',
    );
  });
});
