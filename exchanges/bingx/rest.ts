import { z } from "zod";
import { toDecimalString } from "../../lib/decimal.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { id, notPlacedMessage, num, parseAnswer, partlyPlaced } from "../core/answer.js";
import { finishPairs, minimum, stepText, stepValue } from "../core/pair-list.js";
import { encodeQueryValue, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Hex } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import { isCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { BINGX_CODE, BINGX_ERRORS } from "./info.js";

export { BINGX_CODE, BINGX_ERRORS };

/**
 * BingX spot v1 (https://bingx-api.github.io/docs/#/en-us/spot/authentication.html): header
 * X-BX-APIKEY; `signature` = hex HMAC-SHA256 of the parameters spliced as `k=v&k=v` in the order
 * sent, with `timestamp` (ms) and `recvWindow` (5000, docs/exchange-rules.md#limits) among them. BingX signs the
 * ORIGINAL values and wants each value URL-encoded on the wire (its "URL encoding scenario": the
 * batch `data` JSON), so the signed string and the sent query differ only by that encoding.
 * Every parameter travels in the query string, POST included; the body stays empty.
 * Answers are {code, msg, debugMsg, data}; code 0 is success (docs/exchange-rules.md#errors).
 */
export const BINGX_BASE_URL = "https://open-api.bingx.com";
export const BINGX_RECV_WINDOW = 5000;

export const BINGX_PATHS = {
  order: "/openApi/spot/v1/trade/order",
  batchOrders: "/openApi/spot/v1/trade/batchOrders",
  cancel: "/openApi/spot/v1/trade/cancel",
  cancelOrders: "/openApi/spot/v1/trade/cancelOrders",
  cancelOpenOrders: "/openApi/spot/v1/trade/cancelOpenOrders",
  query: "/openApi/spot/v1/trade/query",
  openOrders: "/openApi/spot/v1/trade/openOrders",
  balance: "/openApi/spot/v1/account/balance",
  symbols: "/openApi/spot/v1/common/symbols",
} as const;

/** 100410 says when the endpoint reopens: "will be unblocked after 1727193814249" / "can retry after time: 1727193970155". */
const UNBLOCKED_AT = /(?:unblocked after|retry after time:?)\s*(\d{13})/i;

type Params = Record<string, string | number | undefined>;

/** hex HMAC-SHA256 of the spliced parameter string (the docs' Signature Description). */
export function bingxSignature(secret: string, parameters: string): string {
  return hmacSha256Hex(secret, parameters);
}

/**
 * Builds the signed query: the string signed holds the original values, the string sent holds
 * them URL-encoded (keys and timestamp never need it), followed by `&signature=`.
 */
export function bingxSignedQuery(secret: string, params: Params, timestamp: number): string {
  let signed = "";
  let sent = "";
  for (const key in params) {
    const value = params[key];
    if (value === undefined) continue;
    const text = String(value);
    signed += `${key}=${text}&`;
    sent += `${key}=${encodeQueryValue(text)}&`;
  }
  const tail = `timestamp=${timestamp}&recvWindow=${BINGX_RECV_WINDOW}`;
  return `${sent}${tail}&signature=${bingxSignature(secret, signed + tail)}`;
}

export function bingxSignedRequest(
  credentials: Pick<Credentials, "api" | "secret">,
  timestamp: number,
  method: HttpMethod,
  path: string,
  params: Params = {},
): HttpRequest {
  return {
    method,
    path,
    query: bingxSignedQuery(credentials.secret, params, timestamp),
    body: "",
    headers: { "X-BX-APIKEY": credentials.api },
  };
}

/** The order object of /trade/query, /openOrders, /order, /cancel (fields we read). */
const BingxOrderSchema = z.object({
  symbol: z.string().optional(),
  orderId: id,
  price: num.optional(),
  origQty: num.optional(),
  executedQty: num.optional(),
  status: z.string().optional(),
  type: z.string().optional(),
  side: z.string(),
  time: num.optional(),
  transactTime: num.optional(),
  clientOrderID: z.string().nullable().optional(),
  // Some BingX answers spell it clientOrderId.
  clientOrderId: z.string().nullable().optional(),
});

const EnvelopeSchema = z.object({
  code: num,
  msg: z.string().optional(),
  data: z.unknown().optional(),
});

/** "Spot trading symbols" (GET /openApi/spot/v1/common/symbols): data.symbols, the fields we read. */
const SymbolsSchema = z.object({
  symbols: z.array(
    z.object({
      symbol: z.string(),
      tickSize: stepValue,
      stepSize: stepValue,
      minQty: stepValue.optional(),
      minNotional: stepValue.optional(),
      status: z.union([z.number(), z.string()]),
      apiStateBuy: z.boolean().optional(),
      apiStateSell: z.boolean().optional(),
    }),
  ),
});
/** "status: 0 offline, 1 online, 5 pre-open, 25 trading suspended". */
const BINGX_ONLINE = "1";

const OrdersSchema = z.object({ orders: z.array(z.unknown()).nullable().optional() });

export function parseBingxOrder(raw: unknown, pair: string): Order {
  const o = parseAnswer("bingx", BingxOrderSchema, raw);
  const order: Order = {
    pair,
    id: o.orderId,
    clientOrderId: o.clientOrderID || o.clientOrderId || "",
    price: toDecimalString(o.price),
    amount: toDecimalString(o.origQty),
    filled: toDecimalString(o.executedQty),
    type: (o.type ?? "LIMIT").toLowerCase(),
    side: parseSide(o.side),
    status: normalizeStatus("bingx", o.status),
    timestamp: toMillis(o.time ?? o.transactTime),
  };
  if (o.status !== undefined) order.rawStatus = o.status;
  return order;
}

export function parseBingxBalances(data: unknown): Balances {
  const { balances } = parseAnswer(
    "bingx",
    z.object({
      balances: z
        .array(z.object({ asset: z.string(), free: num, locked: num }))
        .nullable()
        .optional(),
    }),
    data,
  );
  return collectBalances((balances ?? []).map((b) => ({ currency: b.asset, free: b.free, locked: b.locked })));
}

export class BingxAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions = {}) {
    // newClientOrderId: "letters, numbers and _, 1 to 40 characters" — 32 hex fit (docs/decisions.md#d11).
    super("bingx", credentials, options, {
      baseUrl: BINGX_BASE_URL,
    });
  }

  private async call(method: HttpMethod, path: string, params: Params = {}): Promise<unknown> {
    return this.unwrap(await this.sendJson(bingxSignedRequest(this.credentials, this.now(), method, path, params)));
  }

  /** {code, msg, data}: code 0 is success. */
  protected unwrap(response: JsonResponse): unknown {
    const parsed = EnvelopeSchema.safeParse(response.json);
    if (!parsed.success)
      throw this.fail(undefined, `Unexpected answer (HTTP ${response.status})`, response.status, response.headers);
    const { code, msg = "" } = parsed.data;
    if (isCode(code, 0) && response.status < 400) return parsed.data.data;
    throw this.fail(code, msg || `HTTP ${response.status}`, response.status, response.headers, {
      retryAfterMs: this.unblockedIn(msg),
    });
  }

  private unblockedIn(msg: string): number | undefined {
    const at = UNBLOCKED_AT.exec(msg);
    return at ? Math.max(0, Number(at[1]) - this.now()) : undefined;
  }

  private symbol(pair: string): string {
    return exchangeSymbol(pair, "-");
  }

  private limitParams(order: OrderToPlace): Record<string, string> {
    return {
      symbol: this.symbol(order.pair),
      side: order.side === "Buy" ? "BUY" : "SELL",
      type: "LIMIT",
      quantity: order.amount,
      price: order.price,
      newClientOrderId: order.clientOrderId,
      // docs/exchange-rules.md "Post-only": maker only is a time in force
      timeInForce: order.postOnly ? "PostOnly" : "GTC",
    };
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    const placed = parseBingxOrder(await this.call("POST", BINGX_PATHS.order, this.limitParams(order)), order.pair);
    return {
      ...placed,
      clientOrderId: placed.clientOrderId || order.clientOrderId,
      timestamp: placed.timestamp || this.now(),
    };
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.unlessNotFound(async () =>
      parseBingxOrder(
        await this.call("GET", BINGX_PATHS.query, { symbol: this.symbol(pair), clientOrderID: clientOrderId }),
        pair,
      ),
    );
  }

  protected async submitBatch(pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    // sync=true: the orders may differ in side (BingX's parallel mode wants one symbol/side/type).
    const data = JSON.stringify(orders.map((o) => this.limitParams(o)));
    const answer = this.parse(OrdersSchema, await this.call("POST", BINGX_PATHS.batchOrders, { data, sync: "true" }));
    const placed = (answer.orders ?? []).map((raw) => parseBingxOrder(raw, pair));
    const byClientId = new Map(placed.map((o) => [o.clientOrderId, o]));
    const results = orders.map((order, i) => {
      const found = byClientId.get(order.clientOrderId) ?? (placed.length === orders.length ? placed[i] : undefined);
      return found
        ? {
            ...found,
            clientOrderId: found.clientOrderId || order.clientOrderId,
            timestamp: found.timestamp || this.now(),
          }
        : undefined;
    });
    const taken = results.filter((o): o is Order => o !== undefined);
    if (taken.length < orders.length) {
      // Fewer orders than items (a full answer always matches by position): those it names were
      // placed, the others not (docs/orders.md "Partly placed batches").
      throw partlyPlaced(
        this.fail(undefined, notPlacedMessage({ placed: placed.length, total: orders.length })),
        placed,
      );
    }
    return taken;
  }

  protected async submitCancel(pair: string, id: string): Promise<string> {
    return this.parse(
      BingxOrderSchema,
      await this.call("POST", BINGX_PATHS.cancel, { symbol: this.symbol(pair), orderId: id }),
    ).orderId;
  }

  protected async submitCancelBatch(pair: string, ids: string[]): Promise<string[]> {
    // process=0 (the default): one invalid id fails the whole call, so nothing is half done silently.
    const data = await this.call("POST", BINGX_PATHS.cancelOrders, {
      symbol: this.symbol(pair),
      orderIds: ids.join(","),
    });
    const answer = this.parse(
      z.object({
        success: z.array(z.unknown()).nullable().optional(),
        orders: z.array(z.unknown()).nullable().optional(),
      }),
      data ?? {},
    );
    // Only an answer that names no list stands for "all of them"; an empty success list (the others
    // in `failed`) cancelled none, and the caller names them (docs/orders.md "Cancels").
    const canceled = answer.success ?? answer.orders;
    return canceled ? canceled.map((raw) => this.parse(BingxOrderSchema, raw).orderId) : ids;
  }

  protected async submitCancelAll(pair: string): Promise<string[]> {
    const answer = this.parse(
      OrdersSchema,
      (await this.call("POST", BINGX_PATHS.cancelOpenOrders, { symbol: this.symbol(pair) })) ?? {},
    );
    return (answer.orders ?? []).map((raw) => this.parse(BingxOrderSchema, raw).orderId);
  }

  async fetchOrder(pair: string, id: string): Promise<Order> {
    const p = this.pairOf(pair);
    return parseBingxOrder(
      await this.call("GET", BINGX_PATHS.query, { symbol: this.symbol(p), orderId: this.orderId(id) }),
      p,
    );
  }

  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = this.pairOf(pair);
    const answer = this.parse(
      OrdersSchema,
      (await this.call("GET", BINGX_PATHS.openOrders, { symbol: this.symbol(p) })) ?? {},
    );
    return (answer.orders ?? []).map((raw) => parseBingxOrder(raw, p));
  }

  /**
   * docs/exchange-rules.md#pairs: "Spot trading symbols", public (its timestamp parameter, no
   * signature). Kept: status 1 (online) and open to API orders on at least one side; the symbol
   * BASE-QUOTE gives the pair, tickSize and stepSize the tick and lot, minQty and minNotional the
   * minimums.
   */
  async fetchPairs(): Promise<PairSpec[]> {
    const data = this.unwrap(await this.publicGet(BINGX_PATHS.symbols, { timestamp: this.now() }));
    return finishPairs(
      this.parse(SymbolsSchema, data, "data")
        .symbols.filter(
          (s) => String(s.status) === BINGX_ONLINE && (s.apiStateBuy !== false || s.apiStateSell !== false),
        )
        .map((s) => {
          const parts = s.symbol.split("-");
          // Stryker disable next-line StringLiteral: split gives at least one part, and a quote "Stryker was here!" is no pair finishPairs can write either
          const [base = "", quote = ""] = parts;
          return {
            base,
            quote,
            tick: stepText(s.tickSize),
            lot: stepText(s.stepSize),
            minAmount: minimum(s.minQty),
            minNotional: minimum(s.minNotional),
          };
        }),
    );
  }

  async fetchBalances(): Promise<Balances> {
    return parseBingxBalances((await this.call("GET", BINGX_PATHS.balance)) ?? {});
  }
}

export function createBingxExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new BingxAdapter(credentials, options);
}
