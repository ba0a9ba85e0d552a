import { createHmac } from "node:crypto";
import {
  type FakeError,
  type FakeParams,
  OrderStore,
  pageByCursor,
  raw,
  refuse,
  startFakeExchange,
} from "../core/testing/fake-exchange.js";
import type { MockReply, MockServer, ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A bybit v5 mock on the fake exchange (exchanges/core/testing/fake-exchange.ts) that verifies
 * requests the way bybit's v5 guide documents it: X-BAPI-SIGN recomputed as hex HMAC-SHA256 over
 * timestamp + apiKey + recvWindow + raw query (GET) or raw body (POST); the timestamp must satisfy
 * server_time - recv_window <= timestamp < server_time + 1000. Anything else gets bybit's envelope
 * with retCode 10003 / 10004 / 10002.
 *
 * Every order call checks the parameters bybit documents as required (category "spot" on all of
 * them, symbol and orderId or orderLinkId on cancels) and answers 10001 otherwise; open orders come
 * in pages of `limit` (default 20, at most 50) chained by an already percent-encoded nextPageCursor,
 * as bybit sends it, also on the last page.
 */
export interface BybitMockOrder {
  orderId: string;
  orderLinkId: string;
  symbol: string;
  price: string;
  qty: string;
  side: string;
  orderType: string;
  orderStatus: string;
  cumExecQty: string;
  timeInForce: string;
  createdTime: string;
  updatedTime: string;
  // The rest of the documented v5 order object (Get Open & Closed Orders), spot values.
  blockTradeId: string;
  isLeverage: string;
  positionIdx: number;
  cancelType: string;
  rejectReason: string;
  avgPrice: string;
  leavesQty: string;
  leavesValue: string;
  cumExecValue: string;
  cumExecFee: string;
  stopOrderType: string;
  triggerPrice: string;
  smpType: string;
  smpGroup: number;
  smpOrderId: string;
  reduceOnly: boolean;
  closeOnTrigger: boolean;
  cumFeeDetail: Record<string, string>;
}

export interface BybitMock {
  server: MockServer;
  url: string;
  orders: Map<string, BybitMockOrder>;
  /** the next create is held this long before answering (it is still recorded) */
  delayNextCreateMs: number;
  /** the next private call answers 10006 Too many visits */
  rateLimitNext: boolean;
  /** the next request answers HTTP 403 "access too frequent" (bybit's IP limit) */
  ipBanNext: boolean;
  /** the next private call answers this retCode */
  errorNext: { retCode: number; retMsg: string } | undefined;
  /** the next batch create marks this item index as failed in retExtInfo */
  failBatchItem: number | undefined;
  /** the next batch create answers this item index without orderId and createAt (and code 0) */
  dropBatchItem: number | undefined;
  /** coins of the UNIFIED wallet */
  coins: { coin: string; walletBalance: string; locked: string }[];
  /** open-order pages never end: every cursor leads back to the first page (a broken cursor) */
  endlessCursor: boolean;
  /** the next signed request gets this answer instead of the route's (odd or partial answers bybit may send) */
  replyNext: MockReply | undefined;
  /** puts a resting order on the book directly (no request), as if placed earlier */
  addOrder(fields: {
    symbol: string;
    side: "Buy" | "Sell";
    qty: string;
    price: string;
    orderLinkId: string;
  }): BybitMockOrder;
  close(): Promise<void>;
}

/** One spot instrument of "Get Instruments Info", in bybit's shape. */
function instrument(
  symbol: string,
  base: string,
  quote: string,
  status: string,
  tickSize: string,
  basePrecision: string,
  minOrderQty: string,
  minOrderAmt: string,
) {
  return {
    symbol,
    baseCoin: base,
    quoteCoin: quote,
    innovation: "0",
    status,
    marginTrading: "utaOnly",
    stTag: "0",
    lotSizeFilter: {
      basePrecision,
      quotePrecision: "0.00000001",
      minOrderQty,
      maxOrderQty: "71.73956243",
      minOrderAmt,
      maxOrderAmt: "2000000",
    },
    priceFilter: { tickSize },
    riskParameters: { priceLimitRatioX: "0.01", priceLimitRatioY: "0.02" },
  };
}

/**
 * The spot list the mock answers, unsorted as bybit sends it: one closed symbol, and odd steps
 * (a whole-number lot, an eight-decimal tick).
 */
export const BYBIT_SPOT_INSTRUMENTS = [
  instrument("ETHUSDT", "ETH", "USDT", "Trading", "0.01", "0.00001", "0.00062", "1"),
  instrument("BTCUSDT", "BTC", "USDT", "Trading", "0.1", "0.000001", "0.000048", "1"),
  instrument("LUNAUSDT", "LUNA", "USDT", "Closed", "0.0001", "0.01", "0.01", "1"),
  instrument("PEPEUSDT", "PEPE", "USDT", "Trading", "0.00000001", "1", "100", "1"),
  instrument("ETHBTC", "ETH", "BTC", "Trading", "0.00001", "0.0001", "0.0001", "0"),
];

/** bybit's envelope; `result` and `retExtInfo` are objects even when empty. */
function envelope(retCode: number | string, retMsg: string, result: unknown = {}, retExtInfo: unknown = {}) {
  return { retCode, retMsg, result, retExtInfo, time: Date.now() };
}

/** The rate-limit refusal, with bybit's reset time. */
const TOO_MANY: FakeError = {
  code: 10006,
  msg: "Too many visits!",
  get headers() {
    return { "X-Bapi-Limit-Reset-Timestamp": String(Date.now() + 2000) };
  },
};
const ORDER_MISSING = refuse(170213, "Order does not exist.").error;
const open = (o: BybitMockOrder) => o.orderStatus === "New" || o.orderStatus === "PartiallyFilled";

export async function startBybitMock(credentials: { api: string; secret: string }): Promise<BybitMock> {
  const orders = new OrderStore<BybitMockOrder>(1_620_000_000_000_000_000n, (o) => o.orderId);
  let ipBanNext = false;
  let endlessCursor = false;
  let coins = [
    { coin: "USDT", walletBalance: "1000.5", locked: "300" },
    { coin: "BTC", walletBalance: "0.12345678901234567891", locked: "0" },
    { coin: "ETH", walletBalance: "0", locked: "0" },
  ];

  function verify(req: ReceivedRequest): MockReply | undefined {
    const key = String(req.headers["x-bapi-api-key"] ?? "");
    const ts = String(req.headers["x-bapi-timestamp"] ?? "");
    const recv = String(req.headers["x-bapi-recv-window"] ?? "5000");
    const sign = String(req.headers["x-bapi-sign"] ?? "");
    if (key !== credentials.api) return { body: envelope(10003, "API key is invalid.") };
    const now = Date.now();
    const t = Number(ts);
    if (!/^\d{13}$/.test(ts) || !(now - Number(recv) <= t && t < now + 1000)) {
      return {
        body: envelope(
          10002,
          `invalid request, please check your server timestamp or recv_window param. req_timestamp[${ts}],server_timestamp[${now}],recv_window[${recv}]`,
        ),
      };
    }
    const payload = req.method === "GET" ? req.query : req.body;
    const expected = createHmac("sha256", credentials.secret)
      .update(ts + key + recv + payload)
      .digest("hex");
    if (sign !== expected) return { body: envelope(10004, `error sign! origin_string[${ts + key + recv + payload}]`) };
    return undefined;
  }

  /** A limit GTC or PostOnly order (docs/exchange-rules.md "Post-only"); anything else is bybit's 10001. */
  function create(o: FakeParams): BybitMockOrder {
    const sideOk = o.side === "Buy" || o.side === "Sell";
    if (
      !sideOk ||
      o.orderType !== "Limit" ||
      (o.timeInForce !== "GTC" && o.timeInForce !== "PostOnly") ||
      !o.price ||
      !o.orderLinkId
    ) {
      throw refuse(10001, "params error");
    }
    const now = String(Date.now());
    const qty = String(o.qty);
    const price = String(o.price);
    return orders.add({
      orderId: orders.nextId(),
      orderLinkId: String(o.orderLinkId),
      symbol: String(o.symbol),
      price,
      qty,
      side: String(o.side),
      orderType: "Limit",
      orderStatus: "New",
      cumExecQty: "0",
      timeInForce: String(o.timeInForce),
      createdTime: now,
      updatedTime: now,
      blockTradeId: "",
      isLeverage: "0",
      positionIdx: 0,
      cancelType: "UNKNOWN",
      rejectReason: "EC_NoError",
      avgPrice: "",
      leavesQty: qty,
      leavesValue: (Number(qty) * Number(price)).toString(),
      cumExecValue: "0",
      cumExecFee: "0",
      stopOrderType: "",
      triggerPrice: "0.00",
      smpType: "None",
      smpGroup: 0,
      smpOrderId: "",
      reduceOnly: false,
      closeOnTrigger: false,
      cumFeeDetail: {},
    });
  }

  /** bybit's v5 order calls all require `category`; this mock trades spot only. */
  function spotOnly(params: FakeParams) {
    if (params.category !== "spot") throw refuse(10001, "params error: category");
  }
  /** Cancels name the order by orderId or orderLinkId, on its symbol (both documented as required). */
  function target(item: FakeParams): BybitMockOrder | undefined {
    const order = item.orderId
      ? orders.get(String(item.orderId))
      : orders.find((o) => o.orderLinkId === item.orderLinkId);
    return order && order.symbol === item.symbol && order.orderStatus === "New" ? order : undefined;
  }

  const fake = await startFakeExchange({
    name: "bybit",
    // market data needs no key ("Get Instruments Info")
    isPublic: (req) => req.path.startsWith("/v5/market/"),
    before: () => {
      if (!ipBanNext) return undefined;
      ipBanNext = false;
      return { status: 403, headers: { "content-type": "text/plain" }, body: "access too frequent" };
    },
    verify,
    envelope: {
      ok: (result) => ({ body: envelope(0, "OK", result) }),
      error: (e) => ({ status: e.status ?? 200, body: envelope(e.code, e.msg) }),
    },
    rateLimited: () => ({ headers: TOO_MANY.headers, body: envelope(TOO_MANY.code, TOO_MANY.msg) }),
    missing: (name) => ({ code: 10001, msg: `params error: ${name}` }),
    routes: {
      "POST /v5/order/create": {
        // Place Order: category, symbol, side, orderType and qty are required.
        required: ["category", "symbol", "side", "orderType", "qty"],
        create: true,
        handle: ({ params }) => {
          spotOnly(params);
          const order = create(params);
          return { orderId: order.orderId, orderLinkId: order.orderLinkId };
        },
      },
      "POST /v5/order/create-batch": {
        required: ["category", "request[].symbol", "request[].side", "request[].orderType", "request[].qty"],
        handle: ({ params }) => {
          spotOnly(params);
          const list: unknown[] = [];
          const ext: unknown[] = [];
          (params.request as FakeParams[]).forEach((item, i) => {
            const fault = fake.takeBatchFault(i);
            if (fault) {
              // refused: its code in retExtInfo; dropped: code 0 but neither orderId nor createAt
              list.push({
                category: "spot",
                symbol: item.symbol,
                orderId: "",
                orderLinkId: item.orderLinkId,
                createAt: "",
              });
              ext.push("refuse" in fault ? { code: fault.refuse.code, msg: fault.refuse.msg } : { code: 0, msg: "OK" });
              return;
            }
            const order = create(item);
            list.push({
              category: "spot",
              symbol: order.symbol,
              orderId: order.orderId,
              orderLinkId: order.orderLinkId,
              createAt: order.createdTime,
            });
            ext.push({ code: 0, msg: "OK" });
          });
          fake.endBatch();
          return raw({ body: envelope(0, "OK", { list }, { list: ext }) });
        },
      },
      "POST /v5/order/cancel": {
        required: ["category", "symbol", ["orderId", "orderLinkId"]],
        handle: ({ params }) => {
          spotOnly(params);
          const order = target(params);
          if (!order) throw refuse(ORDER_MISSING.code, ORDER_MISSING.msg);
          order.orderStatus = "Cancelled";
          order.cancelType = "CancelByUser";
          return { orderId: order.orderId, orderLinkId: order.orderLinkId };
        },
      },
      "POST /v5/order/cancel-batch": {
        required: ["category", "request[].symbol", ["request[].orderId", "request[].orderLinkId"]],
        handle: ({ params }) => {
          spotOnly(params);
          const list: unknown[] = [];
          const ext: unknown[] = [];
          for (const item of params.request as FakeParams[]) {
            const order = target(item);
            if (!order) {
              list.push({ category: "spot", symbol: item.symbol, orderId: item.orderId, orderLinkId: "" });
              ext.push({ code: ORDER_MISSING.code, msg: ORDER_MISSING.msg });
              continue;
            }
            order.orderStatus = "Cancelled";
            list.push({
              category: "spot",
              symbol: order.symbol,
              orderId: order.orderId,
              orderLinkId: order.orderLinkId,
            });
            ext.push({ code: 0, msg: "OK" });
          }
          return raw({ body: envelope(0, "OK", { list }, { list: ext }) });
        },
      },
      "POST /v5/order/cancel-all": {
        required: ["category"],
        handle: ({ params }) => {
          spotOnly(params);
          // For spot the symbol is optional: without it bybit cancels the open orders of every symbol.
          const list = orders
            .filter((o) => (!params.symbol || o.symbol === params.symbol) && o.orderStatus === "New")
            .map((o) => {
              o.orderStatus = "Cancelled";
              return { orderId: o.orderId, orderLinkId: o.orderLinkId };
            });
          return { list, success: "1" };
        },
      },
      "GET /v5/order/realtime": {
        required: ["category"],
        handle: ({ params: q }) => {
          spotOnly(q);
          let list = orders.filter((o) => !q.symbol || o.symbol === q.symbol);
          if (q.orderId) list = list.filter((o) => o.orderId === q.orderId);
          else if (q.orderLinkId) list = list.filter((o) => o.orderLinkId === q.orderLinkId);
          else list = list.filter(open);
          list.sort(
            (a, b) => Number(b.createdTime) - Number(a.createdTime) || (BigInt(b.orderId) > BigInt(a.orderId) ? 1 : -1),
          );
          // The cursor travels percent-encoded (bybit's own form); the query was decoded once.
          const encode = (offset: number) => encodeURIComponent(`page_args=${offset}&symbol=${q.symbol ?? ""}&`);
          const { page, offset, limit } = pageByCursor(list, q, {
            cursor: "cursor",
            size: { name: "limit", default: 20, max: 50, invalid: { code: 10001, msg: "params error: limit" } },
            encode,
            decode: (cursor) => {
              const match = /^page_args=(\d+)&symbol=[A-Z]*&$/.exec(cursor);
              if (!match) return undefined;
              return endlessCursor ? 0 : Number(match[1]);
            },
            invalidCursor: { code: 10001, msg: "params error: cursor" },
          });
          // A cursor comes with every non-empty page, the last one included: bybit does not promise an
          // empty cursor at the end, so a client stops at a short page or an empty one.
          return { category: "spot", nextPageCursor: page.length > 0 ? encode(offset + limit) : "", list: page };
        },
      },
      "GET /v5/market/instruments-info": {
        required: ["category"],
        handle: ({ params }) => {
          if (params.category !== "spot") throw refuse(10001, "params error: category");
          return { category: "spot", list: BYBIT_SPOT_INSTRUMENTS, nextPageCursor: "" };
        },
      },
      "GET /v5/account/wallet-balance": {
        required: ["accountType"],
        handle: ({ params }) => {
          if (params.accountType !== "UNIFIED") throw refuse(10001, "accountType only support UNIFIED.");
          return {
            list: [
              {
                accountType: "UNIFIED",
                totalEquity: "3.31216591",
                totalWalletBalance: "3.00326056",
                totalAvailableBalance: "3.00326056",
                coin: coins.map((c) => ({
                  ...c,
                  equity: c.walletBalance,
                  usdValue: "0",
                  spotHedgingQty: "0",
                  borrowAmount: "0.0",
                  availableToWithdraw: "",
                  accruedInterest: "0",
                  totalOrderIM: "0",
                  totalPositionIM: "0",
                  totalPositionMM: "0",
                  unrealisedPnl: "0",
                  cumRealisedPnl: "0",
                  bonus: "0",
                  marginCollateral: true,
                  collateralSwitch: true,
                  availableToBorrow: "",
                  spotBorrow: "0",
                })),
              },
            ],
          };
        },
      },
    },
  });

  const { faults } = fake;
  const batchIndex = (kind: "refuse" | "drop") => {
    for (const [i, f] of faults.batch) if (kind in f) return i;
    return undefined;
  };
  const setBatch = (kind: "refuse" | "drop", index: number | undefined) => {
    for (const [i, f] of faults.batch) if (kind in f) faults.batch.delete(i);
    if (index === undefined) return;
    if (kind === "refuse") fake.refuseNextBatchItem(index, { code: 170131, msg: "Balance insufficient" });
    else fake.dropNextBatchItem(index);
  };
  // The tests set faults as fields; each reads and writes the fake's pending fault.
  return {
    server: fake.server,
    url: fake.url,
    orders,
    get delayNextCreateMs() {
      return faults.delayCreateMs;
    },
    set delayNextCreateMs(ms) {
      faults.delayCreateMs = ms;
    },
    get rateLimitNext() {
      return faults.rateLimit;
    },
    set rateLimitNext(on) {
      faults.rateLimit = on;
    },
    get ipBanNext() {
      return ipBanNext;
    },
    set ipBanNext(on) {
      ipBanNext = on;
    },
    get errorNext() {
      const f = faults.failure;
      return f && { retCode: Number(f.code), retMsg: f.msg };
    },
    set errorNext(e) {
      faults.failure = e && { code: e.retCode, msg: e.retMsg };
    },
    get failBatchItem() {
      return batchIndex("refuse");
    },
    set failBatchItem(index) {
      setBatch("refuse", index);
    },
    get dropBatchItem() {
      return batchIndex("drop");
    },
    set dropBatchItem(index) {
      setBatch("drop", index);
    },
    get coins() {
      return coins;
    },
    set coins(list) {
      coins = list;
    },
    get endlessCursor() {
      return endlessCursor;
    },
    set endlessCursor(on) {
      endlessCursor = on;
    },
    get replyNext() {
      return faults.reply;
    },
    set replyNext(reply) {
      faults.reply = reply;
    },
    addOrder: (fields) => create({ ...fields, orderType: "Limit", timeInForce: "GTC" }),
    close: () => fake.close(),
  };
}
