import { createHmac } from "node:crypto";
import {
  type FakeExchange,
  type FakeParams,
  OrderStore,
  pageAfterId,
  refuse,
  startFakeExchange,
} from "../core/testing/fake-exchange.js";
import type { MockReply, MockServer, ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A bitget v2 spot mock on the fake exchange (exchanges/core/testing/fake-exchange.ts) that verifies
 * requests the way bitget's signature page documents it: ACCESS-SIGN recomputed as base64
 * HMAC-SHA256 over timestamp + METHOD + requestPath + ('?' + raw query when present) + raw body;
 * the ms timestamp must be within 30 s; the passphrase must match. Failures use bitget's envelope
 * {code, msg, requestTime, data: null} with HTTP 400 (or 429 for the rate limit).
 *
 * Every call checks the parameters bitget documents as required (symbol, side, orderType, force and
 * size on an order and per batch item, symbol and orderId or clientOid on cancels and lookups) and
 * answers 40019 otherwise. Unfilled orders come newest first in pages of `limit` (100 by default
 * and at most), older ones asked for with `idLessThan` = the last orderId seen.
 */
export interface BitgetMockOrder {
  userId: string;
  symbol: string;
  orderId: string;
  clientOid: string;
  price: string;
  size: string;
  orderType: string;
  side: string;
  status: string;
  priceAvg: string;
  baseVolume: string;
  quoteVolume: string;
  enterPointSource: string;
  orderSource: string;
  cTime: string;
  uTime: string;
  feeDetail: string;
  cancelReason: string;
}

export interface BitgetMock {
  server: MockServer;
  url: string;
  /** the fake underneath */
  fake: FakeExchange;
  orders: Map<string, BitgetMockOrder>;
  delayNextCreateMs: number;
  rateLimitNext: boolean;
  errorNext: { code: string; msg: string } | undefined;
  /** the next batch create puts this item index in failureList */
  failBatchItem: number | undefined;
  assets: { coin: string; available: string; frozen: string; locked: string; limitAvailable: string; uTime: string }[];
  /** puts a live order on the book directly (no request), as if placed earlier */
  addOrder(fields: {
    symbol: string;
    side: "buy" | "sell";
    price: string;
    size: string;
    clientOid: string;
  }): BitgetMockOrder;
  close(): Promise<void>;
}

const fail = (status: number, code: string, msg: string): MockReply => ({
  status,
  body: { code, msg, requestTime: Date.now(), data: null },
});
const INSUFFICIENT = { code: "43012", msg: "Insufficient balance" };

/** One pair of "Get Symbol Info", in bitget's shape (its numbers are text). */
function symbolInfo(
  base: string,
  quote: string,
  status: string,
  pricePrecision: string,
  quantityPrecision: string,
  minTradeAmount: string,
) {
  return {
    symbol: `${base}${quote}`,
    baseCoin: base,
    quoteCoin: quote,
    minTradeAmount,
    maxTradeAmount: "10000000000",
    takerFeeRate: "0.001",
    makerFeeRate: "0.001",
    pricePrecision,
    quantityPrecision,
    quotePrecision: pricePrecision,
    minTradeUSDT: "5",
    status,
    buyLimitPriceRatio: "0.05",
    sellLimitPriceRatio: "0.05",
    orderQuantity: "200",
    areaSymbol: "no",
    offTime: "",
    openTime: "1532454360000",
  };
}

/** The list the mock answers, unsorted: halted, gray and offline symbols, a whole-number lot. */
export const BITGET_SYMBOLS = [
  symbolInfo("ETH", "USDT", "online", "2", "4", "0.0001"),
  symbolInfo("BTC", "USDT", "online", "1", "6", "0.00001"),
  symbolInfo("HALT", "USDT", "halt", "4", "2", "1"),
  symbolInfo("GRAY", "USDT", "gray", "4", "2", "1"),
  symbolInfo("GONE", "USDT", "offline", "4", "2", "1"),
  symbolInfo("ETH", "BTC", "online", "6", "3", "0.001"),
  symbolInfo("PEPE", "USDT", "online", "10", "0", "1"),
];

export async function startBitgetMock(credentials: {
  api: string;
  secret: string;
  password: string;
}): Promise<BitgetMock> {
  const orders = new OrderStore<BitgetMockOrder>(1_100_000_000_000_000_000n, (o) => o.orderId);
  let assets = [
    { coin: "usdt", available: "500.5", frozen: "100", locked: "0.5", limitAvailable: "0", uTime: "1622697148000" },
    {
      coin: "btc",
      available: "1.123456789012345678",
      frozen: "0",
      locked: "0",
      limitAvailable: "0",
      uTime: "1622697148000",
    },
    { coin: "eth", available: "0", frozen: "0", locked: "0", limitAvailable: "0", uTime: "1622697148000" },
  ];

  function verify(req: ReceivedRequest): MockReply | undefined {
    const h = req.headers;
    const key = String(h["access-key"] ?? "");
    const sign = String(h["access-sign"] ?? "");
    const ts = String(h["access-timestamp"] ?? "");
    const pass = String(h["access-passphrase"] ?? "");
    if (key !== credentials.api) return fail(400, "40006", "Invalid ACCESS_KEY");
    if (!/^\d{13}$/.test(ts)) return fail(400, "40005", "Invalid ACCESS_TIMESTAMP");
    if (Math.abs(Number(ts) - Date.now()) > 30_000) return fail(400, "40008", "Request timestamp expired");
    const prehash = ts + req.method + req.path + (req.query ? `?${req.query}` : "") + req.body;
    if (sign !== createHmac("sha256", credentials.secret).update(prehash).digest("base64"))
      return fail(400, "40009", "sign signature error");
    if (pass !== credentials.password) return fail(400, "40012", "apikey/password is incorrect");
    return undefined;
  }

  function place(symbol: string, p: FakeParams): BitgetMockOrder {
    // gtc, or post_only: maker only (docs/exchange-rules.md "Post-only")
    if (p.orderType !== "limit" || (p.force !== "gtc" && p.force !== "post_only") || !p.price)
      throw refuse("40034", "Parameter verification failed", 400);
    const now = String(Date.now());
    const order: BitgetMockOrder = {
      userId: "1234567890",
      symbol,
      orderId: orders.nextId(),
      clientOid: String(p.clientOid ?? ""),
      price: String(p.price),
      size: String(p.size),
      orderType: "limit",
      side: String(p.side ?? ""),
      status: "live",
      priceAvg: "0",
      baseVolume: "0",
      quoteVolume: "0",
      enterPointSource: "API",
      orderSource: "normal",
      cTime: now,
      uTime: now,
      feeDetail: "",
      cancelReason: "",
    };
    return orders.add(order);
  }

  const live = (o: BitgetMockOrder) => o.status === "live" || o.status === "partially_filled";
  function cancel(symbol: unknown, item: FakeParams): BitgetMockOrder | undefined {
    const o = item.orderId ? orders.get(String(item.orderId)) : orders.find((x) => x.clientOid === item.clientOid);
    if (!o || o.symbol !== symbol || !live(o)) return undefined;
    o.status = "cancelled";
    o.cancelReason = "normal_cancel";
    return o;
  }

  // Place Order: symbol, side, orderType, force and size are required (price for a limit order).
  const ORDER = ["side", "orderType", "force", "size"];
  const fake = await startFakeExchange({
    name: "bitget",
    // "Get Symbol Info" is public market data: no key
    isPublic: (req) => req.path.startsWith("/api/v2/spot/public/"),
    verify,
    envelope: {
      ok: (data) => ({ body: { code: "00000", msg: "success", requestTime: Date.now(), data } }),
      error: (e) => fail(e.status ?? 400, String(e.code), e.msg),
    },
    rateLimited: () => fail(429, "429", "Too many requests"),
    missing: (name) => ({ code: "40019", msg: `Parameter ${name} cannot be empty`, status: 400 }),
    routes: {
      "POST /api/v2/spot/trade/place-order": {
        required: ["symbol", ...ORDER],
        create: true,
        handle: ({ params }) => {
          const o = place(String(params.symbol), params);
          return { orderId: o.orderId, clientOid: o.clientOid };
        },
      },
      "POST /api/v2/spot/trade/batch-orders": {
        required: ["symbol", ...ORDER.map((name) => `orderList[].${name}`)],
        handle: ({ params }) => {
          const successList: unknown[] = [];
          const failureList: unknown[] = [];
          (params.orderList as FakeParams[]).forEach((p, i) => {
            const fault = fake.takeBatchFault(i);
            if (fault && "refuse" in fault) {
              failureList.push({
                orderId: "",
                clientOid: p.clientOid,
                errorMsg: fault.refuse.msg,
                errorCode: String(fault.refuse.code),
              });
              return;
            }
            const o = place(String(params.symbol), p);
            successList.push({ orderId: o.orderId, clientOid: o.clientOid });
          });
          fake.endBatch();
          return { successList, failureList };
        },
      },
      "POST /api/v2/spot/trade/cancel-order": {
        required: ["symbol", ["orderId", "clientOid"]],
        handle: ({ params }) => {
          const o = cancel(params.symbol, params);
          if (!o) throw refuse("43001", "The order does not exist", 400);
          return { orderId: o.orderId, clientOid: o.clientOid };
        },
      },
      "POST /api/v2/spot/trade/batch-cancel-order": {
        required: ["symbol", ["orderList[].orderId", "orderList[].clientOid"]],
        handle: ({ params }) => {
          const successList: unknown[] = [];
          const failureList: unknown[] = [];
          for (const item of params.orderList as FakeParams[]) {
            const o = cancel(params.symbol, item);
            if (o) successList.push({ orderId: o.orderId, clientOid: o.clientOid });
            else
              failureList.push({
                orderId: item.orderId,
                clientOid: "",
                errorMsg: "The order does not exist",
                errorCode: "43001",
              });
          }
          return { successList, failureList };
        },
      },
      "POST /api/v2/spot/trade/cancel-symbol-order": {
        required: ["symbol"],
        handle: ({ params }) => {
          for (const o of orders.values()) if (o.symbol === params.symbol) cancel(o.symbol, { orderId: o.orderId });
          return { symbol: params.symbol };
        },
      },
      "GET /api/v2/spot/trade/orderInfo": {
        required: [["orderId", "clientOid"]],
        handle: ({ params: q }) => {
          const o = orders.find((x) => (q.orderId ? x.orderId === q.orderId : x.clientOid === q.clientOid));
          return o ? [o] : [];
        },
      },
      "GET /api/v2/spot/trade/unfilled-orders": {
        handle: ({ params: q }) => {
          const list = orders
            .filter((o) => live(o) && (!q.symbol || o.symbol === q.symbol))
            .sort((a, b) => (BigInt(b.orderId) > BigInt(a.orderId) ? 1 : -1));
          // unfilled-orders names the order price priceAvg (documented response).
          return pageAfterId(list, q, {
            after: "idLessThan",
            size: {
              name: "limit",
              default: 100,
              max: 100,
              invalid: { code: "40034", msg: "limit must be at most 100" },
            },
            idOf: (o) => o.orderId,
          }).map(({ price, priceAvg: _filledPrice, feeDetail: _fee, cancelReason: _reason, ...rest }) => ({
            ...rest,
            priceAvg: price,
            basePrice: "0",
            presetTakeProfitPrice: "",
            executeTakeProfitPrice: "",
            presetStopLossPrice: "",
            executeStopLossPrice: "",
            tpslType: "normal",
            triggerPrice: null,
          }));
        },
      },
      "GET /api/v2/spot/account/assets": { handle: () => assets },
      "GET /api/v2/spot/public/symbols": { handle: () => BITGET_SYMBOLS },
    },
  });

  const { faults } = fake;
  return {
    server: fake.server,
    url: fake.url,
    fake,
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
    get errorNext() {
      const f = faults.failure;
      return f && { code: String(f.code), msg: f.msg };
    },
    set errorNext(e) {
      faults.failure = e && { ...e, status: 400 };
    },
    get failBatchItem() {
      for (const [i, f] of faults.batch) if ("refuse" in f) return i;
      return undefined;
    },
    set failBatchItem(index) {
      faults.batch.clear();
      if (index !== undefined) fake.refuseNextBatchItem(index, INSUFFICIENT);
    },
    get assets() {
      return assets;
    },
    set assets(list) {
      assets = list;
    },
    addOrder: (fields) => place(fields.symbol, { ...fields, orderType: "limit", force: "gtc" }),
    close: () => fake.close(),
  };
}
