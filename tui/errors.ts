import { isExchangeError } from "../lib/errors.js";

/**
 * The text of a toast for an error. Our own input checks (exchange "spotdesk", kind bad-input)
 * show their detail, so the seed's 'Incorrect amount / It is zero!' reads exactly so; an
 * exchange's refusal keeps the `ExchangeId: {id}, msg: {message}` form of docs/exchange-rules.md#errors.
 */
export function errorText(error: unknown): string {
  if (isExchangeError(error))
    return error.exchange === "spotdesk" && error.kind === "bad-input" ? error.detail : error.message;
  return error instanceof Error ? error.message : String(error);
}
