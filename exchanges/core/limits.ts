import { ExchangeError } from "../../lib/errors.js";
import type { ExchangeId } from "../../lib/types.js";
import { CATALOGUE, isSupported } from "../catalogue.js";
import type { Operation } from "./info.js";

export { isSupported };

/** An unsupported operation is refused before anything is sent (docs/exchanges.md "Limits"). */
export function assertSupported(exchange: ExchangeId, operation: Operation): void {
  if (!isSupported(exchange, operation)) {
    throw new ExchangeError(exchange, `Not supported for ${exchange}`, { kind: "unsupported" });
  }
}

/**
 * Batch create and cancel reject a list longer than the exchange's maximum with
 * "Maximum for 'createBatch' is: {max}" / "Maximum for 'cancelBatch' is: {max}" (docs/exchanges.md "Limits").
 */
export function assertBatchSize(exchange: ExchangeId, operation: "createBatch" | "cancelBatch", size: number): void {
  assertSupported(exchange, operation);
  const max = CATALOGUE[exchange].limits[operation];
  if (size > max) {
    throw new ExchangeError(exchange, `Maximum for '${operation}' is: ${max}`, { kind: "bad-input" });
  }
  if (size === 0) {
    throw new ExchangeError(exchange, `Nothing to do: '${operation}' needs at least one item`, { kind: "bad-input" });
  }
}

/**
 * A post-only order on an exchange without a maker-only form is refused before any request: sent
 * as a plain limit it could take (docs/orders.md "Post-only").
 */
export function assertPostOnly(exchange: ExchangeId): void {
  if (CATALOGUE[exchange].postOnly === null) {
    throw new ExchangeError(exchange, `${exchange} has no post-only order type: the order was not sent`, {
      kind: "unsupported",
    });
  }
}
