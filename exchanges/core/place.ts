import { isExchangeError } from "../../lib/errors.js";
import type { Order } from "../../lib/types.js";
import { mayHaveReachedExchange } from "./rest.js";

/** A create that failed so may still have been placed: a time-out, or an answer that could not be read. */
export function mayHaveBeenPlaced(error: unknown): boolean {
  return mayHaveReachedExchange(error) || (isExchangeError(error) && error.unclear === true);
}

/**
 * "A create is never sent twice blindly" (docs/exchange-rules.md#contract): when a create fails in a way that may have
 * reached the exchange (a time-out), the order is looked up by its client order id first; only
 * when the exchange does not know it is the create sent once more, with the same client order id,
 * so an exchange that did receive the first one rejects the duplicate instead of filling twice.
 *
 * An answer that could not be read (a gateway's 5xx page, a body in an unknown shape: the error is
 * `unclear`) is looked up the same way: the order the exchange placed is returned as placed, and
 * when it does not know the order the error stands, with nothing sent again.
 */
export async function placeOnce(
  place: () => Promise<Order>,
  lookupByClientOrderId: () => Promise<Order | undefined>,
): Promise<Order> {
  try {
    return await place();
  } catch (error) {
    if (!mayHaveBeenPlaced(error)) throw error;
    let found: Order | undefined;
    try {
      found = await lookupByClientOrderId();
    } catch {
      // The look-up failed too: we cannot know whether the order exists, so we must not resend.
      throw error;
    }
    if (found) return found;
    // an unclear answer that the exchange does not know: the error stands, nothing is sent again
    if (!mayHaveReachedExchange(error)) throw error;
    return place();
  }
}
