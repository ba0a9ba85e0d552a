/** Admin-only calls (docs/decisions.md#d5): API keys, token pairs, users and scopes (docs/api.md#calls). */

import { randomUUID } from "node:crypto";
import { API_ERROR, type TokenPairAnswer, type UserAnswer } from "../../lib/api.js";
import { normalizePair } from "../../lib/pair.js";
import {
  apiKeysRecordSchema,
  changeScopeSchema,
  removeApiKeysSchema,
  removeTokenPairSchema,
  setUserSchema,
  tokenPairSchema,
} from "../../lib/schemas.js";
import { isExchangeId } from "../../lib/types.js";
import type { App } from "../app.js";
import { ApiError, notFound, taskFailed } from "../errors.js";
import type { RouteHandlers } from "../http.js";
import type { TokenPairRecord, UserRecord } from "../storage/types.js";

export function userAnswer(user: UserRecord): UserAnswer {
  return {
    uuid: user.id,
    email: user.email,
    lastActive: user.lastActive,
    scope: user.scope,
    admin: user.admin,
    registered: user.passwordHash !== null,
  };
}

export function tokenPairAnswer(r: TokenPairRecord): TokenPairAnswer {
  return { exchangeId: r.exchangeId, pair: r.pair, decimals: { price: r.priceDecimals, amount: r.amountDecimals } };
}

function knownExchange(id: string): void {
  if (!isExchangeId(id)) throw taskFailed(`Unknown exchange '${id}'`);
}

export function adminRoutes(app: App) {
  return {
    // docs/dashboard-rules.md#entities: the envelope is stored exactly as sent; the server cannot read it without the key.
    async setApiKeys(ctx) {
      const { path, apis } = await ctx.body(apiKeysRecordSchema);
      knownExchange(path[1]);
      await app.storage.setApiKey({ path, envelope: apis, created: app.now() });
      app.logger.info("api key stored", { client: path[0], exchange: path[1], account: path[2] });
      return { path, pair: normalizePair(apis.pair), active: apis.active };
    },
    async removeApiKeys(ctx) {
      const { path } = await ctx.body(removeApiKeysSchema);
      if (!(await app.storage.deleteApiKey(path))) throw notFound(`no API key at ${JSON.stringify(path)}`);
      // docs/decisions.md#d4: removing the API key deletes the bots' copies of its credentials.
      const bots = await app.storage.clearBotCredentialsForPath(path);
      for (const id of bots) app.bots.changed(id);
      return { removed: true, path };
    },
    async tokenPairs() {
      return (await app.storage.listTokenPairs()).map(tokenPairAnswer);
    },
    async setTokenPair(ctx) {
      const body = await ctx.body(tokenPairSchema);
      knownExchange(body.exchangeId);
      const record = {
        exchangeId: body.exchangeId,
        pair: body.pair,
        priceDecimals: body.decimals.price,
        amountDecimals: body.decimals.amount,
      };
      await app.storage.setTokenPair(record);
      return tokenPairAnswer(record);
    },
    async removeTokenPair(ctx) {
      const body = await ctx.body(removeTokenPairSchema);
      if (!(await app.storage.deleteTokenPair(body.exchangeId, body.pair)))
        throw notFound(`no token pair ${body.exchangeId} ${body.pair}`);
      return { removed: true };
    },
    // docs/dashboard-rules.md#screens 'Permit login'; docs/decisions.md#d18: userId is the new user's e-mail.
    async setUser(ctx) {
      const { userId: email, scope } = await ctx.body(setUserSchema);
      if (await app.storage.getUserByEmail(email)) throw taskFailed("A user with this e-mail exists already", 409);
      const user: UserRecord = {
        id: randomUUID(),
        email,
        passwordHash: null,
        admin: false,
        scope,
        lastActive: null,
        created: app.now(),
      };
      await app.storage.createUser(user);
      return userAnswer(user);
    },
    async removeUser(ctx) {
      const id = ctx.params.id!;
      if (id === ctx.user!.id) throw taskFailed("An admin cannot remove their own account", 409);
      if (!(await app.storage.deleteUser(id))) throw new ApiError(API_ERROR.NO_SUCH_USER, { status: 404 });
      app.sessions.userRemoved(id); // their sessions went with them: so do their live sockets
      return { removed: true, uuid: id };
    },
    async users() {
      return (await app.storage.listUsers()).map(userAnswer);
    },
    async user(ctx) {
      const user = await app.storage.getUser(ctx.params.id!);
      if (!user) throw new ApiError(API_ERROR.NO_SUCH_USER, { status: 404 });
      return userAnswer(user);
    },
    async changeScope(ctx) {
      const { scope } = await ctx.body(changeScopeSchema);
      const user = await app.storage.getUser(ctx.params.id!);
      if (!user) throw new ApiError(API_ERROR.NO_SUCH_USER, { status: 404 });
      await app.storage.updateUser(user.id, { scope });
      return userAnswer({ ...user, scope });
    },
  } satisfies RouteHandlers;
}
