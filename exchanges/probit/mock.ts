import { randomBytes } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * A ProBit Global mock on 127.0.0.1 serving BOTH hosts (accounts: POST /token; exchange:
 * /api/exchange/v1/...), as --base-url points both at one server. /token checks
 * `Authorization: Basic base64(clientId:secret)` and the JSON body {"grant_type":"client_credentials"};
 * private calls check `Authorization: Bearer <token>` against tokens it issued and has not expired.
 * Errors use ProBit's documented envelope {errorCode, message, details} with its HTTP status.
 */
export interface ProbitMockOrder {
  id: string;
  user_id: string;
  market_id: string;
  type: string;
  side: string;
  quantity: string;
  limit_price: string;
  time_in_force: string;
  filled_cost: string;
  filled_quantity: string;
  open_quantity: string;
  cancelled_quantity: string;
  status: string;
  time: string;
  client_order_id: string;
}

export interface ProbitMock {
  server: MockServer;
  url: string;
  orders: Map<string, ProbitMockOrder>;
  /** number of token requests received */
  tokenFetches(): number;
  /** the token endpoint waits this long before answering (to pile concurrent callers up) */
  delayTokens(ms: number): void;
  expiresIn(seconds: number): void;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(errorCode: string, message: string, status?: number): void;
  close(): Promise<void>;
}

export const PROBIT_KEY = "probit-client-id-1";
export const PROBIT_SECRET = "probit-client-secret-1";
const USER_ID = "1c7d2747-9b50-46c8-b917-d8cef81f7595";

export async function startProbitMock(
  options: { now?: () => number; clients?: Record<string, string> } = {},
): Promise<ProbitMock> {
  const now = options.now ?? Date.now;
  const clients: Record<string, string> = { [PROBIT_KEY]: PROBIT_SECRET, ...options.clients };
  const server = await startMockServer();
  const orders = new Map<string, ProbitMockOrder>();
  const tokens = new Map<string, number>(); // token → expiry (ms)
  let seq = 853073;
  let fetches = 0;
  let tokenDelay = 0;
  let lifetime = 900;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: { errorCode: string; message: string; status: number } | undefined;

  const error = (
    status: number,
    errorCode: string,
    message: string,
    details: Record<string, unknown> = {},
  ): MockReply => ({
    status,
    body: { errorCode, message, details },
  });

  server.on("POST /token", async (req) => {
    fetches++;
    if (tokenDelay) await new Promise((r) => setTimeout(r, tokenDelay));
    const auth = String(req.headers.authorization ?? "");
    const [id, secret] = auth.startsWith("Basic ")
      ? Buffer.from(auth.slice(6), "base64").toString("utf8").split(":")
      : [];
    let body: { grant_type?: unknown } = {};
    try {
      body = JSON.parse(req.body) as { grant_type?: unknown };
    } catch {
      return error(400, "INVALID_ARGUMENT", "body is not JSON");
    }
    if (body.grant_type !== "client_credentials")
      return error(400, "INVALID_ARGUMENT", "grant_type", { grant_type: "invalid" });
    if (!id || clients[id] === undefined || clients[id] !== secret)
      return error(401, "UNAUTHORIZED", "You have to login.");
    const token = randomBytes(16).toString("hex");
    tokens.set(token, now() + lifetime * 1000);
    return { body: { access_token: token, token_type: "bearer", expires_in: lifetime } };
  });

  function verify(req: ReceivedRequest): MockReply | undefined {
    if (!req.path.startsWith("/api/exchange/v1/")) return undefined;
    const auth = String(req.headers.authorization ?? "");
    const token = auth.startsWith("Bearer ") ? auth.slice(7) : "";
    const expiry = tokens.get(token);
    if (expiry === undefined || expiry <= now()) return error(401, "UNAUTHORIZED", "You have to login.");
    if (req.method === "POST" && !String(req.headers["content-type"] ?? "").includes("application/json"))
      return error(400, "INVALID_ARGUMENT", "Content-Type must be application/json");
    if (rateLimit) {
      rateLimit = false;
      return {
        ...error(429, "RATE_LIMIT_EXCEEDED", "You are sending requests too frequently. Please try it later."),
        headers: { "retry-after": "3" },
      };
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f.status, f.errorCode, f.message);
    }
    return undefined;
  }
  server.intercept((req) => verify(req));

  const json = (req: ReceivedRequest): Record<string, string> => JSON.parse(req.body || "{}") as Record<string, string>;

  server.on("POST /api/exchange/v1/new_order", (req) => {
    const q = json(req);
    if (q.type !== "limit" || q.time_in_force !== "gtc")
      return error(400, "NOT_ALLOWED_COMBINATION", "only limit gtc in this mock");
    if (!/^\d+(\.\d+)?$/.test(q.quantity ?? "") || !/^\d+(\.\d+)?$/.test(q.limit_price ?? ""))
      return error(400, "INVALID_ARGUMENT", "Parameters are not a valid format", { quantity: "invalid" });
    if (q.market_id !== "BTC-USDT" && q.market_id !== "ETH-BTC")
      return error(400, "INVALID_MARKET", "Requested market is not exist.");
    const order: ProbitMockOrder = {
      id: String(seq++),
      user_id: USER_ID,
      market_id: q.market_id,
      type: "limit",
      side: String(q.side),
      quantity: q.quantity!,
      limit_price: q.limit_price!,
      time_in_force: "gtc",
      filled_cost: "0",
      filled_quantity: "0",
      open_quantity: q.quantity!,
      cancelled_quantity: "0",
      status: "open",
      time: new Date(now()).toISOString(),
      client_order_id: q.client_order_id ?? "",
    };
    orders.set(order.id, order);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return { body: { data: order }, delayMs: d };
  });
  server.on("POST /api/exchange/v1/cancel_order", (req) => {
    const q = json(req);
    const order = orders.get(q.order_id ?? "");
    if (!order || order.market_id !== q.market_id || order.status !== "open")
      return error(400, "INVALID_ORDER", "Requested order is not exist. Or It is not your order.");
    order.cancelled_quantity = order.open_quantity;
    order.open_quantity = "0";
    order.status = "cancelled";
    return { body: { data: order } };
  });
  server.on("GET /api/exchange/v1/order", (req) => {
    const q = parseQuery(req.query);
    const found = [...orders.values()].filter(
      (o) =>
        o.market_id === q.market_id && (q.order_id ? o.id === q.order_id : o.client_order_id === q.client_order_id),
    );
    if (found.length === 0)
      return error(400, "INVALID_ORDER", "Requested order is not exist. Or It is not your order.");
    return { body: { data: found } };
  });
  server.on("GET /api/exchange/v1/open_order", (req) => {
    const q = parseQuery(req.query);
    return { body: { data: [...orders.values()].filter((o) => o.market_id === q.market_id && o.status === "open") } };
  });
  server.on("GET /api/exchange/v1/balance", () => ({
    body: {
      data: [
        { currency_id: "XRP", total: "100", available: "0" },
        { currency_id: "USDT", total: "1000.123456789012345678", available: "900.123456789012345678" },
        { currency_id: "btc", total: "0.5", available: "0.5" },
        { currency_id: "DOGE", total: "0", available: "0" },
      ],
    },
  }));

  return {
    server,
    url: server.url,
    orders,
    tokenFetches: () => fetches,
    delayTokens(ms) {
      tokenDelay = ms;
    },
    expiresIn(seconds) {
      lifetime = seconds;
    },
    delayNextCreate(ms) {
      delayCreateMs = ms;
    },
    rateLimitNext() {
      rateLimit = true;
    },
    failNext(errorCode, message, status = 400) {
      failure = { errorCode, message, status };
    },
    close: () => server.close(),
  };
}
