import { createHmac } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * A KuCoin spot mock on 127.0.0.1. It verifies every private request the way KuCoin documents it:
 * KC-API-KEY, KC-API-KEY-VERSION "2", KC-API-PASSPHRASE = base64 HMAC-SHA256(secret, passphrase),
 * KC-API-TIMESTAMP within 5 s, KC-API-SIGN = base64 HMAC-SHA256(secret, timestamp + METHOD +
 * endpoint-with-query + raw body). Answers use the {code: "200000", data} envelope; errors {code, msg}.
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
  orders: Map<string, KucoinMockOrder>;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: string, msg: string, status?: number): void;
  close(): Promise<void>;
}

export const KUCOIN_KEY = "kucoin-test-key";
export const KUCOIN_SECRET = "kucoin-test-secret";
export const KUCOIN_PASSPHRASE = "kucoin-pass phrase";

const b64hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("base64");

export async function startKucoinMock(options: { now?: () => number } = {}): Promise<KucoinMock> {
  const now = options.now ?? Date.now;
  const server = await startMockServer();
  const orders = new Map<string, KucoinMockOrder>();
  let seq = 0x5bd6e9286d99522an;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: { code: string; msg: string; status: number } | undefined;

  const error = (status: number, code: string, msg: string): MockReply => ({ status, body: { code, msg } });
  const ok = (data: unknown, delayMs = 0): MockReply => ({ body: { code: "200000", data }, delayMs });

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
    if (rateLimit) {
      rateLimit = false;
      return {
        status: 429,
        headers: { "gw-ratelimit-limit": "4000", "gw-ratelimit-remaining": "0", "gw-ratelimit-reset": "1200" },
        body: { code: "429000", msg: "Too Many Requests" },
      };
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f.status, f.code, f.msg);
    }
    return undefined;
  }

  function place(input: Record<string, unknown>, symbol: string): KucoinMockOrder | string {
    if (!input.clientOid) return "clientOid is required";
    if (input.type !== "limit" || (input.timeInForce ?? "GTC") !== "GTC") return "only GTC limit orders in this mock";
    if (!/^\d+(\.\d+)?$/.test(String(input.size)) || !/^\d+(\.\d+)?$/.test(String(input.price)))
      return "Invalid size or price";
    const order: KucoinMockOrder = {
      id: (seq++).toString(16).padStart(24, "0"),
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
      postOnly: false,
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
    orders.set(order.id, order);
    return order;
  }

  const cancel = (o: KucoinMockOrder) => {
    o.isActive = false;
    o.cancelExist = true;
  };

  server.intercept((req) => {
    const denied = verify(req);
    if (denied) return denied;
    let m = /^\/api\/v1\/orders\/([0-9a-f]+)$/.exec(req.path);
    if (m) {
      const order = orders.get(m[1]!);
      if (!order) return error(400, "400100", "order not exist.");
      if (req.method === "DELETE") {
        if (!order.isActive) return error(400, "400100", "order_not_exist_or_not_allow_to_cancel");
        cancel(order);
        return ok({ cancelledOrderIds: [order.id] });
      }
      return ok(order);
    }
    m = /^\/api\/v1\/order\/client-order\/([^/]+)$/.exec(req.path);
    if (m && req.method === "GET") {
      const order = [...orders.values()].find((o) => o.clientOid === decodeURIComponent(m![1]!));
      return order ? ok(order) : error(400, "400100", "order not exist.");
    }
    return undefined;
  });

  server.on("POST /api/v1/orders", (req) => {
    const input = JSON.parse(req.body);
    const result = place(input, String(input.symbol));
    if (typeof result === "string") return error(400, "400100", result);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return ok({ orderId: result.id }, d);
  });
  server.on("POST /api/v1/orders/multi", (req) => {
    const input = JSON.parse(req.body) as { symbol: string; orderList: Record<string, unknown>[] };
    if (input.orderList.length > 5) return error(400, "400100", "orderList size must be <= 5");
    return ok({
      data: input.orderList.map((item) => {
        const result = place(item, input.symbol);
        const base = {
          symbol: input.symbol,
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
      }),
    });
  });
  server.on("GET /api/v1/orders", (req) => {
    const q = parseQuery(req.query);
    if (q.status !== "active") return error(400, "400100", "this mock lists active orders only");
    const active = [...orders.values()].filter((o) => o.isActive && (!q.symbol || o.symbol === q.symbol));
    const pageSize = Number(q.pageSize ?? 50);
    const currentPage = Number(q.currentPage ?? 1);
    return ok({
      currentPage,
      pageSize,
      totalNum: active.length,
      totalPage: Math.max(1, Math.ceil(active.length / pageSize)),
      items: active.slice((currentPage - 1) * pageSize, currentPage * pageSize),
    });
  });
  server.on("DELETE /api/v1/orders", (req) => {
    const q = parseQuery(req.query);
    const active = [...orders.values()].filter((o) => o.isActive && (!q.symbol || o.symbol === q.symbol));
    for (const o of active) cancel(o);
    return ok({ cancelledOrderIds: active.map((o) => o.id) });
  });
  server.on("GET /api/v1/accounts", (req) => {
    const q = parseQuery(req.query);
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
      { id: "5bd6e9216d99522a52e458d8", currency: "KCS", type: "trade", balance: "0", available: "0", holds: "0" },
      { id: "5bd6e9216d99522a52e458d9", currency: "ETH", type: "main", balance: "9", available: "9", holds: "0" },
    ];
    return ok(q.type ? all.filter((a) => a.type === q.type) : all);
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
    failNext(code, msg, status = 400) {
      failure = { code, msg, status };
    },
    close: () => server.close(),
  };
}
