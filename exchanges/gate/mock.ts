import { createHash, createHmac } from "node:crypto";
import {
  type MockReply,
  type MockServer,
  parseQuery,
  type ReceivedRequest,
  startMockServer,
} from "../core/testing/http-mock.js";

/**
 * A Gate APIv4 spot mock on 127.0.0.1. It verifies every private request the way Gate documents it
 * (KEY, Timestamp in seconds within 60 s, SIGN = hex HMAC-SHA512 over
 * METHOD\n/api/v4/path\nraw query\nhex SHA512(raw body)\ntimestamp) and answers with Gate's shapes
 * and its {label, message} error envelope.
 */
export interface GateMockOrder {
  id: string;
  text: string;
  create_time: string;
  update_time: string;
  create_time_ms: number;
  update_time_ms: number;
  status: "open" | "closed" | "cancelled";
  currency_pair: string;
  type: string;
  account: string;
  side: string;
  amount: string;
  price: string;
  time_in_force: string;
  left: string;
  filled_amount: string;
  fill_price: string;
  filled_total: string;
  finish_as: string;
  // The rest of the documented spot order object.
  amend_text: string;
  iceberg: string;
  avg_deal_price: string;
  fee: string;
  fee_currency: string;
  point_fee: string;
  gt_fee: string;
  gt_maker_fee: string;
  gt_taker_fee: string;
  gt_discount: boolean;
  rebated_fee: string;
  rebated_fee_currency: string;
  stp_id: number;
  stp_act: string;
}

export interface GateMock {
  server: MockServer;
  url: string;
  orders: Map<string, GateMockOrder>;
  /** private requests that passed the signature check, per route */
  accepted: string[];
  /** the next create is recorded, then answered after `ms` (provokes a client time-out) */
  delayNextCreate(ms: number): void;
  /** the next private request is answered 429 TOO_MANY_REQUESTS */
  rateLimitNext(): void;
  /** in the next batch, the item at `index` is refused with this label */
  refuseNextBatchItem(index: number, label: string, message: string): void;
  /** the next private request is answered with this error */
  failNext(status: number, label: string, message: string): void;
  close(): Promise<void>;
}

export const GATE_KEY = "gate-test-key";
export const GATE_SECRET = "gate-test-secret-0123456789abcdef";

export async function startGateMock(
  options: { key?: string; secret?: string; now?: () => number } = {},
): Promise<GateMock> {
  const key = options.key ?? GATE_KEY;
  const secret = options.secret ?? GATE_SECRET;
  const now = options.now ?? Date.now;
  const server = await startMockServer();
  const orders = new Map<string, GateMockOrder>();
  const accepted: string[] = [];
  let nextId = 12_332_324n;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: { status: number; label: string; message: string } | undefined;
  let refusal: { index: number; label: string; message: string } | undefined;

  const error = (status: number, label: string, message: string): MockReply => ({ status, body: { label, message } });

  function verify(req: ReceivedRequest): MockReply | undefined {
    if (req.headers.key !== key) return error(401, "INVALID_KEY", "Invalid key provided");
    const ts = String(req.headers.timestamp ?? "");
    if (!/^\d+(\.\d+)?$/.test(ts)) return error(400, "MISSING_REQUIRED_HEADER", "Missing required header: Timestamp");
    if (Math.abs(Number(ts) - now() / 1000) > 60)
      return error(403, "REQUEST_EXPIRED", "gap between request Timestamp and server time exceeds 60");
    // Gate signs the query string without URL encoding.
    const payload = `${req.method}\n${req.path}\n${decodeURIComponent(req.query)}\n${createHash("sha512").update(req.body).digest("hex")}\n${ts}`;
    const expected = createHmac("sha512", secret).update(payload).digest("hex");
    if (req.headers.sign !== expected) return error(401, "INVALID_SIGNATURE", "Signature mismatch");
    if (rateLimit) {
      rateLimit = false;
      return {
        status: 429,
        headers: { "x-gate-ratelimit-reset-timestamp": String(now() + 1500) },
        body: { label: "TOO_MANY_REQUESTS", message: "Request Rate limit Exceeded" },
      };
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f.status, f.label, f.message);
    }
    accepted.push(`${req.method} ${req.path}`);
    return undefined;
  }

  function place(input: Record<string, unknown>): GateMockOrder | { label: string; message: string } {
    const text = String(input.text ?? "");
    if (text && !/^t-[0-9A-Za-z_.-]{1,28}$/.test(text))
      return {
        label: "INVALID_PARAM_VALUE",
        message: "Invalid text: must start with t- and be at most 28 more characters",
      };
    if (input.type !== "limit" || input.time_in_force !== "gtc")
      return { label: "INVALID_PARAM_VALUE", message: "only gtc limit orders in this mock" };
    if (!/^\d+(\.\d+)?$/.test(String(input.amount)) || !/^\d+(\.\d+)?$/.test(String(input.price)))
      return { label: "INVALID_PARAM_VALUE", message: "Invalid amount or price" };
    const ms = now();
    const order: GateMockOrder = {
      id: String(nextId++),
      text,
      create_time: String(Math.floor(ms / 1000)),
      update_time: String(Math.floor(ms / 1000)),
      create_time_ms: ms,
      update_time_ms: ms,
      status: "open",
      currency_pair: String(input.currency_pair),
      type: "limit",
      account: "spot",
      side: String(input.side),
      amount: String(input.amount),
      price: String(input.price),
      time_in_force: "gtc",
      left: String(input.amount),
      filled_amount: "0",
      fill_price: "0",
      filled_total: "0",
      finish_as: "open",
      amend_text: "-",
      iceberg: "0",
      avg_deal_price: "",
      fee: "0",
      fee_currency:
        String(input.side) === "buy"
          ? (String(input.currency_pair).split("_")[0] ?? "")
          : (String(input.currency_pair).split("_")[1] ?? ""),
      point_fee: "0",
      gt_fee: "0",
      gt_maker_fee: "0",
      gt_taker_fee: "0",
      gt_discount: false,
      rebated_fee: "0",
      rebated_fee_currency: String(input.currency_pair).split("_")[1] ?? "",
      stp_id: 0,
      stp_act: "-",
    };
    orders.set(order.id, order);
    return order;
  }

  const find = (idOrText: string, pair: string | undefined) =>
    [...orders.values()].find(
      (o) => (o.id === idOrText || (o.text === idOrText && o.status === "open")) && (!pair || o.currency_pair === pair),
    );

  const cancel = (order: GateMockOrder) => {
    order.status = "cancelled";
    order.finish_as = "cancelled";
    order.update_time_ms = now();
  };

  server.on("POST /api/v4/spot/orders", (req) => {
    const result = place(JSON.parse(req.body));
    if ("label" in result) return error(400, result.label, result.message);
    return { status: 201, body: result, delayMs: takeDelay() };
  });
  function takeDelay(): number {
    const d = delayCreateMs;
    delayCreateMs = 0;
    return d;
  }
  server.on("POST /api/v4/spot/batch_orders", (req) => {
    const list = JSON.parse(req.body) as Record<string, unknown>[];
    if (list.length > 10) return error(400, "INVALID_PARAM_VALUE", "batch orders limit 10");
    const refuse = refusal;
    refusal = undefined;
    return {
      body: list.map((input, index) => {
        const result = refuse?.index === index ? { label: refuse.label, message: refuse.message } : place(input);
        // "Batch order details": order_id beside id, succeeded/label/message on every item.
        return "label" in result
          ? {
              order_id: "",
              id: "",
              amend_text: "-",
              text: input.text,
              succeeded: false,
              label: result.label,
              message: result.message,
            }
          : { order_id: result.id, ...result, succeeded: true, label: "", message: "" };
      }),
    };
  });
  server.on("POST /api/v4/spot/cancel_batch_orders", (req) => {
    const list = JSON.parse(req.body) as { currency_pair: string; id: string }[];
    if (list.length > 20) return error(400, "INVALID_PARAM_VALUE", "cancel batch limit 20");
    return {
      body: list.map((item) => {
        const order = find(item.id, item.currency_pair);
        if (order?.status !== "open")
          return {
            currency_pair: item.currency_pair,
            id: item.id,
            succeeded: false,
            label: "ORDER_NOT_FOUND",
            message: "Order not found",
          };
        cancel(order);
        return {
          currency_pair: item.currency_pair,
          id: order.id,
          text: order.text,
          succeeded: true,
          label: "",
          message: "",
        };
      }),
    };
  });
  server.on("GET /api/v4/spot/orders", (req) => {
    const q = parseQuery(req.query);
    if (!q.currency_pair || q.status !== "open")
      return error(400, "MISSING_REQUIRED_PARAM", "currency_pair and status required");
    const limit = Number(q.limit ?? 100);
    const page = Number(q.page ?? 1);
    const open = [...orders.values()].filter((o) => o.currency_pair === q.currency_pair && o.status === "open");
    return { body: open.slice((page - 1) * limit, page * limit) };
  });
  server.on("DELETE /api/v4/spot/orders", (req) => {
    const q = parseQuery(req.query);
    if (!q.currency_pair) return error(400, "MISSING_REQUIRED_PARAM", "currency_pair required");
    const open = [...orders.values()].filter((o) => o.currency_pair === q.currency_pair && o.status === "open");
    for (const o of open) cancel(o);
    return { body: open.map((o) => ({ ...o, succeeded: true, label: "", message: "" })) };
  });
  server.on("GET /api/v4/spot/accounts", () => ({
    body: [
      { currency: "usdt", available: "1000.5", locked: "300", update_id: 1 },
      { currency: "BTC", available: "0.12345678901234567890", locked: "0", update_id: 2 },
      { currency: "ETH", available: "0", locked: "0", update_id: 3 },
    ],
  }));

  // Every request passes the signature check first; GET/DELETE /api/v4/spot/orders/{id} are answered
  // here because the router matches exact paths only.
  server.intercept((req) => {
    const denied = verify(req);
    if (denied) return denied;
    const match = /^\/api\/v4\/spot\/orders\/([^/]+)$/.exec(req.path);
    if (!match) return undefined;
    const q = parseQuery(req.query);
    const order = find(decodeURIComponent(match[1]!), q.currency_pair);
    if (!order) return error(404, "ORDER_NOT_FOUND", "Order not found");
    if (req.method === "DELETE") {
      if (order.status !== "open") return error(404, "ORDER_NOT_FOUND", "Order not found");
      cancel(order);
    }
    return { body: order };
  });

  return {
    server,
    url: server.url,
    orders,
    accepted,
    delayNextCreate(ms) {
      delayCreateMs = ms;
    },
    rateLimitNext() {
      rateLimit = true;
    },
    refuseNextBatchItem(index, label, message) {
      refusal = { index, label, message };
    },
    failNext(status, label, message) {
      failure = { status, label, message };
    },
    close: () => server.close(),
  };
}
