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
import {
  type BotType,
  NOT_RUN_BOT_TYPES,
  removeBotSchema,
  setupBotSchema,
  WASH_TRADING_REASON,
} from "../../lib/schemas.js";
import { accountOf, exchangeFailure, openEnvelope, requireScope } from "../accounts.js";
import type { App } from "../app.js";
import { refuseUnknownPair, setupPair } from "../bots/pairs.js";
import { botAnswer, botClients, botInScope, latestBot, sortBots } from "../bots.js";
import { notFound } from "../errors.js";
import type { RouteHandlers } from "../http.js";
import { pathKey } from "../storage/types.js";

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
  } satisfies RouteHandlers;
}
