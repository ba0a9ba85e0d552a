import { createHash, createHmac } from "node:crypto";
import { type MockReply, type MockServer, type ReceivedRequest, startMockServer } from "../core/testing/http-mock.js";

/**
 * An LBank v2 mock on 127.0.0.1. It verifies every call the way LBank documents it (docs
 * "Authentication"): a form-encoded POST; timestamp, signature_method and echostr come as HEADERS;
 * the form fields (all but `sign`) plus those three are sorted and joined k=v&…, MD5 hex
 * upper-cased, then HMAC-SHA256 hex with the secret must equal `sign`; signature_method HmacSHA256,
 * an echostr of 30–40 letters or digits (10031), the api_key known, and the timestamp no older than
 * 5000 ms nor more than 1 s ahead (10600, docs "window"). Errors are LBank's envelope
 * {result: "false", error_code, msg, ts}; answers carry the docs' field sets.
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
  close(): Promise<void>;
}

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
  const server = await startMockServer();
  const orders = new Map<string, LbankMockOrder>();
  let seq = 0;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: { code: number; msg: string } | undefined;

  const error = (code: number, msg: string): MockReply => ({
    body: { result: "false", error_code: code, msg, ts: now() },
  });
  const ok = (data: unknown): MockReply => ({ body: { result: true, data, error_code: 0, ts: now() } });

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
    if (rateLimit) {
      rateLimit = false;
      return error(10004, "Request too frequent");
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f.code, f.msg);
    }
    return undefined;
  }
  server.intercept((req) => verify(req));

  const fields = (req: ReceivedRequest) => new URLSearchParams(req.body);
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
  const notExist = () => error(10032, "The order number does not exist");

  server.on("POST /v2/supplement/create_order.do", (req) => {
    const f = fields(req);
    if (f.get("symbol") !== "btc_usdt") return error(10008, "Invalid Trading Pair");
    if (!["buy", "sell"].includes(f.get("type") ?? "")) return error(10015, "Invalid order type");
    if (!/^\d+(\.\d+)?$/.test(f.get("price") ?? "") || !/^\d+(\.\d+)?$/.test(f.get("amount") ?? ""))
      return error(10010, "Price and/or Amount must less than minimum require");
    if (f.get("custom_id") && [...orders.values()].some((o) => o.clientOrderId === f.get("custom_id")))
      return error(10036, "customID duplicated");
    const t = now();
    const order: LbankMockOrder = {
      symbol: "btc_usdt",
      orderId: `0cf8a3de-4597-4296-af45-be7abaa0${String(seq++).padStart(4, "0")}`,
      clientOrderId: f.get("custom_id") ?? "",
      price: f.get("price")!,
      origQty: f.get("amount")!,
      executedQty: "0",
      cummulativeQuoteQty: "0",
      status: 0,
      type: f.get("type")!,
      time: t,
      updateTime: t,
      origQuoteOrderQty: "0",
    };
    orders.set(order.orderId, order);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return { ...ok({ order_id: order.orderId, symbol: order.symbol, custom_id: order.clientOrderId }), delayMs: d };
  });
  const find = (f: URLSearchParams) =>
    f.get("orderId")
      ? orders.get(f.get("orderId")!)
      : [...orders.values()].find((o) => o.clientOrderId === f.get("origClientOrderId"));
  server.on("POST /v2/supplement/orders_info.do", (req) => {
    const f = fields(req);
    const order = find(f);
    if (!order || order.symbol !== f.get("symbol")) return notExist();
    return ok(queried(order));
  });
  server.on("POST /v2/supplement/cancel_order.do", (req) => {
    const f = fields(req);
    const order = find(f);
    if (!order || order.symbol !== f.get("symbol")) return notExist();
    if (!open(order)) return error(10037, "Order has been cancelled or completed");
    order.status = -1;
    order.updateTime = now();
    return ok(canceledAnswer(order));
  });
  server.on("POST /v2/supplement/cancel_order_by_symbol.do", (req) => {
    const f = fields(req);
    const canceled = [...orders.values()].filter((o) => o.symbol === f.get("symbol") && open(o));
    for (const o of canceled) o.status = -1;
    return ok(canceled.map(canceledAnswer));
  });
  // LBank's recorded answer: {total, page_length, orders, current_page} with numeric statuses.
  server.on("POST /v2/supplement/orders_info_no_deal.do", (req) => {
    const f = fields(req);
    const page = Number(f.get("current_page"));
    const length = Number(f.get("page_length"));
    if (!(length >= 1 && length <= 200)) return error(10003, "Invalid parameter");
    const all = [...orders.values()].filter((o) => o.symbol === f.get("symbol") && open(o));
    const rows = all.slice((page - 1) * length, page * length).map((o) => ({ ...queried(o), status: o.status }));
    return ok({ total: all.length, page_length: length, orders: rows, current_page: page });
  });
  server.on("POST /v2/supplement/user_info_account.do", () =>
    ok({
      canTrade: true,
      canWithdraw: true,
      canDeposit: true,
      balances: [
        { asset: "lbk", free: "0", locked: "0" },
        { asset: "usdt", free: "1000.000000000000000001", locked: "5" },
        { asset: "btc", free: "0.5", locked: "0" },
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
    close: () => server.close(),
  };
}
