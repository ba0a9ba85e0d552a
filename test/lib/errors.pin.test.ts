/** Pins of lib/errors.ts beyond test/lib/errors-side-pair.test.ts (docs/exchange-rules.md#errors, docs/cli.md; docs/mutation.md). */
import { describe, expect, it } from "vitest";
import { ERROR_KINDS, EXIT_CODES, ExchangeError, isExchangeError, placedBefore } from "../../lib/errors.js";

describe("ExchangeError, the fields it leaves out (docs/exchange-rules.md#errors)", () => {
  it("lists exactly the ten kinds callers branch on", () => {
    expect(ERROR_KINDS).toEqual([
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
    ]);
  });

  it("maps every kind to the exit code the README documents", () => {
    expect(EXIT_CODES).toEqual({
      "bad-input": 2,
      auth: 3,
      "insufficient-funds": 4,
      "invalid-order": 5,
      "order-not-found": 6,
      "rate-limit": 7,
      network: 8,
      unsupported: 9,
      config: 2,
      output: 11,
    });
  });

  it("has no code or wait when none was given, and no cause property at all", () => {
    const error = new ExchangeError("gate", "Order not found", { kind: "order-not-found" });
    expect(error.code).toBeUndefined();
    expect(error.retryAfterMs).toBeUndefined();
    expect(Object.hasOwn(error, "cause")).toBe(false);
    expect(Object.keys(error.toJSON())).toEqual(["exchange", "kind", "message"]);
    expect(JSON.stringify(error.toJSON())).toBe(
      '{"exchange":"gate","kind":"order-not-found","message":"ExchangeId: gate, msg: Order not found"}',
    );
  });

  it("keeps a code of 0 and a wait of 0, and a falsy cause", () => {
    const error = new ExchangeError("mexc", "x", { kind: "rate-limit", code: 0, retryAfterMs: 0, cause: null });
    expect(error.code).toBe(0);
    expect(error.retryAfterMs).toBe(0);
    expect(Object.hasOwn(error, "cause")).toBe(true);
    expect(error.cause).toBeNull();
    expect(error.toJSON()).toEqual({
      exchange: "mexc",
      kind: "rate-limit",
      code: 0,
      message: "ExchangeId: mexc, msg: x",
    });
    expect(String(error)).toBe("ExchangeError: ExchangeId: mexc, msg: x");
  });

  it("recognises only its own class", () => {
    const look = Object.assign(new Error("ExchangeId: okx, msg: x"), { kind: "auth", exchange: "okx" });
    expect(isExchangeError(look)).toBe(false);
    expect(isExchangeError(undefined)).toBe(false);
    expect(isExchangeError(new ExchangeError("okx", "x", { kind: "auth" }))).toBe(true);
  });
});

describe("ExchangeError.unclear and placedBefore (docs/exchange-rules.md#contract, docs/orders.md)", () => {
  it("is unclear only when told so: a create failing so is looked up, any other is not", () => {
    expect(new ExchangeError("okx", "x", { kind: "invalid-order", unclear: true }).unclear).toBe(true);
    const plain = new ExchangeError("okx", "x", { kind: "invalid-order" });
    expect(plain.unclear).toBeUndefined();
    expect(new ExchangeError("okx", "x", { kind: "network", unclear: false }).unclear).toBeUndefined();
  });

  it("gives the orders a failed batch left placed only when the error lists them", () => {
    const placed = [{ id: "1" }, { id: "2" }];
    expect(placedBefore(Object.assign(new Error("x"), { details: { placed } }))).toBe(placed);
    expect(placedBefore({ details: { placed: [] } })).toEqual([]);
    expect(placedBefore({ details: { placed: "1,2" } })).toBeUndefined();
    expect(placedBefore({ details: {} })).toBeUndefined();
    expect(placedBefore({})).toBeUndefined();
    expect(placedBefore(null)).toBeUndefined();
    expect(placedBefore(undefined)).toBeUndefined();
  });
});
