import { describe, expect, it } from "vitest";
import { ExchangeError } from "../../lib/errors.js";
import { GATE_CLIENT_ID_RULE } from "../gate/rest.js";
import { checkClientOrderId, newClientOrderId } from "./client-order-id.js";

// docs/orders.md "Client order ids"; docs/decisions.md#d11
function refused(work: () => unknown): ExchangeError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error("expected a refusal");
}

describe("a caller's client order id is checked against the exchange's rule (docs/decisions.md#d11)", () => {
  it("accepts ids in the rule and every generated id", () => {
    expect(checkClientOrderId("bybit", { length: 32 }, "retry-42_a")).toBe("retry-42_a");
    expect(checkClientOrderId("gate", GATE_CLIENT_ID_RULE, "t-retry.42")).toBe("t-retry.42");
    for (const rule of [{ length: 32 }, GATE_CLIENT_ID_RULE, { length: 22, minLength: 4, chars: "A-Za-z0-9_" }]) {
      const id = newClientOrderId(rule);
      expect(checkClientOrderId("x", rule, id)).toBe(id);
    }
  });

  it("refuses what the exchange would refuse, naming the rule", () => {
    const okx = { length: 32, chars: "A-Za-z0-9" };
    const error = refused(() => checkClientOrderId("okx", okx, "retry-42"));
    expect(error.kind).toBe("bad-input");
    expect(error.message).toBe(
      "ExchangeId: okx, msg: Invalid client order id 'retry-42': okx takes 1 to 32 characters, using A-Za-z0-9",
    );
    expect(refused(() => checkClientOrderId("gate", GATE_CLIENT_ID_RULE, "retry42")).detail).toContain(
      "starting with 't-'",
    );
    expect(refused(() => checkClientOrderId("bybit", { length: 32 }, "a".repeat(33))).kind).toBe("bad-input");
    expect(refused(() => checkClientOrderId("bybit", { length: 32 }, "")).kind).toBe("bad-input");
    expect(refused(() => checkClientOrderId("xt", { length: 22, minLength: 4 }, "abc")).kind).toBe("bad-input");
    expect(refused(() => checkClientOrderId("bybit", { length: 32 }, "has space")).kind).toBe("bad-input");
  });
});
