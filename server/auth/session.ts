/**
 * The session lifecycle, all of it (issue 14): issued at sign-in (`issueSession`), checked on
 * every call (`authenticate`, `checkAccessToken`), refreshed with its refresh token rotated
 * (`refreshSession`), revoked by logout or by a replayed refresh token (`revokeSession`,
 * `endSession`). The access token is signed JSON with `expires` (docs/dashboard-rules.md#entities); the refresh token
 * is random, kept hashed, in an HttpOnly SameSite=Strict cookie, rotated on refresh (docs/decisions.md#d7).
 */
import { randomUUID } from "node:crypto";
import { API_ERROR, HEADER, REFRESH_COOKIE, type RefreshAnswer, type SessionAnswer } from "../../lib/api.js";
import type { App } from "../app.js";
import { ApiError, forbidden } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import type { UserRecord } from "../storage/types.js";
import { randomToken, sha256Hex, signAccessToken, verifyAccessToken, verifyAccessTokenCached } from "./secrets.js";

export function refreshCookie(app: App, token: string, expires: number): string {
  const maxAge = Math.max(0, Math.floor((expires - app.now()) / 1000));
  return `${REFRESH_COOKIE}=${token}; Path=/user; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${app.secureCookies ? "; Secure" : ""}`;
}

export function clearRefreshCookie(app: App): string {
  return `${REFRESH_COOKIE}=; Path=/user; HttpOnly; SameSite=Strict; Max-Age=0${app.secureCookies ? "; Secure" : ""}`;
}

/** Opens a session for a signed-in user: the answer of /register and the logins. */
export async function issueSession(
  app: App,
  ctx: RequestContext,
  user: UserRecord,
  credentialsId?: string,
): Promise<SessionAnswer> {
  const now = app.now();
  const refresh = randomToken();
  const session = {
    id: randomUUID(),
    userId: user.id,
    refreshHash: sha256Hex(refresh),
    previousHash: null,
    expires: now + app.config.refreshTtlMs,
    created: now,
  };
  await app.storage.createSession(session);
  await app.storage.updateUser(user.id, { lastActive: now });
  ctx.setCookie(refreshCookie(app, refresh, session.expires));
  return {
    uuid: user.id,
    refreshTokenExpiry: session.expires,
    accessToken: signAccessToken(
      { uid: user.id, sid: session.id, expires: now + app.config.accessTtlMs },
      app.tokenSecret,
    ),
    ...(credentialsId ? { credentialsId } : {}),
    admin: user.admin,
  };
}

/**
 * docs/decisions.md#d7 refresh: the refresh token comes in the cookie and is rotated (a new one in the
 * cookie, a new access token in the answer). A rotated-out token used again is a replay and ends
 * the session; an unknown one is a failed token check of the address (docs/server-limits.md).
 */
export async function refreshSession(app: App, ctx: RequestContext, userId: string): Promise<RefreshAnswer> {
  const token = ctx.cookie(REFRESH_COOKIE);
  if (!token) throw new ApiError(API_ERROR.ALL_EXPIRED);
  if (await app.signIn.overAddress(ctx.ip)) throw new ApiError(API_ERROR.RATE_LIMIT);
  const found = await app.storage.findSessionByRefreshHash(sha256Hex(token));
  if (!found) {
    // recorded and counted in one limiter call, like a forged access token (checkAccessTokenFrom)
    await app.signIn.failToken(ctx.ip);
    throw new ApiError(API_ERROR.INVALID_TOKEN);
  }
  const { session, replay } = found;
  if (replay) {
    await endSession(app, session.id);
    app.logger.warn("refresh token replayed: session revoked", { user: session.userId });
    ctx.setCookie(clearRefreshCookie(app));
    throw new ApiError(API_ERROR.INVALID_TOKEN);
  }
  if (session.userId !== userId) throw new ApiError(API_ERROR.INVALID_TOKEN);
  const now = app.now();
  if (session.expires <= now) {
    await app.storage.deleteSession(session.id);
    throw new ApiError(API_ERROR.ALL_EXPIRED);
  }
  const user = await app.storage.getUser(session.userId);
  if (!user) throw new ApiError(API_ERROR.NO_SUCH_USER);
  const next = randomToken();
  const expires = now + app.config.refreshTtlMs;
  if (!(await app.storage.rotateSession(session.id, session.refreshHash, sha256Hex(next), expires))) {
    throw new ApiError(API_ERROR.INVALID_TOKEN);
  }
  await app.storage.updateUser(user.id, { lastActive: now });
  ctx.setCookie(refreshCookie(app, next, expires));
  return {
    accessToken: signAccessToken(
      { uid: user.id, sid: session.id, expires: now + app.config.accessTtlMs },
      app.tokenSecret,
    ),
    refreshTokenExpiry: expires,
  };
}

/**
 * docs/decisions.md#d7 exit: revokes the session of the refresh cookie, and the session of a validly signed
 * access token (scripts without the cookie), with every access token of it; clears the cookie.
 */
export async function revokeSession(app: App, ctx: RequestContext): Promise<void> {
  const token = ctx.cookie(REFRESH_COOKIE);
  if (token) {
    const found = await app.storage.findSessionByRefreshHash(sha256Hex(token));
    if (found) await endSession(app, found.session.id);
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(ctx.header(HEADER.authorization) ?? "");
  const payload = bearer ? verifyAccessToken(bearer[1]!, app.tokenSecret) : undefined;
  if (payload) await endSession(app, payload.sid);
  ctx.setCookie(clearRefreshCookie(app));
}

/** Ends one session: its row goes, and its live-channel sockets close at once (4607). */
export async function endSession(app: App, sessionId: string): Promise<void> {
  await app.storage.deleteSession(sessionId);
  app.sessions.ended(sessionId);
}

/**
 * Checks an access token (docs/api.md#errors): malformed or forged 607; expired 602 while the session's
 * refresh token is still valid, else 603; a revoked session 607; a removed user 606.
 */
export async function checkAccessToken(
  app: App,
  token: string,
): Promise<{ user: UserRecord; payload: { uid: string; sid: string; expires: number } }> {
  const payload = verifyAccessTokenCached(token, app.tokenSecret);
  if (!payload) throw new ApiError(API_ERROR.INVALID_TOKEN);
  const now = app.now();
  const session = await app.storage.getSession(payload.sid);
  if (payload.expires <= now) {
    throw new ApiError(session && session.expires > now ? API_ERROR.ACCESS_EXPIRED : API_ERROR.ALL_EXPIRED);
  }
  if (!session || session.userId !== payload.uid) throw new ApiError(API_ERROR.INVALID_TOKEN);
  const user = await app.storage.getUser(payload.uid);
  if (!user) throw new ApiError(API_ERROR.NO_SUCH_USER);
  return { user, payload };
}

/**
 * `checkAccessToken` for a caller at `address`: a forged, malformed or revoked token (607) is a
 * failure of the address, and once the address is over its budget the answer is 604
 * (docs/server-limits.md). The token is checked first: a valid one is never refused for the
 * failures of others behind the same address.
 */
export async function checkAccessTokenFrom(
  app: App,
  token: string,
  address: string,
): ReturnType<typeof checkAccessToken> {
  try {
    return await checkAccessToken(app, token);
  } catch (error) {
    if (error instanceof ApiError && error.code === API_ERROR.INVALID_TOKEN) await app.signIn.failToken(address);
    throw error;
  }
}

export async function authenticate(app: App, ctx: RequestContext, route: Route): Promise<void> {
  const header = ctx.header(HEADER.authorization);
  if (!header) throw new ApiError(API_ERROR.MISSING_HEADER);
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  const { user, payload } = await checkAccessTokenFrom(app, match?.[1] ?? "", ctx.ip);
  const now = app.now();
  const { calls, windowMs } = app.config.rateLimit;
  await app.limiter.admit(`user:${user.id}`, calls, windowMs, now);
  if (route.auth === "admin" && !user.admin) throw forbidden("this call is for admins");
  // Last seen, written at most once a minute so busy sessions do not write on every call.
  if (user.lastActive === null || now - user.lastActive > 60_000) {
    await app.storage.updateUser(user.id, { lastActive: now });
    user.lastActive = now;
  }
  ctx.user = user;
  ctx.token = payload;
}

/** docs/dashboard-rules.md#roles: scope "all" or a list of client names. */
export function inScope(user: UserRecord, client: string): boolean {
  return user.scope === "all" || user.scope.includes(client);
}
