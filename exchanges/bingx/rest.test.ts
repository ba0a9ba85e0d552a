import { createHmac } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { placedBefore } from "../../lib/errors.js";
import { rejection, runCliScenario, THREE_ORDERS } from "../../test/exchanges/cli-scenario.js";
import { parseQuery } from "../core/testing/http-mock.js";
import { listExchangePairs } from "../open.js";
import { createExchange } from "../registry.js";
import type { ExchangeAdapter } from "../types.js";
import { BINGX_KEY, BINGX_SECRET, BINGX_SYMBOLS, type BingxMock, bingxSignedString, startBingxMock } from "./mock.js";
import {
  BINGX_BASE_URL,
  BingxAdapter,
  bingxSignature,
  bingxSignedQuery,
  bingxSignedRequest,
  parseBingxBalances,
  parseBingxOrder,
} from "./rest.js";

const credentials = { api: BINGX_KEY, secret: BINGX_SECRET };
let mock: BingxMock;
let bingx: ExchangeAdapter;

beforeEach(async () => {
  mock = await startBingxMock();
  bingx = createExchange("bingx", credentials, { baseUrl: mock.url });
});
afterEach(async () => {
  await mock.close();
});

const buy = { pair: "BTC/USDT", side: "Buy" as const, amount: "0.01", price: "30000" };
const routes = () => mock.server.requests.map((r) => `${r.method} ${r.path}`);

describe("bingx signing (official spot docs, Signature Description)", () => {
  it("reproduces the docs' worked examples (Signature Description: query string, and query plus body)", () => {
    const secret = "UuGuyEGt6ZEkpUObCYCmIfh0elYsZVh80jlYwpJuRZEw70t6vomMH7Sjmf94ztSI";
    expect(bingxSignature(secret, "quoteOrderQty=20&side=BUY&symbol=ETHUSDT&timestamp=1649404670162&type=MARKET")).toBe(
      "428a3c383bde514baff0d10d3c20e5adfaacaf799e324546dafe5ccc480dd827",
    );
    expect(bingxSignature(secret, "quoteOrderQty=20&side=BUY&symbol=ETHUSDTtimestamp=1649404670162&type=MARKET")).toBe(
      "94e0b4925060a615e1e372d4c929015d4b59d3c89067dc0beeafcfb33a6d8d10",
    );
  });

  it("signs the parameters spliced in the order sent, timestamp and recvWindow 5000 included, hex lower-case", () => {
    const query = bingxSignedQuery("sec", { symbol: "BTC-USDT" }, 1696751141337);
    const [sent, signature] = query.split("&signature=");
    expect(sent).toBe("symbol=BTC-USDT&timestamp=1696751141337&recvWindow=5000");
    expect(signature).toBe(createHmac("sha256", "sec").update(sent!).digest("hex"));
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
  });

  it("signs the original batch JSON and URL-encodes only the value on the wire (BingX URL encoding scenario)", () => {
    const data = '[{"symbol":"BTC-USDT","price":"1"}]';
    const query = bingxSignedQuery("sec", { data }, 1);
    expect(query.startsWith(`data=${encodeURIComponent(data)}&timestamp=1&recvWindow=5000&signature=`)).toBe(true);
    const signed = bingxSignedString(query)!;
    expect(signed.payload).toBe(`data=${data}&timestamp=1&recvWindow=5000`);
    expect(signed.signature).toBe(createHmac("sha256", "sec").update(signed.payload).digest("hex"));
  });
});

describe("bingx operations (docs/exchange-rules.md#operations, #calls) against the signature-checking mock", () => {
  it("creates a LIMIT GTC BUY on BTC-USDT with a 32-hex newClientOrderId (docs/exchange-rules.md#entities, docs/decisions.md#d11)", async () => {
    const order = await bingx.createOrder(buy);
    const req = mock.server.requests.at(-1)!;
    expect(`${req.method} ${req.path}`).toBe("POST /openApi/spot/v1/trade/order");
    expect(req.headers["x-bx-apikey"]).toBe(BINGX_KEY);
    const q = parseQuery(req.query);
    expect(q).toMatchObject({
      symbol: "BTC-USDT",
      side: "BUY",
      type: "LIMIT",
      quantity: "0.01",
      price: "30000",
      timeInForce: "GTC",
      recvWindow: "5000",
    });
    expect(q.newClientOrderId).toMatch(/^[0-9a-f]{32}$/);
    expect(req.body).toBe("");
    const stored = [...mock.orders.values()][0]!;
    // the 19-digit order id stays exact (docs/exchange-rules.md#limits long numbers)
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      id: stored.orderId,
      clientOrderId: q.newClientOrderId,
      status: "open",
      side: "Buy",
      amount: "0.01",
    });
    expect(order.id).toBe("1736011869418901234");
  });

  it("creates a batch through /batchOrders with the orders in `data`", async () => {
    const orders = await bingx.createBatch("BTC/USDT", [
      { side: "Buy", amount: "0.01", price: "29000" },
      { side: "Sell", amount: "0.02", price: "33000" },
    ]);
    expect(orders.map((o) => o.id)).toEqual([...mock.orders.keys()]);
    expect(orders.map((o) => o.side)).toEqual(["Buy", "Sell"]);
    const data = JSON.parse(parseQuery(mock.server.requests.at(-1)!.query).data!) as { newClientOrderId: string }[];
    expect(data.map((d) => d.newClientOrderId)).toEqual(orders.map((o) => o.clientOrderId));
  });

  it("fails a batch when the exchange placed fewer orders than sent", async () => {
    mock.refuseNextBatchItem(1);
    const error = await rejection(
      bingx.createBatch("BTC/USDT", [
        { side: "Buy", amount: "0.01", price: "29000" },
        { side: "Buy", amount: "0.01", price: "29001" },
      ]),
    );
    expect(error).toMatchObject({ kind: "invalid-order", detail: "One of orders was not placed (1 of 2 placed)" });
    // docs/orders.md "Partly placed batches": the error carries the order the exchange did place.
    const kept = placedBefore(error) ?? [];
    expect(kept.map((o) => [o.side, o.price])).toEqual([["Buy", "29000"]]);
    expect((await bingx.fetchOrder("BTC/USDT", kept[0]!.id)).id).toBe(kept[0]!.id);
  });

  it("rejects a batch of 11 with \"Maximum for 'createBatch' is: 10\" before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    const items = Array.from({ length: 11 }, () => ({ side: "Buy" as const, amount: "1", price: "1" }));
    expect((await rejection(bingx.createBatch("BTC/USDT", items))).message).toBe(
      "ExchangeId: bingx, msg: Maximum for 'createBatch' is: 10",
    );
    expect(
      (
        await rejection(
          bingx.cancelBatch(
            "BTC/USDT",
            Array.from({ length: 11 }, (_, i) => String(i)),
          ),
        )
      ).message,
    ).toBe("ExchangeId: bingx, msg: Maximum for 'cancelBatch' is: 10");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("cancels one, a batch (orderIds comma-joined) and all for the symbol", async () => {
    const [a, b, c, d] = await Promise.all(["1", "2", "3", "4"].map((p) => bingx.createOrder({ ...buy, price: p })));
    await expect(bingx.cancelOrder("BTC/USDT", a!.id)).resolves.toBe(a!.id);
    expect(mock.orders.get(a!.id)!.status).toBe("CANCELED");
    await expect(bingx.cancelBatch("BTC/USDT", [b!.id, c!.id])).resolves.toEqual([b!.id, c!.id]);
    expect(parseQuery(mock.server.requests.at(-1)!.query).orderIds).toBe(`${b!.id},${c!.id}`);
    await expect(bingx.cancelAll("BTC/USDT")).resolves.toEqual([d!.id]);
    expect(routes().slice(-3)).toEqual([
      "POST /openApi/spot/v1/trade/cancel",
      "POST /openApi/spot/v1/trade/cancelOrders",
      "POST /openApi/spot/v1/trade/cancelOpenOrders",
    ]);
  });

  it("fetches one order (GET /query) and the open orders (GET /openOrders)", async () => {
    const a = await bingx.createOrder(buy);
    const b = await bingx.createOrder({ ...buy, amount: "0.02" });
    await bingx.cancelOrder("BTC/USDT", b.id);
    expect(await bingx.fetchOrder("BTC/USDT", b.id)).toMatchObject({
      id: b.id,
      status: "canceled",
      amount: "0.02",
      clientOrderId: b.clientOrderId,
    });
    expect((await bingx.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([a.id]);
  });

  it("fetches balances without all-zero currencies, upper-cased, long numbers exact (docs/exchange-rules.md#entities, #limits)", async () => {
    await expect(bingx.fetchBalances()).resolves.toEqual({
      USDT: { f: "1000.5", l: "120" },
      BTC: { f: "0.1234567890123456789", l: "0" },
    });
    expect(routes()).toEqual(["GET /openApi/spot/v1/account/balance"]);
  });
});

describe("bingx's documented required parameters and batch cancels (issue 25)", () => {
  it("sends every required parameter on every call; the mock refuses a call without one (100400)", async () => {
    const [a] = await bingx.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "100" }]);
    await bingx.fetchOrder("BTC/USDT", a!.id);
    await bingx.cancelOrder("BTC/USDT", a!.id);
    const b = await bingx.createOrder(buy);
    await bingx.cancelBatch("BTC/USDT", [b.id]);
    await bingx.fetchOpenOrders("BTC/USDT");
    await bingx.cancelAll("BTC/USDT");
    const sent = mock.server.requests.map((r) => {
      const { timestamp, signature: _s, recvWindow: _r, ...rest } = parseQuery(r.query);
      expect(timestamp, r.path).toMatch(/^\d{13}$/);
      return rest.data ? { ...rest, data: JSON.parse(rest.data) } : rest;
    });
    expect(sent).toEqual([
      {
        data: [
          expect.objectContaining({ symbol: "BTC-USDT", side: "BUY", type: "LIMIT", quantity: "1", price: "100" }),
        ],
        sync: "true",
      },
      { symbol: "BTC-USDT", orderId: a!.id },
      { symbol: "BTC-USDT", orderId: a!.id },
      expect.objectContaining({ symbol: "BTC-USDT", side: "BUY", type: "LIMIT", quantity: "0.01", price: "30000" }),
      { symbol: "BTC-USDT", orderIds: b.id },
      { symbol: "BTC-USDT" },
      { symbol: "BTC-USDT" },
    ]);
    const request = bingxSignedRequest(credentials, Date.now(), "POST", "/openApi/spot/v1/trade/cancel", {
      orderId: "1",
    });
    const bare = await fetch(`${mock.url}${request.path}?${request.query}`, {
      method: "POST",
      headers: request.headers,
    });
    expect(await bare.json()).toEqual({ code: 100400, msg: "symbol is required", debugMsg: "" });
  });

  it("a batch cancel with one order BingX cannot cancel fails whole (process=0): nothing is half done", async () => {
    const a = await bingx.createOrder(buy);
    expect((await rejection(bingx.cancelBatch("BTC/USDT", [a.id, "777"]))).kind).toBe("order-not-found");
    expect(mock.orders.get(a.id)!.status).toBe("NEW");
  });

  it("reads a partly failed batch cancel by its success list: an empty one cancelled none", async () => {
    const answer = (data: unknown) => mock.fake.replyNext({ body: { code: 0, msg: "", debugMsg: "", data } });
    answer({
      success: [{ orderId: "11", symbol: "BTC-USDT", side: "BUY", status: "CANCELED" }],
      failed: [{ orderId: "12", errorCode: 100421 }],
    });
    expect(await bingx.cancelBatch("BTC/USDT", ["11", "12"])).toEqual(["11"]);
    answer({ success: [], failed: [{ orderId: "12", errorCode: 100421 }] });
    expect(await bingx.cancelBatch("BTC/USDT", ["12"])).toEqual([]);
    // an answer naming no list at all: the ids as asked
    answer({});
    expect(await bingx.cancelBatch("BTC/USDT", ["13"])).toEqual(["13"]);
  });
});

describe("bingx errors (docs/exchange-rules.md#errors: {code, msg}, success code 0)", () => {
  it("answers a wrong secret with 100001 as auth after exactly one request (no retry)", async () => {
    const wrong = new BingxAdapter({ ...credentials, secret: "not-the-secret" }, { baseUrl: mock.url });
    const error = await rejection(wrong.createOrder(buy));
    expect(error).toMatchObject({ kind: "auth", code: 100001 });
    expect(error.message).toBe("ExchangeId: bingx, msg: Signature verification failed (code 100001)");
    expect(error.message).not.toContain("not-the-secret");
    expect(mock.server.requests).toHaveLength(1);
    expect(mock.orders.size).toBe(0);
  });

  it("answers a clock outside the 5000 ms window with 80014 as auth", async () => {
    const late = new BingxAdapter(credentials, { baseUrl: mock.url, now: () => Date.now() - 6000 });
    expect(await rejection(late.fetchBalances())).toMatchObject({ kind: "auth", code: 80014 });
  });

  it("maps 100202 to insufficient-funds", async () => {
    mock.failNext(100202, "Insufficient assets");
    expect(await rejection(bingx.createOrder(buy))).toMatchObject({ kind: "insufficient-funds", code: 100202 });
  });

  it("maps 'cancel fail, order not exist' to order-not-found", async () => {
    expect(await rejection(bingx.cancelOrder("BTC/USDT", "42"))).toMatchObject({
      kind: "order-not-found",
      code: 100421,
    });
  });

  it("maps 100404 (BingX's real answer for an unknown or finished order) to order-not-found", async () => {
    expect(await rejection(bingx.fetchOrder("BTC/USDT", "42"))).toMatchObject({
      kind: "order-not-found",
      code: 100404,
    });
    const order = await bingx.createOrder(buy);
    await bingx.cancelOrder("BTC/USDT", order.id);
    expect(await rejection(bingx.cancelOrder("BTC/USDT", order.id))).toMatchObject({
      kind: "order-not-found",
      code: 100404,
    });
  });

  it("maps 100410 to rate-limit with the unblock time of its message as the retry hint", async () => {
    mock.rateLimitNext();
    const error = await rejection(bingx.fetchBalances());
    expect(error).toMatchObject({ kind: "rate-limit", code: 100410 });
    expect(error.retryAfterMs).toBeGreaterThan(2000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(3000);
  });
});

describe("bingx time-out on create (docs/exchange-rules.md#contract: a create is never sent twice blindly)", () => {
  it("looks the order up by clientOrderID after a time-out and returns it; the mock holds one order", async () => {
    mock.delayNextCreate(1500);
    const slow = createExchange("bingx", credentials, { baseUrl: mock.url, timeoutMs: 400 });
    const order = await slow.createOrder(buy);
    expect(mock.orders.size).toBe(1);
    const [only] = [...mock.orders.values()];
    expect(order).toMatchObject({ id: only!.orderId, clientOrderId: only!.clientOrderID, status: "open" });
    expect(routes()).toEqual(["POST /openApi/spot/v1/trade/order", "GET /openApi/spot/v1/trade/query"]);
    expect(parseQuery(mock.server.requests[1]!.query).clientOrderID).toBe(only!.clientOrderID);
  });
});

describe("bingx answers off the happy path (issue 25)", () => {
  const answer = (data: unknown, status = 200) =>
    mock.fake.replyNext({ status, body: { code: 0, msg: "", debugMsg: "", data } });

  it.each([
    [100204, "order-not-found"],
    [100404, "order-not-found"],
    [100440, "invalid-order"],
    [100490, "invalid-order"],
    [100414, "auth"],
  ])("reads code %s with a message saying nothing more as %s", async (code, kind) => {
    mock.failNext(code, "m");
    expect((await rejection(bingx.fetchBalances())).kind).toBe(kind);
  });

  it("refuses an answer that is not BingX's envelope; code 0 with an HTTP error fails; a failure without msg names the status", async () => {
    mock.fake.replyNext({ body: '"OK"' });
    expect((await rejection(bingx.fetchBalances())).detail).toBe("Unexpected answer (HTTP 200)");
    answer({ balances: [] }, 400);
    expect((await rejection(bingx.fetchBalances())).detail).toBe("HTTP 400 (code 0)");
    mock.fake.replyNext({ body: { code: 100400 } });
    expect((await rejection(bingx.fetchBalances())).detail).toBe("HTTP 200 (code 100400)");
    answer(null);
    expect(await bingx.fetchBalances()).toEqual({});
    answer(null);
    expect(await bingx.fetchOpenOrders("BTC/USDT")).toEqual([]);
    answer(null);
    expect(await bingx.cancelAll("BTC/USDT")).toEqual([]);
  });

  it("waits until the time 100410 names, written either way BingX writes it", async () => {
    for (const msg of [
      `frequency limit rule is in the disabled period and will be unblocked after  ${Date.now() + 20_000}`,
      `please retry after time ${Date.now() + 20_000}`,
    ]) {
      mock.failNext(100410, msg);
      const error = await rejection(bingx.fetchBalances());
      expect(error.kind, msg).toBe("rate-limit");
      expect(error.retryAfterMs, msg).toBeGreaterThan(15_000);
    }
  });

  it("takes a create's client id and time from BingX's answer, else its own; batch items by client id, else in order", async () => {
    answer({ symbol: "BTC-USDT", orderId: "77", side: "BUY", status: "NEW", transactTime: 1700000000123 });
    const order = await bingx.createOrder({ ...buy, clientOrderId: "mine" });
    expect([order.id, order.clientOrderId, order.timestamp]).toEqual(["77", "mine", 1700000000123]);
    answer({ symbol: "BTC-USDT", orderId: "78", side: "BUY", clientOrderID: "theirs" });
    const bare = await bingx.createOrder(buy);
    expect(bare.clientOrderId).toBe("theirs");
    expect(Math.abs(bare.timestamp - Date.now())).toBeLessThan(5000);
    const items = [
      { side: "Buy" as const, amount: "1", price: "1", clientOrderId: "aaaa" },
      { side: "Sell" as const, amount: "1", price: "1", clientOrderId: "bbbb" },
    ];
    answer({
      orders: [
        { orderId: "22", side: "SELL", clientOrderID: "bbbb", transactTime: 1700000000222 },
        { orderId: "11", side: "BUY", clientOrderID: "aaaa" },
      ],
    });
    const placed = await bingx.createBatch("BTC/USDT", items);
    expect(placed.map((o) => [o.id, o.clientOrderId, o.timestamp > 1700000000222])).toEqual([
      ["11", "aaaa", true],
      ["22", "bbbb", false],
    ]);
    answer({
      orders: [
        { orderId: "33", side: "BUY" },
        { orderId: "44", side: "SELL" },
      ],
    });
    expect((await bingx.createBatch("BTC/USDT", items)).map((o) => [o.id, o.clientOrderId])).toEqual([
      ["33", "aaaa"],
      ["44", "bbbb"],
    ]);
    answer({});
    expect((await rejection(bingx.createBatch("BTC/USDT", [items[0]!]))).detail).toBe(
      "One of orders was not placed (0 of 1 placed)",
    );
    answer({ orders: [{ orderId: "55", side: "SELL", clientOrderID: "bbbb" }] });
    expect((await rejection(bingx.createBatch("BTC/USDT", items))).detail).toBe(
      "One of orders was not placed (1 of 2 placed)",
    );
  });

  it("after a create time-out that never reached the book, the look-up finds nothing and the create is sent once more", async () => {
    const slow = createExchange("bingx", credentials, { baseUrl: mock.url, timeoutMs: 300 });
    mock.fake.replyNext({ delayMs: 600, body: { code: 0, msg: "", data: {} } });
    const order = await slow.createOrder(buy);
    await new Promise((r) => setTimeout(r, 400));
    expect([...mock.orders.keys()]).toEqual([order.id]);
    expect(routes()).toEqual([
      "POST /openApi/spot/v1/trade/order",
      "GET /openApi/spot/v1/trade/query",
      "POST /openApi/spot/v1/trade/order",
    ]);
  });

  it("after a create time-out whose look-up fails too, sends nothing more", async () => {
    const slow = createExchange("bingx", credentials, { baseUrl: mock.url, timeoutMs: 300 });
    mock.fake.replyNext({ delayMs: 600, body: { code: 0, msg: "", data: {} } });
    const pending = rejection(slow.createOrder(buy));
    // once the create has reached the mock, the next request (the look-up) is refused
    while (mock.server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    mock.rateLimitNext();
    expect((await pending).kind).not.toBe("rate-limit");
    await new Promise((r) => setTimeout(r, 600));
    expect(mock.server.requests.map((r) => r.method)).toEqual(["POST", "GET"]);
  });

  it("signs no parameter without a value, refuses a client id BingX would not take, and defaults to BingX's host", async () => {
    expect(BINGX_BASE_URL).toBe("https://open-api.bingx.com");
    expect(bingxSignedQuery(BINGX_SECRET, { a: undefined, b: "1" }, 1).startsWith("b=1&timestamp=1")).toBe(true);
    const bad = await rejection(bingx.createOrder({ ...buy, clientOrderId: "has-dash" }));
    expect(bad.kind).toBe("bad-input");
    await bingx.createOrder({ ...buy, clientOrderId: "under_score" });
  });
});

describe("bingx status and timestamp rules (docs/exchange-rules.md#entities, #states) with the documented order fields", () => {
  const documented = {
    symbol: "BTC-USDT",
    orderId: "1736011869418901234", // a number this long arrives as exact text (parseJsonExact, docs/exchange-rules.md#limits)
    price: "30000",
    origQty: "0.01",
    executedQty: "0",
    cummulativeQuoteQty: "0",
    status: "NEW",
    type: "LIMIT",
    side: "BUY",
    time: 1699439210000,
    updateTime: 1699439210000,
    origQuoteOrderQty: "0",
    clientOrderID: "abc",
  };
  const status = (s: string) => parseBingxOrder({ ...documented, status: s }, "BTC/USDT").status;

  it("maps NEW, PENDING and PARTIALLY_FILLED to open, FILLED to closed, CANCELED and FAILED to canceled", () => {
    expect(["NEW", "PENDING", "PARTIALLY_FILLED", "FILLED", "CANCELED", "FAILED"].map(status)).toEqual([
      "open",
      "open",
      "open",
      "closed",
      "canceled",
      "canceled",
    ]);
  });
  it("reads a missing type as limit and keeps BingX's type in lower case; the raw status only when there is one", () => {
    const { type: _t, status: _s, clientOrderID: _c, ...bare } = documented;
    const order = parseBingxOrder(bare, "BTC/USDT");
    expect([order.type, order.clientOrderId, "rawStatus" in order]).toEqual(["limit", "", false]);
    expect(parseBingxOrder({ ...documented, type: "LIMIT_MAKER" }, "BTC/USDT")).toMatchObject({
      type: "limit_maker",
      status: "open",
      rawStatus: "NEW",
    });
  });
  it("yields undefined for an unknown status (docs/exchange-rules.md#states)", () => {
    expect(status("WHATEVER")).toBeUndefined();
  });
  it("keeps millisecond times and decimal strings", () => {
    expect(parseBingxOrder(documented, "BTC/USDT")).toMatchObject({
      timestamp: 1699439210000,
      price: "30000",
      amount: "0.01",
      filled: "0",
      side: "Buy",
    });
  });
  it("drops all-zero balances", () => {
    expect(parseBingxBalances({ balances: [{ asset: "X", free: "0.000", locked: "0" }] })).toEqual({});
  });
});

describe("bingx through the built CLI", () => {
  const env = { SPOTDESK_API_KEY: BINGX_KEY, SPOTDESK_API_SECRET: BINGX_SECRET };

  it("buy, order, orders, cancel, batch, cancel-batch, cancel-all, balances end to end", async () => {
    await runCliScenario({
      id: "bingx",
      mock,
      env,
      status: (o) => o.status,
      open: "NEW",
      canceled: "CANCELED",
      batch: THREE_ORDERS,
      balances: { USDT: { f: "1000.5", l: "120" } },
    });
  });
});

describe("bingx pair list (docs/exchange-rules.md#pairs)", () => {
  it("lists the online symbols open to API orders, sorted, with tick and lot, without a key", async () => {
    const keyless = new BingxAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
    const expected = [
      { pair: "BTC/USDT", tick: "0.01", lot: "0.000001", minNotional: "2" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.0001", minNotional: "2" },
      { pair: "PEPE/USDT", tick: "0.00000001", lot: "1", minNotional: "1" },
    ];
    expect(await keyless.fetchPairs()).toEqual(expected);
    const sent = mock.server.requests.at(-1)!;
    expect([sent.method, sent.path]).toEqual(["GET", "/openApi/spot/v1/common/symbols"]);
    expect(sent.query).toMatch(/^timestamp=\d{13}$/);
    expect(sent.headers["x-bx-apikey"]).toBeUndefined();
    expect(await listExchangePairs("bingx", { baseUrl: mock.url, timeoutMs: 2000 })).toEqual(expected);
  });

  it("keeps a symbol open to API orders on one side only, drops one closed on both", async () => {
    const keyless = new BingxAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
    const row = (symbol: string, apiStateBuy: boolean, apiStateSell: boolean) => ({
      ...BINGX_SYMBOLS[0],
      symbol,
      apiStateBuy,
      apiStateSell,
    });
    mock.server.intercept(() => ({
      body: {
        code: 0,
        msg: "",
        data: {
          symbols: [
            row("SELLONLY-USDT", false, true),
            row("BUYONLY-USDT", true, false),
            row("SHUT-USDT", false, false),
          ],
        },
      },
    }));
    expect((await keyless.fetchPairs()).map((p) => p.pair)).toEqual(["BUYONLY/USDT", "SELLONLY/USDT"]);
    mock.server.intercept(undefined);
  });

  it("an answer in another shape is bingx's unexpected answer, a refusal its error", async () => {
    const keyless = new BingxAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
    mock.server.intercept(() => ({
      body: { code: 0, msg: "", data: { symbols: [{ symbol: "BTC-USDT", tickSize: "abc", stepSize: 1, status: 1 }] } },
    }));
    await expect(keyless.fetchPairs()).rejects.toThrow("Unexpected answer from bingx: data.symbols[0].tickSize");
    mock.server.intercept(() => ({ status: 429, body: { code: 100410, msg: "rate limited" } }));
    await expect(keyless.fetchPairs()).rejects.toMatchObject({ kind: "rate-limit" });
    mock.server.intercept(undefined);
  });
});
