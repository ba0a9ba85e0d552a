/**
 * The shape of an exchange's facts (docs/exchanges.md "What info.ts holds"): what every
 * `exchanges/<id>/info.ts` declares and `exchanges/catalogue.ts` collects. Types only, so the web,
 * the CLI's cold-start chunk and the adapters can all read the catalogue.
 */
import type { ExchangeId, OrderStatus } from "../../lib/types.js";

/** What a venue's cancel-all-after countdown accepts (docs/exchange-rules.md#countdown). */
export interface CountdownRule {
  /** the shortest countdown, seconds (0 always disarms) */
  minSeconds: number;
  maxSeconds: number;
  /** "pair": it can be limited to one pair; "account": it covers every order of the account */
  scope: "pair" | "account";
}

/** Where the public order book comes from: a websocket, REST polling, or paper's own market. */
export type FeedSource = "socket" | "polling" | "simulated";

/** The operations a limit can name (the nine of the exchange contract, less the look-up). */
export type Operation =
  | "createOrder"
  | "createBatch"
  | "cancelOrder"
  | "cancelBatch"
  | "cancelAll"
  | "fetchOrder"
  | "fetchOpenOrders"
  | "fetchBalances";

export interface ExchangeLimits {
  /** Most resting orders the bots keep and the page size of one fetch; null = no cap of ours. */
  openOrders: number | null;
  /** Most orders in one batch create; 0 means the operation is unsupported. */
  createBatch: number;
  /** Most ids in one batch cancel; 0 means the operation is unsupported. */
  cancelBatch: number;
  unsupported: readonly Operation[];
}

/**
 * An exchange's documented client order id shape (docs/orders.md "Client order ids"): an optional
 * prefix (gate's "t-"), the length of a generated id, the shortest and longest id accepted, and
 * the characters allowed (a regex character class body). Generated ids are hexadecimal, so they
 * fit every rule.
 */
export interface ClientOrderIdRule {
  /** total length of a generated id, prefix included (default 32) */
  length?: number;
  /** longest id accepted (default: length) */
  maxLength?: number;
  prefix?: string;
  /** shortest id accepted, prefix included (default 1 after the prefix) */
  minLength?: number;
  /** characters allowed after the prefix (default A-Za-z0-9_-) */
  chars?: string;
}

/** The error kinds an exchange's own codes map to; the other kinds are ours (network, bad input, …). */
export type CodedErrorKind = "auth" | "rate-limit" | "insufficient-funds" | "order-not-found" | "invalid-order";

/** The exchange's error codes, by kind, from named constants of its docs. */
export type ErrorCodeTable = Partial<Record<CodedErrorKind, readonly (string | number)[]>>;

/**
 * A failure read from its message, where the exchange's code alone does not tell (bybit's bare
 * "403, access too frequent", htx's invalid-parameter "request limit"). Checked before the table of
 * codes (docs/exchange-rules.md#errors).
 */
export interface MessageRule {
  /** substrings of the exchange's message, any one matching; case, and spaces or underscores, do not count */
  text: readonly string[];
  /** the message must begin with the text */
  start?: boolean;
  /** the exchange's code is read as text too (kucoin writes some causes as the code) */
  inCode?: boolean;
  kind: CodedErrorKind;
  /** only with this exchange code */
  code?: string | number;
  /** only when the code table and the HTTP status alone read the failure as this kind */
  over?: CodedErrorKind;
  /** the wait this failure asks for, when the exchange documents one */
  retryAfterMs?: number;
}

/**
 * An exchange's documented maker-only order form (docs/exchange-rules.md "Post-only"): `form` is
 * the parameter as the exchange's order call takes it, `onCross` what the exchange does with a
 * post-only order that would take: refuse the request, or accept it and cancel it at once.
 */
export interface PostOnlyForm {
  form: string;
  onCross: "rejected" | "canceled";
}

export interface ExchangeInfo {
  id: ExchangeId;
  /** Display name, as the CLI, the TUI and the web show it. */
  name: string;
  /** Orders need an API key and secret; false for a simulated exchange (paper). */
  needsApiKey: boolean;
  /** API keys of this exchange come with a passphrase (bitmart, bitget, kucoin, okx). */
  needsPassphrase: boolean;
  limits: ExchangeLimits;
  clientOrderId: ClientOrderIdRule;
  /** the exchange's own error codes by kind (none for paper, whose errors carry their kind) */
  errors?: ErrorCodeTable;
  /** kinds read from message substrings where a code alone does not tell, beside `errors` */
  errorMessages?: readonly MessageRule[];
  /**
   * Statuses read before the general table (docs/exchanges.md "Order status"), on the exchange's
   * exact string; with `onlyExceptions` an exchange's status outside this table is unknown.
   */
  statusExceptions?: Readonly<Record<string, OrderStatus>>;
  onlyExceptions?: boolean;
  /** the maker-only order form, or null where the exchange documents none (refused, never sent as a plain limit) */
  postOnly: PostOnlyForm | null;
  /** the cancel-all-after countdown the adapter arms, where the exchange documents one (docs/exchange-rules.md#countdown) */
  countdown?: CountdownRule;
  /** where the public book comes from */
  feed: FeedSource;
  /** default order-book depth */
  depth: 20 | 50;
  /**
   * What a browser opens itself for the public book (docs/exchanges.md "The browser's feed"):
   * `connect`, the feed's default socket plus the REST host of its snapshots or symbol ids, which
   * the dashboard's page policy allows; `relay`, the same-origin path of the server's gateway relay
   * the browser's feed uses as its REST base instead (bitteam's polling, kucoin's token). null: the
   * book comes from the server (paper).
   */
  browserFeed: BrowserFeed | null;
}

export interface BrowserFeed {
  connect: readonly string[];
  relay?: string;
}
