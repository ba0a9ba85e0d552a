import { ExchangeError } from "../lib/errors.js";

/** An order id as typed: not empty, no spaces or control characters (they would only reach the exchange as a 404). */
export function checkOrderId(id: string, exchange: string): string {
  const trimmed = id.trim();
  if (trimmed === "" || /[\s\p{Cc}]/u.test(trimmed)) {
    throw new ExchangeError(exchange, `Invalid order id '${id}'`, { kind: "bad-input" });
  }
  return trimmed;
}

/** A positive whole number option such as --depth. */
export function parsePositiveInt(text: string, field: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || Number(text) > max) {
    throw new ExchangeError("spotdesk", `Invalid ${field} '${text}': expected a whole number from 1 to ${max}`, {
      kind: "bad-input",
    });
  }
  return Number(text);
}
