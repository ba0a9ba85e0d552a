import { createHmac } from "node:crypto";
import {
  type FakeExchange,
  type FakeParams,
  OrderStore,
  parseParams,
  refuse,
  startFakeExchange,
} from "../core/testing/fake-exchange.js";
import { type MockReply, type MockServer, parseQuery, type ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A BingX spot v1 mock on the fake exchange (exchanges/core/testing/fake-exchange.ts). It verifies
 * every private request the way BingX documents it: header X-BX-APIKEY; `signature` = hex
 * HMAC-SHA256 over the parameters as sent but with each value URL-DECODED (BingX signs the original
 * values, then URL-encodes them on the wire); the timestamp within recvWindow (5000 unless sent).
 * Answers are {code, msg, debugMsg, data}, code 0 = success.
 *
 * Every call checks the parameters BingX documents as required (symbol, side and type on an order
 * and per item of a batch's `data`; symbol and orderId or clientOrderID on a cancel or a lookup;
 * symbol and orderIds on a batch cancel; timestamp everywhere) and answers 100400 otherwise. Open
 * orders are one list: BingX documents no paging there. A batch cancel runs in BingX's default
 * mode (process=0): one order it cannot cancel fails the whole call.
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
  /** the fake underneath */
  fake: FakeExchange;
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

/** The query's parameters, with a batch's `data` (a JSON list sent as one parameter) read as a list. */
function bingxParams(req: ReceivedRequest): FakeParams {
  const params = parseParams(req);
  if (typeof params.data === "string") params.data = JSON.parse(params.data);
  return params;
}

/** One symbol of "Spot trading symbols", in BingX's shape (its steps are JSON numbers). */
function symbolInfo(
  symbol: string,
  status: number,
  tickSize: number,
  stepSize: number,
  minNotional: number,
  more: { apiStateBuy?: boolean; apiStateSell?: boolean } = {},
) {
  return {
    symbol,
    minQty: 0,
    maxQty: 0,
    minNotional,
    maxNotional: 20000,
    status,
    tickSize,
    stepSize,
    apiStateSell: more.apiStateSell ?? true,
    apiStateBuy: more.apiStateBuy ?? true,
    timeOnline: 1640966400000,
    offTime: 0,
    maintainTime: 0,
    displayName: symbol,
  };
}

/**
 * The list the mock answers, unsorted: offline, pre-open, suspended and API-closed symbols, and
 * steps JSON writes with an exponent (1e-8).
 */
export const BINGX_SYMBOLS = [
  symbolInfo("ETH-USDT", 1, 0.01, 0.0001, 2),
  symbolInfo("BTC-USDT", 1, 0.01, 0.000001, 2),
  symbolInfo("GONE-USDT", 0, 0.0001, 1, 2),
  symbolInfo("SOON-USDT", 5, 0.0001, 1, 2),
  symbolInfo("STOP-USDT", 25, 0.0001, 1, 2),
  symbolInfo("NOAPI-USDT", 1, 0.0001, 1, 2, { apiStateBuy: false, apiStateSell: false }),
  symbolInfo("PEPE-USDT", 1, 1e-8, 1, 1),
];

export async function startBingxMock(options: { now?: () => number } = {}): Promise<BingxMock> {
  const now = options.now ?? Date.now;
  const orders = new OrderStore<BingxMockOrder>(1736011869418901234n, (o) => o.orderId);

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
    return undefined;
  }

  function place(input: FakeParams): BingxMockOrder | { code: number; msg: string } {
    if (input.type !== "LIMIT") return { code: 100400, msg: "only LIMIT in this mock" };
    // GTC, or PostOnly: maker only (docs/exchange-rules.md "Post-only")
    if (input.timeInForce !== undefined && input.timeInForce !== "GTC" && input.timeInForce !== "PostOnly")
      return { code: 100400, msg: "GTC or PostOnly only in this mock" };
    if (
      !/^\d+(\.\d+)?$/.test(String(input.quantity)) ||
      !/^\d+(\.\d+)?$/.test(String(input.price)) ||
      Number(input.price) <= 0
    ) {
      return { code: 100400, msg: "price can't be lte 0 in limit order" };
    }
    const client = String(input.newClientOrderId ?? "");
    if (client && orders.find((o) => o.clientOrderID === client)) {
      return { code: 100400, msg: "Different orders cannot use the same newClientOrderId" };
    }
    const t = now();
    const order: BingxMockOrder = {
      symbol: String(input.symbol),
      orderId: orders.nextId(),
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
    return orders.add(order);
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

  const byId = (q: FakeParams) =>
    q.orderId ? orders.get(String(q.orderId)) : orders.find((o) => o.clientOrderID === q.clientOrderID);
  const openOf = (symbol: unknown) => orders.filter((o) => o.symbol === symbol && open(o));

  // Place order: symbol, side, type and timestamp are required (quantity and price for a LIMIT order).
  const ORDER = ["symbol", "side", "type", "quantity", "price"];
  const fake = await startFakeExchange({
    name: "bingx",
    // "Spot trading symbols" is public market data: no key, no signature
    isPublic: (req) => req.path === "/openApi/spot/v1/common/symbols",
    verify,
    params: bingxParams,
    envelope: {
      ok: (data) => ({ body: { code: 0, msg: "", debugMsg: "", data } }),
      error: (e) => error(Number(e.code), e.msg, e.status),
    },
    rateLimited: () =>
      error(
        100410,
        `code:100410:The endpoint trigger frequency limit rule is currently in the disabled period and will be unblocked after ${now() + 3000}`,
      ),
    missing: (name) => ({ code: 100400, msg: `${name} is required` }),
    routes: {
      "POST /openApi/spot/v1/trade/order": {
        required: [...ORDER, "timestamp"],
        create: true,
        handle: ({ params }) => {
          const result = place(params);
          if (!("orderId" in result)) throw refuse(result.code, result.msg);
          return created(result);
        },
      },
      "POST /openApi/spot/v1/trade/batchOrders": {
        required: [...ORDER.map((name) => `data[].${name}`), "timestamp"],
        handle: ({ params }) => {
          const placed: BingxMockOrder[] = [];
          for (const [index, item] of (params.data as FakeParams[]).entries()) {
            if (fake.takeBatchFault(index)) continue;
            const result = place(item);
            if ("orderId" in result) placed.push(result);
          }
          fake.endBatch();
          return { orders: placed.map(created) };
        },
      },
      "POST /openApi/spot/v1/trade/cancel": {
        required: ["symbol", ["orderId", "clientOrderID"], "timestamp"],
        handle: ({ params: q }) => {
          const order = byId(q);
          if (!order || order.symbol !== q.symbol) throw refuse(100421, "cancel fail, order not exist");
          // The code and text BingX really answers for a cancel of a finished order.
          if (!open(order))
            throw refuse(
              100404,
              "the order you want to cancel is FILLED or CANCELLED already, or is not a valid order id ,please verify",
            );
          return cancel(order);
        },
      },
      "POST /openApi/spot/v1/trade/cancelOrders": {
        required: ["symbol", ["orderIds", "clientOrderIDs"], "timestamp"],
        handle: ({ params: q }) => {
          const list = String(q.orderIds ?? "")
            .split(",")
            .map((id) => orders.get(id));
          if (list.some((o) => !o || !open(o) || o.symbol !== q.symbol))
            throw refuse(100421, "cancel fail, order not exist");
          return { success: list.map((o) => cancel(o!)), failed: null };
        },
      },
      "POST /openApi/spot/v1/trade/cancelOpenOrders": {
        required: ["timestamp"],
        handle: ({ params: q }) => ({ orders: openOf(q.symbol).map(cancel) }),
      },
      "GET /openApi/spot/v1/trade/query": {
        required: ["symbol", ["orderId", "clientOrderID"], "timestamp"],
        handle: ({ params: q }) => {
          const order = byId(q);
          if (!order || order.symbol !== q.symbol) throw refuse(100404, " order not exist");
          return order;
        },
      },
      "GET /openApi/spot/v1/trade/openOrders": {
        required: ["timestamp"],
        handle: ({ params: q }) => ({
          orders: openOf(q.symbol).map(({ fee: _f, feeAsset: _a, clientOrderID: _c, avgPrice: _p, ...o }) => o),
        }),
      },
      "GET /openApi/spot/v1/common/symbols": {
        required: ["timestamp"],
        handle: () => ({ symbols: BINGX_SYMBOLS }),
      },
      "GET /openApi/spot/v1/account/balance": {
        required: ["timestamp"],
        handle: () => ({
          balances: [
            { asset: "USDT", displayName: "USDT", free: "1000.5", locked: "120" },
            { asset: "btc", displayName: "BTC", free: "0.12345678901234567890", locked: "0" },
            { asset: "DOGE", displayName: "DOGE", free: "0", locked: "0.0" },
          ],
        }),
      },
    },
  });

  return {
    server: fake.server,
    url: fake.url,
    fake,
    orders,
    delayNextCreate: (ms) => fake.delayNextCreate(ms),
    rateLimitNext: () => fake.rateLimitNext(),
    failNext(code, msg) {
      fake.failNext({ code, msg });
    },
    refuseNextBatchItem(index) {
      fake.dropNextBatchItem(index);
    },
    close: () => fake.close(),
  };
}
