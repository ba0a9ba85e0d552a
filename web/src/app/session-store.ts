/**
 * The session (seed 000 §3 "Session/auth response", §4 "Session"): the access token lives in
 * memory only; userId and refreshTokenExpiry are kept in local storage (PRODUCT D17) and the
 * refresh token is an HttpOnly cookie (PRODUCT D7), so a reload signs in again through
 * /user/refresh.
 */
import { useSyncExternalStore } from "react";
import { readAccessToken } from "../../../lib/api.js";
import { readStorage, STORAGE } from "./storage";

export interface SessionState {
  userId: string | undefined;
  accessToken: string | undefined;
  /** ms since the epoch, from the access token's JSON (seed 000 §3) */
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

/** Seed 000 §4: a token that exists and has not expired. */
export function hasValidToken(s: SessionState = state, now = Date.now()): boolean {
  return Boolean(s.accessToken && s.expires !== undefined && s.expires > now);
}
