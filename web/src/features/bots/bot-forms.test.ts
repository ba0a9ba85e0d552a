/** The bot forms' rules (docs/dashboard-rules.md#validation "Bot forms", docs/dashboard-rules.md#constants defaults; docs/web-trading.md "Bots"). */
import { describe, expect, it } from "vitest";
import type { AccountPath } from "../../../../lib/api.js";
import { botsOfPair } from "./BotsDialog";
import { initialValues, setupOf, validateSetup } from "./bot-forms";
import type { LiveBot } from "./bots-store";

describe("bot forms", () => {
  it("start from the seed's defaults (docs/dashboard-rules.md#constants)", () => {
    expect(initialValues("grid-bot")).toMatchObject({ percent: "5", profit: "0.2", RF: "0.5", quote: "", size: "" });
    expect(initialValues("floating-bot")).toMatchObject({ percent: "1", marginOfError: "0.1", side: "Buy" });
    expect(initialValues("spread-decompression-bot")).toMatchObject({
      quoteUp: "10",
      dailyQuoteUp: "100",
      quoteDown: "10",
      dailyQuoteDown: "100",
      refillPeriod: "60",
      delay: "10",
      minQuote: "2",
    });
  });
  it("report a range only when both ends are set (docs/dashboard-rules.md#validation)", () => {
    expect(
      setupOf("volume-bot", "BTC/USDT", { ...initialValues("volume-bot"), "priceRange.min": "1" }),
    ).not.toHaveProperty("priceRange");
  });
  it("grid: order count > 0 and even", () => {
    const v = { ...initialValues("grid-bot"), quote: "100", size: "3" };
    expect(validateSetup("grid-bot", "BTC/USDT", v)).toEqual({
      ok: false,
      errors: ["size: Order count must be greater than 0 and even"],
    });
    expect(validateSetup("grid-bot", "BTC/USDT", { ...v, size: "4" })).toEqual({
      ok: true,
      setup: { pair: "BTC/USDT", quote: 100, percent: 5, profit: 0.2, RF: 0.5, size: 4 },
    });
  });
  it("floating: a module whose params are not numbers, or min above max, reads 'Incorrect params for {module} module'; inputs take absolute values (docs/dashboard-rules.md#validation, docs/decisions.md#d21)", () => {
    const v = {
      ...initialValues("floating-bot"),
      quote: "10",
      "module:price-bounds": "on",
      "module:price-bounds.min": "6",
      "module:price-bounds.max": "5",
    };
    expect(validateSetup("floating-bot", "BTC/USDT", v)).toEqual({
      ok: false,
      errors: ["Incorrect params for price-bounds module"],
    });
    expect(validateSetup("floating-bot", "BTC/USDT", { ...v, "module:price-bounds.min": "abc" }).ok).toBe(false);
    // -1 is read as 1
    const ok = validateSetup("floating-bot", "BTC/USDT", { ...v, "module:price-bounds.min": "-1" });
    expect(ok).toEqual({
      ok: true,
      setup: {
        main: { pair: "BTC/USDT", side: "Buy", quote: 10, percent: 1, marginOfError: 0.1 },
        modules: { "price-bounds": { min: 1, max: 5 } },
      },
    });
  });
  it("SD, CC, volume, liquidity refuse the seed's invalid values", () => {
    expect(
      validateSetup("spread-decompression-bot", "BTC/USDT", {
        ...initialValues("spread-decompression-bot"),
        refillPeriod: "0",
      }).ok,
    ).toBe(false);
    expect(validateSetup("candle-closer-bot", "BTC/USDT", { quote: "5", acceptableSpread: "1" }).ok).toBe(false);
    expect(validateSetup("candle-closer-bot", "BTC/USDT", { quote: "5", acceptableSpread: "1.01" }).ok).toBe(true);
    const volume = {
      volume: "10",
      minQuote: "1",
      "priceRange.min": "2",
      "priceRange.max": "1",
      "stepRange.min": "1",
      "stepRange.max": "1",
    };
    expect(validateSetup("volume-bot", "BTC/USDT", volume)).toEqual({
      ok: false,
      errors: ["priceRange: Range minimum must not exceed its maximum"],
    });
    const liquidity = {
      ...initialValues("liquidity-arranger-bot"),
      ordersAmount: "5",
      P0: "0",
      P1: "2",
      Q0: "1",
      Q1: "2",
    };
    expect(validateSetup("liquidity-arranger-bot", "BTC/USDT", liquidity)).toEqual({
      ok: false,
      errors: ["P0: P0 must be greater than 0"],
    });
    // docs/decisions.md#d24: no side is both sides
    expect(validateSetup("liquidity-arranger-bot", "BTC/USDT", { ...liquidity, P0: "1" }).ok).toBe(true);
    expect(validateSetup("liquidity-arranger-bot", "BTC/USDT", { ...liquidity, P0: "1", side: "Sell" }).ok).toBe(true);
  });
});

describe("bot list (docs/dashboard-rules.md#states, #constants)", () => {
  const path: AccountPath = ["Demo", "paper", "main"];
  const bot = (botId: string, botType: string, pair = "BTC/USDT", p: AccountPath = path): LiveBot =>
    ({
      botId,
      botType,
      path: p,
      paths: [],
      setup: botType === "floating-bot" ? { main: { pair } } : { pair },
      status: "stopped",
      created: 1,
    }) as LiveBot;
  it("keeps the bots of this account and pair, in the seed's order", () => {
    const list = [
      bot("g", "grid-bot"),
      bot("v", "volume-bot"),
      bot("f", "floating-bot"),
      bot("x", "grid-bot", "ETH/USDT"),
      bot("y", "grid-bot", "BTC/USDT", ["Demo", "paper", "other"]),
      bot("hv", "heavy-volume-bot"),
      bot("sd", "spread-decompression-bot"),
      bot("cc", "candle-closer-bot"),
    ];
    expect(botsOfPair(list, path, "BTC/USDT").map((b) => b.botId)).toEqual(["f", "sd", "cc", "hv", "v", "g"]);
  });
});
