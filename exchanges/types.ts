import type { Logger } from "../lib/log.js";
import type { OrderBook } from "../lib/orderbook.js";
import type { Balances, BatchItem, Credentials, ExchangeId, Order, Side } from "../lib/types.js";
import type { CountdownRule } from "./core/info.js";

export type { CountdownRule, Credentials };

/** Options every adapter honours (docs/exchange-rules.md#contract). */
export interface ExchangeOptions {
  /** REST base URL: a testnet, a proxy or a local mock. Replaces every REST host the adapter calls. */
  baseUrl?: string;
  /** Websocket URL of the public feed. */
  wsUrl?: string;
  /** Request time-out in ms; 10 000 unless configured. */
  timeoutMs?: number;
  /** Injectable clock (ms since the epoch) for signing timestamps in tests. */
  now?: () => number;
  logger?: Logger;
  /** paper: where the simulated exchange keeps its state (default: the user's data directory). */
  dataDir?: string;
  /** paper: the simulated account name. */
  account?: string;
  /** build and sign requests but send none (RestClient throws DryRun): `--dry-run` */
  dryRun?: boolean;
}

export interface CreateOrderRequest {
  pair: string;
  side: Side;
  /** decimal string, > 0 */
  amount: string;
  /** decimal string, > 0 */
  price: string;
  /** generated when absent (docs/decisions.md#d11) */
  clientOrderId?: string;
  /**
   * maker only (docs/orders.md "Post-only"): sent in the exchange's documented form, and refused
   * before any request where the exchange has none
   */
  postOnly?: boolean;
}

/**
 * The nine operations of docs/exchange-rules.md#operations, the same on every exchange. Pairs are written BTC/USDT;
 * the adapter turns them into its own symbol format. Every operation throws ExchangeError.
 */
export interface ExchangeAdapter {
  readonly id: ExchangeId;
  createOrder(request: CreateOrderRequest): Promise<Order>;
  createBatch(pair: string, items: readonly BatchItem[]): Promise<Order[]>;
  /** resolves to the id cancelled */
  cancelOrder(pair: string, id: string): Promise<string>;
  /** resolves to the ids cancelled */
  cancelBatch(pair: string, ids: readonly string[]): Promise<string[]>;
  /** resolves to the ids cancelled (empty when the exchange does not say which) */
  cancelAll(pair: string): Promise<string[]>;
  fetchOrder(pair: string, id: string): Promise<Order>;
  fetchOpenOrders(pair: string): Promise<Order[]>;
  fetchBalances(): Promise<Balances>;
  /** releases sockets, timers and file handles */
  close(): Promise<void>;
  /**
   * The order with this client order id, or undefined when the exchange does not know it. The id
   * is checked against the exchange's rule first (docs/decisions.md#d11): 'bad-input' when it does not fit,
   * 'unsupported' where the exchange takes none (docs/orders.md "Client order ids").
   */
  findOrderByClientOrderId(pair: string, clientOrderId: string): Promise<Order | undefined>;
  /**
   * The spot pairs the exchange trades now, with their number rules (docs/exchange-rules.md#pairs),
   * sorted by pair. One public call; no key needed. The TUI's pair picker offers these, and the
   * order checks truncate to their tick and lot.
   */
  fetchPairs(): Promise<PairSpec[]>;
  /**
   * Optional: the exchange's own cancel-all-after countdown (a dead man's switch,
   * docs/exchange-rules.md#countdown). Arms it for `seconds` (0 disarms): unless armed again in
   * time, the exchange cancels the open orders of `pair` (of the account where the venue knows no
   * pair scope, or when `pair` is undefined). Present only where the venue documents one; its
   * bounds are in `countdown`.
   */
  cancelAllAfter?(pair: string | undefined, seconds: number): Promise<void>;
  readonly countdown?: CountdownRule;
}

/** One pair an exchange trades (docs/exchange-rules.md#pairs). */
export interface PairSpec {
  /** BTC/USDT: the base and quote as the exchange names them, upper case */
  pair: string;
  /** the smallest price step, a decimal string ("0.01"); a precision in digits n reads as 10^-n */
  tick: string;
  /** the smallest amount step, a decimal string ("0.000001") */
  lot: string;
  /** the smallest amount an order may have, where the exchange says it */
  minAmount?: string;
  /** the smallest price x amount an order may have, where the exchange says it */
  minNotional?: string;
}

export type FeedState = "connecting" | "live" | "resyncing" | "stale" | "closed";

/** The minimal WebSocket surface a feed needs: `ws` in Node, the browser's own WebSocket. */
export interface WebSocketLike {
  readonly readyState: number;
  binaryType: string;
  send(data: string | ArrayBufferLike | Uint8Array): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
export type WebSocketFactory = (url: string) => WebSocketLike;

export interface FeedOptions {
  wsUrl?: string;
  baseUrl?: string;
  /** levels kept and shown; the exchange's default depth (20 or 50) when absent */
  depth?: number;
  /** opens a socket: `ws` in Node, `new WebSocket(url)` in the browser */
  connect?: WebSocketFactory;
  logger?: Logger;
  now?: () => number;
  /** paper: where the simulated exchange keeps its state */
  dataDir?: string;
  /**
   * Proxy URL (docs/decisions.md#d12) for the feed's REST calls (snapshots, tokens, symbol ids) in Node, the
   * same RestClient path as the adapters' calls; the websocket itself connects directly.
   */
  proxy?: string;
}

/**
 * A live public order book for one pair (docs/exchange-rules.md#states "Public order-book feeds"). The feed writes
 * into `book`; readers poll `book.version` (every 500 ms in the UIs) and redraw only on change.
 */
export interface BookFeed {
  readonly exchange: ExchangeId;
  readonly pair: string;
  readonly book: OrderBook;
  readonly state: FeedState;
  /** opens the socket (or starts polling) */
  start(): void;
  /** closes everything; state becomes closed */
  stop(): void;
  /** the manual refresh of docs/exchange-rules.md#states: a fresh snapshot now */
  refresh(): Promise<void>;
  onState(listener: (state: FeedState) => void): () => void;
  onChange(listener: () => void): () => void;
}
