import { createHmac } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * A MEXC spot v3 mock on 127.0.0.1. It verifies every private request the way MEXC documents it:
 * X-MEXC-APIKEY, `signature` = lower-case hex HMAC-SHA256 over totalParams (the raw query string
 * without `&signature=…`, concatenated with the raw body), and the timing rule
 * timestamp < serverTime + 1000 && serverTime − timestamp <= recvWindow. Errors are {code, msg}.
 */
export interface MexcMockOrder {
  symbol: string;
  orderId: string;
  orderListId: number;
  clientOrderId: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: string;
  timeInForce: string;
  type: string;
  side: string;
  stopPrice: string;
  icebergQty: string;
  time: number;
  updateTime: number;
  isWorking: boolean;
  origQuoteOrderQty: string;
}

export interface MexcMock {
  server: MockServer;
  url: string;
  orders: Map<string, MexcMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: number, msg: string, status?: number): void;
  refuseNextBatchItem(index: number, code: number, msg: string): void;
  close(): Promise<void>;
}

export const MEXC_KEY = "mx0vgl-test-key";
export const MEXC_SECRET = "mexc-test-secret";

export async function startMexcMock(options: { now?: () => number } = {}): Promise<MexcMock> {
  const now = options.now ?? Date.now;
  const server = await startMockServer();
  const orders = new Map<string, MexcMockOrder>();
  let seq = 1196315350023612316n;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: { code: number; msg: string; status: number } | undefined;
  let refusal: { index: number; code: number; msg: string } | undefined;

  const error = (status: number, code: number, msg: string): MockReply => ({ status, body: { code, msg } });

  function verify(req: ReceivedRequest): MockReply | undefined {
    if (req.headers["x-mexc-apikey"] !== MEXC_KEY) return error(400, 10072, "Api key info invalid");
    const at = req.query.lastIndexOf("&signature=");
    if (at < 0) return error(400, 700002, "Signature for this request is not valid.");
    const totalParams = req.query.slice(0, at) + req.body;
    const signature = req.query.slice(at + "&signature=".length);
    if (signature !== createHmac("sha256", MEXC_SECRET).update(totalParams).digest("hex"))
      return error(400, 700002, "Signature for this request is not valid.");
    const q = parseQuery(req.query);
    const ts = Number(q.timestamp);
    const recvWindow = Number(q.recvWindow ?? 5000);
    if (recvWindow > 60000) return error(400, 700005, "recvWindow must less than 60000");
    const serverTime = now();
    if (!(ts < serverTime + 1000 && serverTime - ts <= recvWindow))
      return error(400, 700003, "Timestamp for this request is outside of the recvWindow.");
    if (rateLimit) {
      rateLimit = false;
      return { status: 429, headers: { "retry-after": "2" }, body: { code: 429, msg: "Too Many Requests" } };
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f.status, f.code, f.msg);
    }
    return undefined;
  }

  function place(input: Record<string, unknown>): MexcMockOrder | { code: number; msg: string } {
    if (input.type !== "LIMIT") return { code: 700004, msg: "only LIMIT in this mock" };
    if (!/^\d+(\.\d+)?$/.test(String(input.quantity)) || !/^\d+(\.\d+)?$/.test(String(input.price)))
      return { code: 30002, msg: "The minimum transaction volume cannot be less than:0.5USDT" };
    const t = now();
    const order: MexcMockOrder = {
      symbol: String(input.symbol),
      orderId: String(seq++),
      orderListId: -1,
      clientOrderId: String(input.newClientOrderId ?? ""),
      price: String(input.price),
      origQty: String(input.quantity),
      executedQty: "0",
      cummulativeQuoteQty: "0",
      status: "NEW",
      timeInForce: "",
      type: "LIMIT",
      side: String(input.side),
      stopPrice: "",
      icebergQty: "",
      time: t,
      updateTime: t,
      isWorking: true,
      origQuoteOrderQty: "0",
    };
    orders.set(order.orderId, order);
    return order;
  }

  const cancelView = (o: MexcMockOrder) => {
    o.status = "CANCELED";
    o.updateTime = now();
    return {
      symbol: o.symbol,
      origClientOrderId: o.clientOrderId,
      orderId: o.orderId,
      clientOrderId: o.clientOrderId,
      price: o.price,
      origQty: o.origQty,
      executedQty: o.executedQty,
      cummulativeQuoteQty: o.cummulativeQuoteQty,
      status: o.status,
      timeInForce: o.timeInForce,
      type: o.type,
      side: o.side,
    };
  };
  const open = (o: MexcMockOrder) => o.status === "NEW" || o.status === "PARTIALLY_FILLED";

  server.intercept((req) => verify(req));

  server.on("POST /api/v3/order", (req) => {
    const q = { ...parseQuery(req.query), ...(req.body ? JSON.parse(req.body) : {}) };
    const result = place(q);
    if (!("orderId" in result)) return error(400, result.code, result.msg);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return {
      body: {
        symbol: result.symbol,
        orderId: result.orderId,
        orderListId: -1,
        price: result.price,
        origQty: result.origQty,
        type: "LIMIT",
        side: result.side,
        transactTime: result.time,
      },
      delayMs: d,
    };
  });
  server.on("POST /api/v3/batchOrders", (req) => {
    const list = JSON.parse(parseQuery(req.query).batchOrders ?? "[]") as Record<string, unknown>[];
    if (list.length > 20) return error(400, 700004, "batchOrders supports max 20 orders");
    const refuse = refusal;
    refusal = undefined;
    return {
      body: list.map((item, index) => {
        const result = refuse?.index === index ? { code: refuse.code, msg: refuse.msg } : place(item);
        return "orderId" in result
          ? { symbol: result.symbol, orderId: result.orderId, orderListId: -1 }
          : { newClientOrderId: item.newClientOrderId, msg: result.msg, code: result.code };
      }),
    };
  });
  server.on("GET /api/v3/order", (req) => {
    const q = parseQuery(req.query);
    const order = q.orderId
      ? orders.get(q.orderId)
      : [...orders.values()].find((o) => o.clientOrderId === q.origClientOrderId);
    // Not in the docs' table, but what MEXC really answers (with its `_extend` field).
    if (!order || order.symbol !== q.symbol)
      return { status: 400, body: { msg: "Order does not exist.", code: -2013, _extend: null } };
    return { body: order };
  });
  server.on("DELETE /api/v3/order", (req) => {
    const q = parseQuery(req.query);
    const order = q.orderId ? orders.get(q.orderId) : undefined;
    if (!order || !open(order)) return error(400, -2011, "Unknown order sent.");
    return { body: cancelView(order) };
  });
  server.on("GET /api/v3/openOrders", (req) => {
    const q = parseQuery(req.query);
    return { body: [...orders.values()].filter((o) => o.symbol === q.symbol && open(o)) };
  });
  server.on("DELETE /api/v3/openOrders", (req) => {
    const q = parseQuery(req.query);
    return { body: [...orders.values()].filter((o) => o.symbol === q.symbol && open(o)).map(cancelView) };
  });
  server.on("GET /api/v3/account", () => ({
    body: {
      makerCommission: null,
      takerCommission: null,
      buyerCommission: null,
      sellerCommission: null,
      canTrade: true,
      canWithdraw: true,
      canDeposit: true,
      updateTime: null,
      accountType: "SPOT",
      balances: [
        { asset: "NBNTEST", free: "1112", locked: "0" },
        { asset: "MX", free: "3", locked: "0" },
        { asset: "BTC", free: "0.00000000000000000001", locked: "0.5" },
        { asset: "DOGE", free: "0", locked: "0" },
      ],
      permissions: ["SPOT"],
    },
  }));

  return {
    server,
    url: server.url,
    orders,
    delayNextCreate(ms) {
      delayCreateMs = ms;
    },
    rateLimitNext() {
      rateLimit = true;
    },
    failNext(code, msg, status = 400) {
      failure = { code, msg, status };
    },
    refuseNextBatchItem(index, code, msg) {
      refusal = { index, code, msg };
    },
    close: () => server.close(),
  };
}
