/**
 * bitget v2 spot (https://www.bitget.com/api-doc/spot/intro).
 *
 * Signing: ACCESS-SIGN = base64 HMAC-SHA256 of timestamp + METHOD + requestPath + ('?' + queryString
 * when there is one) + body, with ACCESS-KEY, ACCESS-TIMESTAMP (ms) and ACCESS-PASSPHRASE headers.
 * Success is code "00000" (the documented value; the seed's table says 0). A batch create with any
 * failed item fails with "Failure List: ..." (docs/exchange-rules.md#validation).
 */
import { z } from "zod";
import { Decimal, toDecimalString } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import { exchangeSymbol } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { collectBalances, type JsonResponse, type OrderToPlace, RestAdapter, toMillis } from "../core/adapter.js";
import { id, num, partlyPlaced } from "../core/answer.js";
import { collectPages } from "../core/pages.js";
import { digitsToStep, finishPairs, minimum, precisionDigits, stepValue } from "../core/pair-list.js";
import { buildQuery, type HttpMethod, type HttpRequest } from "../core/rest.js";
import { hmacSha256Base64 } from "../core/sign.js";
import { normalizeStatus } from "../core/status.js";
import { isCode } from "../core/success.js";
import type { ExchangeAdapter, ExchangeOptions, PairSpec } from "../types.js";
import { BITGET_CODES, BITGET_ERRORS } from "./info.js";

export { BITGET_CODES, BITGET_ERRORS };

export const BITGET_BASE_URL = "https://api.bitget.com";
export const BITGET_SUCCESS = "00000";

export const BITGET_PATHS = {
  placeOrder: "/api/v2/spot/trade/place-order",
  batchOrders: "/api/v2/spot/trade/batch-orders",
  cancelOrder: "/api/v2/spot/trade/cancel-order",
  batchCancel: "/api/v2/spot/trade/batch-cancel-order",
  cancelSymbol: "/api/v2/spot/trade/cancel-symbol-order",
  orderInfo: "/api/v2/spot/trade/orderInfo",
  unfilled: "/api/v2/spot/trade/unfilled-orders",
  assets: "/api/v2/spot/account/assets",
  symbols: "/api/v2/spot/public/symbols",
} as const;

/** bitget order of orderInfo / unfilled-orders; unfilled-orders names the order price `priceAvg`. */
const BitgetOrderSchema = z.object({
  orderId: id.optional(),
  clientOid: id.nullable().optional(),
  symbol: z.string().optional(),
  price: num.optional(),
  priceAvg: num.optional(),
  size: num.optional(),
  baseVolume: num.optional(),
  side: z.string().optional(),
  orderType: z.string().optional(),
  status: z.string().optional(),
  cTime: num.optional(),
});
type BitgetOrder = z.input<typeof BitgetOrderSchema>;

/** One pair of "Get Symbol Info" (GET /api/v2/spot/public/symbols; the fields we read). */
const BitgetSymbolsSchema = z.array(
  z.object({
    symbol: z.string(),
    baseCoin: z.string(),
    quoteCoin: z.string(),
    minTradeAmount: stepValue.optional(),
    pricePrecision: precisionDigits,
    quantityPrecision: precisionDigits,
    minTradeUSDT: stepValue.optional(),
    status: z.string(),
  }),
);

const BitgetEnvelopeSchema = z.object({
  code: num,
  msg: z.string().nullable().optional(),
  message: z.string().nullable().optional(),
  requestTime: num.optional(),
  data: z.unknown().optional(),
});
type BitgetEnvelope = z.output<typeof BitgetEnvelopeSchema>;

const BitgetBatchSchema = z
  .object({
    successList: z
      .array(z.object({ orderId: id.optional(), clientOid: id.nullable().optional() }))
      .nullable()
      .optional(),
    failureList: z
      .array(
        z.object({
          orderId: id.optional(),
          clientOid: id.nullable().optional(),
          errorMsg: z.string().nullable().optional(),
          errorCode: num.nullable().optional(),
        }),
      )
      .nullable()
      .optional(),
  })
  .nullable()
  .optional();

const OrderIdSchema = z.object({ orderId: id.optional() }).nullable().optional();

/** orderInfo, unfilled-orders and assets answer a list; anything else reads as empty. */
function listOf<T extends z.ZodType>(item: T) {
  return z.preprocess((value) => (Array.isArray(value) ? value : []), z.array(item));
}
const OrdersSchema = listOf(BitgetOrderSchema);
const AssetsSchema = listOf(
  z.object({ coin: z.string(), available: num.optional(), frozen: num.optional(), locked: num.optional() }),
);

export function bitgetSignedRequest(
  credentials: Pick<Credentials, "api" | "secret" | "password">,
  timestamp: number,
  method: HttpMethod,
  path: string,
  params: Record<string, unknown> | undefined,
): HttpRequest {
  // bitget's signing guide asks for the query keys in ascending order; what is signed is what is sent.
  const query =
    method === "GET" && params ? buildQuery(params as Record<string, string | undefined>, { sort: true }) : "";
  const body = method === "GET" || params === undefined ? "" : JSON.stringify(params);
  const ts = String(timestamp);
  const prehash = ts + method + path + (query ? `?${query}` : "") + body;
  return {
    method,
    path,
    query,
    body,
    headers: {
      "ACCESS-KEY": credentials.api,
      "ACCESS-SIGN": hmacSha256Base64(credentials.secret, prehash),
      "ACCESS-TIMESTAMP": ts,
      "ACCESS-PASSPHRASE": credentials.password ?? "",
      "Content-Type": "application/json",
      locale: "en-US",
    },
  };
}

export function parseBitgetOrder(raw: BitgetOrder, pair: string): Order {
  const order: Order = {
    pair,
    id: String(raw.orderId ?? ""),
    clientOrderId: String(raw.clientOid ?? ""),
    price: toDecimalString(raw.price ?? raw.priceAvg),
    amount: toDecimalString(raw.size),
    filled: toDecimalString(raw.baseVolume),
    type: String(raw.orderType ?? "limit"),
    side: parseSide(raw.side),
    status: normalizeStatus("bitget", raw.status),
    // documented examples carry both ms ("1695865232127") and seconds ("1622697148")
    timestamp: toMillis(raw.cTime),
  };
  if (raw.status !== undefined) order.rawStatus = String(raw.status);
  return order;
}

export class BitgetAdapter extends RestAdapter {
  constructor(credentials: Credentials, options: ExchangeOptions = {}) {
    super("bitget", credentials, options, {
      baseUrl: BITGET_BASE_URL,
    });
  }

  private async call(method: HttpMethod, path: string, params?: Record<string, unknown>): Promise<BitgetEnvelope> {
    return this.unwrap(await this.sendJson(bitgetSignedRequest(this.credentials, this.now(), method, path, params)));
  }

  /** {code, msg, requestTime, data}: code "00000" is success; the envelope is kept for its requestTime. */
  protected unwrap(response: JsonResponse): BitgetEnvelope {
    const parsed = BitgetEnvelopeSchema.safeParse(response.json);
    if (!parsed.success) {
      throw this.fail(undefined, `Unexpected answer (HTTP ${response.status})`, response.status, response.headers);
    }
    const envelope = parsed.data;
    if (!isCode(envelope.code, BITGET_SUCCESS)) {
      throw this.fail(
        String(envelope.code),
        envelope.msg ?? envelope.message ?? "Unknown error",
        response.status,
        response.headers,
      );
    }
    return envelope;
  }

  private orderRequest(order: OrderToPlace): Record<string, string> {
    return {
      side: order.side === "Buy" ? "buy" : "sell",
      orderType: "limit",
      // docs/exchange-rules.md "Post-only": maker only is an execution strategy
      force: order.postOnly ? "post_only" : "gtc",
      price: order.price,
      size: order.amount,
      clientOid: order.clientOrderId,
    };
  }

  protected async submitOrder(order: OrderToPlace): Promise<Order> {
    const envelope = await this.call("POST", BITGET_PATHS.placeOrder, {
      symbol: exchangeSymbol(order.pair, ""),
      ...this.orderRequest(order),
    });
    return this.placed(order, this.parse(OrderIdSchema, envelope.data, "data")?.orderId ?? "", envelope.requestTime);
  }

  protected async findByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined> {
    return this.unlessNotFound(async () => {
      const envelope = await this.call("GET", BITGET_PATHS.orderInfo, { clientOid: clientOrderId });
      const raw = this.parse(OrdersSchema, envelope.data, "data")[0];
      return raw ? parseBitgetOrder(raw, pair) : undefined;
    });
  }

  protected async submitBatch(pair: string, orders: OrderToPlace[]): Promise<Order[]> {
    const envelope = await this.call("POST", BITGET_PATHS.batchOrders, {
      symbol: exchangeSymbol(pair, ""),
      orderList: orders.map((o) => this.orderRequest(o)),
    });
    const result = this.parse(BitgetBatchSchema, envelope.data, "data") ?? {};
    const failures = result.failureList ?? [];
    if (failures.length > 0) {
      // docs/exchange-rules.md#validation: bitget batch create fails with "Failure List: ..." if any item failed.
      const list = failures
        .map(
          (f) =>
            `${f.clientOid ?? f.orderId ?? "?"}: ${f.errorMsg ?? "failed"}${f.errorCode ? ` (${f.errorCode})` : ""}`,
        )
        .join("; ");
      const code = failures[0]?.errorCode ?? undefined;
      // The items of successList were placed, and the failure carries them (docs/orders.md "Partly placed batches").
      const placed = orders.flatMap((order) => {
        const item = (result.successList ?? []).find((s) => s.clientOid === order.clientOrderId);
        return item?.orderId ? [this.placed(order, item.orderId, envelope.requestTime)] : [];
      });
      // The kind follows the first failure's documented code (43012 → insufficient funds).
      throw partlyPlaced(
        new ExchangeError(this.id, `Failure List: ${list}`, {
          kind: code ? this.fail(code, "").kind : "invalid-order",
          ...(code ? { code } : {}),
        }),
        placed,
      );
    }
    const success = result.successList ?? [];
    return orders.map((order, i) => {
      const item = success.find((s) => s.clientOid === order.clientOrderId) ?? success[i];
      return this.placed(order, item?.orderId ?? "", envelope.requestTime);
    });
  }

  protected async submitCancel(pair: string, id: string): Promise<string> {
    const envelope = await this.call("POST", BITGET_PATHS.cancelOrder, {
      symbol: exchangeSymbol(pair, ""),
      orderId: id,
    });
    return this.parse(OrderIdSchema, envelope.data, "data")?.orderId ?? id;
  }

  protected async submitCancelBatch(pair: string, ids: string[]): Promise<string[]> {
    const envelope = await this.call("POST", BITGET_PATHS.batchCancel, {
      symbol: exchangeSymbol(pair, ""),
      orderList: ids.map((orderId) => ({ orderId })),
    });
    const result = this.parse(BitgetBatchSchema, envelope.data, "data") ?? {};
    return (result.successList ?? []).map((s) => s.orderId ?? "");
  }

  protected async submitCancelAll(pair: string): Promise<string[]> {
    // cancel-symbol-order answers only {symbol}: the ids cancelled are not named.
    await this.call("POST", BITGET_PATHS.cancelSymbol, { symbol: exchangeSymbol(pair, "") });
    return [];
  }

  async fetchOrder(pair: string, id: string): Promise<Order> {
    const p = this.pairOf(pair);
    const envelope = await this.call("GET", BITGET_PATHS.orderInfo, { orderId: this.orderId(id) });
    const raw = this.parse(OrdersSchema, envelope.data, "data")[0];
    if (!raw) throw new ExchangeError(this.id, `Order ${id} not found`, { kind: "order-not-found" });
    return parseBitgetOrder(raw, p);
  }

  /**
   * docs/exchange-rules.md#paging: pages of 100 (the documented maximum), newest first, each next
   * one below the last orderId (`idLessThan`), until a page comes short.
   */
  async fetchOpenOrders(pair: string): Promise<Order[]> {
    const p = this.pairOf(pair);
    return collectPages(
      "bitget",
      "open orders",
      (o) => o.id,
      async (_index, last) => {
        const envelope = await this.call("GET", BITGET_PATHS.unfilled, {
          symbol: exchangeSymbol(p, ""),
          ...(last ? { idLessThan: last.id } : {}),
          limit: "100",
        });
        const page = this.parse(OrdersSchema, envelope.data, "data");
        return { items: page.map((raw) => parseBitgetOrder(raw, p)), more: page.length === 100 };
      },
    );
  }

  /**
   * docs/exchange-rules.md#pairs: "Get Symbol Info", public. Only status online is kept (not
   * offline, gray or halt); tick is 10^-pricePrecision, lot 10^-quantityPrecision, minTradeAmount
   * the smallest amount and minTradeUSDT the smallest total where the quote is USDT (it is counted
   * in USDT).
   */
  async fetchPairs(): Promise<PairSpec[]> {
    const envelope = this.unwrap(await this.publicGet(BITGET_PATHS.symbols));
    return finishPairs(
      this.parse(BitgetSymbolsSchema, envelope.data, "data")
        .filter((s) => s.status === "online")
        .map((s) => ({
          base: s.baseCoin,
          quote: s.quoteCoin,
          tick: digitsToStep(s.pricePrecision),
          lot: digitsToStep(s.quantityPrecision),
          minAmount: minimum(s.minTradeAmount),
          minNotional: s.quoteCoin.toUpperCase() === "USDT" ? minimum(s.minTradeUSDT) : undefined,
        })),
    );
  }

  async fetchBalances(): Promise<Balances> {
    const envelope = await this.call("GET", BITGET_PATHS.assets);
    const rows = this.parse(AssetsSchema, envelope.data, "data");
    return collectBalances(
      rows.map((r) => ({
        currency: r.coin,
        free: r.available,
        // frozen: held by open orders; locked: held by other products (fiat, merchant)
        locked: new Decimal(toDecimalString(r.frozen)).plus(toDecimalString(r.locked)).toFixed(),
      })),
    );
  }
}

export function createBitgetExchange(credentials: Credentials, options: ExchangeOptions): ExchangeAdapter {
  return new BitgetAdapter(credentials, options);
}
