import { describe, expect, it } from "vitest";
import { type BotStateLike, botIndicator } from "../../lib/bot-status.js";

const NOW = Date.UTC(2026, 0, 1, 12);
const bot = (b: Partial<BotStateLike>): BotStateLike => ({
  botType: "floating-bot",
  status: "running",
  setup: {},
  ...b,
});

describe("bot indicator colours (docs/dashboard-rules.md#states, docs/decisions.md#d16; docs/web-trading.md 'Bots')", () => {
  it("floating: one colour with an order, another without", () => {
    expect(botIndicator(bot({ order: { id: "1" } as never }), NOW)).toBe("good");
    expect(botIndicator(bot({ order: null }), NOW)).toBe("idle");
  });
  it("grid: ok when onBuy equals onSell, warning when one is missing or they differ, alert when both are missing", () => {
    expect(botIndicator(bot({ botType: "grid-bot", onBuy: 3, onSell: 3 }), NOW)).toBe("good");
    expect(botIndicator(bot({ botType: "grid-bot", onBuy: 3, onSell: 2 }), NOW)).toBe("warning");
    expect(botIndicator(bot({ botType: "grid-bot", onBuy: 3 }), NOW)).toBe("warning");
    expect(botIndicator(bot({ botType: "grid-bot" }), NOW)).toBe("bad");
  });
  it("volume and heavy volume: over 5 base periods since the last trade is bad, over 2.5 warning, else good", () => {
    const v = (secondsAgo: number, period?: number) =>
      botIndicator(
        bot({ botType: "heavy-volume-bot", setup: period ? { period } : {}, lastTrade: NOW - secondsAgo * 1000 }),
        NOW,
      );
    expect(v(100, 60)).toBe("good");
    expect(v(150, 60)).toBe("good");
    expect(v(151, 60)).toBe("warning");
    expect(v(300, 60)).toBe("warning");
    expect(v(301, 60)).toBe("bad");
    // without a period of its own: 60 s
    expect(v(200)).toBe("warning");
    expect(botIndicator(bot({ botType: "volume-bot" }), NOW)).toBe("bad");
  });
  it("grey 'not run' for the bots the runner does not run, whatever their records (docs/decisions.md#d16)", () => {
    expect(botIndicator(bot({ botType: "volume-bot", status: "not run", lastTrade: NOW }), NOW)).toBe("not-run");
  });
  it("bad while backing off after an exchange error, warning while a side is paused, idle while stopped (docs/decisions.md#d25)", () => {
    const error = "ExchangeId: paper, msg: rate limit";
    expect(botIndicator(bot({ status: "backing-off", lastError: error, order: { id: "1" } as never }), NOW)).toBe(
      "bad",
    );
    // the last error is kept after recovery: a running bot with an order is ok again
    expect(botIndicator(bot({ status: "running", lastError: error, order: { id: "1" } as never }), NOW)).toBe("good");
    expect(botIndicator(bot({ botType: "grid-bot", status: "paused", onBuy: 2, onSell: 2 }), NOW)).toBe("warning");
    expect(botIndicator(bot({ botType: "grid-bot", status: "stopped" }), NOW)).toBe("idle");
  });
});
