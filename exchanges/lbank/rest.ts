import * as crypto from "node:crypto";
import { z } from "zod";
import { toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { id, num, parseAnswer } from "../core/answer.js";
import { collectPages } from "../core/pages.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepValue } from "../core/pair-list.js";
import { encodeQueryValue, type HttpRequest } from "../core/rest.js";
import { normalizeStatus } from "../core/status.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { LBANK_CODE, LBANK_ERRORS, LBANK_INFO } from "./info.js";

export { LBANK_CODE, LBANK_ERRORS };

/**
 * LBank spot v2, checked against the official docs (www.lbank.com/en-US/docs, "Authentication",
 * "Spot Trading Endpoints", "Error code") and the official connectors (LBank-exchange/
 * lbank-connector-java RequestHandler/HmacSignatureGenerator, lbank-connector-nodejs APIBase):
 * every private call is a form-encoded POST. The endpoint's parameters plus api_key, timestamp (ms),
 * signature_method=HmacSHA256 and echostr (30–40 letters or digits) are sorted by name and joined as
 * k=v&…; the MD5 hex digest of that string, upper-cased, is signed with HMAC-SHA256 (hex) — docs/exchange-rules.md
 * docs/exchange-rules.md#calls "lbank signs an MD5 digest". timestamp, signature_method and echostr travel as HEADERS; the form
 * body carries only the endpoint's parameters, api_key and sign (the docs' "Submit" step).
 * The server refuses a timestamp older than 5000 ms or more than 1 s ahead (docs, "window").
 */
export const LBANK_BASE_URL = "https://api.lbkex.com";

export const LBANK_PATHS = {
  createOrder: "/v2/supplement/create_order.do",
  cancelOrder: "/v2/supplement/cancel_order.do",
  cancelBySymbol: "/v2/supplement/cancel_order_by_symbol.do",
  ordersInfo: "/v2/supplement/orders_info.do",
  openOrders: "/v2/supplement/orders_info_no_deal.do",
  account: "/v2/supplement/user_info_account.do",
  accuracy: "/v2/accuracy.do",
} as const;

/**
 * 32 random alphanumerics (LBank: echostr of 30 to 40 letters and digits). Drawn from a pool of
 * random bytes refilled 256 echostrs at a time: one randomBytes call per request cost as much as
 * building the rest of the request.
 */
const ECHOSTR_BYTES = 16;
let echostrPool = Buffer.alloc(0);
let echostrOffset = 0;
export function lbankEchostr(): string {
  if (echostrOffset + ECHOSTR_BYTES > echostrPool.length) {
    echostrPool = crypto.randomBytes(ECHOSTR_BYTES * 256);
    echostrOffset = 0;
  }
  const echostr = echostrPool.toString("hex", echostrOffset, echostrOffset + ECHOSTR_BYTES);
  echostrOffset += ECHOSTR_BYTES;
  return echostr;
}

/** The string LBank digests from a set of parameters: sorted by name, k=v joined with '&' (lbankSignedRequest builds it in one pass). */
export function lbankParamString(params: Record<string, string>): string {
  return Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join("&");
}

// One-shot MD5 (node:crypto `hash`, Node >= 20.12) skips a Hash object per request; older Node
// falls back to createHash. Same digest either way.
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: "hex") => string }).hash;
function md5Hex(payload: string): string {
  return oneShotHash ? oneShotHash("md5", payload, "hex") : crypto.createHash("md5").update(payload).digest("hex");
}

// The secret imported once as a KeyObject (createHmac with a text key converts it on every call); one
// entry, since a process signs for one account at a time, and a new secret replaces it.
let hmacKey: { secret: string; key: crypto.KeyObject } | undefined;

/** HMAC-SHA256 hex of the upper-cased MD5 hex digest of the sorted parameter string. */
export function lbankSignature(secret: string, paramString: string): string {
  if (hmacKey?.secret !== secret) hmacKey = { secret, key: crypto.createSecretKey(Buffer.from(secret)) };
  return crypto.createHmac("sha256", hmacKey.key).update(md5Hex(paramString).toUpperCase()).digest("hex");
}

/** api_key, echostr, signature_method, timestamp: sorted by name. */
const ADDED_NAMES: readonly string[] = ["api_key", "echostr", "signature_method", "timestamp"];

/**
 * Builds one signed request exactly as it goes on the wire: the signed string covers the endpoint's
 * parameters and the four added names, sorted by name; the form body is the endpoint's parameters,
 * api_key and sign; timestamp, signature_method and echostr are headers. A caller's `sign` or added
 * name is dropped: LBank's own value is the one signed.
 */
export function lbankSignedRequest(
  credentials: Credentials,
  nowMs: number,
  path: string,
  params: Record<string, string> = {},
  echostr = lbankEchostr(),
): HttpRequest {
  // The caller's keys are sorted alone and the four added names merged in: the same order as sorting
  // all of them, at less cost per request (docs/mutation.md, group B).
  const timestamp = String(nowMs);
  const added = [credentials.api, echostr, "HmacSHA256", timestamp];
  const keys = Object.keys(params)
    .filter((k) => !ADDED_NAMES.includes(k) && k !== "sign")
    .sort();
  let signed = "";
  let body = "";
  let a = 0;
  let k = 0;
  while (a < 4 || k < keys.length) {
    const own = keys[k];
    let name: string;
    let value: string;
    // Past the four, ADDED_NAMES[a] is undefined, and `undefined < own` is false: the caller's keys follow.
    if (
      own === undefined ||
      // Stryker disable next-line EqualityOperator: no caller's key equals an added name (filtered above), so `<=` orders as `<`
      ADDED_NAMES[a]! < own
    ) {
      name = ADDED_NAMES[a]!;
      value = added[a++]!;
    } else {
      name = own;
      value = params[own]!;
      k++;
    }
    signed += signed === "" ? `${name}=${value}` : `&${name}=${value}`;
    // timestamp, signature_method and echostr are headers, not form fields
    if (name === "echostr" || name === "signature_method" || name === "timestamp") continue;
    const field = `${name}=${encodeQueryValue(value)}`;
    body += body === "" ? field : `&${field}`;
  }
  return {
    method: "POST",
    path,
    query: "",
    body: `${body}&sign=${lbankSignature(credentials.secret, signed)}`,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      timestamp,
      signature_method: "HmacSHA256",
      echostr,
    },
  };
}

/** The supplement order object of orders_info, orders_info_no_deal and cancel answers. */
const LbankOrderSchema = z.object({
  symbol: z.string(),
  orderId: id,
  clientOrderId: z.string().nullable().optional(),
  price: num.optional(),
  origQty: num.optional(),
  executedQty: num.optional(),
  status: num,
  type: z.string().optional(),
  tradeType: z.string().optional(),
  time: num.optional(),
  updateTime: num.optional(),
});

/**
 * orders_info_no_deal answers {total, page_length, current_page, orders} (LBank's recorded answers);
 * the docs' return example shows the orders array alone: both are read.
 */
const OpenOrdersSchema = z.union([
  z.array(z.unknown()).transform((orders) => ({ total: undefined, orders })),
  z.object({ total: num.optional(), orders: z.array(z.unknown()).nullable().optional() }),
]);

export function parseLbankOpenOrders(data: unknown): { orders: Order[]; total: number | undefined } {
  const page = parseAnswer("lbank", OpenOrdersSchema, data ?? {});
  return {
    orders: (page.orders ?? []).map(parseLbankOrder),
    total: page.total === undefined ? undefined : Number(page.total),
  };
}

const AccountSchema = z.object({ balances: z.array(z.object({ asset: z.string(), free: num, locked: num })) });

/** btc_usdt → BTC/USDT. */
function pairOfSymbol(symbol: string): string {
  return symbol.replace("_", "/").toUpperCase();
}

/**
 * docs/exchange-rules.md#states: lbank's numeric statuses (-1, 3, 4 canceled; 0, 1 open; 2 closed) through
 * exchanges/core/status.ts. The side is written into `type` (buy, sell_maker, …).
 */
export function parseLbankOrder(raw: unknown): Order {
  const order = parseAnswer("lbank", LbankOrderSchema, raw);
  // LBank writes the side and the type in one word: buy, sell, buy_maker, sell_ioc, …
  const kind = order.type ?? order.tradeType ?? "buy";
  const cut = kind.indexOf("_");
  return {
    pair: pairOfSymbol(order.symbol),
    id: order.orderId,
    clientOrderId: order.clientOrderId ?? "",
    price: toDecimalString(order.price),
    amount: toDecimalString(order.origQty),
    filled: toDecimalString(order.executedQty),
    type: (cut === -1 ? "" : kind.slice(cut + 1)) || "limit",
    side: parseSide(cut === -1 ? kind : kind.slice(0, cut)),
    status: normalizeStatus("lbank", String(order.status)),
    timestamp: toMillis(order.time),
  };
}

export function parseLbankBalances(raw: unknown): Balances {
  return collectBalances(
    parseAnswer("lbank", AccountSchema, raw).balances.map((b) => ({
      currency: b.asset,
      free: b.free,
      locked: b.locked,
    })),
  );
}

export class LbankAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions) {
    super("lbank", credentials, options, {
      baseUrl: LBANK_BASE_URL,
    });
  }

  /** docs/exchange-rules.md#errors: success is result true; result false carries error_code and msg. */
  private async call(path: string, params: Record<string, string> = {}): Promise<unknown> {
    return this.unwrap(await this.sendJson(lbankSignedRequest(this.credentials, this.now(), path, params)));
  }

  /** {result: true, data} on success, {result: false, error_code, msg} on failure. */
  protected unwrap(response: JsonResponse): unknown {
    const json = (response.json ?? {}) as { result?: unknown; data?: unknown; error_code?: unknown; msg?: unknown };
    const ok = json.result === true || json.result === "true";
    if (ok && response.status < 400) return json.data;
    const code =
      typeof json.error_code === "number" || typeof json.error_code === "string" ? json.error_code : undefined;
    const msg = typeof json.msg === "string" && json.msg ? json.msg : `HTTP ${response.status}`;
    throw this.fail(code, msg, response.status, response.headers, {
      detail: code !== undefined ? `${msg} (error_code ${code})` : msg,
    });
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "_", true);
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    // type buy / sell is LBank's limit order; it rests until filled or canceled (good-till-cancel).
    const data = this.parse(
      z.object({ order_id: id }),
      await this.call(LBANK_PATHS.createOrder, {
        symbol: this.symbol(order.pair),
        // docs/exchange-rules.md "Post-only": buy_maker / sell_maker are maker only
        type: `${order.side === "Buy" ? "buy" : "sell"}${order.postOnly ? "_maker" : ""}`,
        price: order.price,
        amount: order.amount,
        custom_id: order.clientOrderId,
      }),
    );
    return this.placed(order, data.order_id);
  }

  /** orders_info.do takes the user-defined id as origClientOrderId (docs "Query order"). */
  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.unlessNotFound(async () => {
      const data = await this.call(LBANK_PATHS.ordersInfo, {
        symbol: this.symbol(pair),
        origClientOrderId: clientOrderId,
      });
      return data === null || data === undefined ? undefined : parseLbankOrder(data);
    });
  }

  // docs/exchange-rules.md#limits: no batch create or cancel on lbank. The base refuses both before any
  // request (tested through createBatch and cancelBatch), so these two are never called; each still
  // refuses should the limits table change (docs/mutation.md "Group B ignore list").
  // Stryker disable all: never called, see above
  protected async submitBatch(): Promise<Order[]> {
    throw new ExchangeError("lbank", "Not supported for lbank", { kind: "unsupported" });
  }

  protected async submitCancelBatch(): Promise<string[]> {
    throw new ExchangeError("lbank", "Not supported for lbank", { kind: "unsupported" });
  }
  // Stryker restore all

  protected async submitCancel(pair: string, orderId: string): Promise<string> {
    const data = await this.call(LBANK_PATHS.cancelOrder, { symbol: this.symbol(pair), orderId });
    return z.object({ orderId: id }).safeParse(data).data?.orderId ?? orderId;
  }

  protected async submitCancelAll(pair: string): Promise<string[]> {
    const data = await this.call(LBANK_PATHS.cancelBySymbol, { symbol: this.symbol(pair) });
    return this.parse(z.array(z.object({ orderId: id }).passthrough()).catch([]), data).map((o) => o.orderId);
  }

  async fetchOrder(pair: string, orderId: string): Promise<Order> {
    const data = await this.call(LBANK_PATHS.ordersInfo, {
      symbol: this.symbol(this.pairOf(pair)),
      orderId: this.orderId(orderId),
    });
    if (data === null || data === undefined)
      throw new ExchangeError("lbank", `Order ${orderId} not found`, { kind: "order-not-found" });
    return parseLbankOrder(data);
  }

  /**
   * docs/decisions.md#d10: the page size is the open-orders limit (200, LBank's maximum); pages past
   * it (docs/exchange-rules.md#paging), until a short page or the total LBank counts.
   */
  async fetchOpenOrders(pair: string): Promise<Order[]> {
    // Stryker disable next-line LogicalOperator: the limit is set (200), so `??` and `&&` both give it
    const pageLength = LBANK_INFO.limits.openOrders ?? 200;
    let read = 0;
    return collectPages(
      "lbank",
      "open orders",
      (o) => o.id,
      async (index) => {
        const data = parseLbankOpenOrders(
          await this.call(LBANK_PATHS.openOrders, {
            symbol: this.symbol(this.pairOf(pair)),
            current_page: String(index + 1),
            page_length: String(pageLength),
          }),
        );
        read += data.orders.length;
        return { items: data.orders, more: data.orders.length === pageLength && read < (data.total ?? read) };
      },
    );
  }

  async fetchBalances(): Promise<Balances> {
    return parseLbankBalances(await this.call(LBANK_PATHS.account));
  }

  /** docs/exchange-rules.md#pairs: the public accuracy list (market data: a GET without key or signature). */
  async fetchPairs(): Promise<PairSpec[]> {
    return parseLbankPairs(this.unwrap(await this.publicGet(LBANK_PATHS.accuracy)));
  }
}

export function createLbankExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new LbankAdapter(credentials, options);
}

/**
 * GET /v2/accuracy.do, "accuracy information of all trading pairs": symbol base_quote,
 * priceAccuracy and quantityAccuracy (decimal places), minTranQua (the smallest order quantity).
 * LBank lists the pairs it trades and gives them no status field: every row is kept.
 */
const LbankAccuracySchema = z.array(
  z.object({
    symbol: z.string(),
    priceAccuracy: precisionDigits,
    quantityAccuracy: precisionDigits,
    minTranQua: stepValue.optional(),
  }),
);

/** docs/exchange-rules.md#pairs: tick 10^-priceAccuracy, lot 10^-quantityAccuracy, minAmount minTranQua. */
export function parseLbankPairs(raw: unknown): PairSpec[] {
  return finishPairs(
    parseAnswer("lbank", LbankAccuracySchema, raw, "data").map((row) => {
      // a symbol other than base_quote is no pair we can write: finishPairs leaves it out
      const parts = row.symbol.split("_");
      // Stryker disable next-line StringLiteral: split gives at least one part, and a quote "Stryker was here!" is no pair finishPairs can write either
      const [base = "", quote = "", ...more] = parts;
      return {
        // Stryker disable next-line StringLiteral: a base "Stryker was here!" is no pair finishPairs can write either
        base: more.length ? "" : base,
        quote,
        tick: digitsToStep(row.priceAccuracy),
        lot: digitsToStep(row.quantityAccuracy),
        minAmount: minimum(row.minTranQua),
      };
    }),
  );
}
