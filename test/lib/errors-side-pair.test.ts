import { describe, expect, it } from "vitest";
import { ERROR_KINDS, EXIT_CODES, ExchangeError, isExchangeError } from "../../lib/errors.js";
import { byPair, exchangeSymbol, normalizePair, parsePair } from "../../lib/pair.js";
import { parseSide } from "../../lib/side.js";

describe("docs/exchange-rules.md#errors error form 'ExchangeId: {id}, msg: {message}'", () => {
  it("writes the message in the seed's form and keeps the detail apart (docs/exchange-rules.md#errors)", () => {
    const error = new ExchangeError("bybit", "Insufficient balance", { kind: "insufficient-funds", code: 170131 });
    expect(error.message).toBe("ExchangeId: bybit, msg: Insufficient balance");
    expect(error.detail).toBe("Insufficient balance");
    expect(error.exchange).toBe("bybit");
    expect(error.kind).toBe("insufficient-funds");
    expect(error.code).toBe(170131);
    expect(error.name).toBe("ExchangeError");
    expect(error).toBeInstanceOf(Error);
    expect(isExchangeError(error)).toBe(true);
    expect(isExchangeError(new Error("x"))).toBe(false);
  });

  it("carries 'an optional code' only when there is one (docs/exchange-rules.md#errors)", () => {
    const error = new ExchangeError("htx", "No account found for spot trading for this api key", { kind: "auth" });
    expect(error.code).toBeUndefined();
    expect(error.toJSON()).toEqual({
      exchange: "htx",
      kind: "auth",
      message: "ExchangeId: htx, msg: No account found for spot trading for this api key",
    });
    expect(new ExchangeError("kucoin", "x", { kind: "network", code: "400100" }).toJSON().code).toBe("400100");
  });

  it("keeps the cause and the rate-limit wait", () => {
    const cause = new Error("socket hang up");
    const error = new ExchangeError("okx", "Transaction failed (50011, Too Many Requests)", {
      kind: "rate-limit",
      retryAfterMs: 1000,
      cause,
    });
    expect(error.cause).toBe(cause);
    expect(error.retryAfterMs).toBe(1000);
  });

  it("has a distinct non-zero exit code per kind (docs/product.md#cli-surface); config shares bad-input's 2 (docs/cli.md)", () => {
    const kinds = ERROR_KINDS.filter((kind) => kind !== "config");
    const codes = kinds.map((kind) => EXIT_CODES[kind]);
    expect(new Set(codes).size).toBe(kinds.length);
    expect(EXIT_CODES.config).toBe(2);
    for (const code of codes) {
      expect(code).toBeGreaterThan(1);
      expect(code).toBeLessThan(126);
    }
  });
});

describe("docs/exchange-rules.md#entities 'side: Buy or Sell, produced by a shared side parser'", () => {
  it("reads every exchange's buy spelling as Buy", () => {
    for (const raw of [
      "buy",
      "BUY",
      "Buy",
      " buy ",
      "bid",
      "1",
      1,
      "buy-limit",
      "buy-market",
      "buy-limit-maker",
      "buy_limit",
    ]) {
      expect(parseSide(raw), String(raw)).toBe("Buy");
    }
  });

  it("reads every exchange's sell spelling as Sell", () => {
    for (const raw of ["sell", "SELL", "Sell", "ask", "2", 2, "sell-limit", "sell-ioc", "sell-stop-limit"]) {
      expect(parseSide(raw), String(raw)).toBe("Sell");
    }
  });

  it("refuses anything else, naming it", () => {
    for (const raw of ["", "hold", "3", undefined, null, "buyer", "limit-buy"]) {
      expect(() => parseSide(raw), String(raw)).toThrow(`Unknown order side '${String(raw)}'`);
    }
  });
});

describe("pairs (docs/dashboard-rules.md#screens 'Pair (like BTC/USDT)', docs/exchange-rules.md#calls symbol formats)", () => {
  it("parses BASE/QUOTE and upper-cases it", () => {
    expect(parsePair("btc/usdt")).toEqual({ base: "BTC", quote: "USDT" });
    expect(parsePair(" 1INCH/USDT ")).toEqual({ base: "1INCH", quote: "USDT" });
    expect(normalizePair("eth/Usdt")).toBe("ETH/USDT");
  });

  it("refuses other forms with a bad-input error naming the pair and the exchange", () => {
    for (const bad of ["BTCUSDT", "BTC-USDT", "BTC/", "/USDT", "BTC/USDT/X", "", "BT C/USDT"]) {
      let caught: unknown;
      try {
        parsePair(bad, "gate");
      } catch (error) {
        caught = error;
      }
      expect(caught, bad).toBeInstanceOf(ExchangeError);
      const error = caught as ExchangeError;
      expect(error.kind).toBe("bad-input");
      expect(error.message).toBe(
        `ExchangeId: gate, msg: Invalid pair '${bad}': write it as BASE/QUOTE, for example BTC/USDT`,
      );
    }
  });

  it("writes 'BTC-USDT, BTCUSDT or BTC_USDT, in lower or upper case' (docs/exchange-rules.md#calls)", () => {
    expect(exchangeSymbol("btc/usdt", "-")).toBe("BTC-USDT");
    expect(exchangeSymbol("BTC/USDT", "")).toBe("BTCUSDT");
    expect(exchangeSymbol("BTC/USDT", "_")).toBe("BTC_USDT");
    expect(exchangeSymbol("BTC/USDT", "", true)).toBe("btcusdt");
    expect(exchangeSymbol("BTC/USDT", "_", true)).toBe("btc_usdt");
  });
});

describe("byPair (docs/exchange-rules.md#pairs: lists sorted by pair)", () => {
  it("orders by pair code unit by code unit, equal pairs as equal", () => {
    const pairs = ["ETH/USDT", "BTC/USDT", "ETH/BTC", "1INCH/USDT", "BTC/EUR"].map((pair) => ({ pair }));
    expect(pairs.sort(byPair).map((p) => p.pair)).toEqual(["1INCH/USDT", "BTC/EUR", "BTC/USDT", "ETH/BTC", "ETH/USDT"]);
    expect(byPair({ pair: "BTC/USDT" }, { pair: "BTC/USDT" })).toBe(0);
    expect(byPair({ pair: "ETH/BTC" }, { pair: "BTC/USDT" })).toBe(1);
    expect(byPair({ pair: "BTC/USDT" }, { pair: "ETH/BTC" })).toBe(-1);
  });
});
