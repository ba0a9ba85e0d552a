import { createHmac } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * A bybit v5 mock that verifies requests the way bybit documents it
 * (https://bybit-exchange.github.io/docs/v5/guide): X-BAPI-SIGN recomputed as hex HMAC-SHA256 over
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

let nextId = 1_620_000_000_000_000_000n;

function envelope(retCode: number, retMsg: string, result: unknown = {}, retExtInfo: unknown = {}) {
  return { retCode, retMsg, result, retExtInfo, time: Date.now() };
}

export async function startBybitMock(credentials: { api: string; secret: string }): Promise<BybitMock> {
  const server = await startMockServer();
  const mock: BybitMock = {
    server,
    url: server.url,
    orders: new Map(),
    delayNextCreateMs: 0,
    rateLimitNext: false,
    ipBanNext: false,
    errorNext: undefined,
    failBatchItem: undefined,
    dropBatchItem: undefined,
    replyNext: undefined,
    endlessCursor: false,
    coins: [
      { coin: "USDT", walletBalance: "1000.5", locked: "300" },
      { coin: "BTC", walletBalance: "0.12345678901234567891", locked: "0" },
      { coin: "ETH", walletBalance: "0", locked: "0" },
    ],
    addOrder: (fields) => create({ ...fields, orderType: "Limit", timeInForce: "GTC" }),
    close: () => server.close(),
  };

  function verify(req: ReceivedRequest): ReturnType<typeof envelope> | undefined {
    const key = String(req.headers["x-bapi-api-key"] ?? "");
    const ts = String(req.headers["x-bapi-timestamp"] ?? "");
    const recv = String(req.headers["x-bapi-recv-window"] ?? "5000");
    const sign = String(req.headers["x-bapi-sign"] ?? "");
    if (key !== credentials.api) return envelope(10003, "API key is invalid.");
    const now = Date.now();
    const t = Number(ts);
    if (!/^\d{13}$/.test(ts) || !(now - Number(recv) <= t && t < now + 1000)) {
      return envelope(
        10002,
        `invalid request, please check your server timestamp or recv_window param. req_timestamp[${ts}],server_timestamp[${now}],recv_window[${recv}]`,
      );
    }
    const payload = req.method === "GET" ? req.query : req.body;
    const expected = createHmac("sha256", credentials.secret)
      .update(ts + key + recv + payload)
      .digest("hex");
    if (sign !== expected) return envelope(10004, `error sign! origin_string[${ts + key + recv + payload}]`);
    if (mock.rateLimitNext) {
      mock.rateLimitNext = false;
      return envelope(10006, "Too many visits!");
    }
    if (mock.errorNext) {
      const e = mock.errorNext;
      mock.errorNext = undefined;
      return envelope(e.retCode, e.retMsg);
    }
    return undefined;
  }

  server.intercept((req) => {
    if (mock.ipBanNext) {
      mock.ipBanNext = false;
      return { status: 403, headers: { "content-type": "text/plain" }, body: "access too frequent" };
    }
    const failure = verify(req);
    if (!failure && mock.replyNext) {
      const reply = mock.replyNext;
      mock.replyNext = undefined;
      return reply;
    }
    if (!failure) return undefined;
    const headers: Record<string, string> =
      failure.retCode === 10006 ? { "X-Bapi-Limit-Reset-Timestamp": String(Date.now() + 2000) } : {};
    return { status: 200, headers, body: failure };
  });

  function create(o: Record<string, string>): BybitMockOrder {
    const sideOk = o.side === "Buy" || o.side === "Sell";
    if (
      !sideOk ||
      o.orderType !== "Limit" ||
      o.timeInForce !== "GTC" ||
      !o.qty ||
      !o.price ||
      !o.symbol ||
      !o.orderLinkId
    ) {
      throw Object.assign(new Error("params error"), { retCode: 10001 });
    }
    const now = String(Date.now());
    const order: BybitMockOrder = {
      orderId: String(nextId++),
      orderLinkId: o.orderLinkId,
      symbol: o.symbol,
      price: o.price,
      qty: o.qty,
      side: o.side ?? "",
      orderType: "Limit",
      orderStatus: "New",
      cumExecQty: "0",
      timeInForce: "GTC",
      createdTime: now,
      updatedTime: now,
      blockTradeId: "",
      isLeverage: "0",
      positionIdx: 0,
      cancelType: "UNKNOWN",
      rejectReason: "EC_NoError",
      avgPrice: "",
      leavesQty: o.qty,
      leavesValue: (Number(o.qty) * Number(o.price)).toString(),
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
    };
    mock.orders.set(order.orderId, order);
    return order;
  }

  /** bybit's v5 order calls all require `category`; this mock trades spot only. */
  const notSpot = (category: unknown) =>
    category === "spot" ? undefined : { body: envelope(10001, "params error: category") };
  /** Cancels name the order by orderId or orderLinkId, on its symbol (both documented as required). */
  function target(item: Record<string, string>): BybitMockOrder | undefined {
    const order = item.orderId
      ? mock.orders.get(item.orderId)
      : [...mock.orders.values()].find((o) => item.orderLinkId && o.orderLinkId === item.orderLinkId);
    return order && order.symbol === item.symbol && order.orderStatus === "New" ? order : undefined;
  }
  const badCancel = (item: Record<string, string>) => !item.symbol || (!item.orderId && !item.orderLinkId);

  server.on("POST /v5/order/create", (req) => {
    const body = JSON.parse(req.body) as Record<string, string>;
    if (body.category !== "spot") return { body: envelope(10001, "params error: category") };
    const delay = mock.delayNextCreateMs;
    mock.delayNextCreateMs = 0;
    try {
      const order = create(body);
      return { delayMs: delay, body: envelope(0, "OK", { orderId: order.orderId, orderLinkId: order.orderLinkId }) };
    } catch {
      return { body: envelope(10001, "params error") };
    }
  });

  server.on("POST /v5/order/create-batch", (req) => {
    const body = JSON.parse(req.body) as { category: string; request: Record<string, string>[] };
    const refused = notSpot(body.category);
    if (refused) return refused;
    if (!Array.isArray(body.request) || body.request.length === 0)
      return { body: envelope(10001, "params error: request") };
    const list: unknown[] = [];
    const ext: unknown[] = [];
    body.request.forEach((item, i) => {
      if (mock.failBatchItem === i) {
        list.push({ category: "spot", symbol: item.symbol, orderId: "", orderLinkId: item.orderLinkId, createAt: "" });
        ext.push({ code: 170131, msg: "Balance insufficient" });
        return;
      }
      if (mock.dropBatchItem === i) {
        list.push({ category: "spot", symbol: item.symbol, orderId: "", orderLinkId: item.orderLinkId, createAt: "" });
        ext.push({ code: 0, msg: "OK" });
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
    mock.failBatchItem = undefined;
    mock.dropBatchItem = undefined;
    return { body: envelope(0, "OK", { list }, { list: ext }) };
  });

  server.on("POST /v5/order/cancel", (req) => {
    const body = JSON.parse(req.body) as Record<string, string>;
    const refused = notSpot(body.category);
    if (refused) return refused;
    if (badCancel(body)) return { body: envelope(10001, "params error: symbol and orderId or orderLinkId") };
    const order = target(body);
    if (!order) return { body: envelope(170213, "Order does not exist.") };
    order.orderStatus = "Cancelled";
    order.cancelType = "CancelByUser";
    return { body: envelope(0, "OK", { orderId: order.orderId, orderLinkId: order.orderLinkId }) };
  });

  server.on("POST /v5/order/cancel-batch", (req) => {
    const body = JSON.parse(req.body) as { category: string; request: Record<string, string>[] };
    const refused = notSpot(body.category);
    if (refused) return refused;
    if (!Array.isArray(body.request) || body.request.length === 0 || body.request.some(badCancel)) {
      return { body: envelope(10001, "params error: request") };
    }
    const list: unknown[] = [];
    const ext: unknown[] = [];
    for (const item of body.request) {
      const order = target(item);
      if (!order) {
        list.push({ category: "spot", symbol: item.symbol, orderId: item.orderId, orderLinkId: "" });
        ext.push({ code: 170213, msg: "Order does not exist." });
        continue;
      }
      order.orderStatus = "Cancelled";
      list.push({ category: "spot", symbol: order.symbol, orderId: order.orderId, orderLinkId: order.orderLinkId });
      ext.push({ code: 0, msg: "OK" });
    }
    return { body: envelope(0, "OK", { list }, { list: ext }) };
  });

  server.on("POST /v5/order/cancel-all", (req) => {
    const body = JSON.parse(req.body) as Record<string, string>;
    const refused = notSpot(body.category);
    if (refused) return refused;
    // For spot the symbol is optional: without it bybit cancels the open orders of every symbol.
    const list = [...mock.orders.values()]
      .filter((o) => (!body.symbol || o.symbol === body.symbol) && o.orderStatus === "New")
      .map((o) => {
        o.orderStatus = "Cancelled";
        return { orderId: o.orderId, orderLinkId: o.orderLinkId };
      });
    return { body: envelope(0, "OK", { list, success: "1" }) };
  });

  server.on("GET /v5/order/realtime", (req) => {
    const q = parseQuery(req.query);
    if (q.category !== "spot") return { body: envelope(10001, "params error: category") };
    let list = [...mock.orders.values()].filter((o) => !q.symbol || o.symbol === q.symbol);
    if (q.orderId) list = list.filter((o) => o.orderId === q.orderId);
    else if (q.orderLinkId) list = list.filter((o) => o.orderLinkId === q.orderLinkId);
    else list = list.filter((o) => o.orderStatus === "New" || o.orderStatus === "PartiallyFilled");
    list.sort(
      (a, b) => Number(b.createdTime) - Number(a.createdTime) || (BigInt(b.orderId) > BigInt(a.orderId) ? 1 : -1),
    );
    const limit = q.limit === undefined ? 20 : Number(q.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 50) return { body: envelope(10001, "params error: limit") };
    // The cursor travels percent-encoded (bybit's own form); parseQuery has decoded it once.
    let offset = 0;
    if (q.cursor) {
      const match = /^page_args=(\d+)&symbol=[A-Z]*&$/.exec(q.cursor);
      if (!match) return { body: envelope(10001, "params error: cursor") };
      offset = mock.endlessCursor ? 0 : Number(match[1]);
    }
    const page = list.slice(offset, offset + limit);
    // A cursor comes with every non-empty page, the last one included: bybit does not promise an
    // empty cursor at the end, so a client stops at a short page or an empty one.
    const nextPageCursor =
      page.length > 0 ? encodeURIComponent(`page_args=${offset + limit}&symbol=${q.symbol ?? ""}&`) : "";
    return { body: envelope(0, "OK", { category: "spot", nextPageCursor, list: page }) };
  });

  server.on("GET /v5/account/wallet-balance", (req) => {
    const q = parseQuery(req.query);
    if (q.accountType !== "UNIFIED") return { body: envelope(10001, "accountType only support UNIFIED.") };
    return {
      body: envelope(0, "OK", {
        list: [
          {
            accountType: "UNIFIED",
            totalEquity: "3.31216591",
            totalWalletBalance: "3.00326056",
            totalAvailableBalance: "3.00326056",
            coin: mock.coins.map((c) => ({
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
      }),
    };
  });

  return mock;
}
