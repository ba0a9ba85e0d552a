/**
 * Kinds read from the exchange's message beside its exact codes (docs/exchange-rules.md "Errors
 * and success codes"): a rule may ask for a code, for the start of the message, or to apply only
 * over the kind the code and HTTP status give.
 */
import { describe, expect, it } from "vitest";
import { exchangeError, type MessageRule } from "./adapter.js";
import type { ErrorCodeTable } from "./info.js";

const CODES: ErrorCodeTable = { "invalid-order": ["invalid-parameter"], auth: [10003] };
const RULES: readonly MessageRule[] = [
  { code: "invalid-parameter", text: ["request limit"], start: true, kind: "rate-limit" },
  { text: ["too frequent"], over: "auth", kind: "rate-limit", retryAfterMs: 600_000 },
  { text: ["order not exist", "order does not exist"], kind: "order-not-found" },
];

const read = (failure: Parameters<typeof exchangeError>[2]) => exchangeError("htx", CODES, failure, RULES);

describe("message rules beside the exact codes", () => {
  it("reads a throttle sent under a parameter code from the start of its message", () => {
    const limited = read({ code: "invalid-parameter", message: "Request limit reached", retryAfterMs: 2500 });
    expect([limited.kind, limited.code, limited.retryAfterMs, limited.detail]).toEqual([
      "rate-limit",
      "invalid-parameter",
      2500,
      "Request limit reached (code invalid-parameter)",
    ]);
    // the same words later in the text, or under another code, are not the throttle
    expect(read({ code: "invalid-parameter", message: "amount above the request limit" }).kind).toBe("invalid-order");
    expect(read({ code: "other", message: "request limit reached" }).kind).toBe("invalid-order");
  });

  it("turns an auth refusal that says 'too frequent' into a ten-minute rate limit, and only an auth one", () => {
    const banned = read({ message: "403, access too frequent", status: 403 });
    expect([banned.kind, banned.retryAfterMs]).toEqual(["rate-limit", 600_000]);
    const asked = read({ message: "access too frequent", status: 429, headers: { "retry-after": "5" } });
    expect([asked.kind, asked.retryAfterMs]).toEqual(["rate-limit", 5000]);
    expect(read({ message: "too frequent", status: 400 }).kind).toBe("invalid-order");
  });

  it("matches any of a rule's texts, whatever their case, and leaves other messages to the codes", () => {
    expect(read({ code: 100400, message: "Order does not exist" }).kind).toBe("order-not-found");
    expect(read({ code: 100400, message: "the ORDER NOT EXIST" }).kind).toBe("order-not-found");
    expect(read({ code: 100400, message: "order_not_exist_or_not_allow_to_cancel" }).kind).toBe("order-not-found");
    expect(read({ code: 100400, message: "Order  does\tnot exist" }).kind).toBe("order-not-found");
    expect(read({ code: 10003, message: "invalid key" }).kind).toBe("auth");
    expect(exchangeError("htx", CODES, { message: "Order does not exist" }).kind).toBe("invalid-order");
  });
});
