/**
 * The one backend client of the app and the one place that turns failures into toasts and
 * redirects (STYLE.md): error toasts with the seed 000 §8 texts, a success toast on every
 * non-GET call (seed 000 §7), and a redirect to the login screen when the tokens are gone.
 */
import { API_ERROR } from "../../../lib/api.js";
import { createApiClient, type ApiFailure } from "../../../lib/client.js";
import { awakeToast } from "./events";
import { getSession, setSession } from "./session-store";

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);
let onAccessExpired: () => void = () => {};

/** The router registers itself so a 603/607 can send the user to the login screen. */
export function setNavigator(fn: Navigate): void {
  navigate = fn;
}
export function setAccessExpiredHandler(fn: () => void): void {
  onAccessExpired = fn;
}

/** Seed 000 §8 failures as toasts and what follows them. */
export function handleFailure(failure: ApiFailure): void {
  awakeToast("error", failure.title, failure.description);
  if (failure.code === API_ERROR.ACCESS_EXPIRED) onAccessExpired();
  if (failure.code === API_ERROR.ALL_EXPIRED || failure.code === API_ERROR.INVALID_TOKEN) {
    setSession({ accessToken: undefined, expires: undefined, admin: false });
    navigate("/login/password");
  }
}

export function successTitle(method: string, path: string): string {
  return `${method} ${path}`;
}

export const api = createApiClient({
  baseUrl: import.meta.env.VITE_API_URL ?? "",
  accessToken: () => getSession().accessToken,
  userId: () => getSession().userId,
  onFailure: handleFailure,
  onSuccess: (method, path) => awakeToast("success", "Success", successTitle(method, path)),
});
