/** Clients and accounts (docs/api.md#calls /token/clients, /token/exchanges): the stored API-key paths in the caller's scope. */

import type { AccountAnswer } from "../../lib/api.js";
import { normalizePair } from "../../lib/pair.js";
import type { App } from "../app.js";
import { inScope } from "../auth/session.js";
import { botInScope } from "../bots.js";
import type { RouteHandlers } from "../http.js";
import { pathKey } from "../storage/types.js";

export function clientRoutes(app: App) {
  return {
    async clients(ctx) {
      const names = new Set(
        (await app.storage.listApiKeys()).map((k) => k.path[0]).filter((c) => inScope(ctx.user!, c)),
      );
      return [...names].sort();
    },
    async exchanges(ctx): Promise<AccountAnswer[]> {
      const bots = await app.storage.listBots();
      return (await app.storage.listApiKeys())
        .filter((k) => inScope(ctx.user!, k.path[0]))
        .map((k) => ({
          path: k.path,
          client: k.path[0],
          exchange: k.path[1],
          account: k.path[2],
          // an envelope keeps the pair as sent ('eth/usdt'); every answer gives it upper case, as trades use it
          pair: normalizePair(k.envelope.pair),
          active: k.envelope.active,
          bots: bots
            .filter((b) => pathKey(b.path) === pathKey(k.path) && botInScope(ctx.user!, b))
            .map((b) => ({ botId: b.id, botType: b.botType })),
        }));
    },
  } satisfies RouteHandlers;
}
