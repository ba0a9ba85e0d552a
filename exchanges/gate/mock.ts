import { createHash, createHmac } from "node:crypto";
import {
  type FakeExchange,
  type FakeParams,
  OrderStore,
  pageByNumber,
  raw,
  refuse,
  startFakeExchange,
} from "../core/testing/fake-exchange.js";
import type { MockReply, MockServer, ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * A Gate APIv4 spot mock on the fake exchange (exchanges/core/testing/fake-exchange.ts). It verifies
 * every private request the way Gate documents it (KEY, Timestamp in seconds within 60 s, SIGN = hex
 * HMAC-SHA512 over METHOD\n/api/v4/path\nraw query\nhex SHA512(raw body)\ntimestamp) and answers
 * with Gate's shapes and its {label, message} error envelope.
 *
 * Every call checks the parameters Gate documents as required (currency_pair, side and amount on an
 * order, currency_pair on a cancel, a lookup and the open-order list, which also needs status) and
 * answers 400 MISSING_REQUIRED_PARAM otherwise. Open orders come in numbered pages (`page` from 1,
 * `limit` 100 by default and at most); a short page is the last.
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
  /** the fake underneath */
  fake: FakeExchange;
  orders: Map<string, GateMockOrder>;
  /** private requests that passed the signature check, per route */
  accepted: string[];
  /** armed countdowns: currency_pair ("" for every pair) → deadline (ms), as the mock's clock has them */
  countdowns: Map<string, number>;
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

const ORDER_NOT_FOUND = refuse("ORDER_NOT_FOUND", "Order not found", 404);

/** One pair of "List all currency pairs supported", in gate's shape. */
function currencyPair(
  base: string,
  quote: string,
  tradeStatus: string,
  precision: number,
  amountPrecision: number,
  minBase: string | null,
  minQuote: string | null,
) {
  return {
    id: `${base}_${quote}`,
    base,
    base_name: base,
    quote,
    quote_name: quote,
    fee: "0.2",
    min_base_amount: minBase,
    min_quote_amount: minQuote,
    max_base_amount: null,
    max_quote_amount: "5000000",
    amount_precision: amountPrecision,
    precision,
    trade_status: tradeStatus,
    sell_start: 1516378650,
    buy_start: 1516378650,
    delisting_time: 0,
    type: "normal",
    trade_url: `https://www.gate.io/trade/${base}_${quote}`,
    st_tag: false,
  };
}

/** The list the mock answers, unsorted: untradable and sell-only pairs, no minimum (null) and odd precisions. */
export const GATE_CURRENCY_PAIRS = [
  currencyPair("ETH", "USDT", "tradable", 2, 4, "0.001", "3"),
  currencyPair("BTC", "USDT", "tradable", 1, 6, "0.00001", "3"),
  currencyPair("DEAD", "USDT", "untradable", 4, 2, "1", "1"),
  currencyPair("EXIT", "USDT", "sellable", 4, 2, "1", "1"),
  currencyPair("PEPE", "USDT", "tradable", 10, 0, null, "1"),
];

export async function startGateMock(
  options: { key?: string; secret?: string; now?: () => number } = {},
): Promise<GateMock> {
  const key = options.key ?? GATE_KEY;
  const secret = options.secret ?? GATE_SECRET;
  const now = options.now ?? Date.now;
  const orders = new OrderStore<GateMockOrder>(12_332_324n, (o) => o.id);

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
    return undefined;
  }

  function place(input: FakeParams): GateMockOrder | { label: string; message: string } {
    const text = String(input.text ?? "");
    if (text && !/^t-[0-9A-Za-z_.-]{1,28}$/.test(text))
      return {
        label: "INVALID_PARAM_VALUE",
        message: "Invalid text: must start with t- and be at most 28 more characters",
      };
    // gtc, or poc: maker only (docs/exchange-rules.md "Post-only")
    if (input.type !== "limit" || (input.time_in_force !== "gtc" && input.time_in_force !== "poc"))
      return { label: "INVALID_PARAM_VALUE", message: "only gtc or poc limit orders in this mock" };
    if (!/^\d+(\.\d+)?$/.test(String(input.amount)) || !/^\d+(\.\d+)?$/.test(String(input.price)))
      return { label: "INVALID_PARAM_VALUE", message: "Invalid amount or price" };
    const ms = now();
    const order: GateMockOrder = {
      id: orders.nextId(),
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
      time_in_force: String(input.time_in_force),
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
    return orders.add(order);
  }

  const find = (idOrText: string, pair: unknown) =>
    orders.find(
      (o) => (o.id === idOrText || (o.text === idOrText && o.status === "open")) && (!pair || o.currency_pair === pair),
    );

  const cancel = (order: GateMockOrder) => {
    order.status = "cancelled";
    order.finish_as = "cancelled";
    order.update_time_ms = now();
  };
  /** armed countdowns: currency_pair ("" for every pair) → deadline (ms) */
  const countdowns = new Map<string, number>();
  const openOf = (pair: unknown) => orders.filter((o) => o.currency_pair === pair && o.status === "open");

  // Create an order: currency_pair, side and amount are required (price for a limit order).
  const ORDER = ["currency_pair", "side", "amount"];
  const fake = await startFakeExchange({
    name: "gate",
    // "List all currency pairs supported" is public: no key
    isPublic: (req) => req.path === "/api/v4/spot/currency_pairs",
    verify,
    envelope: {
      ok: (body) => ({ body }),
      error: (e) => error(e.status ?? 400, String(e.code), e.msg),
    },
    rateLimited: () => ({
      status: 429,
      headers: { "x-gate-ratelimit-reset-timestamp": String(now() + 1500) },
      body: { label: "TOO_MANY_REQUESTS", message: "Request Rate limit Exceeded" },
    }),
    missing: (name) => ({ code: "MISSING_REQUIRED_PARAM", msg: `Missing required parameter: ${name}`, status: 400 }),
    routes: {
      "POST /api/v4/spot/orders": {
        required: ORDER,
        create: true,
        handle: ({ params }) => {
          const result = place(params);
          if ("label" in result) throw refuse(result.label, result.message, 400);
          return raw({ status: 201, body: result });
        },
      },
      "POST /api/v4/spot/batch_orders": {
        required: ORDER.map((name) => `[].${name}`),
        handle: ({ params }) => {
          const list = params as unknown as FakeParams[];
          if (list.length > 10) throw refuse("INVALID_PARAM_VALUE", "batch orders limit 10", 400);
          const answer = list.map((input, index) => {
            const fault = fake.takeBatchFault(index);
            const result =
              fault && "refuse" in fault
                ? { label: String(fault.refuse.code), message: fault.refuse.msg }
                : place(input);
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
          });
          fake.endBatch();
          return answer;
        },
      },
      "POST /api/v4/spot/cancel_batch_orders": {
        required: ["[].currency_pair", "[].id"],
        handle: ({ params }) => {
          const list = params as unknown as { currency_pair: string; id: string }[];
          if (list.length > 20) throw refuse("INVALID_PARAM_VALUE", "cancel batch limit 20", 400);
          return list.map((item) => {
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
          });
        },
      },
      "GET /api/v4/spot/orders": {
        required: ["currency_pair", "status"],
        handle: ({ params: q }) => {
          if (q.status !== "open") throw refuse("INVALID_PARAM_VALUE", "status must be open or finished", 400);
          return pageByNumber(openOf(q.currency_pair), q, {
            page: "page",
            size: {
              name: "limit",
              default: 100,
              max: 100,
              invalid: { code: "INVALID_PARAM_VALUE", msg: "limit must be within 1 and 100", status: 400 },
            },
            invalidPage: { code: "INVALID_PARAM_VALUE", msg: "page must be at least 1", status: 400 },
          }).page;
        },
      },
      "DELETE /api/v4/spot/orders": {
        required: ["currency_pair"],
        handle: ({ params: q }) => {
          const open = openOf(q.currency_pair);
          for (const o of open) cancel(o);
          return open.map((o) => ({ ...o, succeeded: true, label: "", message: "" }));
        },
      },
      "GET /api/v4/spot/orders/:id": {
        required: ["currency_pair"],
        handle: ({ params, path }) => {
          const order = find(path.id ?? "", params.currency_pair);
          if (!order) throw ORDER_NOT_FOUND;
          return order;
        },
      },
      "DELETE /api/v4/spot/orders/:id": {
        required: ["currency_pair"],
        handle: ({ params, path }) => {
          const order = find(path.id ?? "", params.currency_pair);
          if (order?.status !== "open") throw ORDER_NOT_FOUND;
          cancel(order);
          return order;
        },
      },
      // "Countdown cancel orders": timeout at least 5 s (0 disarms), one currency_pair or every pair
      "POST /api/v4/spot/countdown_cancel_all": {
        required: ["timeout"],
        handle: ({ params }) => {
          const timeout = Number(params.timeout);
          if (!Number.isInteger(timeout) || (timeout !== 0 && timeout < 5))
            throw refuse("INVALID_PARAM_VALUE", "timeout must be at least 5 seconds, or 0", 400);
          const key = typeof params.currency_pair === "string" ? params.currency_pair : "";
          if (timeout === 0) countdowns.delete(key);
          else countdowns.set(key, now() + timeout * 1000);
          return { triggerTime: timeout === 0 ? 0 : now() + timeout * 1000 };
        },
      },
      "GET /api/v4/spot/currency_pairs": { handle: () => GATE_CURRENCY_PAIRS },
      "GET /api/v4/spot/accounts": {
        handle: () => [
          { currency: "usdt", available: "1000.5", locked: "300", update_id: 1 },
          { currency: "BTC", available: "0.12345678901234567890", locked: "0", update_id: 2 },
          { currency: "ETH", available: "0", locked: "0", update_id: 3 },
        ],
      },
    },
  });

  return {
    server: fake.server,
    url: fake.url,
    fake,
    orders,
    countdowns,
    accepted: fake.accepted,
    delayNextCreate: (ms) => fake.delayNextCreate(ms),
    rateLimitNext: () => fake.rateLimitNext(),
    refuseNextBatchItem(index, label, message) {
      fake.refuseNextBatchItem(index, { code: label, msg: message });
    },
    failNext(status, label, message) {
      fake.failNext({ code: label, msg: message, status });
    },
    close: () => fake.close(),
  };
}
