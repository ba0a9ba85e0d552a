/**
 * The session (docs/dashboard-rules.md#entities "Session/auth response", docs/dashboard-rules.md#states "Session"): the access token lives in
 * memory only; userId and refreshTokenExpiry are kept in local storage (docs/decisions.md#d17) and the
 * refresh token is an HttpOnly cookie (docs/decisions.md#d7), so a reload signs in again through
 * /user/refresh.
 */
import { useSyncExternalStore } from "react";
import { readAccessToken } from "../../../lib/api.js";
import { readStorage, STORAGE } from "./storage";

export interface SessionState {
  userId: string | undefined;
  accessToken: string | undefined;
  /** ms since the epoch, from the access token's JSON (docs/dashboard-rules.md#entities) */
  expires: number | undefined;
  admin: boolean;
  email: string | undefined;
  /** why the last session ended, for the login screen to say (docs/dashboard.md "Sessions") */
  ended?: "expired" | "revoked" | "elsewhere" | undefined;
}

let state: SessionState = {
  userId: readStorage(STORAGE.userId) ?? undefined,
  accessToken: undefined,
  expires: undefined,
  admin: false,
  email: undefined,
};
const listeners = new Set<() => void>();

export function getSession(): SessionState {
  return state;
}

export function setSession(patch: Partial<SessionState>): void {
  state = { ...state, ...patch };
  if (patch.accessToken !== undefined) state.expires = readAccessToken(patch.accessToken)?.expires;
  for (const l of listeners) l();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** docs/dashboard-rules.md#states: a token that exists and has not expired. */
export function hasValidToken(s: SessionState = state, now = Date.now()): boolean {
  return Boolean(s.accessToken && s.expires !== undefined && s.expires > now);
}
