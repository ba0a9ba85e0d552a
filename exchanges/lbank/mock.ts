import { createHash, createHmac } from "node:crypto";
import { type FakeExchange, type FakeParams, raw, refuse, startFakeExchange } from "../core/testing/fake-exchange.js";
import type { MockReply, MockServer, ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * An LBank v2 mock on 127.0.0.1. It verifies every call the way LBank documents it (docs
 * "Authentication"): a form-encoded POST; timestamp, signature_method and echostr come as HEADERS;
 * the form fields (all but `sign`) plus those three are sorted and joined k=v&…, MD5 hex
 * upper-cased, then HMAC-SHA256 hex with the secret must equal `sign`; signature_method HmacSHA256,
 * an echostr of 30–40 letters or digits (10031), the api_key known, and the timestamp no older than
 * 5000 ms nor more than 1 s ahead (10600, docs "window"). Errors are LBank's envelope
 * {result: "false", error_code, msg, ts}; answers carry the docs' field sets. It runs on the fake
 * exchange (exchanges/core/testing/fake-exchange.ts).
 *
 * Every call checks the form fields LBank documents as required (symbol, type, price and amount on
 * create; symbol and orderId or origClientOrderId on a cancel or a lookup; symbol on cancel-all;
 * symbol, current_page and page_length on the open orders) and answers 10001 "The required
 * parameters can not be empty" otherwise. Open orders come in numbered pages of page_length (1 to
 * 200) with the total count.
 */
export interface LbankMockOrder {
  symbol: string;
  orderId: string;
  clientOrderId: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  status: number;
  type: string;
  time: number;
  updateTime: number;
  origQuoteOrderQty: string;
}

export interface LbankMock {
  server: MockServer;
  url: string;
  orders: Map<string, LbankMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: number, msg: string): void;
  /** the fake underneath */
  fake: FakeExchange;
  close(): Promise<void>;
}

/**
 * GET /v2/accuracy.do's data as LBank documents it (accuracies as text): odd precisions, a pair
 * with whole-unit amounts and one with a 10-digit price.
 */
export const LBANK_MOCK_ACCURACY = [
  { symbol: "lbk_usdt", quantityAccuracy: "4", minTranQua: "0.0001", priceAccuracy: "2" },
  { symbol: "btc_usdt", quantityAccuracy: "4", minTranQua: "0.0001", priceAccuracy: "2" },
  { symbol: "eth_btc", quantityAccuracy: "3", minTranQua: "0.001", priceAccuracy: "6" },
  { symbol: "shib_usdt", quantityAccuracy: "0", minTranQua: "1000", priceAccuracy: "10" },
];

export const LBANK_KEY = "16702619-0bc8-446d-a3d0-62fb67a8985e";
export const LBANK_SECRET = "lbank-test-secret";
export const LBANK_WINDOW_MS = 5000;

/** Recomputes LBank's signature over the received form (raw values, `sign` excluded) and the three signing headers. */
export function lbankExpectedSign(
  secret: string,
  form: URLSearchParams,
  headers: Record<string, string | string[] | undefined> = {},
): string {
  const fields = new Map([...form.entries()].filter(([k]) => k !== "sign"));
  for (const name of ["timestamp", "signature_method", "echostr"]) {
    const value = headers[name];
    if (typeof value === "string") fields.set(name, value);
  }
  const text = [...fields.keys()]
    .sort()
    .map((k) => `${k}=${fields.get(k)}`)
    .join("&");
  const digest = createHash("md5").update(text).digest("hex").toUpperCase();
  return createHmac("sha256", secret).update(digest).digest("hex");
}

export async function startLbankMock(options: { now?: () => number } = {}): Promise<LbankMock> {
  const now = options.now ?? Date.now;
  const orders = new Map<string, LbankMockOrder>();
  let seq = 0;

  const error = (code: number, msg: string): MockReply => ({
    body: { result: "false", error_code: code, msg, ts: now() },
  });

  function verify(req: ReceivedRequest): MockReply | undefined {
    if (
      req.method !== "POST" ||
      !String(req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded")
    )
      return error(10003, "Invalid parameter");
    const form = new URLSearchParams(req.body);
    for (const name of ["timestamp", "signature_method", "echostr"]) {
      if (form.has(name)) return error(10003, "Invalid parameter"); // the docs send these as headers
    }
    if (form.get("api_key") !== LBANK_KEY) return error(10005, "Secret key does not exist");
    if (req.headers.signature_method !== "HmacSHA256") return error(10002, "Validation Failed");
    if (!/^[A-Za-z0-9]{30,40}$/.test(String(req.headers.echostr ?? "")))
      return error(10031, "echostr length must be valid and length must be from 30 to 40");
    if (form.get("sign") !== lbankExpectedSign(LBANK_SECRET, form, req.headers))
      return error(10007, "Invalid signature");
    const skew = now() - Number(req.headers.timestamp);
    if (!(skew <= LBANK_WINDOW_MS && skew >= -1000))
      return error(10600, "intercepted by replay attacks filter, check timestamp");
    return undefined;
  }

  const open = (o: LbankMockOrder) => o.status === 0 || o.status === 1;

  // The docs' field sets: the query-order object, and the cancel object (origClientOrderId, tradeType).
  const queried = (o: LbankMockOrder) => ({
    symbol: o.symbol,
    orderId: o.orderId,
    clientOrderId: o.clientOrderId,
    price: o.price,
    origQty: o.origQty,
    executedQty: o.executedQty,
    cummulativeQuoteQty: o.cummulativeQuoteQty,
    status: String(o.status), // the docs' example writes the status as a string ("3")
    type: o.type,
    time: o.time,
    updateTime: o.updateTime,
    origQuoteOrderQty: o.origQuoteOrderQty,
  });
  const canceledAnswer = (o: LbankMockOrder) => ({
    symbol: o.symbol,
    origClientOrderId: o.clientOrderId,
    orderId: o.orderId,
    price: o.price,
    origQty: o.origQty,
    executedQty: o.executedQty,
    status: o.status,
    timeInForce: "GTC",
    tradeType: o.type,
  });
  const notExist = () => refuse(10032, "The order number does not exist");

  const find = (f: FakeParams) =>
    f.orderId
      ? orders.get(String(f.orderId))
      : [...orders.values()].find((o) => o.clientOrderId === f.origClientOrderId);
  const ONE = ["symbol", ["orderId", "origClientOrderId"]];

  const fake = await startFakeExchange({
    name: "lbank",
    verify,
    // market data: a GET without key or signature (docs/exchange-rules.md#pairs)
    isPublic: (req) => req.method === "GET" && req.path === "/v2/accuracy.do",
    // the form's fields (api_key and sign are the signature's)
    params: (req) => Object.fromEntries(new URLSearchParams(req.body)),
    envelope: {
      ok: (data) => ({ body: { result: true, data, error_code: 0, ts: now() } }),
      error: (e) => error(Number(e.code), e.msg),
    },
    rateLimited: () => error(10004, "Request too frequent"),
    missing: () => ({ code: 10001, msg: "The required parameters can not be empty" }),
    routes: {
      // public answers write result as text: {"result":"true","data":[…],"error_code":0,"ts":…}
      "GET /v2/accuracy.do": {
        handle: () => raw({ body: { result: "true", data: LBANK_MOCK_ACCURACY, error_code: 0, ts: now() } }),
      },
      "POST /v2/supplement/create_order.do": {
        required: ["symbol", "type", "price", "amount"],
        create: true,
        handle: ({ params: f }) => {
          if (f.symbol !== "btc_usdt") throw refuse(10008, "Invalid Trading Pair");
          // buy_maker / sell_maker: maker only (docs/exchange-rules.md "Post-only")
          if (!["buy", "sell", "buy_maker", "sell_maker"].includes(String(f.type)))
            throw refuse(10015, "Invalid order type");
          if (!/^\d+(\.\d+)?$/.test(String(f.price)) || !/^\d+(\.\d+)?$/.test(String(f.amount)))
            throw refuse(10010, "Price and/or Amount must less than minimum require");
          if (f.custom_id && [...orders.values()].some((o) => o.clientOrderId === f.custom_id))
            throw refuse(10036, "customID duplicated");
          const t = now();
          const order: LbankMockOrder = {
            symbol: "btc_usdt",
            orderId: `0cf8a3de-4597-4296-af45-be7abaa0${String(seq++).padStart(4, "0")}`,
            clientOrderId: String(f.custom_id ?? ""),
            price: String(f.price),
            origQty: String(f.amount),
            executedQty: "0",
            cummulativeQuoteQty: "0",
            status: 0,
            type: String(f.type),
            time: t,
            updateTime: t,
            origQuoteOrderQty: "0",
          };
          orders.set(order.orderId, order);
          return { order_id: order.orderId, symbol: order.symbol, custom_id: order.clientOrderId };
        },
      },
      "POST /v2/supplement/orders_info.do": {
        required: ONE,
        handle: ({ params: f }) => {
          const order = find(f);
          if (!order || order.symbol !== f.symbol) throw notExist();
          return queried(order);
        },
      },
      "POST /v2/supplement/cancel_order.do": {
        required: ONE,
        handle: ({ params: f }) => {
          const order = find(f);
          if (!order || order.symbol !== f.symbol) throw notExist();
          if (!open(order)) throw refuse(10037, "Order has been cancelled or completed");
          order.status = -1;
          order.updateTime = now();
          return canceledAnswer(order);
        },
      },
      "POST /v2/supplement/cancel_order_by_symbol.do": {
        required: ["symbol"],
        handle: ({ params: f }) => {
          const canceled = [...orders.values()].filter((o) => o.symbol === f.symbol && open(o));
          for (const o of canceled) o.status = -1;
          return canceled.map(canceledAnswer);
        },
      },
      // LBank's recorded answer: {total, page_length, orders, current_page} with numeric statuses.
      "POST /v2/supplement/orders_info_no_deal.do": {
        required: ["symbol", "current_page", "page_length"],
        handle: ({ params: f }) => {
          const page = Number(f.current_page);
          const length = Number(f.page_length);
          if (!(length >= 1 && length <= 200) || !(page >= 1)) throw refuse(10003, "Invalid parameter");
          const all = [...orders.values()].filter((o) => o.symbol === f.symbol && open(o));
          const rows = all.slice((page - 1) * length, page * length).map((o) => ({ ...queried(o), status: o.status }));
          return { total: all.length, page_length: length, orders: rows, current_page: page };
        },
      },
      "POST /v2/supplement/user_info_account.do": {
        handle: () => ({
          canTrade: true,
          canWithdraw: true,
          canDeposit: true,
          balances: [
            { asset: "lbk", free: "0", locked: "0" },
            { asset: "usdt", free: "1000.000000000000000001", locked: "5" },
            { asset: "btc", free: "0.5", locked: "0" },
          ],
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
    failNext(code, msg) {
      fake.failNext({ code, msg });
    },
    close: () => fake.close(),
  };
}
