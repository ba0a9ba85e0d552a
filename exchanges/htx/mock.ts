import { createHmac } from "node:crypto";
import {
  type FakeExchange,
  type FakeParams,
  FakeRefusal,
  type PageSize,
  refuse,
  startFakeExchange,
} from "../core/testing/fake-exchange.js";
import { type MockReply, type MockServer, parseQuery, type ReceivedRequest } from "../core/testing/http-mock.js";

/**
 * An HTX spot v1 mock on the fake exchange (exchanges/core/testing/fake-exchange.ts). It verifies
 * every private request the way HTX documents signature version 2: AccessKeyId,
 * SignatureMethod=HmacSHA256, SignatureVersion=2, Timestamp (UTC YYYY-MM-DDThh:mm:ss, within 5
 * minutes) in the query; it re-sorts the received parameters by ASCII, re-encodes them and checks
 * Signature = base64 HMAC-SHA256 over "METHOD\nhost\npath\nquery", with the Host the request
 * arrived on. Answers use {status: "ok", data}; errors {status: "error", "err-code", "err-msg", data: null}.
 *
 * Every call checks the parameters HTX documents as required (account-id, symbol, type, amount and
 * the price of a limit order, per item of a batch too; order-ids or client-order-ids on a batch
 * cancel; account-id on cancel-all; account-id and symbol on the open orders; clientOrderId on the
 * lookup by client id) and answers validation-constraints-required "Field is missing: …" otherwise.
 * Open orders come newest first in pages of `size` (default 100, at most 500) from the order id in
 * `from`, with `direct` next (older) or prev (newer).
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
  /** the fake underneath */
  fake: FakeExchange;
  close(): Promise<void>;
}

/**
 * GET /v1/common/symbols as HTX answers it (data rows in its documented fields): three online
 * symbols with odd precisions, one online but closed to API trading, one suspended and one not
 * yet open.
 */
export const HTX_MOCK_SYMBOLS = [
  {
    "base-currency": "eth",
    "quote-currency": "usdt",
    "price-precision": 2,
    "amount-precision": 4,
    "symbol-partition": "main",
    symbol: "ethusdt",
    state: "online",
    "value-precision": 8,
    "min-order-amt": 0.001,
    "max-order-amt": 10000,
    "min-order-value": 5,
    "limit-order-min-order-amt": 0.001,
    "limit-order-max-order-amt": 10000,
    "sell-market-min-order-amt": 0.001,
    "sell-market-max-order-amt": 1000,
    "buy-market-max-order-value": 1000000,
    "api-trading": "enabled",
    tags: "",
  },
  {
    "base-currency": "btc",
    "quote-currency": "usdt",
    "price-precision": 2,
    "amount-precision": 6,
    "symbol-partition": "main",
    symbol: "btcusdt",
    state: "online",
    "value-precision": 8,
    "min-order-amt": 0.0001,
    "max-order-amt": 1000,
    "min-order-value": 5,
    "limit-order-min-order-amt": 0.0001,
    "limit-order-max-order-amt": 1000,
    "sell-market-min-order-amt": 0.0001,
    "sell-market-max-order-amt": 100,
    "buy-market-max-order-value": 1000000,
    "api-trading": "enabled",
    tags: "",
  },
  {
    "base-currency": "shib",
    "quote-currency": "usdt",
    "price-precision": 10,
    "amount-precision": 0,
    "symbol-partition": "innovation",
    symbol: "shibusdt",
    state: "online",
    "value-precision": 8,
    "min-order-amt": 100000,
    "max-order-amt": 1000000000000,
    "min-order-value": 1,
    "limit-order-min-order-amt": 100000,
    "limit-order-max-order-amt": 1000000000000,
    "api-trading": "enabled",
    tags: "",
  },
  {
    "base-currency": "ht",
    "quote-currency": "usdt",
    "price-precision": 4,
    "amount-precision": 2,
    "symbol-partition": "main",
    symbol: "htusdt",
    state: "online",
    "value-precision": 8,
    "min-order-amt": 0.1,
    "min-order-value": 5,
    "limit-order-min-order-amt": 0.1,
    "api-trading": "disabled",
    tags: "",
  },
  {
    "base-currency": "lunc",
    "quote-currency": "usdt",
    "price-precision": 8,
    "amount-precision": 2,
    "symbol-partition": "innovation",
    symbol: "luncusdt",
    state: "suspend",
    "value-precision": 8,
    "min-order-amt": 1,
    "min-order-value": 1,
    "api-trading": "enabled",
    tags: "",
  },
  {
    "base-currency": "new",
    "quote-currency": "btc",
    "price-precision": 8,
    "amount-precision": 2,
    "symbol-partition": "innovation",
    symbol: "newbtc",
    state: "pre-online",
    "value-precision": 8,
    "min-order-amt": 1,
    "min-order-value": 0.0001,
    "api-trading": "disabled",
    tags: "",
  },
];

export const HTX_KEY = "e2xxxxxx-99xxxxxx-84xxxxxx-7xxxx";
export const HTX_SECRET = "htx-test-secret";

const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export async function startHtxMock(options: { now?: () => number } = {}): Promise<HtxMock> {
  const now = options.now ?? Date.now;
  const orders = new Map<string, HtxMockOrder>();
  let seq = 356501383558845;

  const error = (code: string, msg: string, status = 200): MockReply => ({
    status,
    body: { status: "error", "err-code": code, "err-msg": msg, data: null },
  });
  const invalid = (msg: string) => refuse("invalid-parameter", msg);

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
    return undefined;
  }

  function place(input: FakeParams): HtxMockOrder | { code: string; msg: string } {
    if (String(input["account-id"]) !== String(mock.spotAccount))
      return {
        code: "account-frozen-account-inexistent-error",
        msg: `account for id \`${String(input["account-id"])}\` and user id not found`,
      };
    // limit, or limit-maker: maker only (docs/exchange-rules.md "Post-only")
    if (!["buy-limit", "sell-limit", "buy-limit-maker", "sell-limit-maker"].includes(String(input.type)))
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
  const account = (params: FakeParams) => {
    if (String(params["account-id"]) !== String(mock.spotAccount)) throw invalid("account-id invalid");
  };
  /** Docs: size [1, max], its default when absent. */
  const size = (name: string, def: number, max: number): PageSize => ({
    name,
    default: def,
    max,
    invalid: { code: "invalid-parameter", msg: `${name} invalid` },
  });
  const readSize = (params: FakeParams, form: PageSize) => {
    const n = params[form.name] === undefined ? form.default : Number(params[form.name]);
    if (!Number.isInteger(n) || n < 1 || n > form.max) throw new FakeRefusal(form.invalid);
    return n;
  };

  // Place a New Order: account-id, symbol, type and amount are required; price for a limit order.
  const ORDER = ["account-id", "symbol", "type", "amount", "price"];
  const fake = await startFakeExchange({
    name: "htx",
    verify,
    // reference data: no signature (docs/exchange-rules.md#pairs)
    isPublic: (req) => req.method === "GET" && req.path === "/v1/common/symbols",
    // GET parameters travel in the signed query, POST parameters in the JSON body only
    params: (req) => (req.method === "GET" ? parseQuery(req.query) : (JSON.parse(req.body || "{}") as FakeParams)),
    envelope: {
      ok: (data) => ({ body: { status: "ok", data } }),
      error: (e) => error(String(e.code), e.msg, e.status),
    },
    rateLimited: () => ({
      status: 429,
      headers: { "x-hb-ratelimit-requests-remain": "0", "x-hb-ratelimit-requests-expire": String(now() + 1000) },
      body: { status: "error", "err-code": "api-request-too-frequent", "err-msg": "exceeded rate limit", data: null },
    }),
    missing: (name) => ({
      code: "validation-constraints-required",
      msg: `Field is missing: ${name.replace(/^\[\]\./, "")}.`,
    }),
    routes: {
      "GET /v1/common/symbols": { handle: () => HTX_MOCK_SYMBOLS },
      "GET /v1/account/accounts": {
        handle: () => [
          { id: 100010, type: "otc", subtype: "", state: "working" },
          ...(mock.spotAccount === undefined
            ? []
            : [{ id: mock.spotAccount, type: "spot", subtype: "", state: "working" }]),
        ],
      },
      "GET /v1/account/accounts/:account/balance": {
        handle: ({ path }) => {
          if (Number(path.account) !== mock.spotAccount)
            throw refuse("account-frozen-account-inexistent-error", "account not found");
          return {
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
          };
        },
      },
      "POST /v1/order/orders/place": {
        required: ORDER,
        create: true,
        handle: ({ params }) => {
          const result = place(params);
          if ("code" in result) throw refuse(result.code, result.msg);
          return String(result.id);
        },
      },
      "POST /v1/order/batch-orders": {
        required: ORDER.map((name) => `[].${name}`),
        handle: ({ params }) => {
          const list = params as unknown as FakeParams[];
          if (list.length > 10) throw invalid("batch size exceeds 10");
          const answer = list.map((item, index) => {
            const fault = fake.takeBatchFault(index);
            const result =
              fault && "refuse" in fault ? { code: String(fault.refuse.code), msg: fault.refuse.msg } : place(item);
            return "code" in result
              ? { "client-order-id": item["client-order-id"], "err-code": result.code, "err-msg": result.msg }
              : { "order-id": result.id, "client-order-id": result["client-order-id"] };
          });
          fake.endBatch();
          return answer;
        },
      },
      "POST /v1/order/orders/:id/submitcancel": {
        handle: ({ path }) => {
          const order = orders.get(path.id!);
          if (!order) throw refuse("base-record-invalid", "record invalid");
          if (!isOpen(order)) throw refuse("order-orderstate-error", "the order state is error");
          cancel(order);
          return path.id;
        },
      },
      "POST /v1/order/orders/batchcancel": {
        required: [["order-ids", "client-order-ids"]],
        handle: ({ params }) => {
          const ids = (params["order-ids"] ?? []) as string[];
          if (ids.length > 50) throw invalid("order-ids size exceeds 50");
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
          return { success, failed };
        },
      },
      "POST /v1/order/orders/batchCancelOpenOrders": {
        required: ["account-id"],
        handle: ({ params }) => {
          account(params);
          // Docs: size [1, 100], default 100; next-id is the next order still open, -1 when none is.
          const n = readSize(params, size("size", 100, 100));
          const symbols = params.symbol ? String(params.symbol).split(",") : undefined;
          const open = [...orders.values()].filter((o) => isOpen(o) && (!symbols || symbols.includes(o.symbol)));
          for (const o of open.slice(0, n)) cancel(o);
          const next = open[n];
          return { "success-count": Math.min(n, open.length), "failed-count": 0, "next-id": next ? next.id : -1 };
        },
      },
      "GET /v1/order/orders/getClientOrder": {
        required: ["clientOrderId"],
        handle: ({ params }) => {
          const order = [...orders.values()].find((o) => o["client-order-id"] === params.clientOrderId);
          if (!order) throw refuse("base-record-invalid", "record invalid");
          return order;
        },
      },
      "GET /v1/order/orders/:id": {
        handle: ({ path }) => {
          const order = orders.get(path.id!);
          if (!order) throw refuse("base-record-invalid", "record invalid");
          return order;
        },
      },
      "GET /v1/order/openOrders": {
        required: ["account-id", "symbol"],
        handle: ({ params }) => {
          account(params);
          const n = readSize(params, size("size", 100, 500));
          // newest first; from an order id, next walks to older orders and prev to newer ones
          let list = [...orders.values()]
            .filter((o) => isOpen(o) && o.symbol === params.symbol)
            .sort((a, b) => b.id - a.id);
          if (params.from !== undefined) {
            const from = Number(params.from);
            if (params.direct === "prev") list = list.filter((o) => o.id > from).slice(-n);
            else if (params.direct === "next") list = list.filter((o) => o.id < from);
            else throw invalid("direct is required with from");
          }
          return list.slice(0, n).map((o) => ({
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
          }));
        },
      },
    },
  });

  const mock: HtxMock = {
    server: fake.server,
    url: fake.url,
    orders,
    fake,
    spotAccount: 100009,
    delayNextCreate: (ms) => fake.delayNextCreate(ms),
    rateLimitNext: () => fake.rateLimitNext(),
    failNext(code, msg, status = 200) {
      fake.failNext({ code, msg, status });
    },
    refuseNextBatchItem(index, code, msg) {
      fake.refuseNextBatchItem(index, { code, msg });
    },
    close: () => fake.close(),
  };
  return mock;
}
