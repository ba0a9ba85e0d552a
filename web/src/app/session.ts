/** Session actions (seed 000 §4 "Session", PRODUCT D7): sign-in, the timed refresh, exit. */
import type { RefreshAnswer, SessionAnswer } from "../../../lib/api.js";
import { api, setAccessExpiredHandler } from "./api";
import { queryClient } from "./query";
import { getSession, hasValidToken, setSession } from "./session-store";
import { readStorage, STORAGE, writeStorage } from "./storage";

/** Seed 000 §9: refresh 3 minutes before expiry. */
export const REFRESH_MARGIN_MS = 3 * 60_000;

/** When the next refresh is due: 3 minutes before the access token expires, never in the past. */
export function refreshDelay(expires: number, now: number): number {
  return Math.max(0, expires - REFRESH_MARGIN_MS - now);
}

/** Seed 000 §4: refresh only while the refresh token is still valid. */
export function refreshTokenValid(now = Date.now()): boolean {
  const expiry = Number(readStorage(STORAGE.refreshTokenExpiry));
  return Number.isFinite(expiry) && expiry > now;
}

let timer: ReturnType<typeof setTimeout> | undefined;
function scheduleRefresh(): void {
  clearTimeout(timer);
  const { expires } = getSession();
  if (expires === undefined) return;
  timer = setTimeout(
    () => {
      if (refreshTokenValid()) void refreshSession();
    },
    refreshDelay(expires, Date.now()),
  );
}

let refreshing: Promise<boolean> | undefined;
export function refreshSession(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      if (!getSession().userId || !refreshTokenValid()) return false;
      const answer = await api.call<RefreshAnswer>("refresh", { quiet: true });
      if (!answer.ok) return false;
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

/** After a successful login or registration (seed 000 §4): keep the session, load clients and exchanges. */
export async function signIn(answer: SessionAnswer, email: string): Promise<void> {
  writeStorage(STORAGE.userId, answer.uuid);
  writeStorage(STORAGE.refreshTokenExpiry, String(answer.refreshTokenExpiry));
  setSession({ userId: answer.uuid, accessToken: answer.accessToken, admin: answer.admin, email });
  scheduleRefresh();
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: ["clients"] }),
    queryClient.invalidateQueries({ queryKey: ["exchanges"] }),
  ]);
}

/** The authenticated layout's guard: a valid token, or one obtained through the refresh cookie. */
export async function ensureSession(): Promise<boolean> {
  if (hasValidToken()) return true;
  return refreshSession();
}

/** Exit (seed 000 §2; PRODUCT D7): revoke the refresh token, clear local storage, reload. */
export async function exitSession(): Promise<void> {
  await api.call("logout", { quiet: true });
  try {
    localStorage.clear();
  } catch {
    // nothing stored
  }
  window.location.reload();
}
