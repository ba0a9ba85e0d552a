import { createHmac } from "node:crypto";
import {
  type FakeExchange,
  type FakeParams,
  OrderStore,
  pageByNumber,
  refuse,
  startFakeExchange,
} from "../core/testing/fake-exchange.js";
import type { MockReply, MockServer, ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A KuCoin spot mock on the fake exchange (exchanges/core/testing/fake-exchange.ts). It verifies
 * every private request the way KuCoin documents it: KC-API-KEY, KC-API-KEY-VERSION "2",
 * KC-API-PASSPHRASE = base64 HMAC-SHA256(secret, passphrase), KC-API-TIMESTAMP within 5 s,
 * KC-API-SIGN = base64 HMAC-SHA256(secret, timestamp + METHOD + endpoint-with-query + raw body).
 * Answers use the {code: "200000", data} envelope; errors {code, msg}.
 *
 * Every call checks the parameters KuCoin documents as required (clientOid, side and symbol on an
 * order, and per item of a multi order with the symbol once) and answers 400100 otherwise. Active
 * orders come in numbered pages (`currentPage` from 1, `pageSize` 50 by default, at most 500) with
 * `totalPage` beside them.
 */
export interface KucoinMockOrder {
  id: string;
  symbol: string;
  opType: string;
  type: string;
  side: string;
  price: string;
  size: string;
  funds: string;
  dealFunds: string;
  dealSize: string;
  fee: string;
  feeCurrency: string;
  stp: string;
  stop: string;
  stopTriggered: boolean;
  stopPrice: string;
  timeInForce: string;
  postOnly: boolean;
  hidden: boolean;
  iceberg: boolean;
  visibleSize: string;
  cancelAfter: number;
  channel: string;
  clientOid: string;
  remark: string;
  tags: string;
  isActive: boolean;
  cancelExist: boolean;
  createdAt: number;
  tradeType: string;
}

export interface KucoinMock {
  server: MockServer;
  url: string;
  /** the fake underneath: batch faults (refuseNextBatchItem) and the rest */
  fake: FakeExchange;
  orders: Map<string, KucoinMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: string, msg: string, status?: number): void;
  /** puts an active order on the book directly (no request), as if placed earlier */
  addOrder(fields: {
    symbol: string;
    side: "buy" | "sell";
    price: string;
    size: string;
    clientOid: string;
  }): KucoinMockOrder;
  close(): Promise<void>;
}

export const KUCOIN_KEY = "kucoin-test-key";
export const KUCOIN_SECRET = "kucoin-test-secret";
export const KUCOIN_PASSPHRASE = "kucoin-pass phrase";

const b64hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("base64");
const NOT_EXIST = refuse("400100", "order not exist.", 400);

/** One symbol of "Get All Symbols", in KuCoin's shape. */
function symbolInfo(
  base: string,
  quote: string,
  enableTrading: boolean,
  priceIncrement: string,
  baseIncrement: string,
  baseMinSize: string,
  minFunds: string | null,
) {
  return {
    symbol: `${base}-${quote}`,
    name: `${base}-${quote}`,
    baseCurrency: base,
    quoteCurrency: quote,
    feeCurrency: quote,
    market: quote === "USDT" ? "USDS" : "BTC",
    baseMinSize,
    quoteMinSize: "0.1",
    baseMaxSize: "10000000000",
    quoteMaxSize: "99999999",
    baseIncrement,
    quoteIncrement: "0.000001",
    priceIncrement,
    priceLimitRate: "0.1",
    minFunds,
    isMarginEnabled: true,
    enableTrading,
    feeCategory: 1,
    makerFeeCoefficient: "1.00",
    takerFeeCoefficient: "1.00",
    st: false,
    callauctionIsEnabled: false,
    callauctionPriceFloor: null,
    callauctionPriceCeiling: null,
    callauctionFirstStageStartTime: null,
    callauctionSecondStageStartTime: null,
    callauctionThirdStageStartTime: null,
    tradingStartTime: null,
  };
}

/** The list the mock answers, unsorted: one symbol not trading, a null minFunds and odd increments. */
export const KUCOIN_SYMBOLS = [
  symbolInfo("ETH", "USDT", true, "0.01", "0.0000001", "0.0001", "0.1"),
  symbolInfo("BTC", "USDT", true, "0.1", "0.00000001", "0.00001", "0.1"),
  symbolInfo("HALT", "USDT", false, "0.0001", "0.01", "1", "0.1"),
  symbolInfo("SHIB", "USDT", true, "0.000000001", "100", "1000", null),
];

export async function startKucoinMock(options: { now?: () => number } = {}): Promise<KucoinMock> {
  const now = options.now ?? Date.now;
  // KuCoin's order ids are 24 hexadecimal digits.
  const orders = new OrderStore<KucoinMockOrder>(0n, (o) => o.id);
  let seq = 0x5bd6e9286d99522an;
  const nextId = () => (seq++).toString(16).padStart(24, "0");

  const error = (status: number, code: string, msg: string): MockReply => ({ status, body: { code, msg } });

  function verify(req: ReceivedRequest): MockReply | undefined {
    const h = req.headers;
    if (!h["kc-api-key"] || !h["kc-api-sign"] || !h["kc-api-timestamp"] || !h["kc-api-passphrase"])
      return error(
        401,
        "400001",
        "Please check the header of your request for KC-API-KEY, KC-API-SIGN, KC-API-TIMESTAMP, KC-API-PASSPHRASE",
      );
    if (h["kc-api-key"] !== KUCOIN_KEY) return error(401, "400003", "KC-API-KEY not exists");
    if (Math.abs(Number(h["kc-api-timestamp"]) - now()) > 5000) return error(401, "400002", "Invalid KC-API-TIMESTAMP");
    if (h["kc-api-key-version"] !== "2" || h["kc-api-passphrase"] !== b64hmac(KUCOIN_SECRET, KUCOIN_PASSPHRASE))
      return error(401, "400004", "Invalid KC-API-PASSPHRASE");
    // KuCoin verifies the URL as it reads before URL-encoding.
    const endpoint = decodeURIComponent(req.query ? `${req.path}?${req.query}` : req.path);
    if (h["kc-api-sign"] !== b64hmac(KUCOIN_SECRET, `${h["kc-api-timestamp"]}${req.method}${endpoint}${req.body}`))
      return error(401, "400005", "Invalid KC-API-SIGN");
    return undefined;
  }

  function place(input: FakeParams, symbol: string): KucoinMockOrder | string {
    if (!input.clientOid) return "clientOid is required";
    if (input.type !== "limit" || (input.timeInForce ?? "GTC") !== "GTC") return "only GTC limit orders in this mock";
    if (!/^\d+(\.\d+)?$/.test(String(input.size)) || !/^\d+(\.\d+)?$/.test(String(input.price)))
      return "Invalid size or price";
    const order: KucoinMockOrder = {
      id: nextId(),
      symbol,
      opType: "DEAL",
      type: "limit",
      side: String(input.side),
      price: String(input.price),
      size: String(input.size),
      funds: "0",
      dealFunds: "0",
      dealSize: "0",
      fee: "0",
      feeCurrency: symbol.split("-")[1] ?? "USDT",
      stp: "",
      stop: "",
      stopTriggered: false,
      stopPrice: "0",
      timeInForce: "GTC",
      // a flag beside GTC (docs/exchange-rules.md "Post-only")
      postOnly: input.postOnly === true,
      hidden: false,
      iceberg: false,
      visibleSize: "0",
      cancelAfter: 0,
      channel: "API",
      clientOid: String(input.clientOid),
      remark: "",
      tags: "",
      isActive: true,
      cancelExist: false,
      createdAt: now(),
      tradeType: "TRADE",
    };
    return orders.add(order);
  }

  const cancel = (o: KucoinMockOrder) => {
    o.isActive = false;
    o.cancelExist = true;
  };
  const activeOf = (symbol: unknown) => orders.filter((o) => o.isActive && (!symbol || o.symbol === symbol));

  const fake = await startFakeExchange({
    name: "kucoin",
    // "Get All Symbols" is public market data: no key
    isPublic: (req) => req.path === "/api/v2/symbols",
    verify,
    envelope: {
      ok: (data) => ({ body: { code: "200000", data } }),
      error: (e) => error(e.status ?? 400, String(e.code), e.msg),
    },
    rateLimited: () => ({
      status: 429,
      headers: { "gw-ratelimit-limit": "4000", "gw-ratelimit-remaining": "0", "gw-ratelimit-reset": "1200" },
      body: { code: "429000", msg: "Too Many Requests" },
    }),
    missing: (name) => ({ code: "400100", msg: `${name} is required`, status: 400 }),
    routes: {
      "POST /api/v1/orders": {
        // Place Order: clientOid, side and symbol are required (price and size for a limit order).
        required: ["clientOid", "side", "symbol", "price", "size"],
        create: true,
        handle: ({ params }) => {
          const result = place(params, String(params.symbol));
          if (typeof result === "string") throw refuse("400100", result, 400);
          return { orderId: result.id };
        },
      },
      "POST /api/v1/orders/multi": {
        required: ["symbol", "orderList[].clientOid", "orderList[].side", "orderList[].price", "orderList[].size"],
        handle: ({ params }) => {
          const symbol = String(params.symbol);
          const list = params.orderList as FakeParams[];
          if (list.length > 5) throw refuse("400100", "orderList size must be <= 5", 400);
          const data = list.map((item, index) => {
            const fault = fake.takeBatchFault(index);
            const result = fault && "refuse" in fault ? fault.refuse.msg : place(item, symbol);
            const base = {
              symbol,
              type: "limit",
              side: item.side,
              price: item.price,
              size: item.size,
              funds: null,
              stp: "",
              stop: "",
              stopPrice: null,
              timeInForce: "GTC",
              cancelAfter: 0,
              postOnly: false,
              hidden: false,
              iceberge: false,
              iceberg: false,
              visibleSize: null,
              channel: "API",
              clientOid: item.clientOid,
            };
            return typeof result === "string"
              ? { ...base, id: null, status: "fail", failMsg: result }
              : { ...base, id: result.id, status: "success", failMsg: null };
          });
          fake.endBatch();
          return { data };
        },
      },
      "GET /api/v1/orders": {
        handle: ({ params: q }) => {
          if (q.status !== "active") throw refuse("400100", "this mock lists active orders only", 400);
          const active = activeOf(q.symbol);
          const { page, number, size, totalPages } = pageByNumber(active, q, {
            page: "currentPage",
            size: {
              name: "pageSize",
              default: 50,
              max: 500,
              invalid: { code: "400100", msg: "pageSize must be within 1 and 500", status: 400 },
            },
            invalidPage: { code: "400100", msg: "currentPage must be at least 1", status: 400 },
          });
          return { currentPage: number, pageSize: size, totalNum: active.length, totalPage: totalPages, items: page };
        },
      },
      "DELETE /api/v1/orders": {
        // Cancel All Orders: symbol is optional (without it, every symbol's orders).
        handle: ({ params: q }) => {
          const active = activeOf(q.symbol);
          for (const o of active) cancel(o);
          return { cancelledOrderIds: active.map((o) => o.id) };
        },
      },
      "GET /api/v1/orders/:id": {
        handle: ({ path }) => {
          const order = orders.get(path.id ?? "");
          if (!order) throw NOT_EXIST;
          return order;
        },
      },
      "DELETE /api/v1/orders/:id": {
        handle: ({ path }) => {
          const order = orders.get(path.id ?? "");
          if (!order) throw NOT_EXIST;
          if (!order.isActive) throw refuse("400100", "order_not_exist_or_not_allow_to_cancel", 400);
          cancel(order);
          return { cancelledOrderIds: [order.id] };
        },
      },
      "GET /api/v1/order/client-order/:clientOid": {
        handle: ({ path }) => {
          const order = orders.find((o) => o.clientOid === path.clientOid);
          if (!order) throw NOT_EXIST;
          return order;
        },
      },
      "GET /api/v2/symbols": { handle: () => KUCOIN_SYMBOLS },
      "GET /api/v1/accounts": {
        handle: ({ params: q }) => {
          const all = [
            {
              id: "5bd6e9216d99522a52e458d6",
              currency: "BTC",
              type: "trade",
              balance: "1.00000000000000000001",
              available: "0.75",
              holds: "0.25000000000000000001",
            },
            {
              id: "5bd6e9216d99522a52e458d7",
              currency: "USDT",
              type: "trade",
              balance: "5000",
              available: "5000",
              holds: "0",
            },
            {
              id: "5bd6e9216d99522a52e458d8",
              currency: "KCS",
              type: "trade",
              balance: "0",
              available: "0",
              holds: "0",
            },
            { id: "5bd6e9216d99522a52e458d9", currency: "ETH", type: "main", balance: "9", available: "9", holds: "0" },
          ];
          return q.type ? all.filter((a) => a.type === q.type) : all;
        },
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
    failNext(code, msg, status = 400) {
      fake.failNext({ code, msg, status });
    },
    addOrder: (fields) => place({ ...fields, type: "limit" }, fields.symbol) as KucoinMockOrder,
    close: () => fake.close(),
  };
}
