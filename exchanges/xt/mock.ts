import { createHmac } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * An XT spot v4 mock on 127.0.0.1. It verifies every request the way XT documents it: the four
 * validate-* headers (algorithms HmacSHA256), the timestamp within validate-recvwindow, and
 * validate-signature = hex HMAC-SHA256 over X + Y recomputed from the RAW received query (keys
 * sorted) and body: X = the headers sorted as key=value joined by '&', Y = #METHOD#path[#query][#body].
 * Answers are {rc, mc, ma, result}; rc 0 success, rc 1 with mc naming the failure.
 */
export interface XtMockOrder {
  symbol: string;
  orderId: string;
  clientOrderId: string;
  baseCurrency: string;
  quoteCurrency: string;
  side: string;
  type: string;
  timeInForce: string;
  price: string;
  origQty: string;
  origQuoteQty: string;
  executedQty: string;
  leavingQty: string;
  tradeBase: string;
  tradeQuote: string;
  avgPrice: string;
  fee: string;
  feeCurrency: string;
  state: string;
  time: number;
  ip: string;
  updatedTime: number;
}

export interface XtMock {
  server: MockServer;
  url: string;
  orders: Map<string, XtMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(mc: string): void;
  /** the next batch rejects the item at this index (reject: true) */
  rejectNextBatchItem(index: number): void;
  close(): Promise<void>;
}

export const XT_KEY = "3976eb88-76d0-4f6e-a6b2-a57980770085";
export const XT_SECRET = "bc6630d0231fda5cd98794f52c4998659beda290";

/** XT's signed message rebuilt from what was received. */
export function xtOriginal(req: ReceivedRequest): string {
  const h = req.headers;
  const x = `validate-algorithms=${h["validate-algorithms"]}&validate-appkey=${h["validate-appkey"]}&validate-recvwindow=${h["validate-recvwindow"]}&validate-timestamp=${h["validate-timestamp"]}`;
  const sortedQuery = req.query
    ? req.query
        .split("&")
        .map((p) => {
          const eq = p.indexOf("=");
          return [decodeURIComponent(p.slice(0, eq)), decodeURIComponent(p.slice(eq + 1))] as const;
        })
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => `${k}=${v}`)
        .join("&")
    : "";
  return `${x}#${req.method}#${req.path}${sortedQuery ? `#${sortedQuery}` : ""}${req.body ? `#${req.body}` : ""}`;
}

export async function startXtMock(options: { now?: () => number } = {}): Promise<XtMock> {
  const now = options.now ?? Date.now;
  const server = await startMockServer();
  const orders = new Map<string, XtMockOrder>();
  let seq = 6216559590087220004n;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: string | undefined;
  let rejectIndex: number | undefined;

  const ok = (result: unknown, delayMs = 0): MockReply => ({ body: { rc: 0, mc: "SUCCESS", ma: [], result }, delayMs });
  const error = (mc: string, status = 200): MockReply => ({ status, body: { rc: 1, mc, ma: [], result: null } });

  function verify(req: ReceivedRequest): MockReply | undefined {
    const h = req.headers;
    if (!h["validate-appkey"]) return error("AUTH_001");
    if (!h["validate-timestamp"]) return error("AUTH_002");
    if (!h["validate-recvwindow"]) return error("AUTH_003");
    const window = Number(h["validate-recvwindow"]);
    if (!(window > 0 && window <= 60000)) return error("AUTH_004");
    if (!h["validate-algorithms"]) return error("AUTH_005");
    if (h["validate-algorithms"] !== "HmacSHA256") return error("AUTH_006");
    if (!h["validate-signature"]) return error("AUTH_007");
    if (h["validate-appkey"] !== XT_KEY) return error("AUTH_101");
    if (h["validate-signature"] !== createHmac("sha256", XT_SECRET).update(xtOriginal(req)).digest("hex"))
      return error("AUTH_103");
    const ts = Number(h["validate-timestamp"]);
    const serverTime = now();
    if (!(ts < serverTime + 1000 && serverTime - ts <= window)) return error("AUTH_105");
    if (rateLimit) {
      rateLimit = false;
      return { status: 429, headers: { "retry-after": "3" }, body: { rc: 1, mc: "FAILURE", ma: [], result: null } };
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f);
    }
    return undefined;
  }

  function place(input: Record<string, unknown>): XtMockOrder | string {
    if (input.type !== "LIMIT" || input.timeInForce !== "GTC" || input.bizType !== "SPOT") return "ORDER_001";
    if (!/^\d+(\.\d+)?$/.test(String(input.quantity)) || !/^\d+(\.\d+)?$/.test(String(input.price))) return "ORDER_008";
    const client = String(input.clientOrderId ?? "");
    if (client && !/^[a-zA-Z0-9_]{4,22}$/.test(client)) return "ORDER_001";
    const t = now();
    const [base, quote] = String(input.symbol).split("_");
    const order: XtMockOrder = {
      symbol: String(input.symbol),
      orderId: String(seq++),
      clientOrderId: client,
      baseCurrency: base ?? "",
      quoteCurrency: quote ?? "",
      side: String(input.side),
      type: "LIMIT",
      timeInForce: "GTC",
      price: String(input.price),
      origQty: String(input.quantity),
      origQuoteQty: "0",
      executedQty: "0",
      leavingQty: String(input.quantity),
      tradeBase: "0",
      tradeQuote: "0",
      avgPrice: "0",
      fee: "0",
      feeCurrency: quote ?? "",
      state: "NEW",
      time: t,
      ip: "127.0.0.1",
      updatedTime: t,
    };
    orders.set(order.orderId, order);
    return order;
  }

  const open = (o: XtMockOrder) => o.state === "NEW" || o.state === "PARTIALLY_FILLED";
  const cancel = (o: XtMockOrder) => {
    o.state = "CANCELED";
    o.leavingQty = "0";
    o.updatedTime = now();
  };
  const body = (req: ReceivedRequest) => JSON.parse(req.body || "{}") as Record<string, unknown>;

  server.on("POST /v4/order", (req) => {
    const result = place(body(req));
    if (typeof result === "string") return error(result);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return ok({ orderId: result.orderId, ip: "127.0.0.1" }, d);
  });
  server.on("POST /v4/batch-order", (req) => {
    const b = body(req);
    const items = (b.items ?? []) as Record<string, unknown>[];
    const reject = rejectIndex;
    rejectIndex = undefined;
    return ok({
      batchId: String(b.clientBatchId ?? seq),
      items: items.map((item, index) => {
        const result = index === reject ? "ORDER_002" : place(item);
        return typeof result === "string"
          ? { index, clientOrderId: item.clientOrderId ?? null, orderId: null, reject: true, reason: result }
          : { index, clientOrderId: result.clientOrderId, orderId: result.orderId, reject: false, reason: null };
      }),
    });
  });
  server.on("GET /v4/order", (req) => {
    const q = parseQuery(req.query);
    const order = q.orderId
      ? orders.get(q.orderId)
      : [...orders.values()].find((o) => o.clientOrderId === q.clientOrderId);
    return order ? ok(order) : error("ORDER_005");
  });
  server.on("DELETE /v4/batch-order", (req) => {
    const ids = (body(req).orderIds ?? []) as string[];
    const list = ids.map((id) => orders.get(String(id)));
    if (list.some((o) => !o || !open(o))) return error("ORDER_005");
    for (const o of list) cancel(o!);
    return ok({});
  });
  server.on("DELETE /v4/open-order", (req) => {
    const b = body(req);
    if (b.bizType !== "SPOT") return error("FAILURE");
    for (const o of orders.values()) if ((!b.symbol || o.symbol === b.symbol) && open(o)) cancel(o);
    return ok({});
  });
  server.on("GET /v4/open-order", (req) => {
    const q = parseQuery(req.query);
    return ok([...orders.values()].filter((o) => (!q.symbol || o.symbol === q.symbol) && open(o)));
  });
  // A raw body: the BTC amount is a JSON number literal longer than 15 characters (seed 001 §9).
  server.on("GET /v4/balances", () => ({
    body:
      '{"rc":0,"mc":"SUCCESS","ma":[],"result":{"totalBtcAmount":0.5,"assets":[' +
      '{"currency":"usdt","currencyId":11,"frozenAmount":"120","availableAmount":"1000.5","totalAmount":"1120.5","convertBtcAmount":0.01},' +
      '{"currency":"btc","currencyId":2,"frozenAmount":0,"availableAmount":0.12345678901234567890,"totalAmount":0.12345678901234567890,"convertBtcAmount":0.12},' +
      '{"currency":"xt","currencyId":3,"frozenAmount":0,"availableAmount":0,"totalAmount":0,"convertBtcAmount":0}]}}',
  }));
  // Dynamic paths: GET/DELETE /v4/order/{orderId}.
  const byIdRoute = /^\/v4\/order\/([^/]+)$/;
  server.intercept(async (req) => {
    const denied = verify(req);
    if (denied) return denied;
    const match = byIdRoute.exec(req.path);
    if (!match) return undefined;
    const order = orders.get(decodeURIComponent(match[1]!));
    if (req.method === "GET") return order ? ok(order) : error("ORDER_005");
    if (req.method === "DELETE") {
      if (!order || !open(order)) return error("ORDER_005");
      cancel(order);
      return ok({ cancelId: order.orderId });
    }
    return undefined;
  });

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
    failNext(mc) {
      failure = mc;
    },
    rejectNextBatchItem(index) {
      rejectIndex = index;
    },
    close: () => server.close(),
  };
}
