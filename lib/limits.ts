import { ExchangeError } from "./errors.js";
import type { ExchangeId } from "./types.js";

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
  /** Most resting orders the bots keep and the page size of one fetch; null = no cap of ours (PRODUCT D10). */
  openOrders: number | null;
  /** 0 means the operation is unsupported (seed 001 §9). */
  createBatch: number;
  cancelBatch: number;
  unsupported: readonly Operation[];
}

/**
 * Seed 001 §9 "Business constants and limits", with PRODUCT D10: gate's batch create (10) and
 * cancel (20) are supported. "A maximum of 0 means the operation is unsupported."
 * Unsupported cancel all: bitrue, coinstore, okx, probit.
 */
export const LIMITS: Record<ExchangeId, ExchangeLimits> = {
  bingx: { openOrders: 500, createBatch: 10, cancelBatch: 10, unsupported: [] },
  bitget: { openOrders: 100, createBatch: 50, cancelBatch: 50, unsupported: [] },
  bitrue: {
    openOrders: null,
    createBatch: 0,
    cancelBatch: 0,
    unsupported: ["createBatch", "cancelBatch", "cancelAll"],
  },
  bitmart: { openOrders: 200, createBatch: 10, cancelBatch: 10, unsupported: [] },
  bitteam: { openOrders: 100, createBatch: 0, cancelBatch: 0, unsupported: ["createBatch", "cancelBatch"] },
  bybit: { openOrders: 50, createBatch: 10, cancelBatch: 10, unsupported: [] },
  coinstore: { openOrders: null, createBatch: 40, cancelBatch: 40, unsupported: ["cancelAll"] },
  gate: { openOrders: 100, createBatch: 10, cancelBatch: 20, unsupported: [] },
  htx: { openOrders: 500, createBatch: 10, cancelBatch: 50, unsupported: [] },
  kucoin: { openOrders: 500, createBatch: 5, cancelBatch: 0, unsupported: ["cancelBatch"] },
  lbank: { openOrders: 200, createBatch: 0, cancelBatch: 0, unsupported: ["createBatch", "cancelBatch"] },
  mexc: { openOrders: 500, createBatch: 20, cancelBatch: 0, unsupported: ["cancelBatch"] },
  okx: { openOrders: 500, createBatch: 20, cancelBatch: 20, unsupported: ["cancelAll"] },
  probit: {
    openOrders: null,
    createBatch: 0,
    cancelBatch: 0,
    unsupported: ["createBatch", "cancelBatch", "cancelAll"],
  },
  xt: { openOrders: null, createBatch: 40, cancelBatch: 40, unsupported: [] },
  // The simulated exchange supports everything; its limits are generous but finite.
  paper: { openOrders: 500, createBatch: 100, cancelBatch: 100, unsupported: [] },
};

export function isSupported(exchange: ExchangeId, operation: Operation): boolean {
  return !LIMITS[exchange].unsupported.includes(operation);
}

/** Seed 001 §5: "Not supported for {exchange id}". */
export function assertSupported(exchange: ExchangeId, operation: Operation): void {
  if (!isSupported(exchange, operation)) {
    throw new ExchangeError(exchange, `Not supported for ${exchange}`, { kind: "unsupported" });
  }
}

/**
 * Seed 001 §5: batch create and cancel reject a list longer than the exchange's maximum with
 * "Maximum for 'createBatch' is: {max}" / "Maximum for 'cancelBatch' is: {max}".
 */
export function assertBatchSize(exchange: ExchangeId, operation: "createBatch" | "cancelBatch", size: number): void {
  assertSupported(exchange, operation);
  const max = LIMITS[exchange][operation];
  if (size > max) {
    throw new ExchangeError(exchange, `Maximum for '${operation}' is: ${max}`, { kind: "bad-input" });
  }
  if (size === 0) {
    throw new ExchangeError(exchange, `Nothing to do: '${operation}' needs at least one item`, { kind: "bad-input" });
  }
}
