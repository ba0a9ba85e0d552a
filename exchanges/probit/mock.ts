import { randomBytes } from "node:crypto";
import { type FakeExchange, FakeRefusal, parseParams, raw, startFakeExchange } from "../core/testing/fake-exchange.js";
import type { MockReply, MockServer, ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A ProBit Global mock on 127.0.0.1 serving BOTH hosts (accounts: POST /token; exchange:
 * /api/exchange/v1/...), as --base-url points both at one server. /token checks
 * `Authorization: Basic base64(clientId:secret)` and the JSON body {"grant_type":"client_credentials"};
 * private calls check `Authorization: Bearer <token>` against tokens it issued and has not expired.
 * Errors use ProBit's documented envelope {errorCode, message, details} with its HTTP status. It
 * runs on the fake exchange (exchanges/core/testing/fake-exchange.ts).
 *
 * Every call checks the parameters ProBit documents as required (market_id, type, side,
 * time_in_force, limit_price and quantity of a limit order; market_id and order_id on a cancel;
 * market_id and order_id or client_order_id on the lookup) and answers 400 INVALID_ARGUMENT with
 * the field in `details` otherwise. ProBit has no batch or cancel-all call and documents no paging
 * of the open orders.
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
  /** the fake underneath */
  fake: FakeExchange;
  close(): Promise<void>;
}

/** One market of GET /api/exchange/v1/market in ProBit's documented shape. */
function probitMarket(
  base: string,
  quote: string,
  priceIncrement: string,
  quantityPrecision: number,
  minQuantity: string,
  minCost: string,
  closed = false,
) {
  return {
    id: `${base}-${quote}`,
    base_currency_id: base,
    quote_currency_id: quote,
    min_price: priceIncrement,
    max_price: "9999999999999999",
    price_increment: priceIncrement,
    min_quantity: minQuantity,
    max_quantity: "9999999999999999",
    quantity_precision: quantityPrecision,
    min_cost: minCost,
    max_cost: "9999999999999999",
    cost_precision: 8,
    taker_fee_rate: "0.2",
    maker_fee_rate: "0.2",
    show_in_ui: true,
    closed,
  };
}

/** The markets: a price step of 0.1, one of 0.00000001 with whole-unit amounts, and a closed one. */
export const PROBIT_MOCK_MARKETS = [
  probitMarket("BTC", "USDT", "0.1", 8, "0.00000001", "1"),
  probitMarket("PROB", "KRW", "0.00000001", 0, "1", "1000"),
  probitMarket("ETH", "BTC", "0.000001", 4, "0.0001", "0.0001"),
  probitMarket("OLD", "USDT", "0.0001", 2, "1", "1", true),
];

export const PROBIT_KEY = "probit-client-id-1";
export const PROBIT_SECRET = "probit-client-secret-1";
const USER_ID = "1c7d2747-9b50-46c8-b917-d8cef81f7595";

export async function startProbitMock(
  options: { now?: () => number; clients?: Record<string, string> } = {},
): Promise<ProbitMock> {
  const now = options.now ?? Date.now;
  const clients: Record<string, string> = { [PROBIT_KEY]: PROBIT_SECRET, ...options.clients };
  const orders = new Map<string, ProbitMockOrder>();
  const tokens = new Map<string, number>(); // token → expiry (ms)
  let seq = 853073;
  let fetches = 0;
  let tokenDelay = 0;
  let lifetime = 900;

  const error = (
    status: number,
    errorCode: string,
    message: string,
    details: Record<string, unknown> = {},
  ): MockReply => ({
    status,
    body: { errorCode, message, details },
  });
  const fail = (status: number, errorCode: string, message: string) =>
    new FakeRefusal({ code: errorCode, msg: message, status });
  const notExist = () => fail(400, "INVALID_ORDER", "Requested order is not exist. Or It is not your order.");

  function verify(req: ReceivedRequest): MockReply | undefined {
    const auth = String(req.headers.authorization ?? "");
    const token = auth.startsWith("Bearer ") ? auth.slice(7) : "";
    const expiry = tokens.get(token);
    if (expiry === undefined || expiry <= now()) return error(401, "UNAUTHORIZED", "You have to login.");
    if (req.method === "POST" && !String(req.headers["content-type"] ?? "").includes("application/json"))
      return error(400, "INVALID_ARGUMENT", "Content-Type must be application/json");
    return undefined;
  }

  const fake = await startFakeExchange({
    name: "probit",
    // the accounts host's token endpoint checks its own Basic credentials
    isPublic: (req) => !req.path.startsWith("/api/exchange/v1/") || req.path === "/api/exchange/v1/market",
    verify,
    // a body that is not JSON reaches /token, which answers it itself
    params: (req) => {
      try {
        return parseParams(req);
      } catch {
        return {};
      }
    },
    envelope: {
      ok: (data) => ({ body: { data } }),
      error: (e) => error(e.status ?? 400, String(e.code), e.msg, (e.extra?.details as Record<string, unknown>) ?? {}),
    },
    rateLimited: () => ({
      ...error(429, "RATE_LIMIT_EXCEEDED", "You are sending requests too frequently. Please try it later."),
      headers: { "retry-after": "3" },
    }),
    missing: (name) => ({
      code: "INVALID_ARGUMENT",
      msg: "Parameters are not a valid format",
      status: 400,
      extra: { details: { [name]: "required" } },
    }),
    routes: {
      // market data: no token (docs/exchange-rules.md#pairs)
      "GET /api/exchange/v1/market": { handle: () => PROBIT_MOCK_MARKETS },
      "POST /token": {
        handle: async ({ req }) => {
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
            return raw(error(400, "INVALID_ARGUMENT", "body is not JSON"));
          }
          if (body.grant_type !== "client_credentials")
            return raw(error(400, "INVALID_ARGUMENT", "grant_type", { grant_type: "invalid" }));
          if (!id || clients[id] === undefined || clients[id] !== secret)
            return raw(error(401, "UNAUTHORIZED", "You have to login."));
          const token = randomBytes(16).toString("hex");
          tokens.set(token, now() + lifetime * 1000);
          return raw({ body: { access_token: token, token_type: "bearer", expires_in: lifetime } });
        },
      },
      "POST /api/exchange/v1/new_order": {
        required: ["market_id", "type", "side", "time_in_force", "limit_price", "quantity"],
        create: true,
        handle: ({ params: q }) => {
          // gtc, or gtcpo: maker only (docs/exchange-rules.md "Post-only")
          if (q.type !== "limit" || (q.time_in_force !== "gtc" && q.time_in_force !== "gtcpo"))
            throw fail(400, "NOT_ALLOWED_COMBINATION", "only limit gtc in this mock");
          if (!/^\d+(\.\d+)?$/.test(String(q.quantity)) || !/^\d+(\.\d+)?$/.test(String(q.limit_price)))
            throw new FakeRefusal({
              code: "INVALID_ARGUMENT",
              msg: "Parameters are not a valid format",
              status: 400,
              extra: { details: { quantity: "invalid" } },
            });
          if (q.market_id !== "BTC-USDT" && q.market_id !== "ETH-BTC")
            throw fail(400, "INVALID_MARKET", "Requested market is not exist.");
          const order: ProbitMockOrder = {
            id: String(seq++),
            user_id: USER_ID,
            market_id: String(q.market_id),
            type: "limit",
            side: String(q.side),
            quantity: String(q.quantity),
            limit_price: String(q.limit_price),
            time_in_force: String(q.time_in_force),
            filled_cost: "0",
            filled_quantity: "0",
            open_quantity: String(q.quantity),
            cancelled_quantity: "0",
            status: "open",
            time: new Date(now()).toISOString(),
            client_order_id: String(q.client_order_id ?? ""),
          };
          orders.set(order.id, order);
          return order;
        },
      },
      "POST /api/exchange/v1/cancel_order": {
        required: ["market_id", "order_id"],
        handle: ({ params: q }) => {
          const order = orders.get(String(q.order_id));
          if (!order || order.market_id !== q.market_id || order.status !== "open") throw notExist();
          order.cancelled_quantity = order.open_quantity;
          order.open_quantity = "0";
          order.status = "cancelled";
          return order;
        },
      },
      "GET /api/exchange/v1/order": {
        required: ["market_id", ["order_id", "client_order_id"]],
        handle: ({ params: q }) => {
          const found = [...orders.values()].filter(
            (o) =>
              o.market_id === q.market_id &&
              (q.order_id ? o.id === q.order_id : o.client_order_id === q.client_order_id),
          );
          if (found.length === 0) throw notExist();
          return found;
        },
      },
      "GET /api/exchange/v1/open_order": {
        handle: ({ params: q }) =>
          [...orders.values()].filter((o) => o.market_id === q.market_id && o.status === "open"),
      },
      "GET /api/exchange/v1/balance": {
        handle: () => [
          { currency_id: "XRP", total: "100", available: "0" },
          { currency_id: "USDT", total: "1000.123456789012345678", available: "900.123456789012345678" },
          { currency_id: "btc", total: "0.5", available: "0.5" },
          { currency_id: "DOGE", total: "0", available: "0" },
        ],
      },
    },
  });

  return {
    server: fake.server,
    url: fake.url,
    orders,
    fake,
    tokenFetches: () => fetches,
    delayTokens(ms) {
      tokenDelay = ms;
    },
    expiresIn(seconds) {
      lifetime = seconds;
    },
    delayNextCreate: (ms) => fake.delayNextCreate(ms),
    rateLimitNext: () => fake.rateLimitNext(),
    failNext(errorCode, message, status = 400) {
      fake.failNext({ code: errorCode, msg: message, status });
    },
    close: () => fake.close(),
  };
}
