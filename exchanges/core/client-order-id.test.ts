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

describe("generated client order ids have the rule's length and prefix (docs/decisions.md#d11)", () => {
  it("are 32 lower-case hexadecimal characters by default, each one new", () => {
    const ids = new Set(Array.from({ length: 50 }, () => newClientOrderId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
  });

  it("fill the rule's length after its prefix, odd lengths included", () => {
    expect(newClientOrderId({ prefix: "t-", length: 30 })).toMatch(/^t-[0-9a-f]{28}$/);
    expect(newClientOrderId({ length: 9 })).toMatch(/^[0-9a-f]{9}$/);
    expect(newClientOrderId({ prefix: "ab", length: 11 })).toMatch(/^ab[0-9a-f]{9}$/);
    expect(newClientOrderId({ length: 8 })).toMatch(/^[0-9a-f]{8}$/);
  });

  it("refuse a rule that leaves fewer than 8 characters after the prefix", () => {
    expect(() => newClientOrderId({ length: 7 })).toThrow("Client order id rule leaves too few characters (7)");
    expect(() => newClientOrderId({ prefix: "t-", length: 9 })).toThrow(
      "Client order id rule leaves too few characters (7)",
    );
  });
});

describe('the rule\'s bounds, exactly (docs/orders.md "Client order ids")', () => {
  it("takes the longest and the shortest id the rule allows and refuses one character more or less", () => {
    const rule = { length: 32, maxLength: 36, minLength: 4 };
    expect(checkClientOrderId("x", rule, "a".repeat(36))).toBe("a".repeat(36));
    expect(refused(() => checkClientOrderId("x", rule, "a".repeat(37))).detail).toBe(
      `Invalid client order id '${"a".repeat(37)}': x takes 4 to 36 characters, using A-Za-z0-9_-`,
    );
    expect(checkClientOrderId("x", rule, "abcd")).toBe("abcd");
    expect(refused(() => checkClientOrderId("x", rule, "abc")).kind).toBe("bad-input");
    expect(checkClientOrderId("x", { length: 20 }, "b".repeat(20))).toBe("b".repeat(20));
    expect(refused(() => checkClientOrderId("x", { length: 20 }, "b".repeat(21))).detail).toContain(
      "1 to 20 characters",
    );
    expect(checkClientOrderId("x", {}, "c".repeat(32))).toBe("c".repeat(32));
    expect(refused(() => checkClientOrderId("x", {}, "c".repeat(33))).detail).toContain("1 to 32 characters");
  });

  it("needs one character after a prefix, checks the characters after it only, and names it", () => {
    const rule = { prefix: "t-", length: 30, chars: "0-9" };
    expect(checkClientOrderId("gate", rule, "t-1")).toBe("t-1");
    expect(refused(() => checkClientOrderId("gate", rule, "t-")).detail).toBe(
      "Invalid client order id 't-': gate takes 3 to 30 characters starting with 't-', using 0-9",
    );
    expect(refused(() => checkClientOrderId("gate", rule, "t-1a")).kind).toBe("bad-input");
    expect(refused(() => checkClientOrderId("gate", rule, "x-12")).kind).toBe("bad-input");
    const error = refused(() => checkClientOrderId("gate", rule, "a-b"));
    expect([error.exchange, error.kind]).toEqual(["gate", "bad-input"]);
  });
});
