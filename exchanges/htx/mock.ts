import { createHmac } from "node:crypto";
import { type MockReply, type MockServer, type ReceivedRequest, startMockServer } from "../core/testing/http-mock.js";

/**
 * An HTX spot v1 mock on 127.0.0.1. It verifies every private request the way HTX documents
 * signature version 2: AccessKeyId, SignatureMethod=HmacSHA256, SignatureVersion=2, Timestamp
 * (UTC YYYY-MM-DDThh:mm:ss, within 5 minutes) in the query; it re-sorts the received parameters by
 * ASCII, re-encodes them and checks Signature = base64 HMAC-SHA256 over
 * "METHOD\nhost\npath\nquery", with the Host the request arrived on. Answers use
 * {status: "ok", data}; errors {status: "error", "err-code", "err-msg", data: null}.
 */
export interface HtxMockOrder {
  id: number;
  symbol: string;
  "account-id": number;
  "client-order-id": string;
  amount: string;
  price: string;
  "created-at": number;
  type: string;
  "field-amount": string;
  "field-cash-amount": string;
  "field-fees": string;
  "finished-at": number;
  source: string;
  state: string;
  "canceled-at": number;
}

export interface HtxMock {
  server: MockServer;
  url: string;
  orders: Map<string, HtxMockOrder>;
  /** the spot account id the key has; undefined: the key has no spot account */
  spotAccount: number | undefined;
  delayNextCreate(ms: number): void;
  rateLimitNext(): void;
  failNext(code: string, msg: string, status?: number): void;
  refuseNextBatchItem(index: number, code: string, msg: string): void;
  close(): Promise<void>;
}

export const HTX_KEY = "e2xxxxxx-99xxxxxx-84xxxxxx-7xxxx";
export const HTX_SECRET = "htx-test-secret";

const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export async function startHtxMock(options: { now?: () => number } = {}): Promise<HtxMock> {
  const now = options.now ?? Date.now;
  const server = await startMockServer();
  const orders = new Map<string, HtxMockOrder>();
  let seq = 356501383558845;
  let delayCreateMs = 0;
  let rateLimit = false;
  let failure: { code: string; msg: string; status: number } | undefined;
  let refusal: { index: number; code: string; msg: string } | undefined;

  const error = (code: string, msg: string, status = 200): MockReply => ({
    status,
    body: { status: "error", "err-code": code, "err-msg": msg, data: null },
  });
  const ok = (data: unknown, delayMs = 0): MockReply => ({ body: { status: "ok", data }, delayMs });

  function verify(req: ReceivedRequest): MockReply | undefined {
    const pairs = req.query
      .split("&")
      .filter(Boolean)
      .map((p) => {
        const i = p.indexOf("=");
        return [decodeURIComponent(p.slice(0, i)), decodeURIComponent(p.slice(i + 1))] as const;
      });
    const params = new Map(pairs);
    if (params.get("AccessKeyId") !== HTX_KEY)
      return error("api-signature-not-valid", "Signature not valid: Incorrect Access key [Access key错误]");
    if (params.get("SignatureMethod") !== "HmacSHA256" || params.get("SignatureVersion") !== "2")
      return error("api-signature-not-valid", "Signature not valid: Incorrect SignatureMethod or SignatureVersion");
    const ts = params.get("Timestamp") ?? "";
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(ts) || Math.abs(Date.parse(`${ts}Z`) - now()) > 5 * 60_000)
      return error("api-signature-not-valid", "Signature not valid: Timestamp for this request is too old or invalid");
    const canonical = pairs
      .filter(([k]) => k !== "Signature")
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${encode(k)}=${encode(v)}`)
      .join("&");
    const expected = createHmac("sha256", HTX_SECRET)
      .update(`${req.method}\n${String(req.headers.host).toLowerCase()}\n${req.path}\n${canonical}`)
      .digest("base64");
    if (params.get("Signature") !== expected)
      return error("api-signature-not-valid", "Signature not valid: Verification failure [校验失败]");
    if (rateLimit) {
      rateLimit = false;
      return {
        status: 429,
        headers: { "x-hb-ratelimit-requests-remain": "0", "x-hb-ratelimit-requests-expire": String(now() + 1000) },
        body: { status: "error", "err-code": "api-request-too-frequent", "err-msg": "exceeded rate limit", data: null },
      };
    }
    if (failure) {
      const f = failure;
      failure = undefined;
      return error(f.code, f.msg, f.status);
    }
    return undefined;
  }

  const mock: HtxMock = {
    server,
    url: server.url,
    orders,
    spotAccount: 100009,
    delayNextCreate(ms) {
      delayCreateMs = ms;
    },
    rateLimitNext() {
      rateLimit = true;
    },
    failNext(code, msg, status = 200) {
      failure = { code, msg, status };
    },
    refuseNextBatchItem(index, code, msg) {
      refusal = { index, code, msg };
    },
    close: () => server.close(),
  };

  function place(input: Record<string, unknown>): HtxMockOrder | { code: string; msg: string } {
    if (String(input["account-id"]) !== String(mock.spotAccount))
      return {
        code: "account-frozen-account-inexistent-error",
        msg: `account for id \`${String(input["account-id"])}\` and user id not found`,
      };
    if (input.type !== "buy-limit" && input.type !== "sell-limit")
      return { code: "invalid-parameter", msg: "only limit orders in this mock" };
    if (!/^\d+(\.\d+)?$/.test(String(input.amount)) || !/^\d+(\.\d+)?$/.test(String(input.price)))
      return { code: "order-limitorder-amount-min-error", msg: "limit order amount error" };
    const order: HtxMockOrder = {
      id: seq++,
      symbol: String(input.symbol),
      "account-id": Number(input["account-id"]),
      "client-order-id": String(input["client-order-id"] ?? ""),
      amount: String(input.amount),
      price: String(input.price),
      "created-at": now(),
      type: String(input.type),
      "field-amount": "0.0",
      "field-cash-amount": "0.0",
      "field-fees": "0.0",
      "finished-at": 0,
      source: "spot-api",
      state: "submitted",
      "canceled-at": 0,
    };
    orders.set(String(order.id), order);
    return order;
  }
  const isOpen = (o: HtxMockOrder) => o.state === "submitted" || o.state === "partial-filled" || o.state === "created";
  const cancel = (o: HtxMockOrder) => {
    o.state = "canceled";
    o["canceled-at"] = now();
  };

  server.intercept((req) => {
    const denied = verify(req);
    if (denied) return denied;
    let m = /^\/v1\/order\/orders\/(\d+)\/submitcancel$/.exec(req.path);
    if (m && req.method === "POST") {
      const order = orders.get(m[1]!);
      if (!order) return error("base-record-invalid", "record invalid");
      if (!isOpen(order)) return error("order-orderstate-error", "the order state is error");
      cancel(order);
      return ok(m[1]);
    }
    m = /^\/v1\/order\/orders\/(\d+)$/.exec(req.path);
    if (m && req.method === "GET") {
      const order = orders.get(m[1]!);
      return order ? ok(order) : error("base-record-invalid", "record invalid");
    }
    m = /^\/v1\/account\/accounts\/(\d+)\/balance$/.exec(req.path);
    if (m && req.method === "GET") {
      if (Number(m[1]) !== mock.spotAccount)
        return error("account-frozen-account-inexistent-error", "account not found");
      return ok({
        id: mock.spotAccount,
        type: "spot",
        state: "working",
        list: [
          { currency: "usdt", type: "trade", balance: "91.850043797676510303", "seq-num": "477" },
          { currency: "usdt", type: "frozen", balance: "5.160000000000000015", "seq-num": "477" },
          { currency: "poly", type: "trade", balance: "0.04", "seq-num": "2" },
          { currency: "poly", type: "frozen", balance: "0", "seq-num": "2" },
          { currency: "ht", type: "trade", balance: "0", "seq-num": "1" },
          { currency: "ht", type: "frozen", balance: "0", "seq-num": "1" },
        ],
      });
    }
    return undefined;
  });

  server.on("GET /v1/account/accounts", () =>
    ok([
      { id: 100010, type: "otc", subtype: "", state: "working" },
      ...(mock.spotAccount === undefined
        ? []
        : [{ id: mock.spotAccount, type: "spot", subtype: "", state: "working" }]),
    ]),
  );
  server.on("POST /v1/order/orders/place", (req) => {
    const result = place(JSON.parse(req.body));
    if ("code" in result) return error(result.code, result.msg);
    const d = delayCreateMs;
    delayCreateMs = 0;
    return ok(String(result.id), d);
  });
  server.on("POST /v1/order/batch-orders", (req) => {
    const list = JSON.parse(req.body) as Record<string, unknown>[];
    if (list.length > 10) return error("invalid-parameter", "batch size exceeds 10");
    const refuse = refusal;
    refusal = undefined;
    return ok(
      list.map((item, index) => {
        const result = refuse?.index === index ? { code: refuse.code, msg: refuse.msg } : place(item);
        return "code" in result
          ? { "client-order-id": item["client-order-id"], "err-code": result.code, "err-msg": result.msg }
          : { "order-id": result.id, "client-order-id": result["client-order-id"] };
      }),
    );
  });
  server.on("POST /v1/order/orders/batchcancel", (req) => {
    const ids = (JSON.parse(req.body) as { "order-ids": string[] })["order-ids"];
    if (ids.length > 50) return error("invalid-parameter", "order-ids size exceeds 50");
    const success: string[] = [];
    const failed: unknown[] = [];
    for (const id of ids) {
      const order = orders.get(id);
      if (order && isOpen(order)) {
        cancel(order);
        success.push(id);
      } else if (order)
        failed.push({
          "err-msg": "Incorrect order state",
          "order-state": 7,
          "order-id": id,
          "err-code": "order-orderstate-error",
        });
      else failed.push({ "err-msg": "The record is not found.", "order-id": id, "err-code": "base-not-found" });
    }
    return ok({ success, failed });
  });
  server.on("POST /v1/order/orders/batchCancelOpenOrders", (req) => {
    const input = JSON.parse(req.body) as { "account-id": string; symbol?: string; size?: number | string };
    if (String(input["account-id"]) !== String(mock.spotAccount))
      return error("invalid-parameter", "account-id invalid");
    // Docs: size [1, 100], default 100; next-id is the next order still open, -1 when none is.
    const size = Number(input.size ?? 100);
    if (!(size >= 1 && size <= 100)) return error("invalid-parameter", "size invalid");
    const open = [...orders.values()].filter(
      (o) => isOpen(o) && (!input.symbol || input.symbol.split(",").includes(o.symbol)),
    );
    for (const o of open.slice(0, size)) cancel(o);
    const next = open[size];
    return ok({ "success-count": Math.min(size, open.length), "failed-count": 0, "next-id": next ? next.id : -1 });
  });
  server.on("GET /v1/order/openOrders", (req) => {
    const q = Object.fromEntries(new URLSearchParams(req.query));
    if (q["account-id"] !== String(mock.spotAccount)) return error("invalid-parameter", "account-id invalid");
    return ok(
      [...orders.values()]
        .filter((o) => isOpen(o) && o.symbol === q.symbol)
        .map((o) => ({
          id: o.id,
          "client-order-id": o["client-order-id"],
          symbol: o.symbol,
          price: o.price,
          "created-at": o["created-at"],
          type: o.type,
          "filled-amount": o["field-amount"],
          "filled-cash-amount": o["field-cash-amount"],
          "filled-fees": o["field-fees"],
          source: o.source,
          state: o.state,
          amount: o.amount,
          "account-id": o["account-id"],
        })),
    );
  });
  server.on("GET /v1/order/orders/getClientOrder", (req) => {
    const q = Object.fromEntries(new URLSearchParams(req.query));
    const order = [...orders.values()].find((o) => o["client-order-id"] === q.clientOrderId);
    return order ? ok(order) : error("base-record-invalid", "record invalid");
  });

  return mock;
}
