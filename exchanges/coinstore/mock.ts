import { createHmac } from "node:crypto";
import {
  type FakeExchange,
  type FakeParams,
  raw as rawReply,
  refuse,
  startFakeExchange,
} from "../core/testing/fake-exchange.js";
import type { MockReply, MockServer, ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A Coinstore mock on 127.0.0.1. It verifies every private request as Coinstore documents it:
 * X-CS-APIKEY known, X-CS-EXPIRES within the window, and X-CS-SIGN = hex HMAC-SHA256(key, payload)
 * with key = hex HMAC-SHA256(secret, floor(expires / 30000)) and payload the raw query of a GET or
 * the raw JSON body of a POST. Answers are {code, message, data} with the docs' shapes: place
 * requires `timestamp` and answers {ordId}; v2 orderInfo answers data: [ORDER] with `ordStatus`
 * (NOT_FOUND for an unknown id); v2 active a list; placeBatch items {ordId, clOrdId, errno, errMsg};
 * cancelBatch {success, reject}. Order times are in milliseconds, as the docs' examples are. It runs
 * on the fake exchange (exchanges/core/testing/fake-exchange.ts).
 *
 * Every call checks the parameters Coinstore documents as required (symbol, side, ordType,
 * timestamp, and ordPrice and ordQty of a LIMIT order, per item of a batch too; symbol and ordId on
 * a cancel; symbol and orderIds on a batch cancel; ordId or clOrdId on orderInfo) and answers 400
 * "<field> is required" otherwise. Coinstore documents no paging of the active orders and no cancel-all.
 */
export interface CoinstoreMockOrder {
  baseCurrency: string;
  quoteCurrency: string;
  symbol: string;
  timestamp: number;
  side: string;
  accountId: number;
  ordId: string;
  clOrdId: string;
  ordType: string;
  ordStatus: string;
  ordPrice: string;
  ordQty: string;
  ordAmt: string;
  cumAmt: string;
  cumQty: string;
  leavesQty: string;
  avgPrice: string;
  feeCurrency: string;
  timeInForce: string;
}

export interface CoinstoreMock {
  server: MockServer;
  url: string;
  orders: Map<string, CoinstoreMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: number, message: string, status?: number): void;
  refuseNextBatchItem(index: number, code: number, message: string): void;
  /** the fake underneath */
  fake: FakeExchange;
  close(): Promise<void>;
}

/**
 * "Currency & spot information" (POST /api/v2/public/config/spot/symbols) as Coinstore documents
 * it: three symbols open to trade (one with whole-unit prices, one with 10-digit prices and
 * whole-unit amounts) and one closed to trade. The request's symbolCodes / symbolIds filter it.
 */
export const COINSTORE_MOCK_SYMBOLS = [
  {
    symbolId: 1,
    symbolCode: "BTCUSDT",
    tradeCurrencyCode: "btc",
    quoteCurrencyCode: "usdt",
    openTrade: true,
    onLineTime: 1609813531019,
    tickSz: 0,
    lotSz: 4,
    minLmtPr: "0.0002",
    minLmtSz: "0.2",
    minMktVa: "0.1",
    minMktSz: "0.1",
    makerFee: "0.006",
    takerFee: "0.003",
  },
  {
    symbolId: 7,
    symbolCode: "ETHUSDT",
    tradeCurrencyCode: "eth",
    quoteCurrencyCode: "usdt",
    openTrade: true,
    onLineTime: 1609813531019,
    tickSz: 2,
    lotSz: 5,
    minLmtPr: "0.01",
    minLmtSz: "0.001",
    minMktVa: "5",
    minMktSz: "0.001",
    makerFee: "0.002",
    takerFee: "0.002",
  },
  {
    symbolId: 42,
    symbolCode: "SHIBUSDT",
    tradeCurrencyCode: "shib",
    quoteCurrencyCode: "usdt",
    openTrade: true,
    onLineTime: 1620000000000,
    tickSz: 10,
    lotSz: 0,
    minLmtPr: "0.0000000001",
    minLmtSz: "100000",
    minMktVa: "1",
    minMktSz: "100000",
    makerFee: "0.002",
    takerFee: "0.002",
  },
  {
    symbolId: 50,
    symbolCode: "OLDUSDT",
    tradeCurrencyCode: "old",
    quoteCurrencyCode: "usdt",
    openTrade: false,
    onLineTime: 1600000000000,
    tickSz: 4,
    lotSz: 2,
    minLmtPr: "0.0001",
    minLmtSz: "1",
    minMktVa: "1",
    minMktSz: "1",
    makerFee: "0.002",
    takerFee: "0.002",
  },
];

export const COINSTORE_KEY = "coinstore-test-key";
export const COINSTORE_SECRET = "coinstore-test-secret";
export const COINSTORE_WINDOW_MS = 30_000;

export function coinstoreExpectedSign(secret: string, expires: string, payload: string): string {
  const key = createHmac("sha256", secret)
    .update(String(Math.floor(Number(expires) / 30_000)))
    .digest("hex");
  return createHmac("sha256", key).update(payload).digest("hex");
}

export async function startCoinstoreMock(options: { now?: () => number } = {}): Promise<CoinstoreMock> {
  const now = options.now ?? Date.now;
  const orders = new Map<string, CoinstoreMockOrder>();
  let seq = 1694171424893030000n;

  const error = (status: number, code: number, message: string): MockReply => ({
    status,
    body: { code, message, data: null },
  });
  // Long ids travel as bare JSON numbers, as Coinstore sends them.
  const text = (data: unknown) =>
    JSON.stringify({ code: 0, message: "", data }).replace(/"ordId":"(\d+)"/g, '"ordId":$1');

  function verify(req: ReceivedRequest): MockReply | undefined {
    if (req.headers["x-cs-apikey"] !== COINSTORE_KEY) return error(401, 401, "Unauthorized: invalid api key");
    const expires = String(req.headers["x-cs-expires"] ?? "");
    const payload = req.method === "GET" ? req.query : req.body;
    if (req.headers["x-cs-sign"] !== coinstoreExpectedSign(COINSTORE_SECRET, expires, payload))
      return error(401, 401, "Signature-Failed");
    if (Math.abs(now() - Number(expires)) > COINSTORE_WINDOW_MS) return error(401, 401, "Expired request");
    return undefined;
  }

  function place(symbol: string, input: FakeParams): CoinstoreMockOrder | { code: number; message: string } {
    if (symbol !== "BTCUSDT") return { code: 3101, message: "symbol not found" };
    // LIMIT, or POST_ONLY: maker only (docs/exchange-rules.md "Post-only")
    if ((input.ordType !== "LIMIT" && input.ordType !== "POST_ONLY") || input.timeInForce !== "GTC")
      return { code: 3102, message: "only LIMIT or POST_ONLY GTC in this mock" };
    if (!/^\d+(\.\d+)?$/.test(String(input.ordPrice)) || !/^\d+(\.\d+)?$/.test(String(input.ordQty)))
      return { code: 3103, message: "invalid price or quantity" };
    const order: CoinstoreMockOrder = {
      baseCurrency: "BTC",
      quoteCurrency: "USDT",
      symbol,
      timestamp: now(),
      side: String(input.side),
      accountId: 1138204,
      ordId: String(seq++),
      clOrdId: String(input.clOrdId ?? ""),
      ordType: "LIMIT",
      ordStatus: "SUBMITTED",
      ordPrice: String(input.ordPrice),
      ordQty: String(input.ordQty),
      ordAmt: "0",
      cumAmt: "0",
      cumQty: "0",
      leavesQty: String(input.ordQty),
      avgPrice: "0",
      feeCurrency: "USDT",
      timeInForce: "GTC",
    };
    orders.set(order.ordId, order);
    return order;
  }
  const open = (o: CoinstoreMockOrder) => o.ordStatus === "SUBMITTED" || o.ordStatus === "PARTIAL_FILLED";
  const timestamp = (b: FakeParams) => {
    if (typeof b.timestamp !== "number") throw refuse(400, "timestamp is required", 400);
  };

  const ORDER = ["side", "ordType", "ordPrice", "ordQty"];
  const fake = await startFakeExchange({
    name: "coinstore",
    verify,
    // public configuration: no key, no signature (docs/exchange-rules.md#pairs)
    isPublic: (req) => req.path.startsWith("/api/v2/public/"),
    envelope: {
      ok: (data) => ({ body: text(data) }),
      error: (e) => error(e.status ?? 400, Number(e.code), e.msg),
    },
    rateLimited: () => ({ ...error(429, 429, "Too Many Requests"), headers: { "retry-after": "2" } }),
    missing: (name) => ({ code: 400, msg: `${name.replace(/^orders\[\]\./, "")} is required`, status: 400 }),
    routes: {
      "POST /api/v2/public/config/spot/symbols": {
        handle: ({ params: b }) => {
          const codes = Array.isArray(b.symbolCodes) ? (b.symbolCodes as string[]) : [];
          const ids = Array.isArray(b.symbolIds) ? (b.symbolIds as number[]) : [];
          if (codes.length === 0 && ids.length === 0) return COINSTORE_MOCK_SYMBOLS;
          return COINSTORE_MOCK_SYMBOLS.filter((s) => codes.includes(s.symbolCode) || ids.includes(s.symbolId));
        },
      },
      "POST /api/trade/order/place": {
        required: ["symbol", ...ORDER, "timestamp"],
        create: true,
        handle: ({ params: b }) => {
          timestamp(b);
          const result = place(String(b.symbol), b);
          if (!("ordId" in result)) throw refuse(result.code, result.message, 400);
          return { ordId: result.ordId };
        },
      },
      "POST /api/trade/order/placeBatch": {
        required: ["symbol", ...ORDER.map((name) => `orders[].${name}`), "timestamp"],
        handle: ({ params: b }) => {
          timestamp(b);
          const answer = (b.orders as FakeParams[]).map((item, index) => {
            const fault = fake.takeBatchFault(index);
            const result =
              fault && "refuse" in fault
                ? { code: Number(fault.refuse.code), message: fault.refuse.msg }
                : place(String(b.symbol), item);
            return "ordId" in result
              ? { ordId: result.ordId, clOrdId: result.clOrdId }
              : { clOrdId: item.clOrdId, errno: result.code, errMsg: result.message };
          });
          fake.endBatch();
          return answer;
        },
      },
      "POST /api/trade/order/cancel": {
        required: ["symbol", "ordId"],
        handle: ({ params: b }) => {
          const order = orders.get(String(b.ordId));
          if (!order || order.symbol !== b.symbol || !open(order)) throw refuse(404, "order not found", 400);
          order.ordStatus = "CANCELED";
          return { clientOrderId: order.clOrdId, state: "CANCELED", ordId: order.ordId };
        },
      },
      "POST /api/trade/order/cancelBatch": {
        required: ["symbol", "orderIds"],
        handle: ({ params: b }) => {
          const success: string[] = [];
          const reject: string[] = [];
          for (const ordId of b.orderIds as string[]) {
            const order = orders.get(String(ordId));
            if (!order || !open(order)) reject.push(String(ordId));
            else {
              order.ordStatus = "CANCELED";
              success.push(String(ordId));
            }
          }
          return rawReply({
            body: JSON.stringify({ code: 0, data: { success, reject } }).replace(/"(\d{16,})"/g, "$1"),
          });
        },
      },
      "GET /api/v2/trade/order/orderInfo": {
        required: [["ordId", "clOrdId"]],
        handle: ({ params: q }) => {
          const order = q.ordId
            ? orders.get(String(q.ordId))
            : [...orders.values()].find((o) => o.clOrdId === q.clOrdId);
          if (!order) return [{ ordId: q.ordId ?? "0", clOrdId: q.clOrdId ?? "", ordStatus: "NOT_FOUND", side: "BUY" }];
          return [{ ...order, orderUpdateTime: order.timestamp }];
        },
      },
      "GET /api/v2/trade/order/active": {
        handle: ({ params: q }) => [...orders.values()].filter((o) => o.symbol === q.symbol && open(o)),
      },
      "POST /api/spot/accountList": {
        handle: () =>
          rawReply({
            body: {
              code: 0,
              message: "",
              data: [
                {
                  uid: 315,
                  accountId: 1134971,
                  currency: "USDT",
                  balance: "1000.123456789012345678",
                  type: 1,
                  typeName: "AVAILABLE",
                },
                { uid: 315, accountId: 1134971, currency: "USDT", balance: "20", type: 4, typeName: "FROZEN" },
                { uid: 315, accountId: 1134972, currency: "btc", balance: "0.5", type: 1, typeName: "AVAILABLE" },
                { uid: 315, accountId: 1134972, currency: "btc", balance: "0", type: 4, typeName: "FROZEN" },
                { uid: 315, accountId: 1134973, currency: "CST", balance: "0", type: 1, typeName: "AVAILABLE" },
              ],
            },
          }),
      },
    },
  });

  return {
    server: fake.server,
    url: fake.url,
    orders,
    fake,
    delayNextCreate: (ms) => fake.delayNextCreate(ms),
    rateLimitNext: () => fake.rateLimitNext(),
    failNext(code, message, status = 400) {
      fake.failNext({ code, msg: message, status });
    },
    refuseNextBatchItem(index, code, message) {
      fake.refuseNextBatchItem(index, { code, msg: message });
    },
    close: () => fake.close(),
  };
}
