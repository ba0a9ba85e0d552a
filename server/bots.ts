/**
 * Bot records as the API and the live channel show them (seed 000 §3 "Bot state records", plus the
 * runner's status, lastError and updatedAt, docs/bots.md). The runner's memory is never shown.
 */
import type { BotAnswer } from "../lib/api.js";
import type { BotRecord } from "./storage/types.js";

export function botAnswer(bot: BotRecord): BotAnswer {
  const state = bot.state as Partial<BotAnswer>;
  return {
    botId: bot.id,
    botType: bot.botType,
    path: bot.path,
    paths: bot.paths,
    setup: bot.setup,
    status: state.status ?? "stopped",
    ...(state.reason ? { reason: state.reason } : {}),
    ...(state.order !== undefined ? { order: state.order } : {}),
    ...(state.onBuy !== undefined ? { onBuy: state.onBuy } : {}),
    ...(state.onSell !== undefined ? { onSell: state.onSell } : {}),
    ...(state.lastTrade !== undefined ? { lastTrade: state.lastTrade } : {}),
    ...(state.orders !== undefined ? { orders: state.orders } : {}),
    ...(state.dailyQuoteLeft !== undefined ? { dailyQuoteLeft: state.dailyQuoteLeft } : {}),
    ...(state.note ? { note: state.note } : {}),
    ...(state.pausedSides ? { pausedSides: state.pausedSides } : {}),
    ...(state.lastError ? { lastError: state.lastError } : {}),
    ...(state.lastErrorAt !== undefined ? { lastErrorAt: state.lastErrorAt } : {}),
    ...(state.updatedAt !== undefined ? { updatedAt: state.updatedAt } : {}),
    created: bot.created,
  };
}
