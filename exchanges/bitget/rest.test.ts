import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { placedBefore } from "../../lib/errors.js";
import { rejection as rejects, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { listExchangePairs } from "../open.js";
import { createExchange } from "../registry.js";
import { type BitgetMock, startBitgetMock } from "./mock.js";
import { BITGET_BASE_URL, BitgetAdapter, bitgetSignedRequest, parseBitgetOrder } from "./rest.js";

const creds = { api: "bg-test-key", secret: "bg-test-secret", password: "bg-pass" };

describe("bitget adapter against a loopback mock", () => {
  let mock: BitgetMock;
  let bitget: BitgetAdapter;

  beforeAll(async () => {
    mock = await startBitgetMock(creds);
    bitget = new BitgetAdapter(creds, { baseUrl: mock.url, timeoutMs: 2000 });
  });
  afterAll(() => mock.close());
  afterEach(() => {
    mock.orders.clear();
    mock.server.requests.length = 0;
  });

  it("places a limit gtc order with a hex clientOid (docs/exchange-rules.md#calls, docs/decisions.md#d11)", async () => {
    const order = await bitget.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "0.01", price: "30000" });
    expect(order).toMatchObject({ pair: "BTC/USDT", side: "Sell", amount: "0.01", price: "30000", status: "open" });
    expect(order.clientOrderId).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(mock.server.requests[0]!.body)).toEqual({
      symbol: "BTCUSDT",
      side: "sell",
      orderType: "limit",
      force: "gtc",
      price: "30000",
      size: "0.01",
      clientOid: order.clientOrderId,
    });
  });

  it("fetches one order, lists open orders (price from priceAvg) and cancels one (docs/exchange-rules.md#operations)", async () => {
    const a = await bitget.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await bitget.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "0.02", price: "40000" });
    expect(await bitget.fetchOrder("BTC/USDT", a.id)).toMatchObject({
      id: a.id,
      clientOrderId: a.clientOrderId,
      price: "30000",
      status: "open",
    });
    const open = await bitget.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => [o.id, o.price]).sort()).toEqual(
      [
        [a.id, "30000"],
        [b.id, "40000"],
      ].sort(),
    );
    expect(mock.server.requests.at(-1)!.query).toBe("limit=100&symbol=BTCUSDT");
    expect(await bitget.cancelOrder("BTC/USDT", a.id)).toBe(a.id);
    expect((await bitget.fetchOrder("BTC/USDT", a.id)).status).toBe("canceled");
  });

  it("creates a batch, cancels a batch and cancels all for the symbol (docs/exchange-rules.md#calls)", async () => {
    const created = await bitget.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Buy", amount: "2", price: "200" },
      { side: "Sell", amount: "3", price: "300" },
    ]);
    expect(created.every((o) => mock.orders.has(o.id))).toBe(true);
    expect(await bitget.cancelBatch("BTC/USDT", [created[0]!.id])).toEqual([created[0]!.id]);
    expect(await bitget.cancelAll("BTC/USDT")).toEqual([]);
    expect(await bitget.fetchOpenOrders("BTC/USDT")).toEqual([]);
    expect(mock.server.requests.some((r) => r.path === "/api/v2/spot/trade/cancel-symbol-order")).toBe(true);
  });

  it('fails a batch with "Failure List: ..." when any item failed (docs/exchange-rules.md#validation)', async () => {
    mock.failBatchItem = 0;
    const error = await rejects(bitget.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "100" }]));
    expect(error.message).toMatch(
      /^ExchangeId: bitget, msg: Failure List: [0-9a-f]{32}: Insufficient balance \(43012\)$/,
    );
    expect(error).toMatchObject({ kind: "insufficient-funds", code: "43012" });
  });

  const add = (count: number, symbol = "BTCUSDT") =>
    Array.from({ length: count }, (_, i) =>
      mock.addOrder({ symbol, side: "buy", price: String(100 + i), size: "1", clientOid: `c${i}` }),
    );

  it("lists 130 open orders whole, newest first, in pages of 100 chained by idLessThan (docs/exchange-rules.md#paging)", async () => {
    const placed = add(130);
    add(2, "ETHUSDT");
    const open = await bitget.fetchOpenOrders("BTC/USDT");
    const newest = placed.map((o) => o.orderId).reverse();
    expect(open.map((o) => o.id)).toEqual(newest);
    expect(mock.server.requests.map((r) => r.query)).toEqual([
      "limit=100&symbol=BTCUSDT",
      `idLessThan=${newest[99]}&limit=100&symbol=BTCUSDT`,
    ]);
    mock.server.requests.length = 0;
    expect(await bitget.fetchOpenOrders("ETH/USDT")).toHaveLength(2);
    expect(mock.server.requests).toHaveLength(1);
  });

  it("sends every documented required parameter on every call; the mock refuses a call without one (40019)", async () => {
    const [a, b] = await bitget.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Sell", amount: "2", price: "200" },
    ]);
    await bitget.cancelOrder("BTC/USDT", a!.id);
    await bitget.cancelBatch("BTC/USDT", [b!.id]);
    await bitget.fetchOrder("BTC/USDT", b!.id);
    await bitget.cancelAll("BTC/USDT");
    const sent = mock.server.requests.map((r) => (r.method === "GET" ? r.query : JSON.parse(r.body)));
    expect(sent).toEqual([
      {
        symbol: "BTCUSDT",
        orderList: [
          expect.objectContaining({ side: "buy", orderType: "limit", force: "gtc", size: "1", price: "100" }),
          expect.objectContaining({ side: "sell", orderType: "limit", force: "gtc", size: "2", price: "200" }),
        ],
      },
      { symbol: "BTCUSDT", orderId: a!.id },
      { symbol: "BTCUSDT", orderList: [{ orderId: b!.id }] },
      expect.stringContaining(`orderId=${b!.id}`),
      { symbol: "BTCUSDT" },
    ]);
    const request = bitgetSignedRequest(creds, Date.now(), "POST", "/api/v2/spot/trade/cancel-order", { orderId: "1" });
    const bare = await fetch(`${mock.url}${request.path}`, {
      method: "POST",
      headers: request.headers,
      body: request.body,
    });
    expect(bare.status).toBe(400);
    expect(await bare.json()).toMatchObject({ code: "40019", msg: "Parameter symbol cannot be empty" });
  });

  it("a partly failed batch cancel resolves to the ids in successList; the failed ones are not among them", async () => {
    const [a, b] = await bitget.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Buy", amount: "1", price: "101" },
    ]);
    await bitget.cancelOrder("BTC/USDT", b!.id);
    expect(await bitget.cancelBatch("BTC/USDT", [b!.id, a!.id, "777"])).toEqual([a!.id]);
    expect(mock.orders.get(a!.id)?.status).toBe("cancelled");
    expect(await bitget.cancelBatch("BTC/USDT", ["778"])).toEqual([]);
  });

  it("a partly failed batch create fails with its failure list, though the other items were placed", async () => {
    mock.fake.refuseNextBatchItem(1, { code: "43012", msg: "Insufficient balance" });
    const error = await rejects(
      bitget.createBatch("BTC/USDT", [
        { side: "Buy", amount: "1", price: "100" },
        { side: "Buy", amount: "1", price: "101", clientOrderId: "c0ffee" },
      ]),
    );
    expect(error.detail).toBe("Failure List: c0ffee: Insufficient balance (43012)");
    // docs/orders.md "Partly placed batches": the error carries the order the exchange did place.
    const kept = placedBefore(error) ?? [];
    expect(kept.map((o) => [o.side, o.price])).toEqual([["Buy", "100"]]);
    expect((await bitget.fetchOrder("BTC/USDT", kept[0]!.id)).id).toBe(kept[0]!.id);
    expect(mock.orders.size).toBe(1);
  });

  /** bitget's envelope around `data`, as the next answer of the mock */
  const answer = (data: unknown, extra: Record<string, unknown> = {}) =>
    mock.fake.replyNext({ body: { code: "00000", msg: "success", data, ...extra } });

  it("refuses an answer that is not bitget's envelope; a failure names msg, else message, else 'Unknown error'", async () => {
    for (const body of ['"OK"', "null", '{"data":[]}']) {
      mock.fake.replyNext({ body });
      expect((await rejects(bitget.fetchBalances())).detail, body).toBe("Unexpected answer (HTTP 200)");
    }
    for (const [body, detail] of [
      [{ code: "40034", msg: "bad size" }, "bad size (code 40034)"],
      [{ code: "40034", message: "bad price" }, "bad price (code 40034)"],
      [{ code: "40034" }, "Unknown error (code 40034)"],
    ] as const) {
      mock.fake.replyNext({ body });
      expect((await rejects(bitget.fetchBalances())).detail).toBe(detail);
    }
  });

  it.each([
    ["40037", "auth"],
    ["429", "rate-limit"],
    ["40034", "invalid-order"],
    ["45057", "order-not-found"],
  ])("reads code %s in an HTTP 200 answer as %s", async (code, kind) => {
    mock.fake.replyNext({ body: { code, msg: "m", data: null } });
    expect((await rejects(bitget.fetchBalances())).kind).toBe(kind);
  });

  it("takes a create's id and time from bitget's answer, its own clock without one; batch items by clientOid", async () => {
    answer({ orderId: "555", clientOid: "x" }, { requestTime: 1700000000123 });
    const order = await bitget.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "1", price: "2" });
    expect([order.id, order.timestamp, order.filled, order.type, order.side]).toEqual([
      "555",
      1700000000123,
      "0",
      "limit",
      "Sell",
    ]);
    expect(JSON.parse(mock.server.requests.at(-1)!.body).side).toBe("sell");
    answer(null);
    const bare = await bitget.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    expect(bare.id).toBe("");
    expect(Math.abs(bare.timestamp - Date.now())).toBeLessThan(5000);
    answer({
      successList: [
        { orderId: "22", clientOid: "bbbb" },
        { orderId: "11", clientOid: "aaaa" },
      ],
    });
    const items = [
      { side: "Buy" as const, amount: "1", price: "1", clientOrderId: "aaaa" },
      { side: "Buy" as const, amount: "1", price: "1", clientOrderId: "bbbb" },
    ];
    expect((await bitget.createBatch("BTC/USDT", items)).map((o) => o.id)).toEqual(["11", "22"]);
    answer({ successList: [{ orderId: "33" }] });
    expect((await bitget.createBatch("BTC/USDT", items)).map((o) => o.id)).toEqual(["33", ""]);
    answer({});
    expect((await bitget.createBatch("BTC/USDT", items)).map((o) => o.id)).toEqual(["", ""]);
  });

  it("names each failed batch item, without code or message as bitget leaves them out", async () => {
    answer({
      successList: [],
      failureList: [{ clientOid: "aaaa", errorMsg: "Insufficient balance", errorCode: "43012" }, { orderId: "9" }, {}],
    });
    const items = [{ side: "Buy" as const, amount: "1", price: "1", clientOrderId: "aaaa" }];
    const error = await rejects(bitget.createBatch("BTC/USDT", items));
    expect([error.detail, error.kind]).toEqual([
      "Failure List: aaaa: Insufficient balance (43012); 9: failed; ?: failed",
      "insufficient-funds",
    ]);
    answer({ failureList: [{ clientOid: "aaaa", errorMsg: "no" }] });
    const bare = await rejects(bitget.createBatch("BTC/USDT", items));
    expect([bare.detail, bare.kind, bare.code]).toEqual(["Failure List: aaaa: no", "invalid-order", undefined]);
  });

  it("reads answers without data as nothing: the cancelled id as asked, no order, no batch cancels", async () => {
    answer(null);
    expect(await bitget.cancelOrder("BTC/USDT", "4242")).toBe("4242");
    answer([]);
    const missing = await rejects(bitget.fetchOrder("BTC/USDT", "4242"));
    expect([missing.kind, missing.detail]).toEqual(["order-not-found", "Order 4242 not found"]);
    answer(null);
    expect(await bitget.cancelBatch("BTC/USDT", ["1"])).toEqual([]);
    answer({ successList: [{}] });
    expect(await bitget.cancelBatch("BTC/USDT", ["1"])).toEqual([""]);
  });

  it("after a create time-out, looks the order up: nothing found or not-found sends it once more, another failure does not", async () => {
    const slow = new BitgetAdapter(creds, { baseUrl: mock.url, timeoutMs: 300 });
    const lost = (lookup: { status: number; body: unknown } | undefined) => {
      let creates = 0;
      let lookups = 0;
      mock.server.intercept((req) => {
        if (req.path.endsWith("/place-order") && creates++ === 0)
          return { delayMs: 600, body: { code: "00000", msg: "success", data: {} } };
        if (req.path.endsWith("/orderInfo") && lookups++ === 0 && lookup) return lookup;
        return undefined;
      });
    };
    lost(undefined);
    const a = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    lost({ status: 400, body: { code: "43001", msg: "The order does not exist", data: null } });
    const b = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    expect([...mock.orders.keys()].sort()).toEqual([a.id, b.id].sort());
    lost({ status: 400, body: { code: "40034", msg: "busy", data: null } });
    await rejects(slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" }));
    mock.server.intercept(undefined);
    await new Promise((r) => setTimeout(r, 400));
    expect(mock.orders.size).toBe(2);
    expect(mock.server.requests.filter((r) => r.method === "POST")).toHaveLength(5);
  });

  it("works through createExchange, and sends a GET's parameters in the query only", async () => {
    expect(await createExchange("bitget", creds, { baseUrl: mock.url }).fetchBalances()).toHaveProperty("USDT");
    await bitget.fetchOpenOrders("BTC/USDT");
    expect(mock.server.requests.at(-1)!.body).toBe("");
  });

  it("sends the passphrase, JSON and bitget's locale to bitget's production host by default", async () => {
    expect(BITGET_BASE_URL).toBe("https://api.bitget.com");
    await bitget.fetchBalances();
    expect(mock.server.requests[0]!.headers).toMatchObject({
      "access-passphrase": creds.password,
      "content-type": "application/json",
      locale: "en-US",
    });
    const bare = bitgetSignedRequest({ api: "k", secret: "s" }, 1, "POST", "/x", { a: "1" });
    expect([bare.headers["ACCESS-PASSPHRASE"], bare.body]).toEqual(["", '{"a":"1"}']);
  });

  it("rejects 51 orders with \"Maximum for 'createBatch' is: 50\" before any request (docs/exchange-rules.md#limits)", async () => {
    const error = await rejects(
      bitget.createBatch(
        "BTC/USDT",
        Array.from({ length: 51 }, () => ({ side: "Buy" as const, amount: "1", price: "1" })),
      ),
    );
    expect(error.message).toBe("ExchangeId: bitget, msg: Maximum for 'createBatch' is: 50");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("reads assets: upper-cased codes, frozen + locked as l, zero dropped, long numbers exact (docs/exchange-rules.md#entities, #limits)", async () => {
    expect(await bitget.fetchBalances()).toEqual({
      USDT: { f: "500.5", l: "100.5" },
      BTC: { f: "1.123456789012345678", l: "0" },
    });
  });

  it("maps a wrong secret to auth (40009) without a retry (docs/exchange-rules.md#errors)", async () => {
    const wrong = new BitgetAdapter({ ...creds, secret: "bad" }, { baseUrl: mock.url });
    const error = await rejects(wrong.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "1" }));
    expect(error).toMatchObject({ kind: "auth", code: "40009" });
    expect(error.message).toBe("ExchangeId: bitget, msg: sign signature error (code 40009)");
    expect(mock.server.requests).toHaveLength(1);
  });

  it("maps a wrong passphrase to auth (40012)", async () => {
    const wrong = new BitgetAdapter({ ...creds, password: "other" }, { baseUrl: mock.url });
    expect(await rejects(wrong.fetchBalances())).toMatchObject({ kind: "auth", code: "40012" });
  });

  it("maps 43012 to insufficient funds and 43001 to order-not-found (docs/exchange-rules.md#errors)", async () => {
    mock.errorNext = { code: "43012", msg: "Insufficient balance" };
    expect(await rejects(bitget.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "1" }))).toMatchObject(
      { kind: "insufficient-funds" },
    );
    expect(await rejects(bitget.cancelOrder("BTC/USDT", "1"))).toMatchObject({
      kind: "order-not-found",
      code: "43001",
    });
  });

  it("maps HTTP 429 to rate-limit", async () => {
    mock.rateLimitNext = true;
    const error = await rejects(bitget.fetchOpenOrders("BTC/USDT"));
    expect(error.kind).toBe("rate-limit");
    expect(error.retryAfterMs).toBeGreaterThan(0);
  });

  it("after a create time-out looks the order up by clientOid and never sends it twice (docs/exchange-rules.md#contract)", async () => {
    mock.delayNextCreateMs = 800;
    const slow = new BitgetAdapter(creds, { baseUrl: mock.url, timeoutMs: 300 });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.3", price: "20000" });
    await new Promise((r) => setTimeout(r, 600));
    expect(mock.orders.size).toBe(1);
    expect([...mock.orders.values()][0]!.clientOid).toBe(order.clientOrderId);
    expect(mock.server.requests.filter((r) => r.path === "/api/v2/spot/trade/place-order")).toHaveLength(1);
    expect(
      mock.server.requests.some(
        (r) => r.path === "/api/v2/spot/trade/orderInfo" && r.query === `clientOid=${order.clientOrderId}`,
      ),
    ).toBe(true);
  });

  it("is built by createExchange (registry line)", () => {
    expect(createExchange("bitget", creds, { baseUrl: mock.url }).id).toBe("bitget");
  });
});

describe("bitget signing as the signature page documents it", () => {
  it("signs timestamp + GET + requestPath + '?' + the query sorted by key, base64 HMAC-SHA256", () => {
    // The page's pre-hash example: "16273667805456GET/api/mix/v2/market/depth?limit=20&symbol=BTCUSDT".
    const request = bitgetSignedRequest(
      { api: "k", secret: "s", password: "p" },
      16273667805456,
      "GET",
      "/api/mix/v2/market/depth",
      { symbol: "BTCUSDT", limit: "20" },
    );
    expect(request.query).toBe("limit=20&symbol=BTCUSDT");
    const expected = createHmac("sha256", "s")
      .update("16273667805456GET/api/mix/v2/market/depth?limit=20&symbol=BTCUSDT")
      .digest("base64");
    expect(request.headers).toMatchObject({
      "ACCESS-SIGN": expected,
      "ACCESS-TIMESTAMP": "16273667805456",
      "ACCESS-KEY": "k",
      "ACCESS-PASSPHRASE": "p",
    });
  });
  it("signs timestamp + POST + requestPath + the JSON body, no '?' without a query", () => {
    const body = {
      productType: "usdt-futures",
      symbol: "BTCUSDT",
      size: "8",
      marginMode: "crossed",
      side: "buy",
      orderType: "limit",
      clientOid: "channel#123456",
    };
    const request = bitgetSignedRequest(
      { api: "k", secret: "s", password: "p" },
      16273667805456,
      "POST",
      "/api/v2/mix/order/place-order",
      body,
    );
    expect(request.body).toBe(
      '{"productType":"usdt-futures","symbol":"BTCUSDT","size":"8","marginMode":"crossed","side":"buy","orderType":"limit","clientOid":"channel#123456"}',
    );
    const expected = createHmac("sha256", "s")
      .update(`16273667805456POST/api/v2/mix/order/place-order${request.body}`)
      .digest("base64");
    expect(request.headers["ACCESS-SIGN"]).toBe(expected);
  });
});

describe("bitget status and timestamp rules (docs/exchange-rules.md#entities, #states)", () => {
  // The documented example of GET unfilled-orders: cTime "1622697148" is in seconds.
  const unfilled = {
    symbol: "btcusdt",
    orderId: "2222222",
    clientOid: "xxxxxxx",
    priceAvg: "34829.12",
    size: "1",
    orderType: "limit",
    side: "buy",
    status: "new",
    baseVolume: "0",
    cTime: "1622697148",
  };
  it("multiplies a seconds cTime by 1000 and reads the order price from priceAvg", () => {
    const order = parseBitgetOrder(unfilled, "BTC/USDT");
    expect(order.timestamp).toBe(1622697148000);
    expect(order.price).toBe("34829.12");
    expect(order.status).toBe("open");
  });
  it("reads an order with fields missing as bitget's defaults: a limit order, no raw status", () => {
    const order = parseBitgetOrder({ price: "1", size: "2", side: "sell" }, "BTC/USDT");
    expect([order.id, order.clientOrderId, order.type, order.status, "rawStatus" in order]).toEqual([
      "",
      "",
      "limit",
      undefined,
      false,
    ]);
    expect(parseBitgetOrder({ side: "buy", orderType: "market", status: "live" }, "BTC/USDT")).toMatchObject({
      type: "market",
      status: "open",
      rawStatus: "live",
    });
  });

  it("keeps a ms cTime (orderInfo example 1695865232127)", () => {
    expect(parseBitgetOrder({ ...unfilled, cTime: "1695865232127" }, "BTC/USDT").timestamp).toBe(1695865232127);
  });
  it.each([
    ["live", "open"],
    ["new", "open"],
    ["partially_filled", "open"],
    ["filled", "closed"],
    ["cancelled", "canceled"],
  ])("maps bitget %s to %s", (status, expected) => {
    expect(parseBitgetOrder({ ...unfilled, status }, "BTC/USDT").status).toBe(expected);
  });
});

describe("bitget through the built CLI", () => {
  let mock: BitgetMock;
  beforeAll(async () => {
    mock = await startBitgetMock(creds);
  });
  afterAll(() => mock.close());

  it("buys, lists, fetches, cancels, batches, cancels all and reads balances (docs/product.md#cli-surface)", async () => {
    await runCliScenario({
      id: "bitget",
      mock,
      env: { SPOTDESK_API_KEY: creds.api, SPOTDESK_API_SECRET: creds.secret, SPOTDESK_API_PASSWORD: creds.password },
      status: (o) => o.status,
      open: "live",
      canceled: "cancelled",
      batch: [
        { side: "Buy", amount: "1", price: "10" },
        { side: "Sell", amount: "1", price: "20" },
      ],
      balances: { USDT: { f: "500.5", l: "100.5" } },
    });
  });
});

describe("bitget pair list (docs/exchange-rules.md#pairs)", () => {
  let mock: BitgetMock;
  let keyless: BitgetAdapter;
  beforeAll(async () => {
    mock = await startBitgetMock(creds);
    keyless = new BitgetAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
  });
  afterAll(() => mock.close());

  it("lists the online symbols, sorted, with tick and lot from the precisions, without a key", async () => {
    const expected = [
      { pair: "BTC/USDT", tick: "0.1", lot: "0.000001", minAmount: "0.00001", minNotional: "5" },
      { pair: "ETH/BTC", tick: "0.000001", lot: "0.001", minAmount: "0.001" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.0001", minAmount: "0.0001", minNotional: "5" },
      { pair: "PEPE/USDT", tick: "0.0000000001", lot: "1", minAmount: "1", minNotional: "5" },
    ];
    expect(await keyless.fetchPairs()).toEqual(expected);
    const sent = mock.server.requests.at(-1)!;
    expect([sent.method, sent.path, sent.query]).toEqual(["GET", "/api/v2/spot/public/symbols", ""]);
    expect(sent.headers["access-key"]).toBeUndefined();
    expect(sent.headers["access-sign"]).toBeUndefined();
    expect(await listExchangePairs("bitget", { baseUrl: mock.url, timeoutMs: 2000 })).toEqual(expected);
  });

  it("an answer in another shape is bitget's unexpected answer, a refusal its error", async () => {
    const row = { symbol: "BTCUSDT", baseCoin: "BTC", quoteCoin: "USDT", quantityPrecision: "6", status: "online" };
    mock.server.intercept(() => ({
      body: { code: "00000", msg: "success", data: [{ ...row, pricePrecision: "-1" }] },
    }));
    await expect(keyless.fetchPairs()).rejects.toThrow("Unexpected answer from bitget: data[0].pricePrecision");
    mock.server.intercept(() => ({ status: 429, body: { code: "429", msg: "Too Many Requests" } }));
    await expect(keyless.fetchPairs()).rejects.toMatchObject({ kind: "rate-limit" });
    mock.server.intercept(undefined);
  });
});
