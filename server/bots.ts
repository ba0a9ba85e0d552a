/**
 * Bot records as the API and the live channel show them (docs/dashboard-rules.md#entities "Bot state records", plus the
 * runner's status, lastError and updatedAt, docs/bots.md). The runner's memory is never shown.
 */
import type { BotAnswer, BotPnl } from "../lib/api.js";
import { BOT_LIST_ORDER, type BotType } from "../lib/schemas.js";
import type { BotRunnerHost } from "./app.js";
import { inScope } from "./auth/session.js";
import type { BotRecord, UserRecord } from "./storage/types.js";

/** docs/decisions.md#d26: the clients whose accounts a bot uses: its account path's and each extra path's. */
export function botClients(bot: Pick<BotRecord, "path" | "paths">): string[] {
  return [...new Set([bot.path[0], ...bot.paths.map((p) => p[0])])];
}

/** docs/decisions.md#d26: a user sees a bot only when their scope holds every client it uses. */
export function botInScope(user: UserRecord, bot: Pick<BotRecord, "path" | "paths">): boolean {
  return botClients(bot).every((client) => inScope(user, client));
}

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
    ...(state.pnl !== undefined ? { pnl: publicPnl(state.pnl) } : {}),
    ...(state.halted !== undefined ? { halted: state.halted } : {}),
    created: bot.created,
  };
}

/** The published PnL fields only (a stored state is shown as the API documents it). */
function publicPnl(p: BotPnl): BotPnl {
  return {
    fills: p.fills,
    inventory: p.inventory,
    cost: p.cost,
    realized: p.realized,
    volume: p.volume,
    fees: p.fees,
    feesInQuote: p.feesInQuote,
    mid: p.mid,
    value: p.value,
    unrealized: p.unrealized,
    pnl: p.pnl,
  };
}

/** docs/dashboard-rules.md#constants "Bot list order" (floating 0, SD 1, CC 2, heavy volume 18, volume 19, grid 20), then by creation. */
export function sortBots<T extends { botType: string; created: number }>(bots: T[]): T[] {
  const rank = (type: string) => BOT_LIST_ORDER[type as BotType] ?? 99;
  return [...bots].sort((a, b) => rank(a.botType) - rank(b.botType) || a.created - b.created);
}

/** The record with the runner's latest state, which reaches the database up to 2 s later (server/bots/host.ts). */
export function latestBot(bot: BotRecord, runner: BotRunnerHost | undefined): BotRecord {
  const state = runner?.latest(bot.id);
  return state ? { ...bot, state } : bot;
}
