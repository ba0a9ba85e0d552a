/**
 * Pins of lib/schemas.ts: what each field accepts, what it becomes, and the exact message a bad
 * value gets ("field: message" as the server's 600 body lists it, docs/api.md#errors)
 * (docs/dashboard-rules.md#validation, #constants; docs/api.md#calls; docs/mutation.md).
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import * as S from "../../lib/schemas.js";

/** The parsed value, or the issue lines of formatIssues. */
function check(schema: z.ZodType, value: unknown): { ok: unknown } | { issues: string[] } {
  const r = schema.safeParse(value);
  return r.success ? { ok: r.data } : { issues: S.formatIssues(r.error) };
}
const ok = (value: unknown) => ({ ok: value });
const bad = (...issues: string[]) => ({ issues });
const refused = (schema: z.ZodType, value: unknown) => expect(schema.safeParse(value).success).toBe(false);

const PAIR_MSG = "Write the pair as BASE/QUOTE, for example BTC/USDT";
const DEC_MSG = "Expected a decimal number such as 12.5";

describe("building blocks", () => {
  it("e-mail: trimmed, lower-cased, at most 254 characters, the whole text a standard address", () => {
    expect(check(S.emailSchema, " Ann.Lee@Example.COM ")).toEqual(ok("ann.lee@example.com"));
    expect(check(S.emailSchema, `${"a".repeat(248)}@b.com`)).toEqual(ok(`${"a".repeat(248)}@b.com`));
    expect(check(S.emailSchema, `${"a".repeat(249)}@b.com`)).toEqual(
      bad("Too big: expected string to have <=254 characters"),
    );
    for (const text of ["a@b", "@b.co", "a@.co", "a@b.", "a b@c.de", "x a@b.co", "a@b.co x", "a@@b.co", "a@b@c.de", ""])
      expect(check(S.emailSchema, text), text).toEqual(bad("Invalid e-mail"));
  });

  it("password: 8 to 1024 characters; code: exactly 8", () => {
    expect(check(S.passwordSchema, "1234567")).toEqual(bad("Password must be at least 8 characters"));
    expect(check(S.passwordSchema, "12345678")).toEqual(ok("12345678"));
    expect(check(S.passwordSchema, "x".repeat(1024))).toEqual(ok("x".repeat(1024)));
    refused(S.passwordSchema, "x".repeat(1025));
    for (const code of ["1234567", "123456789"])
      expect(check(S.codeSchema, code)).toEqual(bad("Code must be exactly 8 characters"));
    expect(check(S.codeSchema, "ABCD2345")).toEqual(ok("ABCD2345"));
  });

  it("decimal: a decimal text (trimmed, kept as text) or a finite number (as its text)", () => {
    for (const [input, output] of [
      ["12.5", "12.5"],
      [" 12.5 ", "12.5"],
      ["-3", "-3"],
      ["1.", "1."],
      [".5", ".5"],
      [".25", ".25"],
      ["-12.75", "-12.75"],
      ["007", "007"],
      [12.5, "12.5"],
      [-0.25, "-0.25"],
    ] as const)
      expect(check(S.decimalSchema, input), String(input)).toEqual(ok(output));
    for (const text of ["1e5", "--1", "1.2.3", "", ".", "-", "1,5", "x1", "1x", "+1"])
      expect(check(S.decimalSchema, text), text).toEqual(bad(DEC_MSG));
    for (const n of [Number.POSITIVE_INFINITY, Number.NaN]) refused(S.decimalSchema, n);
    // docs/server-limits.md "Bounded work": at most 40 characters, a number within ±10^15
    expect(check(S.decimalSchema, `0.${"1".repeat(38)}`)).toEqual(ok(`0.${"1".repeat(38)}`));
    expect(check(S.decimalSchema, `0.${"1".repeat(39)}`)).toEqual(bad("A decimal number has at most 40 characters"));
    expect(check(S.decimalSchema, "9".repeat(5000))).toEqual(bad("A decimal number has at most 40 characters"));
    expect(check(S.decimalSchema, -1e15)).toEqual(ok("-1000000000000000"));
    for (const n of [1e15 + 2, 1e308, -1e308])
      expect(check(S.decimalSchema, n), String(n)).toEqual(
        bad("A decimal number must lie between -1000000000000000 and 1000000000000000"),
      );
  });

  it("a numeric bot setting: a finite number or a numeric text, read as a number", () => {
    expect(check(S.rangeSchema, { min: " 1.5 ", max: "2." })).toEqual(ok({ min: 1.5, max: 2 }));
    expect(check(S.rangeSchema, { min: "-.5", max: 0 })).toEqual(ok({ min: -0.5, max: 0 }));
    expect(check(S.rangeSchema, { min: "-.25", max: "12.5" })).toEqual(ok({ min: -0.25, max: 12.5 }));
    expect(check(S.rangeSchema, { min: 2, max: 2 })).toEqual(ok({ min: 2, max: 2 }));
    expect(check(S.rangeSchema, { min: 3, max: 2 })).toEqual(bad("Range minimum must not exceed its maximum"));
    for (const min of ["abc", "1e3", "", "1.2.3", "x1", "1x", "Infinity", "9".repeat(41)])
      expect(check(S.rangeSchema, { min, max: 5 }), String(min)).toEqual(
        bad("min: Expected a number such as 12.5 (at most 40 characters)"),
      );
    for (const min of [Number.POSITIVE_INFINITY, Number.NaN, null, true])
      expect(check(S.rangeSchema, { min, max: 5 }), String(min)).toEqual(bad("min: Expected a finite number"));
    refused(S.rangeSchema, { min: 1, max: 2, step: 1 });
  });

  it("a numeric bot setting lies within ±MAX_NUMBER; its text has at most MAX_NUMBER_TEXT characters (docs/server-limits.md 'Bounded work')", () => {
    expect(S.MAX_NUMBER).toBe(1e15);
    expect(S.MAX_NUMBER_TEXT).toBe(40);
    const range = (min: unknown) => check(S.rangeSchema, { min, max: 1e15 });
    expect(range(-1e15)).toEqual(ok({ min: -1e15, max: 1e15 }));
    expect(range(`${"0".repeat(24)}1000000000000000`)).toEqual(ok({ min: 1e15, max: 1e15 }));
    for (const min of [1e15 + 2, -1e15 - 2, 1e308, -1e308, "1000000000000001"])
      expect(range(min), String(min)).toEqual(bad("min: Must lie between -1000000000000000 and 1000000000000000"));
  });

  it("account path: three trimmed segments of 1 to 100 characters", () => {
    expect(check(S.accountPathSchema, [" Acme ", "okx", "main"])).toEqual(ok(["Acme", "okx", "main"]));
    expect(check(S.accountPathSchema, ["a", " ", "c"])).toEqual(bad("1: Empty path segment"));
    expect(check(S.accountPathSchema, ["a".repeat(100), "b", "c"])).toEqual(ok(["a".repeat(100), "b", "c"]));
    refused(S.accountPathSchema, ["a".repeat(101), "b", "c"]);
    refused(S.accountPathSchema, ["a", "b"]);
    refused(S.accountPathSchema, ["a", "b", "c", "d"]);
  });

  it("side: Buy or Sell as written; scope: 'all' or at least one client", () => {
    expect(check(S.sideSchema, "Buy")).toEqual(ok("Buy"));
    expect(check(S.sideSchema, "Sell")).toEqual(ok("Sell"));
    refused(S.sideSchema, "buy");
    expect(check(S.scopeSchema, "all")).toEqual(ok("all"));
    expect(check(S.scopeSchema, [" Acme "])).toEqual(ok(["Acme"]));
    expect(check(S.scopeSchema, [])).toEqual(bad("Select at least one client"));
    refused(S.scopeSchema, "ALL");
    refused(S.scopeSchema, [""]);
    expect(S.MAX_SCOPE_CLIENTS).toBe(1000);
    expect(check(S.scopeSchema, Array(1000).fill("A"))).toHaveProperty("ok");
    expect(check(S.scopeSchema, Array(1001).fill("A"))).toEqual(bad("A scope holds at most 1000 clients"));
  });
});

describe("admin payloads (docs/api.md#calls)", () => {
  const envelope = { data: "00aaFF", pair: " btc/usdt ", active: false };

  it("envelope: hex data up to 16384 characters, the pair kept as sent but trimmed, strict", () => {
    expect(check(S.envelopeSchema, envelope)).toEqual(ok({ data: "00aaFF", pair: "btc/usdt", active: false }));
    expect(check(S.envelopeSchema, { ...envelope, data: "" })).toEqual(
      ok({ data: "", pair: "btc/usdt", active: false }),
    );
    expect(check(S.envelopeSchema, { ...envelope, data: "0g" })).toEqual(bad("data: Envelope data must be hex"));
    expect(check(S.envelopeSchema, { ...envelope, data: "g0" })).toEqual(bad("data: Envelope data must be hex"));
    expect(Object.hasOwn(check(S.envelopeSchema, { ...envelope, data: "a".repeat(16_384) }), "ok")).toBe(true);
    refused(S.envelopeSchema, { ...envelope, data: "a".repeat(16_385) });
    for (const pair of [
      "BTCUSDT",
      "BTC/",
      `${"A".repeat(21)}/USDT`,
      "BTC/USDT/X",
      "x BTC/USDT",
      "BTC/USDT x",
      "BT-C/USDT",
    ])
      expect(check(S.envelopeSchema, { ...envelope, pair }), pair).toEqual(bad(`pair: ${PAIR_MSG}`));
    expect(check(S.envelopeSchema, { ...envelope, pair: `${"A".repeat(20)}/${"B".repeat(20)}` })).toHaveProperty("ok");
    expect(check(S.envelopeSchema, { ...envelope, extra: 1 })).toEqual(bad('Unrecognized key: "extra"'));
    refused(S.envelopeSchema, { ...envelope, active: "true" });
  });

  it("API keys record and its removal: a path and an envelope, nothing more", () => {
    const path = ["Acme", "okx", "main"];
    expect(check(S.apiKeysRecordSchema, { path, apis: envelope })).toEqual(
      ok({ path, apis: { data: "00aaFF", pair: "btc/usdt", active: false } }),
    );
    refused(S.apiKeysRecordSchema, { path, apis: envelope, more: true });
    expect(check(S.removeApiKeysSchema, { path })).toEqual(ok({ path }));
    refused(S.removeApiKeysSchema, { path, apis: envelope });
  });

  it("user and scope: the e-mail as userId, lower-cased", () => {
    expect(check(S.setUserSchema, { userId: "Ann@Example.com", scope: "all" })).toEqual(
      ok({ userId: "ann@example.com", scope: "all" }),
    );
    expect(check(S.setUserSchema, { userId: "ann", scope: "all" })).toEqual(bad("userId: Invalid e-mail"));
    expect(check(S.changeScopeSchema, { scope: ["A", "B"] })).toEqual(ok({ scope: ["A", "B"] }));
    refused(S.changeScopeSchema, { scope: "all", userId: "a@b.co" });
  });

  it("token pair: an exchange, an upper-cased pair and whole decimals from 0 to 30", () => {
    expect(
      check(S.tokenPairSchema, { exchangeId: " okx ", pair: "eth/usdt", decimals: { price: 0, amount: 30 } }),
    ).toEqual(ok({ exchangeId: "okx", pair: "ETH/USDT", decimals: { price: 0, amount: 30 } }));
    expect(check(S.tokenPairSchema, { exchangeId: " ", pair: "x", decimals: { price: 31, amount: 1.5 } })).toEqual(
      bad(
        "exchangeId: Too small: expected string to have >=1 characters",
        `pair: ${PAIR_MSG}`,
        "decimals.price: Too big: expected number to be <=30",
        "decimals.amount: Invalid input: expected int, received number",
      ),
    );
    refused(S.tokenPairSchema, { exchangeId: "okx", pair: "A/B", decimals: { price: -1, amount: 0 } });
    refused(S.tokenPairSchema, { exchangeId: "x".repeat(101), pair: "A/B", decimals: { price: 1, amount: 0 } });
    expect(check(S.removeTokenPairSchema, { exchangeId: "okx ", pair: " a/b" })).toEqual(
      ok({ exchangeId: "okx", pair: "A/B" }),
    );
    refused(S.removeTokenPairSchema, { exchangeId: "", pair: "A/B" });
    for (const pair of ["x BTC/USDT", "BTC/USDT x", "BTC/USDT/X", "BTC/", `${"A".repeat(21)}/B`])
      expect(check(S.removeTokenPairSchema, { exchangeId: "okx", pair }), pair).toEqual(bad(`pair: ${PAIR_MSG}`));
  });
});

describe("order payloads", () => {
  it("create: price and amount as decimal text, a side", () => {
    expect(check(S.createOrderSchema, { price: 100.5, amount: " 0.1 ", side: "Sell" })).toEqual(
      ok({ price: "100.5", amount: "0.1", side: "Sell" }),
    );
    expect(check(S.createOrderSchema, { price: "1e3", amount: "1", side: "Buy" })).toEqual(bad(`price: ${DEC_MSG}`));
  });

  it("cancel: an id of 1 to 200 characters, an optional client id of up to 200 and an optional pair", () => {
    expect(check(S.cancelOrderSchema, { id: "1" })).toEqual(ok({ id: "1" }));
    expect(check(S.cancelOrderSchema, { id: "1", clientOID: null, customPair: null })).toEqual(
      ok({ id: "1", clientOID: null, customPair: null }),
    );
    expect(
      check(S.cancelOrderSchema, { id: "x".repeat(200), clientOID: "c".repeat(200), customPair: "btc/usdt" }),
    ).toEqual(ok({ id: "x".repeat(200), clientOID: "c".repeat(200), customPair: "BTC/USDT" }));
    expect(check(S.cancelOrderSchema, { id: "" })).toEqual(
      bad("id: Too small: expected string to have >=1 characters"),
    );
    refused(S.cancelOrderSchema, { id: "x".repeat(201) });
    refused(S.cancelOrderSchema, { id: "1", clientOID: "c".repeat(201) });
    expect(check(S.cancelOrderSchema, { id: "1", customPair: "BTCUSDT" })).toEqual(bad(`customPair: ${PAIR_MSG}`));
    expect(check(S.cancelAllSchema, {})).toEqual(ok({}));
    expect(check(S.cancelAllSchema, { customPair: "a/b" })).toEqual(ok({ customPair: "A/B" }));
    refused(S.cancelAllSchema, { id: "1" });
  });
});

describe("bot forms (docs/dashboard-rules.md#validation 'Bot forms', #constants defaults)", () => {
  it("floating bot: its defaults and bounds", () => {
    const main = { pair: "btc/usdt", side: "Buy", quote: "5" };
    expect(check(S.floatingBotSchema, { main })).toEqual(
      ok({ main: { pair: "BTC/USDT", side: "Buy", quote: 5, percent: 1, marginOfError: 0.1 }, modules: {} }),
    );
    expect(S.FLOATING_DEFAULTS).toEqual({ percent: 1, marginOfError: 0.1 });
    expect(check(S.floatingBotSchema, { main: { ...main, percent: 50, marginOfError: 1 } })).toHaveProperty("ok");
    expect(check(S.floatingBotSchema, { main: { ...main, percent: 0.01, marginOfError: 0 } })).toHaveProperty("ok");
    expect(check(S.floatingBotSchema, { main: { ...main, quote: 0, percent: 0, marginOfError: -0.1 } })).toEqual(
      bad(
        "main.quote: Quote must be greater than 0",
        "main.percent: Percent must be greater than 0 and at most 50",
        "main.marginOfError: Margin of error must be between 0 and 1",
      ),
    );
    expect(check(S.floatingBotSchema, { main: { ...main, percent: 50.01, marginOfError: 1.01 } })).toEqual(
      bad(
        "main.percent: Percent must be greater than 0 and at most 50",
        "main.marginOfError: Margin of error must be between 0 and 1",
      ),
    );
  });

  it("floating bot modules: known names, exactly their numeric params, absolute values, min <= max (docs/decisions.md#d21)", () => {
    expect(S.FLOATING_MODULES).toEqual([
      "dynamic-price",
      "dynamic-delay",
      "dynamic-quote",
      "price-bounds",
      "spending-limits",
    ]);
    expect(S.FLOATING_MODULE_PARAMS).toEqual({
      "dynamic-price": ["min", "max"],
      "dynamic-delay": ["min", "max"],
      "dynamic-quote": ["min", "max"],
      "price-bounds": ["min", "max"],
      "spending-limits": ["limit", "period"],
    });
    expect(S.moduleError("price-bounds")).toBe("Incorrect params for price-bounds module");
    const main = { pair: "A/B", side: "Sell", quote: 1 };
    const modules = (m: unknown) => check(S.floatingBotSchema, { main, modules: m });
    expect(
      modules({
        "dynamic-price": { min: "-2", max: " 3,5 " },
        "dynamic-delay": { min: 4, max: 4 },
        "dynamic-quote": { min: 0, max: 1 },
        "price-bounds": { min: "1", max: "2" },
        "spending-limits": { limit: 100, period: "-60" },
      }),
    ).toEqual(
      ok({
        main: { ...main, percent: 1, marginOfError: 0.1 },
        modules: {
          "dynamic-price": { min: 2, max: 3.5 },
          "dynamic-delay": { min: 4, max: 4 },
          "dynamic-quote": { min: 0, max: 1 },
          "price-bounds": { min: 1, max: 2 },
          "spending-limits": { limit: 100, period: 60 },
        },
      }),
    );
    // spending limits have no min and max to compare
    expect(modules({ "spending-limits": { limit: 100, period: 1 } })).toHaveProperty("ok");
    expect(modules({ "shadow-mode": {} })).toEqual(bad("modules.shadow-mode: Unknown module 'shadow-mode'"));
    for (const params of [
      { min: 2, max: 1 },
      { min: -3, max: 2 },
      { min: 1 },
      { max: 1 },
      { min: 1, max: 2, step: 1 },
      { min: "", max: 2 },
      { min: " ", max: 2 },
      { min: "x", max: 2 },
      { min: "Infinity", max: 2 },
      { min: null, max: 2 },
      { min: true, max: 2 },
      [1, 2],
      null,
      "1-2",
      5,
    ])
      expect(modules({ "dynamic-price": params }), JSON.stringify(params)).toEqual(
        bad("modules.dynamic-price: Incorrect params for dynamic-price module"),
      );
    // docs/server-limits.md "Bounded work": seconds at most a year, other params at most 10^15, texts at most 40 characters
    expect(modules({ "dynamic-delay": { min: 1, max: 31_536_001 } })).toEqual(
      bad("modules.dynamic-delay: Incorrect params for dynamic-delay module: max must be at most 31536000"),
    );
    expect(modules({ "spending-limits": { limit: 1e16, period: 60 } })).toEqual(
      bad(
        "modules.spending-limits: Incorrect params for spending-limits module: limit must be at most 1000000000000000",
      ),
    );
    expect(modules({ "price-bounds": { min: "9".repeat(5000), max: 2 } })).toEqual(
      bad("modules.price-bounds: Incorrect params for price-bounds module"),
    );
    expect(modules(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`m${i}`, {}])))).toEqual(
      bad("modules: At most 5 modules: dynamic-price, dynamic-delay, dynamic-quote, price-bounds, spending-limits"),
    );
    // every bad module is named, the good ones are not
    expect(modules({ x: 1, "price-bounds": { min: 1, max: 2 }, "dynamic-delay": {} })).toEqual(
      bad("modules.x: Unknown module 'x'", "modules.dynamic-delay: Incorrect params for dynamic-delay module"),
    );
  });

  it("grid bot: defaults, the bounds of percent, profit, rebalancing factor and the even order count", () => {
    const base = { pair: "a/b", quote: 10, size: 2 };
    expect(check(S.gridBotSchema, base)).toEqual(
      ok({ pair: "A/B", quote: 10, percent: 5, profit: 0.2, RF: 0.5, size: 2 }),
    );
    expect(S.GRID_DEFAULTS).toEqual({ profit: 0.2, percent: 5, RF: 0.5 });
    expect(check(S.gridBotSchema, { ...base, percent: 1, profit: 5, RF: 0 })).toHaveProperty("ok");
    expect(check(S.gridBotSchema, { ...base, percent: 99, profit: 0.001, RF: 1 })).toHaveProperty("ok");
    const messages = {
      percent: "percent: Percent must be between 1 and 99",
      profit: "profit: Profit must be greater than 0 and at most 5",
      RF: "RF: Rebalancing factor must be between 0 and 1",
      size: "size: Order count must be greater than 0 and even",
    };
    expect(check(S.gridBotSchema, { ...base, percent: 0.99, profit: 0, RF: -0.01 })).toEqual(
      bad(messages.percent, messages.profit, messages.RF),
    );
    expect(check(S.gridBotSchema, { ...base, percent: 99.01, profit: 5.01, RF: 1.01 })).toEqual(
      bad(messages.percent, messages.profit, messages.RF),
    );
    for (const size of [0, -2, 3, 2.5])
      expect(check(S.gridBotSchema, { ...base, size }), String(size)).toEqual(bad(messages.size));
    // docs/bots.md "Bounds": the grid's orders are capped like the arranger's
    expect(S.MAX_BOT_ORDERS).toBe(500);
    expect(check(S.gridBotSchema, { ...base, size: 500 })).toHaveProperty("ok");
    for (const size of [502, 10_000_000, 1e308, "1".repeat(30)])
      expect(check(S.gridBotSchema, { ...base, size }), String(size)).toEqual(
        bad("size: Order count must be at most 500"),
      );
    expect(check(S.gridBotSchema, { ...base, quote: -1 })).toEqual(bad("quote: Quote must be greater than 0"));
  });

  it("volume and heavy-volume bots: ranges, spread above 1, non-negative minimum quote", () => {
    const range = { min: 1, max: 2 };
    const volume = { pair: "a/b", volume: 5, minQuote: 0, priceRange: range, stepRange: range };
    expect(check(S.volumeBotSchema, volume)).toEqual(ok({ ...volume, pair: "A/B" }));
    expect(check(S.volumeBotSchema, { ...volume, acceptableSpread: 1.01 })).toHaveProperty("ok");
    expect(check(S.volumeBotSchema, { ...volume, volume: 0, minQuote: -1, acceptableSpread: 1 })).toEqual(
      bad(
        "volume: Volume must be greater than 0",
        "minQuote: Min quote must not be negative",
        "acceptableSpread: Acceptable spread must be greater than 1",
      ),
    );
    const heavy = { pair: "a/b", priceRange: range, tradesRange: range, quoteRange: range, stepRange: range };
    expect(check(S.heavyVolumeBotSchema, heavy)).toEqual(ok({ ...heavy, pair: "A/B" }));
    expect(check(S.heavyVolumeBotSchema, { ...heavy, period: 0 })).toEqual(
      bad("period: Period must be greater than 0"),
    );
    expect(check(S.heavyVolumeBotSchema, { ...heavy, period: 31_536_000 })).toHaveProperty("ok");
    expect(check(S.heavyVolumeBotSchema, { ...heavy, period: 31_536_001 })).toEqual(
      bad("period: Period must be at most 31536000 seconds (365 days)"),
    );
    expect(check(S.heavyVolumeBotSchema, { ...heavy, tradesRange: { min: 3, max: 1 } })).toEqual(
      bad("tradesRange: Range minimum must not exceed its maximum"),
    );
  });

  it("spread-decompression bot: the seed's defaults and each field's message", () => {
    expect(S.SD_DEFAULTS).toEqual({
      quoteUp: 10,
      dailyQuoteUp: 100,
      quoteDown: 10,
      dailyQuoteDown: 100,
      refillPeriod: 60,
      delay: 10,
      minQuote: 2,
    });
    expect(check(S.spreadDecompressionBotSchema, { pair: "a/b" })).toEqual(ok({ pair: "A/B", ...S.SD_DEFAULTS }));
    expect(
      check(S.spreadDecompressionBotSchema, {
        pair: "a/b",
        dailyQuoteUp: 0,
        dailyQuoteDown: 0,
        minQuote: 0,
        delay: 0,
      }),
    ).toHaveProperty("ok");
    expect(
      check(S.spreadDecompressionBotSchema, {
        pair: "a/b",
        quoteUp: 0,
        dailyQuoteUp: -1,
        quoteDown: 0,
        dailyQuoteDown: -1,
        minQuote: -1,
        refillPeriod: 0,
        delay: -1,
        acceptableSpread: 0.5,
      }),
    ).toEqual(
      bad(
        "quoteUp: Quote up must be greater than 0",
        "dailyQuoteUp: Daily quote up must not be negative",
        "quoteDown: Quote down must be greater than 0",
        "dailyQuoteDown: Daily quote down must not be negative",
        "minQuote: Min quote must not be negative",
        "refillPeriod: Refill period must be greater than 0",
        "delay: Delay must not be negative",
        "acceptableSpread: Acceptable spread must be greater than 1",
      ),
    );
    expect(S.MAX_SETUP_SECONDS).toBe(365 * 86_400);
    expect(check(S.spreadDecompressionBotSchema, { pair: "a/b", refillPeriod: 1e9, delay: "31536001" })).toEqual(
      bad(
        "refillPeriod: Refill period must be at most 31536000 seconds (365 days)",
        "delay: Delay must be at most 31536000 seconds (365 days)",
      ),
    );
  });

  it("candle-closer bot: quote and optional period above 0", () => {
    expect(check(S.candleCloserBotSchema, { pair: "a/b", quote: 1 })).toEqual(ok({ pair: "A/B", quote: 1 }));
    expect(check(S.candleCloserBotSchema, { pair: "a/b", quote: 0, period: -1 })).toEqual(
      bad("quote: Quote must be greater than 0", "period: Period must be greater than 0"),
    );
  });

  it("liquidity arranger: 1 to 500 whole orders, positive prices, non-negative quantities, strategies", () => {
    expect(S.PRICE_STRATEGIES).toEqual(["linear", "gauss", "exponential3", "exponential5", "exponential10"]);
    expect(S.VOLUME_STRATEGIES).toEqual([...S.PRICE_STRATEGIES, "inverseGauss"]);
    const base = { pair: "a/b", ordersAmount: 1, P0: 1, P1: 2, Q0: 0, Q1: 0 };
    expect(check(S.liquidityArrangerBotSchema, base)).toEqual(
      ok({ ...base, pair: "A/B", priceStrategy: "linear", volumeStrategy: "linear" }),
    );
    expect(
      check(S.liquidityArrangerBotSchema, { ...base, ordersAmount: 500, side: "Sell", volumeStrategy: "inverseGauss" }),
    ).toHaveProperty("ok");
    for (const ordersAmount of [0, 501, 2.5])
      expect(check(S.liquidityArrangerBotSchema, { ...base, ordersAmount }), String(ordersAmount)).toEqual(
        bad("ordersAmount: Orders amount must be a whole number from 1 to 500"),
      );
    expect(check(S.liquidityArrangerBotSchema, { ...base, P0: 0, P1: -1, Q0: -1, Q1: -0.5 })).toEqual(
      bad(
        "P0: P0 must be greater than 0",
        "P1: P1 must be greater than 0",
        "Q0: Q0 must not be negative",
        "Q1: Q1 must not be negative",
      ),
    );
    refused(S.liquidityArrangerBotSchema, { ...base, priceStrategy: "inverseGauss" });
  });
});

describe("bot setup and the lists around it (docs/api.md#calls, docs/decisions.md#d16)", () => {
  it("names every bot type, its list order and the ones never run", () => {
    expect(S.BOT_TYPES).toEqual([
      "floating-bot",
      "grid-bot",
      "volume-bot",
      "heavy-volume-bot",
      "spread-decompression-bot",
      "candle-closer-bot",
      "liquidity-arranger-bot",
    ]);
    expect(S.BOT_SCHEMAS["grid-bot"]).toBe(S.gridBotSchema);
    expect(S.BOT_LIST_ORDER).toEqual({
      "floating-bot": 0,
      "spread-decompression-bot": 1,
      "candle-closer-bot": 2,
      "heavy-volume-bot": 18,
      "volume-bot": 19,
      "grid-bot": 20,
      "liquidity-arranger-bot": 21,
    });
    expect(S.NOT_RUN_BOT_TYPES).toEqual(["volume-bot", "heavy-volume-bot", "candle-closer-bot"]);
    expect(S.WASH_TRADING_REASON).toBe(
      "Not run: this bot would trade against itself to print volume or move a candle; self-matching is wash trading, forbidden by exchanges' rules and market-abuse law.",
    );
  });

  it("parses the setup with its type's schema, under 'setup.'", () => {
    expect(check(S.setupBotSchema, { botType: "grid-bot", setup: { pair: "a/b", quote: 1, size: 2 } })).toEqual(
      ok({
        botType: "grid-bot",
        setup: { pair: "A/B", quote: 1, percent: 5, profit: 0.2, RF: 0.5, size: 2 },
        paths: [],
      }),
    );
    expect(check(S.setupBotSchema, { botType: "grid-bot", setup: { pair: "a/b", quote: 1, size: 3 } })).toEqual(
      bad("setup.size: Order count must be greater than 0 and even"),
    );
    expect(check(S.setupBotSchema, { botType: "candle-closer-bot", setup: undefined })).toEqual(
      bad("setup: Invalid input: expected object, received undefined"),
    );
    refused(S.setupBotSchema, { botType: "mystery-bot", setup: {} });
    refused(S.setupBotSchema, { botType: "grid-bot", setup: { pair: "a/b", quote: 1, size: 2 }, extra: 1 });
  });

  it("takes extra account paths for heavy-volume bots only, up to 20", () => {
    const range = { min: 1, max: 2 };
    const heavy = { pair: "a/b", priceRange: range, tradesRange: range, quoteRange: range, stepRange: range };
    const path = ["Acme", "okx", "main"];
    expect(check(S.setupBotSchema, { botType: "heavy-volume-bot", setup: heavy, paths: [path] })).toEqual(
      ok({ botType: "heavy-volume-bot", setup: { ...heavy, pair: "A/B" }, paths: [path] }),
    );
    expect(
      check(S.setupBotSchema, { botType: "grid-bot", setup: { pair: "a/b", quote: 1, size: 2 }, paths: [path] }),
    ).toEqual(bad("paths: Only heavy-volume bots take extra account paths"));
    expect(
      check(S.setupBotSchema, { botType: "grid-bot", setup: { pair: "a/b", quote: 1, size: 2 }, paths: [] }),
    ).toHaveProperty("ok");
    expect(
      check(S.setupBotSchema, { botType: "heavy-volume-bot", setup: heavy, paths: Array(20).fill(path) }),
    ).toHaveProperty("ok");
    expect(check(S.setupBotSchema, { botType: "heavy-volume-bot", setup: heavy, paths: Array(21).fill(path) })).toEqual(
      bad("paths: A bot takes at most 20 extra account paths"),
    );
  });

  it("bot removal and the live subscription: bounded ids and token", () => {
    expect(check(S.removeBotSchema, { botId: "b".repeat(100) })).toHaveProperty("ok");
    refused(S.removeBotSchema, { botId: "" });
    refused(S.removeBotSchema, { botId: "b".repeat(101) });
    const sub = { purpose: "sub_for_bots", userId: "u", token: "t" };
    expect(check(S.liveSubscribeSchema, sub)).toEqual(ok(sub));
    expect(check(S.liveSubscribeSchema, { ...sub, userId: "u".repeat(100), token: "t".repeat(4096) })).toHaveProperty(
      "ok",
    );
    for (const wrong of [
      { purpose: "sub_for_orders" },
      { userId: "" },
      { userId: "u".repeat(101) },
      { token: "" },
      { token: "t".repeat(4097) },
    ])
      refused(S.liveSubscribeSchema, { ...sub, ...wrong });
  });

  it("formats an issue without a path as its message alone", () => {
    expect(check(S.rangeSchema, { min: 2, max: 1 })).toEqual(bad("Range minimum must not exceed its maximum"));
    expect(check(S.removeBotSchema, { botId: 1 })).toEqual(
      bad("botId: Invalid input: expected string, received number"),
    );
  });
});
