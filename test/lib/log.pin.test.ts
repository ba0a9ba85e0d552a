/** Pins of lib/log.ts: what redact() hides before anything is logged (docs/mutation.md). */
import { describe, expect, it } from "vitest";
import { redact, SECRET_FIELD, silentLogger } from "../../lib/log.js";

describe("redact", () => {
  it.each([
    "secret",
    "apiSecret",
    "password",
    "PASSWORD",
    "passphrase",
    "apikey",
    "api-key",
    "api_key",
    "X-API-KEY",
    "key",
    "KEY",
    "token",
    "accessToken",
    "signature",
    "authorization",
    "Cookie",
    "sign",
    "OK-ACCESS-SIGN",
  ])("hides the value of a field named '%s'", (name) => {
    expect(redact({ [name]: "s3cr3t", pair: "BTC/USDT" })).toEqual({ [name]: "[redacted]", pair: "BTC/USDT" });
  });

  it.each(["monkey", "keys", "keyboard", "pair", "price", "amount", "id", "kind"])(
    "keeps the value of a field named '%s'",
    (name) => {
      expect(SECRET_FIELD.test(name)).toBe(false);
      expect(redact({ [name]: "visible" })).toEqual({ [name]: "visible" });
    },
  );

  it("hides a secret object whole, and walks objects and arrays below other fields", () => {
    const value = {
      headers: { "x-api-key": "k", accept: "json" },
      orders: [{ id: "1", signature: "sig" }, "plain", 7, null],
      secret: { nested: "x" },
    };
    expect(redact(value)).toEqual({
      headers: { "x-api-key": "[redacted]", accept: "json" },
      orders: [{ id: "1", signature: "[redacted]" }, "plain", 7, null],
      secret: "[redacted]",
    });
    // the original is left as it was
    expect(value.headers["x-api-key"]).toBe("k");
  });

  it("returns what is not an object as it is", () => {
    expect(redact(null)).toBeNull();
    expect(redact(undefined)).toBeUndefined();
    expect(redact("token")).toBe("token");
    expect(redact(12)).toBe(12);
  });

  it("walks six levels below the top and leaves the seventh as it is", () => {
    // levels 0..7, each holding a token; level 7 is beyond the depth limit
    let deepest: Record<string, unknown> = { token: "t7" };
    const levels: Record<string, unknown>[] = [deepest];
    for (let i = 6; i >= 0; i--) {
      deepest = { token: `t${i}`, next: deepest };
      levels.unshift(deepest);
    }
    let out = redact(levels[0]) as Record<string, unknown>;
    for (let i = 0; i < 7; i++) {
      expect(out.token, `level ${i}`).toBe("[redacted]");
      out = out.next as Record<string, unknown>;
    }
    expect(out).toBe(levels[7]);
    expect(out.token).toBe("t7");
  });

  it("counts an array as a level", () => {
    let value: unknown = { token: "deep" };
    for (let i = 0; i < 6; i++) value = [value];
    // the object sits at depth 6 below six arrays: still walked
    let out = redact(value);
    for (let i = 0; i < 6; i++) out = (out as unknown[])[0];
    expect(out).toEqual({ token: "[redacted]" });
    const seven: unknown = [[[[[[[{ token: "deep" }]]]]]]];
    let out7 = redact(seven);
    for (let i = 0; i < 7; i++) out7 = (out7 as unknown[])[0];
    expect(out7).toEqual({ token: "deep" });
  });
});

describe("silentLogger", () => {
  it("takes every level and writes nothing", () => {
    for (const level of ["debug", "info", "warn", "error"] as const) {
      expect(silentLogger[level]("message", { token: "x" })).toBeUndefined();
    }
  });
});
