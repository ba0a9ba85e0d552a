/** The fifteen real exchanges of docs/exchange-rules.md#operations, plus the built-in simulated one. */
export const REAL_EXCHANGE_IDS = [
  "bingx",
  "bitget",
  "bitrue",
  "bitmart",
  "bitteam",
  "bybit",
  "coinstore",
  "gate",
  "htx",
  "kucoin",
  "lbank",
  "mexc",
  "okx",
  "probit",
  "xt",
] as const;

export type RealExchangeId = (typeof REAL_EXCHANGE_IDS)[number];
export type ExchangeId = RealExchangeId | "paper";
export const EXCHANGE_IDS: readonly ExchangeId[] = ["paper", ...REAL_EXCHANGE_IDS];

export function isExchangeId(value: string): value is ExchangeId {
  return (EXCHANGE_IDS as readonly string[]).includes(value);
}

export type Side = "Buy" | "Sell";
export type OrderStatus = "open" | "closed" | "canceled";

/**
 * The normalized order of docs/exchange-rules.md#entities. Prices and amounts are decimal strings
 * (docs/exchange-rules.md#contract "Numbers cross the boundary as decimal strings"), never binary floats.
 */
export interface Order {
  pair: string;
  id: string;
  clientOrderId: string;
  price: string;
  amount: string;
  filled: string;
  type: string;
  side: Side;
  status: OrderStatus | undefined;
  /** milliseconds since the epoch */
  timestamp: number;
  /** the exchange's own status string, kept where it differs from `status` (docs/decisions.md#d9) */
  rawStatus?: string;
  /**
   * the average price of what filled so far, where the exchange gives it (paper, okx, gate);
   * absent while nothing filled (docs/tui.md "Fills")
   */
  average?: string;
  /** price × amount of every fill so far, in the quote, where the exchange gives it exactly (paper) */
  cost?: string;
  /** the fees charged on the fills so far and their currency, where the exchange gives them */
  fee?: OrderFee;
}

/** A fee as a decimal string (a charge is positive, a rebate negative) in its currency. */
export interface OrderFee {
  amount: string;
  currency: string;
}

/** docs/exchange-rules.md#entities: currency code → free (f) and locked (l), as decimal strings. */
export type Balances = Record<string, { f: string; l: string }>;

/** docs/exchange-rules.md#entities: a batch create item. */
export interface BatchItem {
  side: Side;
  amount: string;
  price: string;
  /** the caller's own id for retries (docs/orders.md "Client order ids"); generated when absent */
  clientOrderId?: string;
  /** maker only (docs/orders.md "Post-only") */
  postOnly?: boolean;
}

/** A price level: [price, amount] as decimal strings. */
export type BookLevel = [price: string, amount: string];

export interface BookSnapshot {
  bids: BookLevel[];
  asks: BookLevel[];
}

/** Exchange credentials of docs/exchange-rules.md#entities. `httpAgent` is a proxy URL (docs/decisions.md#d12). */
export interface Credentials {
  api: string;
  secret: string;
  password?: string;
  httpAgent?: string;
}
