import { createHash, createHmac } from "node:crypto";
import { type MockReply, type MockServer, type ReceivedRequest, startMockServer } from "./http-mock.js";

/**
 * An LBank v2 mock on 127.0.0.1. It verifies every call the way LBank documents it: a
 * form-encoded POST whose fields (all but `sign`) are sorted and joined k=v&…, MD5 hex upper-cased,
 * then HMAC-SHA256 hex with the secret must equal `sign`; signature_method HmacSHA256, an echostr of
 * 30–40 alphanumerics, the api_key known and the timestamp within 5000 ms. Errors are LBank's
 * envelope {result: "false", error_code, msg, ts}.
 */
export interface LbankMockOrder {
  symbol: string;
  orderId: string;
  clientOrderId: string;
  price: string;
  origQty: string;
  executedQty: string;
  cummulativeQuoteQty: string;
  origCummulativeQuoteQty: string;
  status: number;
  type: string;
  time: number;
  updateTime: number;
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

/** Recomputes LBank's signature over the received form body (raw values, `sign` excluded). */
export function lbankExpectedSign(secret: string, form: URLSearchParams): string {
  const keys = [...form.keys()].filter((k) => k !== "sign").sort();
  const text = keys.map((k) => `${k}=${form.get(k)}`).join("&");
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

  const error = (code: number, msg: string): MockReply => ({ body: { result: "false", error_code: code, msg, ts: now() } });
  const ok = (data: unknown): MockReply => ({ body: { result: true, data, error_code: 0, ts: now() } });

  function verify(req: ReceivedRequest): MockReply | undefined {
    if (req.method !== "POST" || !String(req.headers["content-type"] ?? "").includes("application/x-www-form-urlencoded"))
      return error(10003, "Invalid parameter");
    const form = new URLSearchParams(req.body);
    if (form.get("api_key") !== LBANK_KEY) return error(10005, "Secret key does not exist");
    if (form.get("signature_method") !== "HmacSHA256") return error(10002, "Validation Failed");
    if (!/^[A-Za-z0-9]{30,40}$/.test(form.get("echostr") ?? "")) return error(10002, "Validation Failed");
    if (form.get("sign") !== lbankExpectedSign(LBANK_SECRET, form)) return error(10007, "Invalid signature");
    if (Math.abs(now() - Number(form.get("timestamp"))) > LBANK_WINDOW_MS) return error(10002, "Validation Failed");
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

  server.on("POST /v2/supplement/create_order.do", (req) => {
    const f = fields(req);
    if (f.get("symbol") !== "btc_usdt") return error(10008, "Invalid Trading Pair");
    if (!["buy", "sell"].includes(f.get("type") ?? "")) return error(10015, "Invalid order type");
    if (!/^\d+(\.\d+)?$/.test(f.get("price") ?? "") || !/^\d+(\.\d+)?$/.test(f.get("amount") ?? ""))
      return error(10010, "Price and/or Amount must be more than 0");
    const t = now();
    const order: LbankMockOrder = {
      symbol: "btc_usdt",
      orderId: `0cf8a3de-4597-4296-af45-be7abaa0${String(seq++).padStart(4, "0")}`,
      clientOrderId: f.get("custom_id") ?? "",
      price: f.get("price")!,
      origQty: f.get("amount")!,
      executedQty: "0",
      cummulativeQuoteQty: "0",
      origCummulativeQuoteQty: "0",
      status: 0,
      type: f.get("type")!,
      time: t,
      updateTime: t,
    };
    orders.set(order.orderId, order);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return { ...ok({ symbol: order.symbol, order_id: order.orderId }), delayMs: d };
  });
  server.on("POST /v2/supplement/orders_info.do", (req) => {
    const f = fields(req);
    const order = f.get("orderId")
      ? orders.get(f.get("orderId")!)
      : [...orders.values()].find((o) => o.clientOrderId === f.get("origClientOrderId"));
    if (!order || order.symbol !== f.get("symbol")) return ok(null);
    return ok(order);
  });
  server.on("POST /v2/supplement/cancel_order.do", (req) => {
    const f = fields(req);
    const order = orders.get(f.get("orderId") ?? "");
    if (!order || order.symbol !== f.get("symbol")) return error(10003, "Invalid parameter");
    if (!open(order)) return error(10026, "Order has been cancelld");
    order.status = -1;
    order.updateTime = now();
    return ok({ symbol: order.symbol, orderId: order.orderId, clientOrderId: order.clientOrderId, price: order.price, origQty: order.origQty, executedQty: order.executedQty, status: order.status, tradeType: order.type });
  });
  server.on("POST /v2/supplement/cancel_order_by_symbol.do", (req) => {
    const f = fields(req);
    const canceled = [...orders.values()].filter((o) => o.symbol === f.get("symbol") && open(o));
    for (const o of canceled) o.status = -1;
    return ok(canceled.map((o) => ({ symbol: o.symbol, orderId: o.orderId, clientOrderId: o.clientOrderId, price: o.price, origQty: o.origQty, executedQty: o.executedQty, status: o.status, tradeType: o.type })));
  });
  server.on("POST /v2/supplement/orders_info_no_deal.do", (req) => {
    const f = fields(req);
    const page = Number(f.get("current_page"));
    const length = Number(f.get("page_length"));
    if (!(length >= 1 && length <= 200)) return error(10018, "Page size should be between 1 and 200");
    const all = [...orders.values()].filter((o) => o.symbol === f.get("symbol") && open(o));
    return ok({ total: all.length, page_length: length, current_page: page, orders: all.slice((page - 1) * length, page * length) });
  });
  server.on("POST /v2/supplement/user_info_account.do", () =>
    ok({
      makerCommission: "0.10",
      takerCommission: "0.10",
      buyerCommission: "0",
      sellerCommission: "0",
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
