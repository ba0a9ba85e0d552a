import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rejection, runCliScenario, THREE_ORDERS } from "../../test/exchanges/cli-scenario.js";
import { runCli } from "../../test/exchanges/run-cli.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import {
  BITMART_KEY,
  BITMART_MEMO,
  BITMART_MOCK_SYMBOLS,
  BITMART_SECRET,
  type BitmartMock,
  startBitmartMock,
} from "./mock.js";
import { BitmartAdapter, bitmartSignedRequest, parseBitmartBalances, parseBitmartOrder } from "./rest.js";

const credentials = { api: BITMART_KEY, secret: BITMART_SECRET, password: BITMART_MEMO };
let mock: BitmartMock;
let bitmart: ExchangeAdapter;

beforeEach(async () => {
  mock = await startBitmartMock();
  bitmart = createExchange("bitmart", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

const buy = { pair: "BTC/USDT", side: "Buy" as const, amount: "0.01", price: "30000" };
const routes = () => mock.server.requests.map((r) => `${r.method} ${r.path}`);
const lastBody = () => JSON.parse(mock.server.requests.at(-1)!.body) as Record<string, unknown>;

describe("bitmart signing (official docs, Signature example)", () => {
  it("reproduces the documented X-BM-SIGN c31dc326… over 1589793796145#test001#{body}", () => {
    // The docs' example body has keys symbol, price, count in that order; JSON.stringify keeps it.
    const request = bitmartSignedRequest(credentials, 1589793796145, "POST", "/spot/v1/test-post", {
      symbol: "BTC_USDT",
      price: "8600",
      count: "100",
    });
    expect(request.body).toBe('{"symbol":"BTC_USDT","price":"8600","count":"100"}');
    expect(request.headers).toMatchObject({
      "X-BM-KEY": BITMART_KEY,
      "X-BM-TIMESTAMP": "1589793796145",
      "X-BM-SIGN": "c31dc326bf87f38bfb49a3f8494961abfa291bd549d0d98d9578e87516cee46d",
    });
  });

  it("signs a GET's query string in place of the body", () => {
    const request = bitmartSignedRequest(credentials, 1, "GET", "/account/v1/wallet", { currency: "USDT" });
    expect(request.query).toBe("currency=USDT");
    expect(request.body).toBe("");
  });
});

describe("bitmart operations (docs/exchange-rules.md#operations, #calls) against the signature-checking mock", () => {
  it("creates a limit buy on BTC_USDT through /spot/v2/submit_order with a 32-hex client_order_id (docs/exchange-rules.md#entities, docs/decisions.md#d11)", async () => {
    const order = await bitmart.createOrder(buy);
    expect(routes()).toEqual(["POST /spot/v2/submit_order"]);
    const body = lastBody();
    expect(body).toMatchObject({ symbol: "BTC_USDT", side: "buy", type: "limit", size: "0.01", price: "30000" });
    expect(body.client_order_id).toMatch(/^[0-9a-f]{32}$/);
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      id: [...mock.orders.keys()][0],
      clientOrderId: body.client_order_id,
      status: "open",
      side: "Buy",
    });
  });

  it("creates a batch through /spot/v4/batch_orders (orderParams, recvWindow 5000)", async () => {
    const orders = await bitmart.createBatch("BTC/USDT", [
      { side: "Buy", amount: "0.01", price: "29000" },
      { side: "Sell", amount: "0.01", price: "33000" },
    ]);
    expect(orders.map((o) => o.id)).toEqual([...mock.orders.keys()]);
    const body = lastBody();
    expect(body).toMatchObject({ symbol: "BTC_USDT", recvWindow: 5000 });
    expect((body.orderParams as { clientOrderId: string }[]).map((p) => p.clientOrderId)).toEqual(
      orders.map((o) => o.clientOrderId),
    );
  });

  it("fails a batch with the nested error code of the batch answer", async () => {
    const error = await rejection(
      bitmart.createBatch("BTC/USDT", [
        { side: "Buy", amount: "0.01", price: "29000", clientOrderId: "same" } as never,
        { side: "Buy", amount: "0.01", price: "29000", clientOrderId: "same" } as never,
      ]),
    );
    expect(error).toMatchObject({ kind: "invalid-order", code: 50042 });
  });

  it("rejects batches over 10 with the seed's messages before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    const items = Array.from({ length: 11 }, () => ({ side: "Buy" as const, amount: "1", price: "1" }));
    expect((await rejection(bitmart.createBatch("BTC/USDT", items))).message).toBe(
      "ExchangeId: bitmart, msg: Maximum for 'createBatch' is: 10",
    );
    expect(
      (
        await rejection(
          bitmart.cancelBatch(
            "BTC/USDT",
            Array.from({ length: 11 }, (_, i) => String(i)),
          ),
        )
      ).message,
    ).toBe("ExchangeId: bitmart, msg: Maximum for 'cancelBatch' is: 10");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels one (/spot/v3/cancel_order), a batch (/spot/v4/cancel_orders) and all (/spot/v4/cancel_all)", async () => {
    const [a, b, c, d] = await Promise.all(["1", "2", "3", "4"].map((p) => bitmart.createOrder({ ...buy, price: p })));
    await expect(bitmart.cancelOrder("BTC/USDT", a!.id)).resolves.toBe(a!.id);
    expect(lastBody()).toEqual({ symbol: "BTC_USDT", order_id: a!.id });
    await expect(bitmart.cancelBatch("BTC/USDT", [b!.id, c!.id])).resolves.toEqual([b!.id, c!.id]);
    expect(lastBody()).toMatchObject({ symbol: "BTC_USDT", orderIds: [b!.id, c!.id], recvWindow: 5000 });
    await expect(bitmart.cancelAll("BTC/USDT")).resolves.toEqual([]);
    expect(mock.orders.get(d!.id)!.state).toBe("canceled");
    expect(routes().slice(-3)).toEqual([
      "POST /spot/v3/cancel_order",
      "POST /spot/v4/cancel_orders",
      "POST /spot/v4/cancel_all",
    ]);
  });

  it("sends every documented required parameter on every call; the mock refuses a call without one (50010, 50011, 50000)", async () => {
    const [a, b] = await bitmart.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Sell", amount: "2", price: "200" },
    ]);
    await bitmart.createOrder(buy);
    await bitmart.fetchOrder("BTC/USDT", a!.id);
    await bitmart.cancelOrder("BTC/USDT", a!.id);
    await bitmart.cancelBatch("BTC/USDT", [b!.id]);
    const order = { type: "limit" };
    expect(mock.server.requests.map((r) => [r.path, JSON.parse(r.body)])).toEqual([
      [
        "/spot/v4/batch_orders",
        expect.objectContaining({
          symbol: "BTC_USDT",
          orderParams: [
            expect.objectContaining({ ...order, side: "buy", size: "1", price: "100" }),
            expect.objectContaining({ ...order, side: "sell", size: "2", price: "200" }),
          ],
        }),
      ],
      [
        "/spot/v2/submit_order",
        expect.objectContaining({ ...order, symbol: "BTC_USDT", side: "buy", size: "0.01", price: "30000" }),
      ],
      ["/spot/v4/query/order", expect.objectContaining({ orderId: a!.id })],
      ["/spot/v3/cancel_order", { symbol: "BTC_USDT", order_id: a!.id }],
      ["/spot/v4/cancel_orders", expect.objectContaining({ symbol: "BTC_USDT", orderIds: [b!.id] })],
    ]);
    for (const [path, params, answer] of [
      [
        "/spot/v2/submit_order",
        { symbol: "BTC_USDT", side: "buy", type: "limit", price: "1" },
        [50010, "RequestParam size is required"],
      ],
      [
        "/spot/v4/batch_orders",
        { symbol: "BTC_USDT", orderParams: [{ side: "buy", type: "limit", size: "1" }] },
        [50011, "RequestParam price is required"],
      ],
      [
        "/spot/v2/submit_order",
        { side: "buy", type: "limit", size: "1", price: "1" },
        [50000, "Bad Request: symbol is required"],
      ],
      [
        "/spot/v3/cancel_order",
        { symbol: "BTC_USDT" },
        [50000, "Bad Request: order_id or client_order_id is required"],
      ],
      [
        "/spot/v4/cancel_orders",
        { symbol: "BTC_USDT" },
        [50000, "Bad Request: orderIds or clientOrderIds is required"],
      ],
      ["/spot/v4/query/order", {}, [50000, "Bad Request: orderId is required"]],
      ["/spot/v4/query/client-order", {}, [50000, "Bad Request: clientOrderId is required"]],
    ] as const) {
      const request = bitmartSignedRequest(credentials, Date.now(), "POST", path, params);
      const bare = await fetch(`${mock.url}${path}`, { method: "POST", headers: request.headers, body: request.body });
      const json = (await bare.json()) as { code: number; message: string };
      expect([path, bare.status, json.code, json.message]).toEqual([path, 400, ...answer]);
    }
    expect(mock.orders.size).toBe(3);
  });

  it("lists 205 open orders whole, not 200: pages of 200 newest first, each next one ending at the last order's creation time (docs/exchange-rules.md#paging)", async () => {
    const placed = await Promise.all(
      Array.from({ length: 205 }, (_, i) => bitmart.createOrder({ ...buy, price: String(i + 1) })),
    );
    await bitmart.createOrder({ ...buy, pair: "ETH/USDT" });
    // creation times one ms apart, oldest first, except that the 5th to the 10th oldest share one
    // millisecond: the first page (the newest 200) ends inside it
    const base = 1_700_000_000_000;
    placed.forEach((o, i) => {
      mock.orders.get(o.id)!.createTime = base + (i >= 4 && i < 10 ? 4 : i);
    });
    mock.server.requests.length = 0;
    const open = await bitmart.fetchOpenOrders("BTC/USDT");
    expect(open).toHaveLength(205);
    expect(new Set(open.map((o) => o.id))).toEqual(new Set(placed.map((o) => o.id)));
    expect(open.every((o) => o.pair === "BTC/USDT")).toBe(true);
    const bodies = mock.server.requests.map((r) => JSON.parse(r.body) as Record<string, unknown>);
    expect(bodies).toEqual([
      expect.objectContaining({ symbol: "BTC_USDT", orderMode: "spot", limit: 200 }),
      expect.objectContaining({ symbol: "BTC_USDT", orderMode: "spot", limit: 200, endTime: base + 4 }),
    ]);
    expect(bodies[0]!.endTime).toBeUndefined();
  });

  it("a partly failed batch cancel resolves to the ids in successIds; the failed ones are not among them", async () => {
    const a = await bitmart.createOrder(buy);
    const b = await bitmart.createOrder({ ...buy, price: "30001" });
    await bitmart.cancelOrder("BTC/USDT", b.id);
    await expect(bitmart.cancelBatch("BTC/USDT", [b.id, a.id, "777"])).resolves.toEqual([a.id]);
    expect(mock.orders.get(a.id)!.state).toBe("canceled");
  });

  it("reports a cancel of an order no longer open (result false) as order-not-found", async () => {
    const a = await bitmart.createOrder(buy);
    await bitmart.cancelOrder("BTC/USDT", a.id);
    expect((await rejection(bitmart.cancelOrder("BTC/USDT", a.id))).kind).toBe("order-not-found");
    expect(await rejection(bitmart.cancelBatch("BTC/USDT", [a.id]))).toMatchObject({ kind: "order-not-found" });
  });

  it("fetches one order (POST /spot/v4/query/order) and the open orders (POST /spot/v4/query/open-orders, limit 200)", async () => {
    const a = await bitmart.createOrder(buy);
    const b = await bitmart.createOrder({ ...buy, amount: "0.02" });
    await bitmart.cancelOrder("BTC/USDT", b.id);
    expect(await bitmart.fetchOrder("BTC/USDT", b.id)).toMatchObject({
      id: b.id,
      status: "canceled",
      rawStatus: "canceled",
      amount: "0.02",
      clientOrderId: b.clientOrderId,
    });
    expect((await bitmart.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([a.id]);
    expect(lastBody()).toMatchObject({ symbol: "BTC_USDT", orderMode: "spot", limit: 200, recvWindow: 5000 });
  });

  it("fetches balances from GET /account/v1/wallet: available/frozen, zero dropped, upper-cased, long numbers exact (docs/exchange-rules.md#entities, #limits)", async () => {
    await expect(bitmart.fetchBalances()).resolves.toEqual({
      USDT: { f: "1000", l: "12.5" },
      BTC: { f: "0.1234567890123456789", l: "0" },
    });
    expect(routes()).toEqual(["GET /account/v1/wallet"]);
  });
});

describe("bitmart errors (docs/exchange-rules.md#errors; BitMart's documented success is code 1000)", () => {
  it("answers a wrong secret with 30005 as auth after exactly one request (no retry)", async () => {
    const wrong = new BitmartAdapter({ ...credentials, secret: "wrong-secret-value" }, { baseUrl: mock.url });
    const error = await rejection(wrong.createOrder(buy));
    expect(error).toMatchObject({ kind: "auth", code: 30005 });
    expect(error.message).toBe("ExchangeId: bitmart, msg: Header X-BM-SIGN is wrong (code 30005)");
    expect(error.message).not.toContain("wrong-secret-value");
    expect(mock.server.requests).toHaveLength(1);
    expect(mock.orders.size).toBe(0);
  });

  it("answers a wrong memo (passphrase) with 30005 as auth", async () => {
    const wrong = new BitmartAdapter({ ...credentials, password: "other-memo" }, { baseUrl: mock.url });
    expect(await rejection(wrong.fetchOpenOrders("BTC/USDT"))).toMatchObject({ kind: "auth", code: 30005 });
  });

  it("answers a clock outside the recvWindow with 30007 as auth", async () => {
    const late = new BitmartAdapter(credentials, { baseUrl: mock.url, now: () => Date.now() - 6000 });
    expect(await rejection(late.fetchOpenOrders("BTC/USDT"))).toMatchObject({ kind: "auth", code: 30007 });
  });

  it("maps 50020 to insufficient-funds and 50005 to order-not-found", async () => {
    mock.failNext(50020, "Balance not enough");
    expect(await rejection(bitmart.createOrder(buy))).toMatchObject({ kind: "insufficient-funds", code: 50020 });
    expect(await rejection(bitmart.fetchOrder("BTC/USDT", "42"))).toMatchObject({
      kind: "order-not-found",
      code: 50005,
    });
  });

  it("maps HTTP 429 / 30013 to rate-limit with one X-BM-RateLimit-Reset window (seconds) as the hint", async () => {
    mock.rateLimitNext();
    expect(await rejection(bitmart.fetchBalances())).toMatchObject({
      kind: "rate-limit",
      code: 30013,
      retryAfterMs: 2000,
    });
  });

  it("maps HTTP 418 (IP blocked after 429s) to rate-limit", async () => {
    mock.server.intercept(() => ({ status: 418, body: "" }));
    expect((await rejection(bitmart.fetchBalances())).kind).toBe("rate-limit");
  });
});

describe("bitmart time-out on create (docs/exchange-rules.md#contract: a create is never sent twice blindly)", () => {
  it("looks the order up by clientOrderId after a time-out and returns it; the mock holds one order", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("bitmart", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: only!.orderId, clientOrderId: only!.clientOrderId, status: "open" });
    expect(routes()).toEqual(["POST /spot/v2/submit_order", "POST /spot/v4/query/client-order"]);
    expect(lastBody().clientOrderId).toBe(only!.clientOrderId);
  });
});

describe("bitmart status and timestamp rules (docs/exchange-rules.md#entities, #states, docs/decisions.md#d9) with the documented order example", () => {
  const documented = {
    orderId: "118100034543076010",
    clientOrderId: "118100034543076010",
    symbol: "BTC_USDT",
    side: "buy",
    orderMode: "spot",
    type: "limit",
    state: "filled",
    cancelSource: "",
    stpMode: "cancel_maker",
    price: "48800.00",
    priceAvg: "39999.00",
    size: "0.10000",
    filledSize: "0.10000",
    notional: "4880.00000",
    filledNotional: "3999.90000",
    createTime: 1681701557927,
    updateTime: 1681701559408,
  };
  const status = (state: string) => parseBitmartOrder({ ...documented, state }, "BTC/USDT").status;

  it("maps new and partially_filled to open, filled to closed, canceled to canceled", () => {
    expect(["new", "partially_filled", "filled", "canceled"].map(status)).toEqual([
      "open",
      "open",
      "closed",
      "canceled",
    ]);
  });
  it("maps partially_canceled to canceled by the general rule (only mexc's exact 'PARTIALLY_CANCELED' is open, docs/decisions.md#d9) and keeps the raw word", () => {
    expect(parseBitmartOrder({ ...documented, state: "partially_canceled" }, "BTC/USDT")).toMatchObject({
      status: "canceled",
      rawStatus: "partially_canceled",
    });
  });
  it("yields undefined for an unknown status", () => {
    expect(status("mystery")).toBeUndefined();
  });
  it("keeps createTime in milliseconds, the 18-digit id and the decimals exact", () => {
    expect(parseBitmartOrder(documented, "BTC/USDT")).toMatchObject({
      id: "118100034543076010",
      timestamp: 1681701557927,
      price: "48800",
      amount: "0.1",
      filled: "0.1",
      side: "Buy",
    });
  });
  it("drops all-zero balances of the documented wallet shape", () => {
    expect(
      parseBitmartBalances({
        wallet: [
          { currency: "USDT", name: "Tether USD", available: "0.00000000", frozen: "0.00000000", unAvailable: "0" },
        ],
      }),
    ).toEqual({});
  });
});

describe("bitmart through the built CLI", () => {
  const env = {
    SPOTDESK_API_KEY: BITMART_KEY,
    SPOTDESK_API_SECRET: BITMART_SECRET,
    SPOTDESK_API_PASSWORD: BITMART_MEMO,
  };

  it("buy, order, orders, cancel, batch, cancel-batch, cancel-all, balances end to end", async () => {
    const base = await runCliScenario({
      id: "bitmart",
      mock,
      env,
      status: (o) => o.state,
      open: "new",
      canceled: "canceled",
      batch: THREE_ORDERS,
      balances: { USDT: { f: "1000", l: "12.5" } },
    });
    const noMemo = await runCli([...base, "balances"], {
      SPOTDESK_API_KEY: BITMART_KEY,
      SPOTDESK_API_SECRET: BITMART_SECRET,
    });
    expect(noMemo.code).toBe(3);
  });
});

describe("bitmart off the happy path (issue 25)", () => {
  const ok = (data: unknown, status = 200) => ({ status, body: { code: 1000, message: "OK", trace: "t", data } });
  const sign = (text: string) => createHmac("sha256", BITMART_SECRET).update(text).digest("hex");

  it("signs a GET's query without Content-Type and a POST's JSON body with it; no memo signs as empty", () => {
    const get = bitmartSignedRequest(credentials, 7, "GET", "/p", { a: "1" });
    expect([get.query, get.body, get.headers]).toEqual([
      "a=1",
      "",
      { "X-BM-KEY": BITMART_KEY, "X-BM-TIMESTAMP": "7", "X-BM-SIGN": sign(`7#${BITMART_MEMO}#a=1`) },
    ]);
    const post = bitmartSignedRequest({ api: BITMART_KEY, secret: BITMART_SECRET }, 7, "POST", "/p", { a: "1" });
    expect([post.query, post.body, post.headers]).toEqual([
      "",
      '{"a":"1"}',
      {
        "X-BM-KEY": BITMART_KEY,
        "X-BM-TIMESTAMP": "7",
        "X-BM-SIGN": sign('7##{"a":"1"}'),
        "Content-Type": "application/json",
      },
    ]);
  });

  it("reads an order without client id or type, keeps the type lower-case, and no rawStatus without a state", () => {
    const order = parseBitmartOrder(
      { orderId: 5, side: "sell", size: "1", price: "2", createTime: 1700000000000 },
      "BTC/USDT",
    );
    expect(order).toStrictEqual({
      pair: "BTC/USDT",
      id: "5",
      clientOrderId: "",
      price: "2",
      amount: "1",
      filled: "0",
      type: "limit",
      side: "Sell",
      status: undefined,
      timestamp: 1700000000000,
    });
    expect(parseBitmartOrder({ orderId: 5, side: "buy", type: "LIMIT_MAKER" }, "BTC/USDT").type).toBe("limit_maker");
  });

  it("answers a placed order with filled 0 and type limit, and a sell as side sell", async () => {
    expect(await bitmart.createOrder({ ...buy, side: "Sell" })).toMatchObject({ filled: "0", type: "limit" });
    expect(lastBody()).toMatchObject({ side: "sell" });
  });

  it("reads an answer that is not BitMart's envelope, code 1000 under HTTP 4xx, and a failure without message", async () => {
    mock.fake.replyNext({ status: 200, body: { nothing: true } });
    expect((await rejection(bitmart.fetchBalances())).message).toBe(
      "ExchangeId: bitmart, msg: Unexpected answer (HTTP 200)",
    );
    mock.fake.replyNext(ok({}, 400));
    expect(await rejection(bitmart.fetchBalances())).toMatchObject({
      message: "ExchangeId: bitmart, msg: OK (code 1000)",
    });
    mock.fake.replyNext({ status: 400, body: { code: 50000, trace: "t" } });
    expect((await rejection(bitmart.fetchBalances())).message).toBe("ExchangeId: bitmart, msg: HTTP 400 (code 50000)");
  });

  it("takes X-BM-RateLimit-Reset only when it is a positive number of seconds (else the default 1000 ms)", async () => {
    for (const [reset, hint] of [
      ["3", 3000],
      ["0", 1000],
      ["-2", 1000],
      ["soon", 1000],
    ] as const) {
      mock.fake.replyNext({
        status: 200,
        headers: { "X-BM-RateLimit-Reset": reset },
        body: { code: 30013, message: "Request too many requests", trace: "t", data: {} },
      });
      const error = await rejection(bitmart.fetchBalances());
      expect([reset, error.kind, error.retryAfterMs]).toEqual([reset, "rate-limit", hint]);
    }
  });

  it("reads BitMart's codes by kind under HTTP 200 too (auth, rate-limit, order-not-found)", async () => {
    for (const [code, kind] of [
      [30005, "auth"],
      [53000, "auth"],
      [51008, "rate-limit"],
      [50032, "order-not-found"],
    ] as const) {
      mock.failNext(code, "x", 200);
      expect([code, (await rejection(bitmart.fetchBalances())).kind]).toEqual([code, kind]);
    }
  });

  it("fails a create whose answer has no order_id (the docs: success only when order_id is returned)", async () => {
    mock.fake.replyNext(ok({}));
    expect(await rejection(bitmart.createOrder(buy))).toMatchObject({
      kind: "invalid-order",
      message: "ExchangeId: bitmart, msg: Order was not placed: no order_id in the answer",
    });
  });

  it("reads a batch's nested failure (without msg: 'Batch failed'), a flat orderIds list, and a short list as not placed", async () => {
    const two = [
      { side: "Buy" as const, amount: "1", price: "1" },
      { side: "Buy" as const, amount: "1", price: "2" },
    ];
    mock.fake.replyNext(ok({ code: 50020, data: null }));
    expect(await rejection(bitmart.createBatch("BTC/USDT", two))).toMatchObject({
      kind: "insufficient-funds",
      message: "ExchangeId: bitmart, msg: Batch failed (code 50020)",
    });
    mock.fake.replyNext(ok({ orderIds: ["11", "12"] }));
    expect((await bitmart.createBatch("BTC/USDT", two)).map((o) => o.id)).toEqual(["11", "12"]);
    mock.fake.replyNext(ok({ code: 0, msg: "success", data: { orderIds: ["11"] } }));
    expect(await rejection(bitmart.createBatch("BTC/USDT", two))).toMatchObject({
      kind: "invalid-order",
      message: "ExchangeId: bitmart, msg: One of orders was not placed (1 of 2 placed)",
    });
    mock.fake.replyNext(ok({ code: 0, msg: "success", data: null }));
    expect((await rejection(bitmart.createBatch("BTC/USDT", two))).message).toContain("(0 of 2 placed)");
  });

  it("names the order of a cancel that found it closed, and every id of a batch cancel that cancelled none", async () => {
    const a = await bitmart.createOrder(buy);
    await bitmart.cancelOrder("BTC/USDT", a.id);
    expect((await rejection(bitmart.cancelOrder("BTC/USDT", a.id))).message).toBe(
      `ExchangeId: bitmart, msg: Cancel failed: order ${a.id} was already filled or canceled`,
    );
    expect((await rejection(bitmart.cancelBatch("BTC/USDT", [a.id, "9"]))).message).toBe(
      `ExchangeId: bitmart, msg: Cancel failed for ${a.id}, 9`,
    );
    mock.fake.replyNext(ok({ failIds: null }));
    await expect(bitmart.cancelBatch("BTC/USDT", ["9"])).resolves.toEqual([]);
    await bitmart.cancelAll("BTC/USDT");
    expect(lastBody()).toEqual({ symbol: "BTC_USDT" });
  });

  it("does not re-send a timed-out create when the look-up itself fails, and calls the documented host by default", async () => {
    mock.server.intercept((req) => {
      if (req.path === "/spot/v2/submit_order") return { status: 504, body: {}, delayMs: 1500 };
      if (req.path === "/spot/v4/query/client-order")
        return { status: 401, body: { code: 30005, message: "Header X-BM-SIGN is wrong", trace: "t", data: {} } };
      return undefined;
    });
    const slow = createExchange("bitmart", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    await rejection(slow.createOrder(buy));
    expect(routes()).toEqual(["POST /spot/v2/submit_order", "POST /spot/v4/query/client-order"]);
    const adapter = new BitmartAdapter(credentials, {}) as unknown as { rest: { baseUrl: string } };
    expect(adapter.rest.baseUrl).toBe("https://api-cloud.bitmart.com");
  });

  it("re-sends a timed-out create once the look-up finds nothing, and only then", async () => {
    let lost = false;
    mock.server.intercept((req) => {
      if (req.path !== "/spot/v2/submit_order" || lost) return undefined;
      lost = true;
      return { status: 504, body: {}, delayMs: 1500 };
    });
    const slow = createExchange("bitmart", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect([...mock.orders.keys()]).toEqual([order.id]);
    expect(routes()).toEqual([
      "POST /spot/v2/submit_order",
      "POST /spot/v4/query/client-order",
      "POST /spot/v2/submit_order",
    ]);
  });
});

describe("bitmart fetchPairs (docs/exchange-rules.md#pairs)", () => {
  const keyless = () => new BitmartAdapter({ api: "", secret: "" }, { baseUrl: mock.url });

  it("lists the pairs trading, sorted: tick from price_max_precision, lot quote_increment, the minimums", async () => {
    await expect(keyless().fetchPairs()).resolves.toEqual([
      { pair: "BMX/ETH", tick: "0.000000001", lot: "0.1", minAmount: "0.1", minNotional: "0.002" },
      { pair: "BTC/USDT", tick: "0.01", lot: "0.00001", minAmount: "0.00001", minNotional: "5" },
      { pair: "GXC/BTC", tick: "0.00000001", lot: "1", minAmount: "1", minNotional: "0.0001" },
    ]);
    // one call to the documented path on the base URL given, without key or signature
    expect(mock.server.requests.map((r) => `${r.method} ${r.path}?${r.query}`)).toEqual([
      "GET /spot/v1/symbols/details?",
    ]);
    expect(mock.server.requests[0]!.headers["x-bm-key"]).toBeUndefined();
  });

  it("leaves out a pair in pre-trade", async () => {
    const listed = (await new BitmartAdapter(credentials, { baseUrl: mock.url }).fetchPairs()).map((p) => p.pair);
    expect(BITMART_MOCK_SYMBOLS.symbols.find((s) => s.trade_status === "pre-trade")?.symbol).toBe("NEWT_USDT");
    expect(listed).not.toContain("NEWT/USDT");
  });

  it("takes the one minimum amount given when the other side has none, and none when neither has", async () => {
    const [first] = BITMART_MOCK_SYMBOLS.symbols;
    const row = (base: string, buy: string | undefined, sell: string | undefined) => {
      const { min_buy_amount: _buy, min_sell_amount: _sell, ...rest } = first!;
      return {
        ...rest,
        symbol: `${base}_BTC`,
        base_currency: base,
        ...(buy === undefined ? {} : { min_buy_amount: buy }),
        ...(sell === undefined ? {} : { min_sell_amount: sell }),
      };
    };
    mock.server.intercept((req) =>
      req.path === "/spot/v1/symbols/details"
        ? {
            body: {
              code: 1000,
              message: "OK",
              trace: "t",
              data: {
                symbols: [
                  row("BUYMIN", "0.003", undefined),
                  row("SELLMIN", undefined, "0.004"),
                  row("NOMIN", undefined, undefined),
                ],
              },
            },
          }
        : undefined,
    );
    const minimums = (await keyless().fetchPairs()).map((p) => [p.pair, p.minNotional]);
    expect(minimums).toEqual([
      ["BUYMIN/BTC", "0.003"],
      ["NOMIN/BTC", undefined],
      ["SELLMIN/BTC", "0.004"],
    ]);
  });

  it("names the field of a malformed answer", async () => {
    const [first] = BITMART_MOCK_SYMBOLS.symbols;
    mock.server.intercept((req) =>
      req.path === "/spot/v1/symbols/details"
        ? {
            body: {
              code: 1000,
              message: "OK",
              trace: "t",
              data: { symbols: [{ ...first, price_max_precision: null }] },
            },
          }
        : undefined,
    );
    const error = await rejection(keyless().fetchPairs());
    expect(error.detail).toBe(
      "Unexpected answer from bitmart: data.symbols[0].price_max_precision expected text or a number, got null",
    );
  });
});
