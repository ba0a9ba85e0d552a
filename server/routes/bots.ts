/**
 * Bots registry (docs/api.md#calls POST/DELETE /token/bot, docs/decisions.md#d4, #d16, #d25). The setup is validated
 * with the schemas the web forms use (lib/schemas.ts): a bad config answers 600 with the rule and is
 * never stored. Volume, heavy-volume and candle-closer bots are stored as "not run" with the
 * wash-trading reason (docs/product.md#bots); the others start in the runner (server/bots/host.ts) as soon
 * as they are stored. Removing a bot cancels its orders first (docs/bots.md).
 */
import { randomUUID } from "node:crypto";
import { needsApiKey } from "../../exchanges/catalogue.js";
import { type AccountPath, type BotFillsAnswer, HEADER, type RemoveBotAnswer } from "../../lib/api.js";
import { encryptText } from "../../lib/envelope.js";
import { normalizePair, parsePair } from "../../lib/pair.js";
import {
  type BotType,
  editBotSchema,
  NOT_RUN_BOT_TYPES,
  removeBotSchema,
  setupBotSchema,
  WASH_TRADING_REASON,
} from "../../lib/schemas.js";
import { accountOf, exchangeFailure, openEnvelope, requireScope } from "../accounts.js";
import type { App } from "../app.js";
import type { Ledger } from "../bots/fills.js";
import { PAUSED_REASON, USER_PAUSED } from "../bots/host.js";
import { refuseUnknownPair, setupPair } from "../bots/pairs.js";
import { createStrategy, isRunnable, type RunnableBotType } from "../bots/strategies/index.js";
import { botAnswer, botClients, botInScope, latestBot, sortBots } from "../bots.js";
import { notFound, taskFailed } from "../errors.js";
import type { RequestContext, RouteHandlers } from "../http.js";
import { type BotRecord, MAX_FILLS_PAGE, pathKey, type UserRecord } from "../storage/types.js";

export const RUNNER_STARTING_REASON = "starting";
export const RUNNER_OFF_REASON = "This server runs no bots (runBots: false); the bot is stored.";

/** A bot in the caller's scope (docs/decisions.md#d26), else 404 as if it did not exist. */
async function botOf(app: App, user: UserRecord, botId: string): Promise<BotRecord> {
  const bot = botId.length <= 100 ? await app.storage.getBot(botId) : undefined;
  if (!bot || !botInScope(user, bot)) throw notFound(`no bot ${botId}`);
  return bot;
}

/** One bot stopped by a person: through the runner, or marked in its record where no runner runs. */
async function stopOne(app: App, bot: BotRecord, reason: string): Promise<void> {
  if (app.botRunner) return app.botRunner.stop(bot.id, reason);
  await markAllStopped(app, [bot], reason);
}

async function markAllStopped(
  app: App,
  bots: readonly BotRecord[],
  reason: string,
): Promise<{ botId: string; error: string }[]> {
  const at = app.now();
  await app.storage.updateBotStates(
    bots.map((b) => ({
      id: b.id,
      state: { ...b.state, status: "stopped", reason, halted: { reason, at, by: "person" }, updatedAt: at },
    })),
  );
  return [];
}

/** What a removed bot leaves on its account: its inventory and what it cost (none when it never filled). */
function leftBy(bot: BotRecord, ledger: Ledger | undefined): RemoveBotAnswer["left"] {
  if (!ledger || !(ledger.fills > 0)) return undefined;
  let pair: { base: string; quote: string };
  try {
    pair = parsePair(createStrategy(bot.botType as RunnableBotType, bot.setup).pair);
  } catch {
    return undefined;
  }
  return {
    inventory: ledger.inventory,
    base: pair.base,
    cost: ledger.cost,
    quote: pair.quote,
    realized: ledger.realized,
    fills: ledger.fills,
  };
}

export function botRoutes(app: App) {
  return {
    async bots(ctx) {
      const user = ctx.user!;
      return sortBots(
        (await app.storage.listBots())
          .filter((b) => botInScope(user, b))
          .map((b) => botAnswer(latestBot(b, app.botRunner))),
      );
    },
    async setupBot(ctx) {
      const body = await ctx.body(setupBotSchema);
      const { path, record } = await accountOf(app, ctx);
      // docs/bots.md "Create, edit, pause": a pair the venue does not trade is refused here, not at the first start
      const pair = setupPair(body.setup);
      if (pair !== undefined) await refuseUnknownPair(app, path[1], pair);
      const extra: AccountPath[] = body.paths.map((p) => p as AccountPath);
      // docs/decisions.md#d4: open each account's envelope once and re-wrap under the server's data key.
      const clear: Record<string, unknown> = {};
      for (const p of [path, ...extra]) {
        requireScope(ctx.user!, p);
        const r = pathKey(p) === pathKey(path) ? record : await app.storage.getApiKey(p);
        if (!r) throw notFound(`no account at ${JSON.stringify(p)}`);
        if (needsApiKey(p[1])) clear[pathKey(p)] = await openEnvelope(r, ctx.header(HEADER.key));
      }
      const wrapped = Object.keys(clear).length > 0 ? await encryptText(JSON.stringify(clear), app.dataKey) : null;
      const notRun = NOT_RUN_BOT_TYPES.includes(body.botType as BotType);
      const bot = {
        id: randomUUID(),
        botType: body.botType,
        path,
        paths: extra,
        setup: body.setup,
        wrappedCredentials: wrapped,
        state: notRun
          ? { status: "not run", reason: WASH_TRADING_REASON }
          : { status: "stopped", reason: app.botRunner ? RUNNER_STARTING_REASON : RUNNER_OFF_REASON },
        created: app.now(),
      };
      await app.storage.createBot(bot);
      app.bots.changed(bot.id);
      return botAnswer(bot);
    },
    async removeBot(ctx): Promise<RemoveBotAnswer> {
      const { botId } = await ctx.body(removeBotSchema);
      const bot = await app.storage.getBot(botId);
      if (!bot) throw notFound(`no bot ${botId}`);
      // docs/decisions.md#d26: every client the bot uses must be in the caller's scope
      for (const p of [bot.path, ...bot.paths]) requireScope(ctx.user!, p);
      // docs/decisions.md#d25: its orders are cancelled (each confirmed) before the bot goes; if the exchange
      // refuses, the call fails with 608 and the bot keeps running.
      let ledger: Ledger | undefined;
      try {
        ledger = await app.botRunner?.remove(botId);
      } catch (error) {
        throw exchangeFailure(error);
      }
      // Deleting the row deletes the bot's copy of the credentials (docs/decisions.md#d4).
      await app.storage.deleteBot(botId);
      app.bots.removed(botId, botClients(bot));
      // docs/bots.md "What each bot did": the inventory it built stays on the account; the answer says how much
      const left = leftBy(bot, ledger ?? (latestBot(bot, app.botRunner).state.pnl as Ledger | undefined));
      return { removed: true, botId, ...(left ? { left } : {}) };
    },
    /** docs/bots.md "What each bot did": the bot's fills, newest first, in pages of at most MAX_FILLS_PAGE. */
    async botFills(ctx): Promise<BotFillsAnswer> {
      const bot = await botOf(app, ctx.user!, ctx.params.id!);
      const limitText = ctx.query.get("limit") ?? "100";
      const limit = Number(limitText);
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_FILLS_PAGE)
        throw taskFailed(`Invalid limit '${limitText}': 1 to ${MAX_FILLS_PAGE} fills`);
      const beforeText = ctx.query.get("before");
      const before = beforeText === null ? undefined : Number(beforeText);
      if (before !== undefined && !(Number.isSafeInteger(before) && before > 0))
        throw taskFailed(`Invalid before '${beforeText}': the seq of a fill (a whole number above 0)`);
      const fills = await app.storage.listBotFills(bot.id, { limit, ...(before !== undefined ? { before } : {}) });
      const { pnl } = botAnswer(latestBot(bot, app.botRunner));
      return {
        botId: bot.id,
        ...(pnl ? { pnl } : {}),
        fills,
        ...(fills.length === limit ? { next: fills[fills.length - 1]!.seq } : {}),
      };
    },
    /** docs/bots.md "Risk limits and the kill switch": stopped, its orders cancelled, until resumed. */
    async stopBot(ctx) {
      const bot = await botOf(app, ctx.user!, ctx.params.id!);
      if (!isRunnable(bot.botType)) throw taskFailed(`Bot ${bot.id} is not run: nothing to stop`);
      const reason = `Stopped by ${ctx.user!.email}`;
      try {
        await stopOne(app, bot, reason);
      } catch (error) {
        throw exchangeFailure(error);
      } finally {
        app.bots.changed(bot.id);
      }
      return botAnswer(latestBot((await app.storage.getBot(bot.id)) ?? bot, app.botRunner));
    },
    /**
     * The kill switch (docs/bots.md "Risk limits and the kill switch"): every runnable bot in the
     * caller's scope stops, its orders cancelled, until a person resumes it.
     */
    async stopAllBots(ctx) {
      const user = ctx.user!;
      const bots = (await app.storage.listBots()).filter(
        (b) => botInScope(user, b) && isRunnable(b.botType) && b.state.halted === undefined,
      );
      const reason = `Stopped by ${user.email} (stop all)`;
      const failed = app.botRunner
        ? await app.botRunner.stopAll(
            bots.map((b) => b.id),
            reason,
          )
        : await markAllStopped(app, bots, reason);
      for (const b of bots) app.bots.changed(b.id);
      app.logger.warn("bots stopped (stop all)", { by: user.id, bots: bots.length, failed: failed.length });
      return { stopped: bots.map((b) => b.id), failed };
    },
    /** docs/bots.md "Create, edit, pause": PUT /token/bot, a new setup for the same bot id */
    async editBot(ctx) {
      const body = await ctx.body(editBotSchema);
      const bot = await botInScopeOr404(app, ctx, body.botId);
      if (body.botType !== bot.botType)
        throw taskFailed(`botType: a ${bot.botType} stays one; remove it and create a ${body.botType}`);
      if (JSON.stringify(body.paths) !== JSON.stringify(bot.paths))
        throw taskFailed("paths: a bot's extra account paths cannot change; remove it and create it again");
      const pair = setupPair(body.setup);
      if (pair !== undefined) await refuseUnknownPair(app, bot.path[1], pair);
      const before = setupPair(bot.setup);
      const pairChanged = (before && normalizePair(before)) !== (pair && normalizePair(pair));
      if (app.botRunner && isRunnable(bot.botType)) {
        try {
          await app.botRunner.edit(bot.id, body.setup, pairChanged);
        } catch (error) {
          throw exchangeFailure(error);
        }
      } else await app.storage.updateBotSetup(bot.id, body.setup, bot.state);
      app.bots.changed(bot.id);
      return answerOf(app, bot.id);
    },
    async pauseBot(ctx) {
      const bot = await botInScopeOr404(app, ctx, ctx.params.id!);
      if (!isRunnable(bot.botType)) throw taskFailed(`a ${bot.botType} is not run: there is nothing to pause`);
      try {
        if (app.botRunner) await app.botRunner.pause(bot.id);
        else
          await app.storage.updateBotState(bot.id, {
            ...bot.state,
            status: "paused",
            reason: PAUSED_REASON,
            [USER_PAUSED]: true,
          });
      } catch (error) {
        throw exchangeFailure(error);
      }
      app.bots.changed(bot.id);
      return answerOf(app, bot.id);
    },
    /**
     * POST /token/bot/{id}/resume: a paused bot, or one a limit or a person stopped, starts again
     * (docs/bots.md "Create, edit, pause", "Risk limits and the kill switch")
     */
    async resumeBot(ctx) {
      const bot = await botInScopeOr404(app, ctx, ctx.params.id!);
      if (!isRunnable(bot.botType)) throw taskFailed(`a ${bot.botType} is not run: there is nothing to resume`);
      if (app.botRunner) await app.botRunner.resume(bot.id);
      else {
        const { [USER_PAUSED]: _mark, halted: _h, reason: _r, ...rest } = bot.state;
        await app.storage.updateBotState(bot.id, { ...rest, status: "stopped", reason: RUNNER_OFF_REASON });
      }
      app.bots.changed(bot.id);
      app.logger.info("bot resumed", { botId: bot.id, by: ctx.user!.id });
      return answerOf(app, bot.id);
    },
  } satisfies RouteHandlers;
}

/** The bot, when the caller's scope holds every client it uses (docs/decisions.md#d26); 404 when there is none. */
async function botInScopeOr404(app: App, ctx: RequestContext, botId: string): Promise<BotRecord> {
  const bot = await app.storage.getBot(botId);
  if (!bot) throw notFound(`no bot ${botId}`);
  for (const p of [bot.path, ...bot.paths]) requireScope(ctx.user!, p);
  return bot;
}

async function answerOf(app: App, botId: string) {
  const bot = await app.storage.getBot(botId);
  if (!bot) throw notFound(`no bot ${botId}`);
  return botAnswer(latestBot(bot, app.botRunner));
}
