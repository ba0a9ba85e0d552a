import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { placedBefore } from "../../lib/errors.js";
import { rejection as rejects, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { parseJsonExact } from "../core/adapter.js";
import { listExchangePairs } from "../open.js";
import { createExchange } from "../registry.js";
import { BYBIT_SPOT_INSTRUMENTS, type BybitMock, startBybitMock } from "./mock.js";
import { BYBIT_BASE_URL, BybitAdapter, bybitSignedRequest, parseBybitOrder } from "./rest.js";

const creds = { api: "bybit-test-key", secret: "bybit-test-secret" };

describe("bybit adapter against a loopback mock", () => {
  let mock: BybitMock;
  let bybit: BybitAdapter;

  beforeAll(async () => {
    mock = await startBybitMock(creds);
    bybit = new BybitAdapter(creds, { baseUrl: mock.url, timeoutMs: 2000 });
  });
  afterAll(() => mock.close());
  afterEach(() => {
    mock.replyNext = undefined;
    mock.endlessCursor = false;
    mock.orders.clear();
    mock.server.requests.length = 0;
  });

  it("creates a limit GTC buy with a hex orderLinkId, signed as bybit documents (docs/exchange-rules.md#calls)", async () => {
    const order = await bybit.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    expect(order).toMatchObject({
      pair: "BTC/USDT",
      side: "Buy",
      amount: "0.01",
      price: "30000",
      status: "open",
      type: "limit",
    });
    expect(order.clientOrderId).toMatch(/^[0-9a-f]{32}$/);
    const sent = JSON.parse(mock.server.requests[0]!.body);
    expect(sent).toMatchObject({
      category: "spot",
      symbol: "BTCUSDT",
      side: "Buy",
      orderType: "Limit",
      timeInForce: "GTC",
      qty: "0.01",
      price: "30000",
    });
    expect(mock.server.requests[0]!.headers["x-bapi-recv-window"]).toBe("5000");
    expect(mock.orders.get(order.id)?.orderLinkId).toBe(order.clientOrderId);
  });

  it("fetches one order, open orders and cancels one (docs/exchange-rules.md#operations)", async () => {
    const a = await bybit.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await bybit.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "0.02", price: "40000" });
    const one = await bybit.fetchOrder("BTC/USDT", a.id);
    expect(one).toMatchObject({
      id: a.id,
      clientOrderId: a.clientOrderId,
      side: "Buy",
      price: "30000",
      amount: "0.01",
      filled: "0",
      status: "open",
    });
    expect((await bybit.fetchOpenOrders("BTC/USDT")).map((o) => o.id).sort()).toEqual([a.id, b.id].sort());
    expect(await bybit.cancelOrder("BTC/USDT", a.id)).toBe(a.id);
    expect((await bybit.fetchOrder("BTC/USDT", a.id)).status).toBe("canceled");
    expect((await bybit.fetchOpenOrders("BTC/USDT")).map((o) => o.id)).toEqual([b.id]);
  });

  it("creates and cancels a batch, and cancels all for a pair (docs/exchange-rules.md#calls)", async () => {
    const created = await bybit.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Sell", amount: "2", price: "200" },
      { side: "Buy", amount: "3", price: "300" },
    ]);
    expect(created).toHaveLength(3);
    expect(new Set(created.map((o) => o.clientOrderId)).size).toBe(3);
    expect(mock.orders.size).toBe(3);
    expect(await bybit.cancelBatch("BTC/USDT", [created[0]!.id])).toEqual([created[0]!.id]);
    expect((await bybit.cancelAll("BTC/USDT")).sort()).toEqual([created[1]!.id, created[2]!.id].sort());
    expect(await bybit.fetchOpenOrders("BTC/USDT")).toEqual([]);
  });

  it("fails a batch when an extra-info entry carries an error: 'One of orders threw an error (code, msg)' (docs/exchange-rules.md#validation)", async () => {
    mock.failBatchItem = 1;
    const error = await rejects(
      bybit.createBatch("BTC/USDT", [
        { side: "Buy", amount: "1", price: "100" },
        { side: "Buy", amount: "1", price: "100" },
      ]),
    );
    expect(error.message).toBe("ExchangeId: bybit, msg: One of orders threw an error (170131, Balance insufficient)");
    expect(error.kind).toBe("insufficient-funds");
    // docs/orders.md "Partly placed batches": the error carries the order the exchange did place.
    const kept = placedBefore(error) ?? [];
    expect(kept.map((o) => [o.side, o.price])).toEqual([["Buy", "100"]]);
    expect((await bybit.fetchOrder("BTC/USDT", kept[0]!.id)).id).toBe(kept[0]!.id);
  });

  it("fails a batch when an order lacks both created time and id: 'One of orders was not placed' (docs/exchange-rules.md#validation)", async () => {
    mock.dropBatchItem = 0;
    const error = await rejects(bybit.createBatch("BTC/USDT", [{ side: "Sell", amount: "1", price: "100" }]));
    expect(error.message).toBe("ExchangeId: bybit, msg: One of orders was not placed");
  });

  it("rejects more than 10 orders with \"Maximum for 'createBatch' is: 10\" before any request (docs/exchange-rules.md#validation, #limits)", async () => {
    const items = Array.from({ length: 11 }, () => ({ side: "Buy" as const, amount: "1", price: "1" }));
    const error = await rejects(bybit.createBatch("BTC/USDT", items));
    expect(error.message).toBe("ExchangeId: bybit, msg: Maximum for 'createBatch' is: 10");
    const cancel = await rejects(
      bybit.cancelBatch(
        "BTC/USDT",
        Array.from({ length: 11 }, (_, i) => String(i)),
      ),
    );
    expect(cancel.message).toBe("ExchangeId: bybit, msg: Maximum for 'cancelBatch' is: 10");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("rejects a zero or malformed amount as bad input before any request", async () => {
    expect((await rejects(bybit.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0", price: "1" }))).kind).toBe(
      "bad-input",
    );
    expect((await rejects(bybit.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1e3", price: "1" }))).kind).toBe(
      "bad-input",
    );
    expect(mock.server.requests).toHaveLength(0);
  });

  it("reads UNIFIED balances: free = walletBalance - locked, zero coins dropped, long numbers exact (docs/exchange-rules.md#entities, #limits)", async () => {
    const balances = await bybit.fetchBalances();
    expect(balances).toEqual({ USDT: { f: "700.5", l: "300" }, BTC: { f: "0.12345678901234567891", l: "0" } });
    expect(mock.server.requests[0]!.query).toBe("accountType=UNIFIED");
  });

  it("maps a wrong secret to an auth error and sends nothing twice (docs/exchange-rules.md#errors)", async () => {
    const wrong = new BybitAdapter({ ...creds, secret: "wrong" }, { baseUrl: mock.url });
    const error = await rejects(wrong.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "1" }));
    expect(error.kind).toBe("auth");
    expect(error.code).toBe(10004);
    expect(error.message).toMatch(/^ExchangeId: bybit, msg: error sign!/);
    expect(error.message).not.toContain("wrong");
    expect(mock.server.requests).toHaveLength(1);
  });

  it("maps an exchange error code to its kind with the seed's message form (docs/exchange-rules.md#errors)", async () => {
    mock.errorNext = { retCode: 170131, retMsg: "Balance insufficient" };
    const error = await rejects(bybit.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "1" }));
    expect(error.kind).toBe("insufficient-funds");
    expect(error.message).toBe("ExchangeId: bybit, msg: Balance insufficient (code 170131)");
    const missing = await rejects(bybit.cancelOrder("BTC/USDT", "42"));
    expect(missing.kind).toBe("order-not-found");
  });

  it("maps retCode 10006 to rate-limit with bybit's reset hint", async () => {
    mock.rateLimitNext = true;
    const error = await rejects(bybit.fetchBalances());
    expect(error.kind).toBe("rate-limit");
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(2500);
  });

  it("treats bybit's HTTP 403 'access too frequent' IP limit as rate-limit, not auth", async () => {
    mock.ipBanNext = true;
    const error = await rejects(bybit.fetchBalances());
    expect(error.kind).toBe("rate-limit");
    expect(error.retryAfterMs).toBe(600_000);
  });

  it("after a create time-out looks the order up by orderLinkId and never sends it twice (docs/exchange-rules.md#contract, #entities)", async () => {
    mock.delayNextCreateMs = 800;
    const slow = new BybitAdapter(creds, { baseUrl: mock.url, timeoutMs: 300 });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.5", price: "25000" });
    await new Promise((r) => setTimeout(r, 600));
    expect(mock.orders.size).toBe(1);
    expect(order.clientOrderId).toBe([...mock.orders.values()][0]!.orderLinkId);
    const creates = mock.server.requests.filter((r) => r.path === "/v5/order/create");
    expect(creates).toHaveLength(1);
    expect(
      mock.server.requests.some(
        (r) => r.path === "/v5/order/realtime" && r.query.includes(`orderLinkId=${order.clientOrderId}`),
      ),
    ).toBe(true);
  });

  it("follows nextPageCursor past the first page: 120 open orders arrive whole, in pages of 50 (docs/exchange-rules.md#operations)", async () => {
    const placed = Array.from({ length: 120 }, (_, i) =>
      mock.addOrder({
        symbol: "BTCUSDT",
        side: i % 2 ? "Sell" : "Buy",
        qty: "0.01",
        price: String(20000 + i),
        orderLinkId: `p${i}`,
      }),
    );
    mock.addOrder({ symbol: "ETHUSDT", side: "Buy", qty: "1", price: "1000", orderLinkId: "eth" });
    const open = await bybit.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.id).sort()).toEqual(placed.map((o) => o.orderId).sort());
    const pages = mock.server.requests
      .filter((r) => r.path === "/v5/order/realtime")
      .map((r) => new URLSearchParams(r.query));
    expect(pages.map((q) => [q.get("limit"), q.get("symbol"), q.get("category")])).toEqual([
      ["50", "BTCUSDT", "spot"],
      ["50", "BTCUSDT", "spot"],
      ["50", "BTCUSDT", "spot"],
    ]);
    // the cursor goes back exactly as bybit sent it (already percent-encoded, not encoded twice)
    expect(pages.map((q) => q.get("cursor"))).toEqual([
      null,
      "page_args=50&symbol=BTCUSDT&",
      "page_args=100&symbol=BTCUSDT&",
    ]);
  });

  it("stops at a page shorter than 50 or an empty one, though bybit sends a cursor with the last page too", async () => {
    for (let i = 0; i < 50; i++)
      mock.addOrder({ symbol: "BTCUSDT", side: "Buy", qty: "1", price: String(100 + i), orderLinkId: `q${i}` });
    expect(await bybit.fetchOpenOrders("BTC/USDT")).toHaveLength(50);
    const cursors = () =>
      mock.server.requests
        .filter((r) => r.path === "/v5/order/realtime")
        .map((r) => new URLSearchParams(r.query).get("cursor"));
    // one full page, then the page after it is empty
    expect(cursors()).toEqual([null, "page_args=50&symbol=BTCUSDT&"]);
    mock.server.requests.length = 0;
    mock.addOrder({ symbol: "BTCUSDT", side: "Buy", qty: "1", price: "99", orderLinkId: "q50" });
    expect(await bybit.fetchOpenOrders("BTC/USDT")).toHaveLength(51);
    // a page of 1 came with a cursor: it is the last page all the same
    expect(cursors()).toEqual([null, "page_args=50&symbol=BTCUSDT&"]);
  });

  it("keeps each order once when a cursor leads back to a page already seen: 50 orders, two requests, not 500 repeats", async () => {
    for (let i = 0; i < 60; i++)
      mock.addOrder({ symbol: "BTCUSDT", side: "Buy", qty: "1", price: String(100 + i), orderLinkId: `e${i}` });
    mock.endlessCursor = true;
    const open = await bybit.fetchOpenOrders("BTC/USDT");
    expect(new Set(open.map((o) => o.id)).size).toBe(50);
    expect(open).toHaveLength(50);
    expect(mock.server.requests.filter((r) => r.path === "/v5/order/realtime")).toHaveLength(2);
  });

  it('sends category "spot" and the documented required fields on every order call; the mock refuses any without', async () => {
    const [a, b, c] = await bybit.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Sell", amount: "2", price: "200" },
      { side: "Buy", amount: "3", price: "300" },
    ]);
    await bybit.cancelOrder("BTC/USDT", a!.id);
    await bybit.cancelBatch("BTC/USDT", [b!.id]);
    await bybit.cancelAll("BTC/USDT");
    await bybit.fetchOrder("BTC/USDT", c!.id);
    const sent = mock.server.requests.map((r) => ({
      path: r.path,
      params: r.method === "GET" ? Object.fromEntries(new URLSearchParams(r.query)) : JSON.parse(r.body),
    }));
    expect(sent.map((r) => r.path)).toEqual([
      "/v5/order/create-batch",
      "/v5/order/cancel",
      "/v5/order/cancel-batch",
      "/v5/order/cancel-all",
      "/v5/order/realtime",
    ]);
    for (const r of sent) expect(r.params.category, r.path).toBe("spot");
    expect(sent[1]!.params).toMatchObject({ symbol: "BTCUSDT", orderId: a!.id });
    expect(sent[2]!.params.request).toEqual([{ symbol: "BTCUSDT", orderId: b!.id }]);
    expect(sent[3]!.params.symbol).toBe("BTCUSDT");
    expect(
      sent[0]!.params.request.map((o: Record<string, string>) => [
        o.symbol,
        o.side,
        o.orderType,
        o.timeInForce,
        o.qty,
        o.price,
      ]),
    ).toEqual([
      ["BTCUSDT", "Buy", "Limit", "GTC", "1", "100"],
      ["BTCUSDT", "Sell", "Limit", "GTC", "2", "200"],
      ["BTCUSDT", "Buy", "Limit", "GTC", "3", "300"],
    ]);
  });

  it("cancel all cancels the pair's orders and leaves another pair's open (bybit cancels every symbol without one)", async () => {
    const btc = await bybit.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const eth = await bybit.createOrder({ pair: "ETH/USDT", side: "Buy", amount: "0.1", price: "2000" });
    expect(await bybit.cancelAll("BTC/USDT")).toEqual([btc.id]);
    expect(mock.orders.get(eth.id)?.orderStatus).toBe("New");
    expect((await bybit.fetchOpenOrders("ETH/USDT")).map((o) => o.id)).toEqual([eth.id]);
  });

  it("a partly failed batch cancel resolves to the ids really cancelled; the failed ones are not among them", async () => {
    const [a, b] = await bybit.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Buy", amount: "1", price: "101" },
    ]);
    await bybit.cancelOrder("BTC/USDT", b!.id);
    // b is already cancelled and 777 never existed: bybit answers 170213 for those two items
    expect(await bybit.cancelBatch("BTC/USDT", [b!.id, a!.id, "777"])).toEqual([a!.id]);
    expect(mock.orders.get(a!.id)?.orderStatus).toBe("Cancelled");
    expect(await bybit.cancelBatch("BTC/USDT", ["778", "779"])).toEqual([]);
  });

  it("a cancel of an order on another pair is order-not-found, not a cancel (symbol is checked)", async () => {
    const eth = await bybit.createOrder({ pair: "ETH/USDT", side: "Buy", amount: "0.1", price: "2000" });
    expect((await rejects(bybit.cancelOrder("BTC/USDT", eth.id))).kind).toBe("order-not-found");
    expect(await bybit.cancelBatch("BTC/USDT", [eth.id])).toEqual([]);
    expect(mock.orders.get(eth.id)?.orderStatus).toBe("New");
  });

  /** bybit's envelope around `result`, as the next answer of the mock */
  const answer = (result: unknown, extra: Record<string, unknown> = {}) => {
    mock.replyNext = { body: { retCode: 0, retMsg: "OK", result, ...extra } };
  };

  it("matches batch results to orders by orderLinkId, whatever their order, and takes an id without a created time", async () => {
    const items = [
      { side: "Buy" as const, amount: "1", price: "100", clientOrderId: "aaaa" },
      { side: "Sell" as const, amount: "2", price: "200", clientOrderId: "bbbb" },
    ];
    answer(
      {
        list: [
          { orderId: "22", orderLinkId: "bbbb", createAt: "" },
          { orderId: "11", orderLinkId: "aaaa", createAt: "1700000000123" },
        ],
      },
      { retExtInfo: { list: [{ code: 0 }, { code: 0 }] } },
    );
    const placed = await bybit.createBatch("BTC/USDT", items);
    expect(placed.map((o) => [o.clientOrderId, o.id, o.filled, o.status])).toEqual([
      ["aaaa", "11", "0", "open"],
      ["bbbb", "22", "0", "open"],
    ]);
    expect(placed[0]!.timestamp).toBe(1700000000123);
    // no created time: the adapter's clock
    expect(Math.abs(placed[1]!.timestamp - Date.now())).toBeLessThan(5000);
    // an answer without per-item codes is read from its list alone
    answer({ list: [{ orderId: "33", orderLinkId: "cccc", createAt: "1700000000456" }] });
    expect(
      (await bybit.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "1", clientOrderId: "cccc" }]))[0]!.id,
    ).toBe("33");
  });

  it("names the failed item's code and kind in a batch create error; an item without id and time is invalid-order", async () => {
    mock.failBatchItem = 0;
    const failed = await rejects(bybit.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "100" }]));
    expect([failed.code, failed.kind]).toEqual([170131, "insufficient-funds"]);
    answer({ list: [{ orderId: "", orderLinkId: "dddd", createAt: "" }] }, { retExtInfo: { list: [{ code: 10001 }] } });
    const bare = await rejects(
      bybit.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "1", clientOrderId: "dddd" }]),
    );
    expect([bare.detail, bare.code, bare.kind]).toEqual([
      "One of orders threw an error (10001, )",
      10001,
      "invalid-order",
    ]);
    mock.dropBatchItem = 0;
    expect((await rejects(bybit.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "1" }]))).kind).toBe(
      "invalid-order",
    );
  });

  it("takes the create's time from bybit's answer, else its own clock, and the id bybit gives", async () => {
    answer({ orderId: "555", orderLinkId: "x" }, { time: 1700000000999 });
    const order = await bybit.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "1" });
    expect([order.id, order.timestamp, order.filled]).toEqual(["555", 1700000000999, "0"]);
    answer(undefined);
    const bare = await bybit.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "1" });
    expect(bare.id).toBe("");
    expect(Math.abs(bare.timestamp - Date.now())).toBeLessThan(5000);
  });

  it("reads answers without a result as nothing: no open orders, no balances, the cancelled id as asked", async () => {
    answer(undefined);
    expect(await bybit.fetchOpenOrders("BTC/USDT")).toEqual([]);
    answer({ list: [{ accountType: "UNIFIED" }] });
    expect(await bybit.fetchBalances()).toEqual({});
    answer(undefined);
    expect(await bybit.cancelOrder("BTC/USDT", "4242")).toBe("4242");
    answer(undefined);
    expect(await bybit.cancelAll("BTC/USDT")).toEqual([]);
    answer({ list: [{ orderId: "1" }, { orderId: "2" }] });
    expect(await bybit.cancelBatch("BTC/USDT", ["1", "2"])).toEqual(["1", "2"]);
    answer({ list: [] });
    expect((await rejects(bybit.fetchOrder("BTC/USDT", "4242"))).kind).toBe("order-not-found");
  });

  it("refuses an answer that is not bybit's envelope, naming the HTTP status", async () => {
    for (const body of ['"OK"', "null", '{"result":{}}']) {
      mock.replyNext = { body };
      const error = await rejects(bybit.fetchBalances());
      expect(error.detail, body).toBe("Unexpected answer (HTTP 200)");
    }
    mock.replyNext = { body: { retCode: 10016 } };
    expect((await rejects(bybit.fetchBalances())).detail).toBe("Unknown error (code 10016)");
  });

  it("reads retCode 10001 as an invalid order and keeps other HTTP refusals as auth", async () => {
    mock.errorNext = { retCode: 10001, retMsg: "params error" };
    expect((await rejects(bybit.fetchBalances())).kind).toBe("invalid-order");
    mock.replyNext = { status: 403, headers: { "content-type": "text/plain" }, body: "forbidden" };
    const forbidden = await rejects(bybit.fetchBalances());
    expect([forbidden.kind, forbidden.retryAfterMs]).toEqual(["auth", undefined]);
    // only the 403 IP ban waits 10 minutes; a 429 saying the same keeps its Retry-After
    mock.replyNext = {
      status: 429,
      headers: { "content-type": "text/plain", "retry-after": "5" },
      body: "access too frequent",
    };
    const limited = await rejects(bybit.fetchBalances());
    expect([limited.kind, limited.retryAfterMs]).toEqual(["rate-limit", 5000]);
  });

  it("reads per-item entries without a code as placed, and an item with only a created time as placed without id", async () => {
    answer({ list: [{ orderLinkId: "eeee", createAt: "1700000000777" }] }, { retExtInfo: { list: [{ msg: "OK" }] } });
    const [placed] = await bybit.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "1", clientOrderId: "eeee" },
    ]);
    expect([placed!.id, placed!.timestamp]).toEqual(["", 1700000000777]);
  });

  it("names the order it did not find", async () => {
    const error = await rejects(bybit.fetchOrder("BTC/USDT", "31337"));
    expect([error.kind, error.detail]).toEqual(["order-not-found", "Order 31337 not found"]);
  });

  it("waits for bybit's reset time only when it names one in the future", async () => {
    mock.errorNext = { retCode: 170131, retMsg: "Balance insufficient" };
    expect((await rejects(bybit.fetchBalances())).retryAfterMs).toBeUndefined();
    const tooMany = { retCode: 10006, retMsg: "Too many visits!" };
    // without bybit's hint, the rate limit keeps the adapter's own pause
    mock.replyNext = { body: tooMany };
    const ownPause = (await rejects(bybit.fetchBalances())).retryAfterMs;
    expect(ownPause).toBeGreaterThan(0);
    for (const [reset, expected] of [
      [String(Date.now() - 60_000), 0],
      ["0", ownPause],
      ["soon", ownPause],
    ] as const) {
      mock.replyNext = { headers: { "X-Bapi-Limit-Reset-Timestamp": reset }, body: tooMany };
      expect((await rejects(bybit.fetchBalances())).retryAfterMs, reset).toBe(expected);
    }
  });

  it("is reachable through createExchange with --base-url replacing the host (docs/exchange-rules.md#contract)", async () => {
    const adapter = createExchange("bybit", creds, { baseUrl: mock.url });
    expect(await adapter.fetchOpenOrders("BTC/USDT")).toEqual([]);
  });
});

describe("bybit signing as the v5 guide documents it", () => {
  // The guide's GET example: plain text "1658384314791XXXXXXXXXX5000category=option&symbol=BTC-29JUL22-25000-C".
  it("signs timestamp + api key + recv window + the query exactly as sent (not sorted), hex HMAC-SHA256", () => {
    const request = bybitSignedRequest(
      { api: "XXXXXXXXXX", secret: "s3cret" },
      1658384314791,
      "GET",
      "/v5/order/realtime",
      {
        category: "option",
        symbol: "BTC-29JUL22-25000-C",
      },
    );
    expect(request.query).toBe("category=option&symbol=BTC-29JUL22-25000-C");
    const plain = "1658384314791XXXXXXXXXX5000category=option&symbol=BTC-29JUL22-25000-C";
    expect(request.headers["X-BAPI-SIGN"]).toBe(createHmac("sha256", "s3cret").update(plain).digest("hex"));
    expect(request.headers).toMatchObject({
      "X-BAPI-API-KEY": "XXXXXXXXXX",
      "X-BAPI-TIMESTAMP": "1658384314791",
      "X-BAPI-RECV-WINDOW": "5000",
    });
  });

  it("sends the documented, already encoded nextPageCursor back unchanged and signs it so", () => {
    const cursor = "page_args%3Dfd4300ae-7847-404e-b947-b46980a4d140%26symbol%3D6%26";
    const request = bybitSignedRequest({ api: "k", secret: "s" }, 1, "GET", "/v5/order/realtime", {
      category: "spot",
      cursor,
    });
    expect(request.query).toBe(`category=spot&cursor=${cursor}`);
  });

  it("encodes a cursor that is not already percent-encoded, anywhere in it", () => {
    for (const [cursor, sent] of [
      ["page_args=5&symbol=BTCUSDT&", "page_args%3D5%26symbol%3DBTCUSDT%26"],
      ["&abc", "%26abc"],
      ["abc=", "abc%3D"],
    ]) {
      expect(bybitSignedRequest({ api: "k", secret: "s" }, 1, "GET", "/v5/order/realtime", { cursor }).query).toBe(
        `cursor=${sent}`,
      );
    }
  });

  it("a GET carries its parameters in the query only, a POST in the body only (bybit signs one or the other)", () => {
    const get = bybitSignedRequest({ api: "k", secret: "s" }, 1, "GET", "/v5/order/realtime", { category: "spot" });
    expect([get.query, get.body, get.headers["Content-Type"]]).toEqual(["category=spot", "", undefined]);
    const post = bybitSignedRequest({ api: "k", secret: "s" }, 1, "POST", "/v5/order/cancel", { category: "spot" });
    expect([post.query, post.body]).toEqual(["", '{"category":"spot"}']);
  });

  it("defaults to bybit's documented production host", () => {
    expect(BYBIT_BASE_URL).toBe("https://api.bybit.com");
  });

  it("signs the raw JSON body of a POST, the same bytes it sends", () => {
    const request = bybitSignedRequest({ api: "k", secret: "s" }, 1658385579423, "POST", "/v5/order/create", {
      category: "spot",
      symbol: "BTCUSDT",
    });
    expect(request.body).toBe('{"category":"spot","symbol":"BTCUSDT"}');
    expect(request.headers["X-BAPI-SIGN"]).toBe(
      createHmac("sha256", "s").update(`1658385579423k5000${request.body}`).digest("hex"),
    );
    expect(request.headers["Content-Type"]).toBe("application/json");
  });
});

describe("shared adapter base: exact JSON numbers (docs/exchange-rules.md#limits)", () => {
  it("parses numeric literals longer than 15 characters as exact decimal strings, outside strings only", () => {
    const parsed = parseJsonExact(
      '{"a":12345678901234567890,"b":0.12345678901234567,"c":"9999999999999999999","d":42,"e":1684476068369}',
    ) as Record<string, unknown>;
    expect(parsed).toEqual({
      a: "12345678901234567890",
      b: "0.12345678901234567",
      c: "9999999999999999999",
      d: 42,
      e: 1684476068369,
    });
  });
});

describe("bybit status and timestamp rules (docs/exchange-rules.md#entities, #states)", () => {
  const base = {
    orderId: "1",
    orderLinkId: "x",
    price: "1",
    qty: "1",
    cumExecQty: "0",
    side: "Buy",
    orderType: "Limit",
    createdTime: "1684476068369",
  };
  it.each([
    ["New", "open"],
    ["PartiallyFilled", "open"],
    ["Untriggered", "open"],
    ["Filled", "closed"],
    ["Cancelled", "canceled"],
    ["Rejected", "canceled"],
    ["PartiallyFilledCanceled", "canceled"],
    ["Deactivated", "canceled"],
    ["Triggered", "canceled"],
  ])("maps bybit %s to %s (on bybit, triggered counts as canceled)", (raw, expected) => {
    const order = parseBybitOrder({ ...base, orderStatus: raw }, "BTC/USDT");
    expect(order.status).toBe(expected);
    expect(order.rawStatus).toBe(raw);
  });

  it("reads an order with fields missing as bybit's defaults: a limit order, no raw status", () => {
    const order = parseBybitOrder({ price: "1", qty: "2", side: "Sell", orderType: "Limit" }, "BTC/USDT");
    expect([order.id, order.clientOrderId, order.type, order.status, "rawStatus" in order]).toEqual([
      "",
      "",
      "limit",
      undefined,
      false,
    ]);
    expect(parseBybitOrder({ side: "Buy" }, "BTC/USDT").type).toBe("limit");
  });

  it("keeps createdTime in milliseconds", () => {
    expect(parseBybitOrder({ ...base, orderStatus: "New" }, "BTC/USDT").timestamp).toBe(1684476068369);
  });
});

describe("bybit through the built CLI", () => {
  let mock: BybitMock;
  beforeAll(async () => {
    mock = await startBybitMock(creds);
  });
  afterAll(() => mock.close());

  it("buys, lists, fetches, cancels, batches and reads balances end to end (docs/product.md#cli-surface)", async () => {
    await runCliScenario({
      id: "bybit",
      mock,
      env: { SPOTDESK_API_KEY: creds.api, SPOTDESK_API_SECRET: creds.secret },
      status: (o) => o.orderStatus,
      open: "New",
      canceled: "Cancelled",
      batch: [
        { side: "Buy", amount: "1", price: "10" },
        { side: "Sell", amount: "1", price: "20" },
      ],
      balances: { USDT: { f: "700.5", l: "300" } },
    });
  });
});

describe("bybit pair list (docs/exchange-rules.md#pairs)", () => {
  let mock: BybitMock;
  let keyless: BybitAdapter;
  beforeAll(async () => {
    mock = await startBybitMock(creds);
    keyless = new BybitAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
  });
  afterAll(() => mock.close());

  it("lists the spot pairs trading now, sorted, with tick, lot and minimums, without a key", async () => {
    const expected = [
      { pair: "BTC/USDT", tick: "0.1", lot: "0.000001", minAmount: "0.000048", minNotional: "1" },
      { pair: "ETH/BTC", tick: "0.00001", lot: "0.0001", minAmount: "0.0001" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.00001", minAmount: "0.00062", minNotional: "1" },
      { pair: "PEPE/USDT", tick: "0.00000001", lot: "1", minAmount: "100", minNotional: "1" },
    ];
    expect(await keyless.fetchPairs()).toEqual(expected);
    const sent = mock.server.requests.at(-1)!;
    expect([sent.method, sent.path, sent.query]).toEqual(["GET", "/v5/market/instruments-info", "category=spot"]);
    expect(sent.headers["x-bapi-api-key"]).toBeUndefined();
    expect(sent.headers["x-bapi-sign"]).toBeUndefined();
    // the same list through the registry's keyless adapter, as the TUI asks for it
    expect(await listExchangePairs("bybit", { baseUrl: mock.url, timeoutMs: 2000 })).toEqual(expected);
  });

  it("follows nextPageCursor, sending it back as cursor, until a page comes without one", async () => {
    const [eth, btc] = BYBIT_SPOT_INSTRUMENTS;
    const page = (list: unknown[], nextPageCursor: string) => ({
      body: { retCode: 0, retMsg: "OK", result: { category: "spot", list, nextPageCursor } },
    });
    mock.server.intercept((req) => (req.query.includes("cursor=") ? page([btc], "") : page([eth], "p2")));
    const before = mock.server.requests.length;
    expect((await keyless.fetchPairs()).map((p) => p.pair)).toEqual(["BTC/USDT", "ETH/USDT"]);
    expect(mock.server.requests.slice(before).map((r) => r.query)).toEqual([
      "category=spot",
      "category=spot&cursor=p2",
    ]);
    mock.server.intercept(undefined);
  });

  it("follows every page, 25 of them, not 20: the pair list does not stop silently (docs/exchange-rules.md#paging)", async () => {
    const [eth] = BYBIT_SPOT_INSTRUMENTS;
    const pairs = Array.from({ length: 25 }, (_, i) => ({ ...eth!, symbol: `C${i}USDT`, baseCoin: `C${i}` }));
    mock.server.intercept((req) => {
      const n = Number(/cursor=p(\d+)/.exec(req.query)?.[1] ?? 0);
      return {
        body: {
          retCode: 0,
          retMsg: "OK",
          result: { category: "spot", list: [pairs[n]], nextPageCursor: n < 24 ? `p${n + 1}` : "" },
        },
      };
    });
    const before = mock.server.requests.length;
    const listed = (await keyless.fetchPairs()).map((p) => p.pair);
    expect(listed).toHaveLength(25);
    expect(listed).toEqual(expect.arrayContaining(["C0/USDT", "C20/USDT", "C24/USDT"]));
    expect(mock.server.requests.length - before).toBe(25);
    mock.server.intercept(undefined);
  });

  it("ends at a page that brings nothing new when every page names the same next one, and reads a null result as no pairs", async () => {
    const [eth] = BYBIT_SPOT_INSTRUMENTS;
    mock.server.intercept(() => ({
      body: { retCode: 0, retMsg: "OK", result: { category: "spot", list: [eth], nextPageCursor: "again" } },
    }));
    const before = mock.server.requests.length;
    expect((await keyless.fetchPairs()).map((p) => p.pair)).toEqual(["ETH/USDT"]);
    expect(mock.server.requests.length - before).toBe(2);
    mock.server.intercept(() => ({ body: { retCode: 0, retMsg: "OK", result: null } }));
    expect(await keyless.fetchPairs()).toEqual([]);
    mock.server.intercept(undefined);
  });

  it("an answer in another shape is bybit's unexpected answer, a refusal its error", async () => {
    const row = { symbol: "BTCUSDT", baseCoin: "BTC", quoteCoin: "USDT", status: "Trading" };
    mock.server.intercept(() => ({
      body: {
        retCode: 0,
        retMsg: "OK",
        result: { list: [{ ...row, lotSizeFilter: {}, priceFilter: { tickSize: "0.01" } }] },
      },
    }));
    await expect(keyless.fetchPairs()).rejects.toThrow(
      "Unexpected answer from bybit: result.list[0].lotSizeFilter.basePrecision expected text or a number, got nothing",
    );
    mock.server.intercept(() => ({
      body: {
        retCode: 0,
        retMsg: "OK",
        result: { list: [{ ...row, lotSizeFilter: { basePrecision: "0.0x1" }, priceFilter: { tickSize: "0.01" } }] },
      },
    }));
    await expect(keyless.fetchPairs()).rejects.toThrow(
      "Unexpected answer from bybit: result.list[0].lotSizeFilter.basePrecision",
    );
    mock.server.intercept(() => ({ body: { retCode: 10006, retMsg: "Too many visits!", result: {} } }));
    await expect(keyless.fetchPairs()).rejects.toMatchObject({ kind: "rate-limit" });
    mock.server.intercept(undefined);
  });
});
