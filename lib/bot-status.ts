/**
 * The bot indicator colours of docs/dashboard-rules.md#states ("Bot indicator colours") with docs/decisions.md#d16's grey
 * "not run", one rule for the home cards and the bots dialog (docs/web-trading.md "Bots").
 * Isomorphic and pure.
 */
import type { BotAnswer } from "./api.js";

export type BotIndicator = "good" | "warning" | "bad" | "idle" | "not-run";

/** docs/dashboard-rules.md#states: volume and heavy volume are judged in units of their base period. */
export const VOLUME_WARNING_PERIODS = 2.5;
export const VOLUME_BAD_PERIODS = 5;
/** The base period of a volume bot without its own `period` setting, in seconds. */
export const DEFAULT_VOLUME_PERIOD_SEC = 60;

export type BotStateLike = Pick<
  BotAnswer,
  "botType" | "status" | "setup" | "order" | "onBuy" | "onSell" | "lastTrade" | "lastError"
>;

export function botIndicator(bot: BotStateLike, now: number): BotIndicator {
  // docs/decisions.md#d16: bots the runner does not run are a neutral grey, whatever their records say.
  if (bot.status === "not run") return "not-run";
  // docs/decisions.md#d25: exchange errors back off (the last error stays in the state after recovery, so
  // only the backing-off status says it is failing now); insufficient funds pauses a side
  if (bot.status === "backing-off") return "bad";
  if (bot.status === "paused") return "warning";
  // a bot the runner does not run now has no live records to judge
  if (bot.status === "stopped") return "idle";
  switch (bot.botType) {
    case "floating-bot":
      // one colour with an order, another without
      return bot.order ? "good" : "idle";
    case "grid-bot": {
      const buy = bot.onBuy;
      const sell = bot.onSell;
      if (buy === undefined && sell === undefined) return "bad";
      if (buy === sell) return "good";
      // exactly one missing, or they differ
      return "warning";
    }
    case "volume-bot":
    case "heavy-volume-bot": {
      if (bot.lastTrade === undefined) return "bad";
      const setup = bot.setup as { period?: unknown } | null;
      const period = typeof setup?.period === "number" && setup.period > 0 ? setup.period : DEFAULT_VOLUME_PERIOD_SEC;
      const periods = (now - bot.lastTrade) / 1000 / period;
      if (periods > VOLUME_BAD_PERIODS) return "bad";
      if (periods > VOLUME_WARNING_PERIODS) return "warning";
      return "good";
    }
    default:
      return bot.status === "running" ? "good" : "idle";
  }
}

/** Words for the indicator's accessible name and tooltip. */
export function indicatorText(indicator: BotIndicator): string {
  switch (indicator) {
    case "good":
      return "ok";
    case "warning":
      return "warning";
    case "bad":
      return "alert";
    case "idle":
      return "no order";
    case "not-run":
      return "not run";
  }
}
