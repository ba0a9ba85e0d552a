/**
 * The session lifecycle, all of it (issue 14): issued at sign-in (`issueSession`), checked on
 * every call (`authenticate`, `checkAccessToken`), refreshed with its refresh token rotated
 * (`refreshSession`), revoked by logout or by a replayed refresh token (`revokeSession`,
 * `endSession`). The access token is signed JSON with `expires` (docs/dashboard-rules.md#entities); the refresh token
 * is random at sign-in, derived from the last one at each rotation (`nextRefreshToken`), kept hashed, in an HttpOnly
 * SameSite=Strict cookie, rotated on refresh (docs/decisions.md#d7, #d27).
 */
import { createHmac, randomUUID } from "node:crypto";
import { API_ERROR, HEADER, REFRESH_COOKIE, type RefreshAnswer, type SessionAnswer } from "../../lib/api.js";
import type { App } from "../app.js";
import { ApiError, forbidden } from "../errors.js";
import type { RequestContext, Route } from "../http.js";
import type { SessionRecord, UserRecord } from "../storage/types.js";
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
    rotated: null,
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
 * The refresh token that follows `token`: HMAC-SHA256 of it under the server's secret, so every
 * refresh of one cookie derives the same next token, in every process (docs/server-limits.md
 * "Refresh"). Not guessable without the secret, like a random one.
 */
export function nextRefreshToken(app: App, token: string): string {
  return createHmac("sha256", app.tokenSecret).update("spotdesk refresh rotation\n").update(token).digest("base64url");
}

/**
 * docs/decisions.md#d7 refresh: the refresh token comes in the cookie and is rotated (a new one in the
 * cookie, a new access token in the answer). Refreshes with the same cookie at once (dashboard tabs
 * opened together) all get the same new token: within `refreshGraceMs` of the rotation, the
 * rotated-out token is answered with the token it was rotated to. Later it is a replay and ends
 * the session (docs/server-limits.md "Refresh", docs/decisions.md#d27). A refresh is never a
 * sign-in: an unknown cookie is 607 and is not counted against the address, and the address's
 * failed sign-ins never refuse a refresh.
 */
export async function refreshSession(
  app: App,
  ctx: RequestContext,
  userId: string,
  retried = false,
): Promise<RefreshAnswer> {
  const token = ctx.cookie(REFRESH_COOKIE);
  if (!token) throw new ApiError(API_ERROR.ALL_EXPIRED);
  const found = await app.storage.findSessionByRefreshHash(sha256Hex(token));
  if (!found) throw new ApiError(API_ERROR.INVALID_TOKEN);
  const { session, replay } = found;
  const next = nextRefreshToken(app, token);
  const now = app.now();
  if (replay && !rotatedWithinGrace(app, session, sha256Hex(next), now)) {
    await endSession(app, session.id);
    app.logger.warn("refresh token replayed: session revoked", { user: session.userId });
    ctx.setCookie(clearRefreshCookie(app));
    throw new ApiError(API_ERROR.INVALID_TOKEN);
  }
  if (session.userId !== userId) throw new ApiError(API_ERROR.INVALID_TOKEN);
  if (session.expires <= now) {
    await app.storage.deleteSession(session.id);
    throw new ApiError(API_ERROR.ALL_EXPIRED);
  }
  const user = await app.storage.getUser(session.userId);
  if (!user) throw new ApiError(API_ERROR.NO_SUCH_USER);
  // within the grace the rotation is done: its token and expiry are answered again
  if (replay) return refreshAnswer(app, ctx, user, session.id, next, session.expires);
  const expires = now + app.config.refreshTtlMs;
  if (!(await app.storage.rotateSession(session.id, session.refreshHash, sha256Hex(next), expires, now))) {
    // a refresh with the same cookie rotated it in between: answered as within the grace, once
    if (retried) throw new ApiError(API_ERROR.INVALID_TOKEN);
    return refreshSession(app, ctx, userId, true);
  }
  return refreshAnswer(app, ctx, user, session.id, next, expires);
}

/** The session was rotated from the presented token to `nextHash` less than `refreshGraceMs` ago. */
function rotatedWithinGrace(app: App, session: SessionRecord, nextHash: string, now: number): boolean {
  return (
    session.rotated !== null && now - session.rotated < app.config.refreshGraceMs && session.refreshHash === nextHash
  );
}

async function refreshAnswer(
  app: App,
  ctx: RequestContext,
  user: UserRecord,
  sessionId: string,
  refresh: string,
  expires: number,
): Promise<RefreshAnswer> {
  const now = app.now();
  await app.storage.updateUser(user.id, { lastActive: now });
  ctx.setCookie(refreshCookie(app, refresh, expires));
  return {
    accessToken: signAccessToken(
      { uid: user.id, sid: sessionId, expires: now + app.config.accessTtlMs },
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
