import { describe, expect, it } from "vitest";
import {
  type BotIndicator,
  type BotStateLike,
  botIndicator,
  DEFAULT_VOLUME_PERIOD_SEC,
  indicatorText,
} from "../../lib/bot-status.js";

/*
 * The bot indicator (docs/dashboard-rules.md#states "Bot indicator colours", docs/web-trading.md
 * "Bots") at the edges bot-status.test.ts leaves open (docs/mutation.md): the volume bots' own
 * period, the bots of other types, and the words of each colour.
 */
const NOW = Date.UTC(2026, 0, 1, 12);
const bot = (b: Partial<BotStateLike>): BotStateLike => ({ botType: "volume-bot", status: "running", setup: {}, ...b });
const volume = (secondsAgo: number, setup: unknown) =>
  botIndicator(bot({ setup, lastTrade: NOW - secondsAgo * 1000 }), NOW);

describe("volume bots: judged in units of their own period", () => {
  it("uses the bot's own period when it is a positive number", () => {
    // 10 s periods: 25 s is 2.5 periods, 26 s more; 50 s is 5, 51 s more
    expect(volume(25, { period: 10 })).toBe("good");
    expect(volume(26, { period: 10 })).toBe("warning");
    expect(volume(50, { period: 10 })).toBe("warning");
    expect(volume(51, { period: 10 })).toBe("bad");
    // 600 s periods: 1000 s is under 2 periods
    expect(volume(1000, { period: 600 })).toBe("good");
    expect(volume(0.2, { period: 0.1 })).toBe("good");
    expect(volume(0.6, { period: 0.1 })).toBe("bad");
  });

  it("falls back to 60 s for a period that is missing, zero, negative, not a number or text", () => {
    expect(DEFAULT_VOLUME_PERIOD_SEC).toBe(60);
    for (const setup of [
      {},
      null,
      undefined,
      { period: 0 },
      { period: -10 },
      { period: Number.NaN },
      { period: "600" },
      { period: "1" },
      { period: null },
    ]) {
      // 60 s periods: 120 s is good, 200 s warning, 400 s bad
      expect(volume(120, setup), JSON.stringify(setup)).toBe("good");
      expect(volume(200, setup), JSON.stringify(setup)).toBe("warning");
      expect(volume(400, setup), JSON.stringify(setup)).toBe("bad");
    }
  });

  it("is bad with no trade yet, whatever its period", () => {
    expect(botIndicator(bot({ setup: { period: 10 } }), NOW)).toBe("bad");
    expect(botIndicator(bot({ botType: "heavy-volume-bot", setup: null }), NOW)).toBe("bad");
  });
});

describe("grid bots: either side missing", () => {
  it("is a warning with only the sell side, as with only the buy side, and bad with neither", () => {
    expect(botIndicator(bot({ botType: "grid-bot", onSell: 2 }), NOW)).toBe("warning");
    expect(botIndicator(bot({ botType: "grid-bot", onBuy: 2 }), NOW)).toBe("warning");
    expect(botIndicator(bot({ botType: "grid-bot", onBuy: 0, onSell: 0 }), NOW)).toBe("good");
    expect(botIndicator(bot({ botType: "grid-bot", onBuy: undefined, onSell: undefined }), NOW)).toBe("bad");
  });
});

describe("bots of the other types: running or not", () => {
  it("is ok while a bot of another type runs, and no order in any other status", () => {
    for (const botType of ["spread-decompression-bot", "candle-closer", "future-bot"]) {
      expect(botIndicator(bot({ botType, status: "running" }), NOW), botType).toBe("good");
      expect(botIndicator(bot({ botType, status: "starting" as never }), NOW), botType).toBe("idle");
      expect(botIndicator(bot({ botType, status: "stopped" }), NOW), botType).toBe("idle");
      expect(botIndicator(bot({ botType, status: "not run" }), NOW), botType).toBe("not-run");
    }
  });
});

describe("indicator words: the accessible name and tooltip of each colour", () => {
  it("names every colour with its own words", () => {
    const words: Record<BotIndicator, string> = {
      good: "ok",
      warning: "warning",
      bad: "alert",
      idle: "no order",
      "not-run": "not run",
    };
    for (const [indicator, text] of Object.entries(words)) expect(indicatorText(indicator as BotIndicator)).toBe(text);
  });

  it("words what botIndicator says", () => {
    expect(indicatorText(botIndicator(bot({ status: "backing-off" }), NOW))).toBe("alert");
    expect(indicatorText(botIndicator(bot({ botType: "floating-bot", order: null }), NOW))).toBe("no order");
  });
});
