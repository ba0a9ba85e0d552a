import type { Order } from "./types.js";

/**
 * The one error class of the exchange layer (docs/exchange-rules.md#contract).
 * Its message has the docs/exchange-rules.md#errors form `ExchangeId: {id}, msg: {message}`; callers branch on
 * `kind`, never on the text.
 */
export type ErrorKind =
  | "auth"
  | "rate-limit"
  | "insufficient-funds"
  | "invalid-order"
  | "order-not-found"
  | "network"
  | "unsupported"
  | "bad-input"
  | "config"
  | "output";

export const ERROR_KINDS: readonly ErrorKind[] = [
  "auth",
  "rate-limit",
  "insufficient-funds",
  "invalid-order",
  "order-not-found",
  "network",
  "unsupported",
  "bad-input",
  "config",
  "output",
];

export interface ExchangeErrorOptions {
  kind: ErrorKind;
  /** the exchange's own error code, when it gives one */
  code?: string | number;
  /** for rate limits: how long the exchange asks us to wait */
  retryAfterMs?: number;
  /**
   * The exchange may have carried out the request although this error says it failed: its answer
   * could not be read (a gateway's 5xx page, an answer in a shape we do not know). A create that
   * fails so is looked up by its client order id (docs/exchange-rules.md#contract).
   */
  unclear?: boolean;
  cause?: unknown;
}

export class ExchangeError extends Error {
  readonly exchange: string;
  readonly kind: ErrorKind;
  readonly code?: string | number;
  readonly retryAfterMs?: number;
  /** the answer could not be read: the request may have been carried out (ExchangeErrorOptions.unclear) */
  readonly unclear?: boolean;
  /** the message without the `ExchangeId: …, msg:` prefix */
  readonly detail: string;

  constructor(exchange: string, detail: string, options: ExchangeErrorOptions) {
    super(
      `ExchangeId: ${exchange}, msg: ${detail}`,
      options.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "ExchangeError";
    this.exchange = exchange;
    this.detail = detail;
    this.kind = options.kind;
    if (options.code !== undefined) this.code = options.code;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    if (options.unclear) this.unclear = true;
  }

  toJSON(): { exchange: string; kind: ErrorKind; code?: string | number; message: string } {
    return {
      exchange: this.exchange,
      kind: this.kind,
      ...(this.code === undefined ? {} : { code: this.code }),
      message: this.message,
    };
  }
}

/** The code of a post-only order refused because it would have taken (docs/orders.md "Post-only"). */
export const POST_ONLY_REFUSED = "post-only-would-take";

export function isExchangeError(error: unknown): error is ExchangeError {
  return error instanceof ExchangeError;
}

/** The orders a failed batch create left on the exchange, when the error says which (docs/orders.md "Partly placed batches"). */
export function placedBefore(error: unknown): Order[] | undefined {
  const placed = (error as { details?: { placed?: unknown } } | null)?.details?.placed;
  return Array.isArray(placed) ? (placed as Order[]) : undefined;
}

/** Exit codes of the CLI per error kind (documented in the README). 1 is an unexpected failure. */
export const EXIT_CODES: Record<ErrorKind, number> = {
  "bad-input": 2,
  auth: 3,
  "insufficient-funds": 4,
  "invalid-order": 5,
  "order-not-found": 6,
  "rate-limit": 7,
  network: 8,
  unsupported: 9,
  // a directory or file spotdesk must write cannot be written (HOME, SPOTDESK_DATA_DIR, …)
  config: 2,
  // the work was done (an order went out) but its result could not be written to stdout
  output: 11,
};
