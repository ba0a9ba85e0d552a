/**
 * Bots registry (docs/api.md#calls POST/DELETE /token/bot, docs/decisions.md#d4, #d16, #d25). The setup is validated
 * with the schemas the web forms use (lib/schemas.ts): a bad config answers 600 with the rule and is
 * never stored. Volume, heavy-volume and candle-closer bots are stored as "not run" with the
 * wash-trading reason (docs/product.md#bots); the others start in the runner (server/bots/host.ts) as soon
 * as they are stored. Removing a bot cancels its orders first (docs/bots.md).
 */
import { randomUUID } from "node:crypto";
import { needsApiKey } from "../../exchanges/catalogue.js";
import { type AccountPath, HEADER } from "../../lib/api.js";
import { encryptText } from "../../lib/envelope.js";
import { normalizePair } from "../../lib/pair.js";
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
import { PAUSED_REASON, USER_PAUSED } from "../bots/host.js";
import { refuseUnknownPair, setupPair } from "../bots/pairs.js";
import { isRunnable } from "../bots/strategies/index.js";
import { botAnswer, botClients, botInScope, latestBot, sortBots } from "../bots.js";
import { notFound, taskFailed } from "../errors.js";
import type { RequestContext, RouteHandlers } from "../http.js";
import { type BotRecord, pathKey } from "../storage/types.js";

export const RUNNER_STARTING_REASON = "starting";
export const RUNNER_OFF_REASON = "This server runs no bots (runBots: false); the bot is stored.";

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
    async removeBot(ctx) {
      const { botId } = await ctx.body(removeBotSchema);
      const bot = await app.storage.getBot(botId);
      if (!bot) throw notFound(`no bot ${botId}`);
      // docs/decisions.md#d26: every client the bot uses must be in the caller's scope
      for (const p of [bot.path, ...bot.paths]) requireScope(ctx.user!, p);
      // docs/decisions.md#d25: its orders are cancelled (each confirmed) before the bot goes; if the exchange
      // refuses, the call fails with 608 and the bot keeps running.
      try {
        await app.botRunner?.remove(botId);
      } catch (error) {
        throw exchangeFailure(error);
      }
      // Deleting the row deletes the bot's copy of the credentials (docs/decisions.md#d4).
      await app.storage.deleteBot(botId);
      app.bots.removed(botId, botClients(bot));
      return { removed: true, botId };
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
    /** POST /token/bot/{id}/resume: a paused bot starts again (docs/bots.md "Create, edit, pause") */
    async resumeBot(ctx) {
      const bot = await botInScopeOr404(app, ctx, ctx.params.id!);
      if (!isRunnable(bot.botType)) throw taskFailed(`a ${bot.botType} is not run: there is nothing to resume`);
      if (app.botRunner) await app.botRunner.resume(bot.id);
      else {
        const { [USER_PAUSED]: _mark, ...rest } = bot.state;
        await app.storage.updateBotState(bot.id, { ...rest, status: "stopped", reason: RUNNER_OFF_REASON });
      }
      app.bots.changed(bot.id);
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
