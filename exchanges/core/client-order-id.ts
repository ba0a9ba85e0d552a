import { ExchangeError } from "../../lib/errors.js";
import { randomHex } from "../../lib/random.js";
import type { ClientOrderIdRule } from "./info.js";

export type { ClientOrderIdRule };

/**
 * Generated hexadecimal client order ids (docs/exchange-rules.md#entities, docs/decisions.md#d11), shaped to each exchange's
 * documented rule: an optional prefix (gate's "t-") and a total length.
 */
export function newClientOrderId(rule: ClientOrderIdRule = {}): string {
  const prefix = rule.prefix ?? "";
  const length = rule.length ?? 32;
  const hexLength = length - prefix.length;
  if (hexLength < 8) throw new Error(`Client order id rule leaves too few characters (${hexLength})`);
  // Stryker disable next-line ArithmeticOperator: `hexLength * 2` only draws more random bytes; the slice keeps hexLength characters
  return prefix + randomHex(Math.ceil(hexLength / 2)).slice(0, hexLength);
}

/** Words for a rule, used in the refusal: "2 to 30 characters starting with t-: A-Za-z0-9_.-". */
export function describeClientOrderIdRule(rule: ClientOrderIdRule): string {
  const prefix = rule.prefix ?? "";
  const max = rule.maxLength ?? rule.length ?? 32;
  const min = rule.minLength ?? prefix.length + 1;
  return `${min} to ${max} characters${prefix ? ` starting with '${prefix}'` : ""}, using ${rule.chars ?? "A-Za-z0-9_-"}`;
}

/**
 * A client order id given by the caller (`--client-order-id`, a batch item's `clientOrderId`),
 * checked against the exchange's rule before anything is sent (docs/orders.md "Client order ids").
 */
export function checkClientOrderId(exchange: string, rule: ClientOrderIdRule, id: string): string {
  const prefix = rule.prefix ?? "";
  const max = rule.maxLength ?? rule.length ?? 32;
  const min = rule.minLength ?? prefix.length + 1;
  const chars = new RegExp(`^[${rule.chars ?? "A-Za-z0-9_-"}]*$`);
  const text = String(id);
  if (!text.startsWith(prefix) || text.length < min || text.length > max || !chars.test(text.slice(prefix.length))) {
    throw new ExchangeError(
      exchange,
      `Invalid client order id '${text}': ${exchange} takes ${describeClientOrderIdRule(rule)}`,
      { kind: "bad-input" },
    );
  }
  return text;
}
