/** Session actions (docs/dashboard-rules.md#states "Session", docs/decisions.md#d7): sign-in, the timed refresh, exit, and the end of a session. */
import type { RefreshAnswer, SessionAnswer } from "../../../lib/api.js";
import { api, navigateTo, SESSION_ENDED, type SessionEndReason, setAccessExpiredHandler } from "./api";
import { listen } from "./events";
import { stopLive } from "./live";
import { queryClient } from "./query";
import { setServerProbe } from "./server-status";
import { getSession, hasValidToken, setSession } from "./session-store";
import { readStorage, STORAGE, writeStorage } from "./storage";

/** docs/dashboard-rules.md#constants: refresh 3 minutes before expiry. */
export const REFRESH_MARGIN_MS = 3 * 60_000;
/** Never two refreshes closer than this, whatever the token says (a skewed clock, a tiny lifetime). */
export const MIN_REFRESH_DELAY_MS = 5_000;

/**
 * When the next refresh is due (docs/dashboard.md "Sessions"): 3 minutes before the access token
 * expires (docs/dashboard-rules.md#constants) while it has more than twice that left; a shorter-lived token is refreshed
 * at half its remaining life, and never sooner than 5 s, so a lifetime under the margin cannot loop.
 */
export function refreshDelay(expires: number, now: number): number {
  const remaining = expires - now;
  if (remaining > 2 * REFRESH_MARGIN_MS) return remaining - REFRESH_MARGIN_MS;
  return Math.max(MIN_REFRESH_DELAY_MS, Math.floor(remaining / 2));
}

/** docs/dashboard-rules.md#states: refresh only while the refresh token is still valid. */
export function refreshTokenValid(now = Date.now()): boolean {
  const expiry = Number(readStorage(STORAGE.refreshTokenExpiry));
  return Number.isFinite(expiry) && expiry > now;
}

/** docs/dashboard.md "Sessions": a refresh without an answer (or refused for a passing reason) is tried again after 1 s, doubling to 30 s. */
export const REFRESH_RETRY_MS = 1_000;
export const REFRESH_RETRY_MAX_MS = 30_000;

/** The wait before refresh attempt `attempt` (1 = the first retry): 1 s, 2 s, 4 s … at most 30 s. */
export function refreshRetryDelay(attempt: number): number {
  return Math.min(REFRESH_RETRY_MAX_MS, REFRESH_RETRY_MS * 2 ** Math.max(0, attempt - 1));
}

let timer: ReturnType<typeof setTimeout> | undefined;
/** fires when the refresh token's expiry passes: the session ends then, not at the next click */
let expiryTimer: ReturnType<typeof setTimeout> | undefined;

/** The refresh token's expiry is noticed when it happens (docs/dashboard.md "Sessions"). */
function watchExpiry(): void {
  clearTimeout(expiryTimer);
  const expiry = Number(readStorage(STORAGE.refreshTokenExpiry));
  if (!Number.isFinite(expiry) || !getSession().userId) return;
  // setTimeout holds at most about 24.8 days: a later expiry is looked at again then
  const wait = Math.min(Math.max(0, expiry - Date.now()), 2 ** 31 - 1);
  expiryTimer = setTimeout(() => {
    if (!refreshTokenValid()) endSession("expired");
    else watchExpiry();
  }, wait);
}

function scheduleRefresh(): void {
  clearTimeout(timer);
  watchExpiry();
  const { expires } = getSession();
  if (expires === undefined) return;
  timer = setTimeout(() => void refreshWithRetry(1), refreshDelay(expires, Date.now()));
}

/**
 * The timed refresh: an answer that ends the session ends it; a refresh that got no answer (a server
 * down, a 604) is tried again with backoff until it works or the refresh token expires.
 */
async function refreshWithRetry(attempt: number): Promise<void> {
  if (!refreshTokenValid()) {
    endSession("expired");
    return;
  }
  if (await refreshSession()) return;
  if (lastRefreshEnd) {
    endSession(lastRefreshEnd);
    return;
  }
  if (!getSession().userId) return;
  clearTimeout(timer);
  timer = setTimeout(() => void refreshWithRetry(attempt + 1), refreshRetryDelay(attempt));
}

/** Why the last refresh failed when its answer ends the session (603, 607, 606); undefined for a server that did not answer. */
let lastRefreshEnd: SessionEndReason | undefined;
let refreshing: Promise<boolean> | undefined;
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      lastRefreshEnd = undefined;
      if (!getSession().userId) return false;
      if (!refreshTokenValid()) {
        lastRefreshEnd = "expired";
        return false;
      }
      const answer = await api.call<RefreshAnswer>("refresh", { quiet: true });
      if (!answer.ok) {
        if (answer.code === 603) lastRefreshEnd = "expired";
        else if (answer.code === 606 || answer.code === 607) lastRefreshEnd = "revoked";
        return false;
      }
      writeStorage(STORAGE.refreshTokenExpiry, String(answer.data.refreshTokenExpiry));
      setSession({ accessToken: answer.data.accessToken });
      scheduleRefresh();
      if (!getSession().email) await loadMe();
      return true;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

async function loadMe(): Promise<void> {
  const me = await api.call<{ uuid: string; email: string; admin: boolean }>("me", { quiet: true });
  if (me.ok) setSession({ admin: me.data.admin, email: me.data.email });
}

setAccessExpiredHandler(refreshSession);

/** After a successful login or registration (docs/dashboard-rules.md#states): keep the session, load clients and exchanges. */
export async function signIn(answer: SessionAnswer, email: string): Promise<void> {
  writeStorage(STORAGE.userId, answer.uuid);
  writeStorage(STORAGE.refreshTokenExpiry, String(answer.refreshTokenExpiry));
  setSession({ userId: answer.uuid, accessToken: answer.accessToken, admin: answer.admin, email, ended: undefined });
  scheduleRefresh();
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ["clients"] }),
    queryClient.invalidateQueries({ queryKey: ["exchanges"] }),
  ]);
}

/**
 * The authenticated layout's guard: a valid token, or one obtained through the refresh cookie. A
 * refresh the server refused (603, 607) marks the session ended, so the login screen says why.
 */
export async function ensureSession(): Promise<boolean> {
  if (hasValidToken()) return true;
  const ok = await refreshSession();
  if (!ok && lastRefreshEnd) forgetSession(lastRefreshEnd);
  return ok;
}

/** The login screen's return search for where the visitor is now (never a sign-in screen). */
function loginHref(): string {
  const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  const onSignIn = /^\/(login|registration)\b/.test(window.location.pathname);
  if (onSignIn || here === "/") return "/login/password";
  return `/login/password?${new URLSearchParams({ redirect: here })}`;
}

/** Drops the session in this tab: no token, no admin entries, no live channel, no data of the old session. */
function forgetSession(reason: SessionEndReason): void {
  clearTimeout(timer);
  clearTimeout(expiryTimer);
  stopLive();
  queryClient.clear();
  setSession({
    userId: undefined,
    accessToken: undefined,
    expires: undefined,
    admin: false,
    email: undefined,
    ended: reason,
  });
}

/**
 * The session ended under the page (docs/dashboard.md "Sessions"): expired, revoked (Exit in
 * another tab, a removed user), or the other tab cleared the storage. The header loses its admin
 * entries and Exit, and the login screen says why and offers the way back.
 */
export function endSession(reason: SessionEndReason): void {
  if (!getSession().userId && !getSession().accessToken) return;
  forgetSession(reason);
  navigateTo(loginHref());
}

if (typeof window !== "undefined") {
  listen<SessionEndReason>(SESSION_ENDED, (reason) => endSession(reason));
  // Exit in another tab clears the shared local storage (docs/dashboard-rules.md#screens): this tab's session is over too.
  window.addEventListener("storage", (e) => {
    if ((e.key === null || e.key === STORAGE.userId) && !readStorage(STORAGE.userId) && getSession().userId)
      endSession("elsewhere");
  });
  setServerProbe(
    () => api.call("health", { quiet: true }),
    () => void queryClient.invalidateQueries(),
  );
}

/** Exit (docs/dashboard-rules.md#screens; docs/decisions.md#d7): revoke the refresh token, clear local storage, go to the sign-in screen. */
export async function exitSession(): Promise<void> {
  // this tab's own socket closes first, so the server's "session ended" close is not taken for a revocation
  stopLive();
  await api.call("logout", { quiet: true });
  try {
    localStorage.clear();
  } catch {
    // nothing stored
  }
  // to the sign-in screen without a return path: the next person to sign in here starts at Home
  window.location.assign("/login/password");
}
