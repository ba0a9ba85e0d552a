import { createHmac } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * A BingX spot v1 mock on 127.0.0.1. It verifies every private request the way BingX documents it:
 * header X-BX-APIKEY; `signature` = hex HMAC-SHA256 over the parameters as sent but with each value
 * URL-DECODED (BingX signs the original values, then URL-encodes them on the wire); the timestamp
 * within recvWindow (5000 unless sent). Answers are {code, msg, debugMsg, data}, code 0 = success.
 */
export interface BingxMockOrder {
  symbol: string;
  orderId: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: string;
  type: string;
  side: string;
  time: number;
  updateTime: number;
  origQuoteOrderQty: string;
  fee: string;
  feeAsset: string;
  clientOrderID: string;
  stopPrice: string;
  avgPrice: string;
}

export interface BingxMock {
  server: MockServer;
  url: string;
  orders: Map<string, BingxMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: number, msg: string): void;
  /** the next batch leaves out the item at this index (placed fewer than sent) */
  refuseNextBatchItem(index: number): void;
  close(): Promise<void>;
}

export const BINGX_KEY = "hO6oQotzTE0S5FRYze2Jx2wGx7eVnJGMolpA1nZyeh-test";
export const BINGX_SECRET = "mheO6dR8ovSsxZQCOYEFCtelpuxcWGTfHw7te326y6jO-test";

/** The signed string BingX recomputes: the received parameters (without signature), values decoded. */
export function bingxSignedString(rawQuery: string): { payload: string; signature: string } | undefined {
  const at = rawQuery.lastIndexOf("&signature=");
  if (at < 0) return undefined;
  const payload = rawQuery
    .slice(0, at)
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      return eq < 0 ? pair : `${pair.slice(0, eq)}=${decodeURIComponent(pair.slice(eq + 1))}`;
    })
    .join("&");
  return { payload, signature: rawQuery.slice(at + "&signature=".length) };
}

export async function startBingxMock(options: { now?: () => number } = {}): Promise<BingxMock> {
  const now = options.now ?? Date.now;
  const server = await startMockServer();
  const orders = new Map<string, BingxMockOrder>();
  let seq = 1736011869418901234n;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: { code: number; msg: string } | undefined;
  let refuseIndex: number | undefined;

  const ok = (data: unknown, delayMs = 0): MockReply => ({ body: { code: 0, msg: "", debugMsg: "", data }, delayMs });
  const error = (code: number, msg: string, status = 200): MockReply => ({ status, body: { code, msg, debugMsg: "" } });

  function verify(req: ReceivedRequest): MockReply | undefined {
    if (req.headers["x-bx-apikey"] !== BINGX_KEY) return error(100413, "Incorrect apiKey");
    const signed = bingxSignedString(req.query);
    if (!signed || signed.signature !== createHmac("sha256", BINGX_SECRET).update(signed.payload).digest("hex")) {
      return error(100001, "Signature verification failed");
    }
    const q = parseQuery(req.query);
    const ts = Number(q.timestamp);
    const window = Number(q.recvWindow ?? 5000);
    if (!Number.isFinite(ts) || Math.abs(now() - ts) > window) return error(80014, "timestamp is invalid");
    if (rateLimit) {
      rateLimit = false;
      return error(
        100410,
        `code:100410:The endpoint trigger frequency limit rule is currently in the disabled period and will be unblocked after ${now() + 3000}`,
      );
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f.code, f.msg);
    }
    return undefined;
  }

  function place(input: Record<string, unknown>): BingxMockOrder | { code: number; msg: string } {
    if (input.type !== "LIMIT") return { code: 100400, msg: "only LIMIT in this mock" };
    if (input.timeInForce !== undefined && input.timeInForce !== "GTC")
      return { code: 100400, msg: "GTC only in this mock" };
    if (
      !/^\d+(\.\d+)?$/.test(String(input.quantity)) ||
      !/^\d+(\.\d+)?$/.test(String(input.price)) ||
      Number(input.price) <= 0
    ) {
      return { code: 100400, msg: "price can't be lte 0 in limit order" };
    }
    const client = String(input.newClientOrderId ?? "");
    if (client && [...orders.values()].some((o) => o.clientOrderID === client)) {
      return { code: 100400, msg: "Different orders cannot use the same newClientOrderId" };
    }
    const t = now();
    const order: BingxMockOrder = {
      symbol: String(input.symbol),
      orderId: String(seq++),
      price: String(input.price),
      origQty: String(input.quantity),
      executedQty: "0",
      cummulativeQuoteQty: "0",
      status: "NEW",
      type: "LIMIT",
      side: String(input.side),
      time: t,
      updateTime: t,
      origQuoteOrderQty: "0",
      fee: "0",
      feeAsset: "USDT",
      clientOrderID: client,
      stopPrice: "0",
      avgPrice: "0",
    };
    orders.set(order.orderId, order);
    return order;
  }

  /** The create answer of POST /trade/order. */
  const created = (o: BingxMockOrder) => ({
    symbol: o.symbol,
    orderId: o.orderId,
    transactTime: o.time,
    price: o.price,
    origQty: o.origQty,
    executedQty: o.executedQty,
    cummulativeQuoteQty: o.cummulativeQuoteQty,
    status: o.status,
    type: o.type,
    side: o.side,
    clientOrderID: o.clientOrderID,
  });
  const open = (o: BingxMockOrder) => o.status === "NEW" || o.status === "PENDING" || o.status === "PARTIALLY_FILLED";
  const cancel = (o: BingxMockOrder) => {
    o.status = "CANCELED";
    o.updateTime = now();
    const { time: _t, updateTime: _u, origQuoteOrderQty: _q, fee: _f, feeAsset: _a, avgPrice: _p, ...view } = o;
    return view;
  };

  server.intercept((req) => verify(req));

  server.on("POST /openApi/spot/v1/trade/order", (req) => {
    const result = place(parseQuery(req.query));
    if (!("orderId" in result)) return error(result.code, result.msg);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return ok(created(result), d);
  });
  server.on("POST /openApi/spot/v1/trade/batchOrders", (req) => {
    const list = JSON.parse(parseQuery(req.query).data ?? "[]") as Record<string, unknown>[];
    const placed: BingxMockOrder[] = [];
    const refuse = refuseIndex;
    refuseIndex = undefined;
    for (const [index, item] of list.entries()) {
      if (index === refuse) continue;
      const result = place(item);
      if ("orderId" in result) placed.push(result);
    }
    return ok({ orders: placed.map(created) });
  });
  server.on("POST /openApi/spot/v1/trade/cancel", (req) => {
    const q = parseQuery(req.query);
    const order = q.orderId
      ? orders.get(q.orderId)
      : [...orders.values()].find((o) => o.clientOrderID === q.clientOrderID);
    if (!order || order.symbol !== q.symbol) return error(100421, "cancel fail, order not exist");
    // The code and text BingX really answers for a cancel of a finished order.
    if (!open(order))
      return error(
        100404,
        "the order you want to cancel is FILLED or CANCELLED already, or is not a valid order id ,please verify",
      );
    return ok(cancel(order));
  });
  server.on("POST /openApi/spot/v1/trade/cancelOrders", (req) => {
    const q = parseQuery(req.query);
    const list = (q.orderIds ?? "").split(",").map((id) => orders.get(id));
    if (list.some((o) => !o || !open(o) || o.symbol !== q.symbol)) return error(100421, "cancel fail, order not exist");
    return ok({ success: list.map((o) => cancel(o!)), failed: null });
  });
  server.on("POST /openApi/spot/v1/trade/cancelOpenOrders", (req) => {
    const q = parseQuery(req.query);
    return ok({ orders: [...orders.values()].filter((o) => o.symbol === q.symbol && open(o)).map(cancel) });
  });
  server.on("GET /openApi/spot/v1/trade/query", (req) => {
    const q = parseQuery(req.query);
    const order = q.orderId
      ? orders.get(q.orderId)
      : [...orders.values()].find((o) => o.clientOrderID === q.clientOrderID);
    if (!order || order.symbol !== q.symbol) return error(100404, " order not exist");
    return ok(order);
  });
  server.on("GET /openApi/spot/v1/trade/openOrders", (req) => {
    const q = parseQuery(req.query);
    return ok({
      orders: [...orders.values()]
        .filter((o) => o.symbol === q.symbol && open(o))
        .map(({ fee: _f, feeAsset: _a, clientOrderID: _c, avgPrice: _p, ...o }) => o),
    });
  });
  server.on("GET /openApi/spot/v1/account/balance", () =>
    ok({
      balances: [
        { asset: "USDT", displayName: "USDT", free: "1000.5", locked: "120" },
        { asset: "btc", displayName: "BTC", free: "0.12345678901234567890", locked: "0" },
        { asset: "DOGE", displayName: "DOGE", free: "0", locked: "0.0" },
      ],
    }),
  );

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
    failNext(code, msg) {
      failure = { code, msg };
    },
    refuseNextBatchItem(index) {
      refuseIndex = index;
    },
    close: () => server.close(),
  };
}
