import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { placedBefore } from "../../lib/errors.js";
import { rejection as rejects, runCliScenario } from "../../test/exchanges/cli-scenario.js";
import { listExchangePairs } from "../open.js";
import { createExchange } from "../registry.js";
import { type OkxMock, startOkxMock } from "./mock.js";
import { OKX_BASE_URL, OkxAdapter, okxSignedRequest, parseOkxOrder } from "./rest.js";

const creds = { api: "okx-test-key", secret: "okx-test-secret", password: "okx-pass-phrase" };

describe("okx adapter against a loopback mock", () => {
  let mock: OkxMock;
  let okx: OkxAdapter;

  beforeAll(async () => {
    mock = await startOkxMock(creds);
    okx = new OkxAdapter(creds, { baseUrl: mock.url, timeoutMs: 2000 });
  });
  afterAll(() => mock.close());
  afterEach(() => {
    mock.orders.clear();
    mock.server.requests.length = 0;
  });

  it("creates a cash limit order with a 32-alphanumeric clOrdId, signed with the ISO timestamp (docs/exchange-rules.md#calls, docs/decisions.md#d11)", async () => {
    const order = await okx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    expect(order).toMatchObject({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000", status: "open" });
    expect(order.clientOrderId).toMatch(/^[0-9a-f]{32}$/);
    const req = mock.server.requests[0]!;
    expect(JSON.parse(req.body)).toEqual({
      instId: "BTC-USDT",
      tdMode: "cash",
      clOrdId: order.clientOrderId,
      side: "buy",
      ordType: "limit",
      px: "30000",
      sz: "0.01",
    });
    expect(req.headers["ok-access-timestamp"]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(req.headers["ok-access-passphrase"]).toBe(creds.password);
  });

  it("fetches one order (query signed as part of requestPath), lists open orders and cancels one (docs/exchange-rules.md#operations)", async () => {
    const a = await okx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "30000" });
    const b = await okx.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "0.02", price: "40000" });
    expect(await okx.fetchOrder("BTC/USDT", a.id)).toMatchObject({
      id: a.id,
      clientOrderId: a.clientOrderId,
      side: "Buy",
      status: "open",
      filled: "0",
    });
    expect((await okx.fetchOpenOrders("BTC/USDT")).map((o) => o.id).sort()).toEqual([a.id, b.id].sort());
    expect(mock.server.requests.at(-1)!.query).toBe("instType=SPOT&instId=BTC-USDT&limit=100");
    expect(await okx.cancelOrder("BTC/USDT", a.id)).toBe(a.id);
    expect((await okx.fetchOrder("BTC/USDT", a.id)).status).toBe("canceled");
  });

  it("creates and cancels a batch (docs/exchange-rules.md#calls)", async () => {
    const created = await okx.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Sell", amount: "2", price: "200" },
    ]);
    expect(created.map((o) => o.id).every((id) => mock.orders.has(id))).toBe(true);
    expect(
      (
        await okx.cancelBatch(
          "BTC/USDT",
          created.map((o) => o.id),
        )
      ).sort(),
    ).toEqual(created.map((o) => o.id).sort());
    expect(await okx.fetchOpenOrders("BTC/USDT")).toEqual([]);
  });

  it('says "Not supported for okx" for cancel all, before any request (docs/exchange-rules.md#validation, #limits)', async () => {
    const error = await rejects(okx.cancelAll("BTC/USDT"));
    expect(error.message).toBe("ExchangeId: okx, msg: Not supported for okx");
    expect(error.kind).toBe("unsupported");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("rejects 21 orders with \"Maximum for 'createBatch' is: 20\" before any request (docs/exchange-rules.md#limits)", async () => {
    const error = await rejects(
      okx.createBatch(
        "BTC/USDT",
        Array.from({ length: 21 }, () => ({ side: "Buy" as const, amount: "1", price: "1" })),
      ),
    );
    expect(error.message).toBe("ExchangeId: okx, msg: Maximum for 'createBatch' is: 20");
    expect(mock.server.requests).toHaveLength(0);
  });

  it("reads balances from details: availBal free, frozenBal locked, zero dropped, long numbers exact (docs/exchange-rules.md#entities, #limits)", async () => {
    expect(await okx.fetchBalances()).toEqual({
      USDT: { f: "1200.25", l: "300" },
      BTC: { f: "0.00000000000000000001", l: "0" },
    });
  });

  it('wraps a wrong secret as an auth error "Transaction failed (50113, ...)" (docs/exchange-rules.md#errors)', async () => {
    const wrong = new OkxAdapter({ ...creds, secret: "nope" }, { baseUrl: mock.url });
    const error = await rejects(wrong.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "1" }));
    expect(error.kind).toBe("auth");
    expect(error.message).toBe("ExchangeId: okx, msg: Transaction failed (50113, Invalid signature.)");
    expect(mock.server.requests).toHaveLength(1);
  });

  it("refuses a wrong passphrase as auth (50105)", async () => {
    const wrong = new OkxAdapter({ ...creds, password: "other" }, { baseUrl: mock.url });
    const error = await rejects(wrong.fetchBalances());
    expect(error).toMatchObject({ kind: "auth", code: "50105" });
  });

  it("reads an item's sCode: 51008 is insufficient funds (docs/exchange-rules.md#errors)", async () => {
    mock.errorNext = { sCode: "51008", sMsg: "Order failed. Insufficient USDT balance in account." };
    const error = await rejects(okx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "1" }));
    expect(error.kind).toBe("insufficient-funds");
    expect(error.message).toBe(
      "ExchangeId: okx, msg: Transaction failed (51008, Order failed. Insufficient USDT balance in account.)",
    );
    expect((await rejects(okx.fetchOrder("BTC/USDT", "123"))).kind).toBe("order-not-found");
  });

  it("maps HTTP 429 / 50011 to rate-limit", async () => {
    mock.rateLimitNext = true;
    const error = await rejects(okx.fetchOpenOrders("BTC/USDT"));
    expect(error.kind).toBe("rate-limit");
    expect(error.code).toBe("50011");
    expect(error.retryAfterMs).toBeGreaterThan(0);
  });

  it("after a create time-out looks the order up by clOrdId and never sends it twice (docs/exchange-rules.md#contract)", async () => {
    mock.delayNextCreateMs = 800;
    const slow = new OkxAdapter(creds, { baseUrl: mock.url, timeoutMs: 300 });
    const order = await slow.createOrder({ pair: "ETH/USDT", side: "Sell", amount: "1.5", price: "2000" });
    await new Promise((r) => setTimeout(r, 600));
    expect(mock.orders.size).toBe(1);
    expect([...mock.orders.values()][0]!.clOrdId).toBe(order.clientOrderId);
    expect(mock.server.requests.filter((r) => r.path === "/api/v5/trade/order" && r.method === "POST")).toHaveLength(1);
  });

  const addOrders = (count: number, instId = "BTC-USDT") =>
    Array.from({ length: count }, (_, i) =>
      mock.addOrder({ instId, side: i % 2 ? "sell" : "buy", sz: "0.01", px: String(20000 + i), clOrdId: `p${i}` }),
    );

  it("follows `after` past the first page: 250 open orders arrive whole, in pages of 100 (docs/exchange-rules.md#operations)", async () => {
    const placed = addOrders(250);
    addOrders(3, "ETH-USDT");
    const open = await okx.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.id).sort()).toEqual(placed.map((o) => o.ordId).sort());
    const pages = mock.server.requests.map((r) => new URLSearchParams(r.query));
    // newest first: each next page starts after the last ordId of the one before
    const newest = placed.map((o) => o.ordId).reverse();
    expect(pages.map((q) => [q.get("instId"), q.get("limit"), q.get("after")])).toEqual([
      ["BTC-USDT", "100", null],
      ["BTC-USDT", "100", newest[99]],
      ["BTC-USDT", "100", newest[199]],
    ]);
  });

  it("stops at a page shorter than 100, and lists 520 open orders whole in six pages, not 500 (docs/exchange-rules.md#paging)", async () => {
    addOrders(100);
    expect(await okx.fetchOpenOrders("BTC/USDT")).toHaveLength(100);
    // a full page is followed by an empty one
    expect(mock.server.requests).toHaveLength(2);
    mock.server.requests.length = 0;
    addOrders(420);
    expect(await okx.fetchOpenOrders("BTC/USDT")).toHaveLength(520);
    expect(mock.server.requests).toHaveLength(6);
  });

  it("sends every documented required parameter on every call; the mock refuses a call without one (50014)", async () => {
    const [a, b] = await okx.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Sell", amount: "2", price: "200" },
    ]);
    await okx.cancelOrder("BTC/USDT", a!.id);
    await okx.cancelBatch("BTC/USDT", [b!.id]);
    await okx.fetchOrder("BTC/USDT", b!.id);
    const sent = mock.server.requests.map((r) => ({
      path: r.path,
      params: r.method === "GET" ? Object.fromEntries(new URLSearchParams(r.query)) : JSON.parse(r.body),
    }));
    expect(sent.map((r) => r.params)).toEqual([
      [
        {
          instId: "BTC-USDT",
          tdMode: "cash",
          clOrdId: a!.clientOrderId,
          side: "buy",
          ordType: "limit",
          px: "100",
          sz: "1",
        },
        {
          instId: "BTC-USDT",
          tdMode: "cash",
          clOrdId: b!.clientOrderId,
          side: "sell",
          ordType: "limit",
          px: "200",
          sz: "2",
        },
      ],
      { instId: "BTC-USDT", ordId: a!.id },
      [{ instId: "BTC-USDT", ordId: b!.id }],
      { instId: "BTC-USDT", ordId: b!.id },
    ]);
    const bare = await fetch(`${mock.url}/api/v5/trade/cancel-order`, {
      method: "POST",
      headers: signedHeaders("POST", "/api/v5/trade/cancel-order", '{"ordId":"1"}'),
      body: '{"ordId":"1"}',
    });
    expect([bare.status, await bare.json()]).toEqual([
      400,
      { code: "50014", msg: "Parameter instId can not be empty.", data: [] },
    ]);
  });

  it("a partly failed batch create fails with the refused item's code and kind", async () => {
    mock.fake.refuseNextBatchItem(1, { code: "51008", msg: "Order failed. Insufficient USDT balance in account." });
    const error = await rejects(
      okx.createBatch("BTC/USDT", [
        { side: "Buy", amount: "1", price: "100" },
        { side: "Buy", amount: "1", price: "101" },
      ]),
    );
    expect([error.code, error.kind]).toEqual(["51008", "insufficient-funds"]);
    expect(error.message).toBe(
      "ExchangeId: okx, msg: Transaction failed (51008, Order failed. Insufficient USDT balance in account.)",
    );
    expect(mock.orders.size).toBe(1);
    // docs/orders.md "Partly placed batches": the error carries the order the exchange did place.
    const kept = placedBefore(error) ?? [];
    expect(kept.map((o) => [o.side, o.price])).toEqual([["Buy", "100"]]);
    expect((await okx.fetchOrder("BTC/USDT", kept[0]!.id)).id).toBe(kept[0]!.id);
  });

  it("a partly failed batch cancel resolves to the ids really cancelled; the failed ones are not among them", async () => {
    const [a, b] = await okx.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "100" },
      { side: "Buy", amount: "1", price: "101" },
    ]);
    await okx.cancelOrder("BTC/USDT", b!.id);
    // b is already cancelled and 777 never existed: okx answers code "2" with sCode 51400 for those
    expect(await okx.cancelBatch("BTC/USDT", [b!.id, a!.id, "777"])).toEqual([a!.id]);
    expect(mock.orders.get(a!.id)?.state).toBe("canceled");
    // all failed: code "1", nothing cancelled
    expect(await okx.cancelBatch("BTC/USDT", ["778", "779"])).toEqual([]);
    // a refusal of the whole call (no items) is still an error
    mock.rateLimitNext = true;
    expect((await rejects(okx.cancelBatch("BTC/USDT", ["780"]))).kind).toBe("rate-limit");
    // a failure whose items do not each name their sCode is an error of the whole call
    mock.fake.replyNext({
      body: { code: "1", msg: "failed", data: [{ ordId: "781", sCode: "51400" }, { ordId: "782" }] },
    });
    expect((await rejects(okx.cancelBatch("BTC/USDT", ["781", "782"]))).code).toBe("51400");
    mock.fake.replyNext({ body: { code: "1", msg: "failed", data: [{ ordId: "783" }] } });
    expect((await rejects(okx.cancelBatch("BTC/USDT", ["783"]))).code).toBe("1");
    // a success whose items name no sCode cancelled them all
    mock.fake.replyNext({ body: { code: "0", msg: "", data: [{ ordId: "784" }] } });
    expect(await okx.cancelBatch("BTC/USDT", ["784"])).toEqual(["784"]);
  });

  /** okx's envelope around `data`, as the next answer of the mock */
  const answer = (data: unknown, extra: Record<string, unknown> = {}) =>
    mock.fake.replyNext({ body: { code: "0", msg: "", data, ...extra } });

  it("refuses an answer that is not okx's envelope, naming the HTTP status; a failure without items names its code", async () => {
    for (const body of ['"OK"', "null", '{"data":[]}']) {
      mock.fake.replyNext({ body });
      const error = await rejects(okx.fetchBalances());
      expect(error.detail, body).toBe("Transaction failed (200, Unexpected answer (HTTP 200))");
    }
    mock.fake.replyNext({ body: { code: "50001", msg: "Service temporarily unavailable", data: [] } });
    expect((await rejects(okx.fetchBalances())).detail).toBe(
      "Transaction failed (50001, Service temporarily unavailable)",
    );
    mock.fake.replyNext({ body: { code: "50001" } });
    expect((await rejects(okx.fetchBalances())).detail).toBe("Transaction failed (50001, )");
  });

  it("names the item that failed, not one that passed, and reads an item without sMsg", async () => {
    mock.fake.replyNext({
      body: {
        code: "2",
        msg: "",
        data: [{ ordId: "1", sCode: "0", sMsg: "" }, { ordId: "2" }, null, { ordId: "", sCode: "51008" }],
      },
    });
    const error = await rejects(okx.createBatch("BTC/USDT", [{ side: "Buy", amount: "1", price: "1" }]));
    expect([error.code, error.kind, error.detail]).toEqual([
      "51008",
      "insufficient-funds",
      "Transaction failed (51008, )",
    ]);
  });

  it.each([
    ["50113", "auth"],
    ["50120", "auth"],
    ["50011", "rate-limit"],
    ["50061", "rate-limit"],
    ["51000", "invalid-order"],
    ["51402", "order-not-found"],
  ])("reads code %s in an HTTP 200 answer as %s", async (code, kind) => {
    mock.fake.replyNext({ body: { code, msg: "m", data: [] } });
    expect((await rejects(okx.fetchBalances())).kind).toBe(kind);
  });

  it("takes a create's id and time from okx's item, its own clock without one, and matches batch items by clOrdId", async () => {
    answer([{ ordId: "555", clOrdId: "x", ts: "1700000000123", sCode: "0" }]);
    const order = await okx.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "1", price: "2" });
    expect([order.id, order.timestamp, order.filled, order.type, order.side]).toEqual([
      "555",
      1700000000123,
      "0",
      "limit",
      "Sell",
    ]);
    answer([]);
    const bare = await okx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    expect(bare.id).toBe("");
    expect(Math.abs(bare.timestamp - Date.now())).toBeLessThan(5000);
    answer([
      { ordId: "22", clOrdId: "bbbb", sCode: "0" },
      { ordId: "11", clOrdId: "aaaa", sCode: "0" },
    ]);
    const placed = await okx.createBatch("BTC/USDT", [
      { side: "Buy", amount: "1", price: "1", clientOrderId: "aaaa" },
      { side: "Buy", amount: "1", price: "1", clientOrderId: "bbbb" },
    ]);
    expect(placed.map((o) => [o.clientOrderId, o.id])).toEqual([
      ["aaaa", "11"],
      ["bbbb", "22"],
    ]);
    // items without clOrdId are read in order
    answer([{ ordId: "33" }, { ordId: "44" }]);
    expect(
      (
        await okx.createBatch("BTC/USDT", [
          { side: "Buy", amount: "1", price: "1" },
          { side: "Buy", amount: "1", price: "1" },
        ])
      ).map((o) => o.id),
    ).toEqual(["33", "44"]);
  });

  it("reads answers without data as nothing: the cancelled id as asked, no order, no balances", async () => {
    answer([]);
    expect(await okx.cancelOrder("BTC/USDT", "4242")).toBe("4242");
    answer([]);
    const missing = await rejects(okx.fetchOrder("BTC/USDT", "4242"));
    expect([missing.kind, missing.detail]).toEqual(["order-not-found", "Order 4242 not found"]);
    answer([]);
    expect(await okx.fetchBalances()).toEqual({});
    answer([{ uTime: "1" }]);
    expect(await okx.fetchBalances()).toEqual({});
  });

  it("after a create time-out that never reached the book, the clOrdId look-up finds nothing and the create is sent once more", async () => {
    const slow = new OkxAdapter(creds, { baseUrl: mock.url, timeoutMs: 300 });
    mock.fake.replyNext({ delayMs: 600, body: { code: "0", msg: "", data: [] } });
    const order = await slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    await new Promise((r) => setTimeout(r, 400));
    expect([...mock.orders.values()].map((o) => o.ordId)).toEqual([order.id]);
    const routes = mock.server.requests.map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(["POST /api/v5/trade/order", "GET /api/v5/trade/order", "POST /api/v5/trade/order"]);
  });

  it("after a create time-out whose look-up fails too, sends nothing more and reports the time-out", async () => {
    const slow = new OkxAdapter(creds, { baseUrl: mock.url, timeoutMs: 300 });
    mock.fake.replyNext({ delayMs: 600, body: { code: "0", msg: "", data: [] } });
    const lookup = slow.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    // once the create has reached the mock, the next request (the look-up) is refused
    while (mock.server.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    mock.rateLimitNext = true;
    const error = await rejects(lookup);
    expect(error.kind).not.toBe("rate-limit");
    await new Promise((r) => setTimeout(r, 600));
    expect(mock.server.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(mock.orders.size).toBe(0);
  });

  it("sends POST bodies as JSON to okx's production host by default, and refuses a clOrdId okx would not take", async () => {
    expect(OKX_BASE_URL).toBe("https://www.okx.com");
    await okx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2" });
    expect(mock.server.requests[0]!.headers["content-type"]).toBe("application/json");
    const bad = await rejects(
      okx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "1", price: "2", clientOrderId: "has-dash" }),
    );
    expect(bad.kind).toBe("bad-input");
  });

  it("works through createExchange, and signs an empty passphrase when none is given", async () => {
    expect(await createExchange("okx", creds, { baseUrl: mock.url }).fetchBalances()).toHaveProperty("USDT");
    // a GET carries its parameters in the query only: no body
    await okx.fetchOpenOrders("BTC/USDT");
    expect(mock.server.requests.at(-1)!.body).toBe("");
    expect(okxSignedRequest({ api: "k", secret: "s" }, 1, "GET", "/x", undefined).headers["OK-ACCESS-PASSPHRASE"]).toBe(
      "",
    );
  });

  it("is built by createExchange and needs the passphrase (docs/exchange-rules.md#entities)", () => {
    expect(() => createExchange("okx", { api: "a", secret: "b" }, { baseUrl: mock.url })).toThrow(/passphrase/);
    expect(createExchange("okx", creds, { baseUrl: mock.url }).id).toBe("okx");
  });
});

/** okx's signed headers for a request sent by hand (to show what the mock refuses). */
function signedHeaders(method: "GET" | "POST", path: string, body: string): Record<string, string> {
  const ts = new Date().toISOString();
  return {
    "OK-ACCESS-KEY": creds.api,
    "OK-ACCESS-SIGN": createHmac("sha256", creds.secret)
      .update(ts + method + path + body)
      .digest("base64"),
    "OK-ACCESS-TIMESTAMP": ts,
    "OK-ACCESS-PASSPHRASE": creds.password,
    "Content-Type": "application/json",
  };
}

describe("okx signing as the REST authentication section documents it", () => {
  // The docs' example: timestamp 2020-12-08T09:08:57.715Z, GET /api/v5/account/balance?ccy=BTC,
  // SecretKey 22582BD0CFF14C41EDBF1AB98506286D; the GET query is part of requestPath, not the body.
  const secret = "22582BD0CFF14C41EDBF1AB98506286D";
  const ts = Date.parse("2020-12-08T09:08:57.715Z");
  it("signs timestamp + GET + requestPath with its query, base64 HMAC-SHA256, ISO ms timestamp header", () => {
    const request = okxSignedRequest({ api: "k", secret, password: "p" }, ts, "GET", "/api/v5/account/balance", {
      ccy: "BTC",
    });
    expect(request.query).toBe("ccy=BTC");
    expect(request.body).toBe("");
    const expected = createHmac("sha256", secret)
      .update("2020-12-08T09:08:57.715ZGET/api/v5/account/balance?ccy=BTC")
      .digest("base64");
    expect(request.headers).toMatchObject({
      "OK-ACCESS-SIGN": expected,
      "OK-ACCESS-TIMESTAMP": "2020-12-08T09:08:57.715Z",
      "OK-ACCESS-KEY": "k",
      "OK-ACCESS-PASSPHRASE": "p",
    });
  });
  it("signs the JSON body of a POST as sent", () => {
    const request = okxSignedRequest({ api: "k", secret, password: "p" }, ts, "POST", "/api/v5/account/set-leverage", {
      instId: "BTC-USDT",
      lever: "5",
      mgnMode: "isolated",
    });
    expect(request.body).toBe('{"instId":"BTC-USDT","lever":"5","mgnMode":"isolated"}');
    const expected = createHmac("sha256", secret)
      .update(`2020-12-08T09:08:57.715ZPOST/api/v5/account/set-leverage${request.body}`)
      .digest("base64");
    expect(request.headers["OK-ACCESS-SIGN"]).toBe(expected);
  });
});

describe("okx status and timestamp rules (docs/exchange-rules.md#entities, #states)", () => {
  // The documented example order of GET /api/v5/trade/order.
  const example = {
    instId: "BTC-USDT",
    ordId: "312269865356374016",
    clOrdId: "b1",
    px: "999",
    sz: "3",
    accFillSz: "0",
    side: "buy",
    ordType: "limit",
    cTime: "1597026383085",
  };
  it.each([
    ["live", "open"],
    ["partially_filled", "open"],
    ["filled", "closed"],
    ["canceled", "canceled"],
    ["mmp_canceled", "canceled"],
  ])("maps okx %s to %s", (state, expected) => {
    expect(parseOkxOrder({ ...example, state }, "BTC/USDT").status).toBe(expected);
  });
  it("reads an order with fields missing as okx's defaults: a limit order, no raw status", () => {
    const order = parseOkxOrder({ px: "1", sz: "2", side: "sell" }, "BTC/USDT");
    expect([order.id, order.clientOrderId, order.type, order.status, "rawStatus" in order]).toEqual([
      "",
      "",
      "limit",
      undefined,
      false,
    ]);
    expect(parseOkxOrder({ ...example, ordType: "post_only", state: "live" }, "BTC/USDT")).toMatchObject({
      type: "post_only",
      rawStatus: "live",
    });
  });
  it("gives the average fill price and the fee as a positive charge in its currency, where okx sends them", () => {
    const filled = parseOkxOrder(
      { ...example, state: "filled", accFillSz: "3", avgPx: "998.5", fee: "-0.003", feeCcy: "BTC" },
      "BTC/USDT",
    );
    expect(filled).toMatchObject({ average: "998.5", fee: { amount: "0.003", currency: "BTC" } });
    // nothing filled: okx sends avgPx "" and fee "0"
    const resting = parseOkxOrder({ ...example, state: "live", avgPx: "", fee: "0", feeCcy: "BTC" }, "BTC/USDT");
    expect(resting.average).toBeUndefined();
    expect(resting.fee).toEqual({ amount: "0", currency: "BTC" });
  });
  it("keeps cTime in ms and the 18-digit ordId exact", () => {
    const order = parseOkxOrder({ ...example, state: "live" }, "BTC/USDT");
    expect(order.timestamp).toBe(1597026383085);
    expect(order.id).toBe("312269865356374016");
  });
});

describe("okx through the built CLI", () => {
  let mock: OkxMock;
  beforeAll(async () => {
    mock = await startOkxMock(creds);
  });
  afterAll(() => mock.close());

  it("buys, lists, fetches, cancels, batches, refuses cancel-all and reads balances (docs/product.md#cli-surface)", async () => {
    await runCliScenario({
      id: "okx",
      mock,
      env: { SPOTDESK_API_KEY: creds.api, SPOTDESK_API_SECRET: creds.secret, SPOTDESK_API_PASSWORD: creds.password },
      status: (o) => o.state,
      open: "live",
      canceled: "canceled",
      batch: [{ side: "Buy", amount: "1", price: "10" }],
      unsupported: ["cancel-all"],
      balances: { USDT: { f: "1200.25", l: "300" } },
    });
  });
});

describe("okx pair list (docs/exchange-rules.md#pairs)", () => {
  let mock: OkxMock;
  let keyless: OkxAdapter;
  beforeAll(async () => {
    mock = await startOkxMock(creds);
    keyless = new OkxAdapter({ api: "", secret: "" }, { baseUrl: mock.url, timeoutMs: 2000 });
  });
  afterAll(() => mock.close());

  it("lists the live spot pairs, sorted, with tick, lot and smallest amount, without a key", async () => {
    const expected = [
      { pair: "BTC/USDT", tick: "0.1", lot: "0.00000001", minAmount: "0.00001" },
      { pair: "ETH/USDT", tick: "0.01", lot: "0.000001", minAmount: "0.001" },
      { pair: "SHIB/USDT", tick: "0.000000001", lot: "100", minAmount: "100000" },
    ];
    expect(await keyless.fetchPairs()).toEqual(expected);
    const sent = mock.server.requests.at(-1)!;
    expect([sent.method, sent.path, sent.query]).toEqual(["GET", "/api/v5/public/instruments", "instType=SPOT"]);
    expect(sent.headers["ok-access-key"]).toBeUndefined();
    expect(sent.headers["ok-access-sign"]).toBeUndefined();
    expect(await listExchangePairs("okx", { baseUrl: mock.url, timeoutMs: 2000 })).toEqual(expected);
  });

  it("an answer in another shape is okx's unexpected answer, a refusal its error", async () => {
    mock.server.intercept(() => ({
      body: {
        code: "0",
        msg: "",
        data: [{ instId: "BTC-USDT", baseCcy: "BTC", quoteCcy: "USDT", tickSz: "0.1", state: "live" }],
      },
    }));
    await expect(keyless.fetchPairs()).rejects.toThrow(
      "Unexpected answer from okx: data[0].lotSz expected text or a number, got nothing",
    );
    mock.server.intercept(() => ({ status: 429, body: { code: "50011", msg: "Too Many Requests", data: [] } }));
    await expect(keyless.fetchPairs()).rejects.toMatchObject({ kind: "rate-limit" });
    mock.server.intercept(undefined);
  });
});
