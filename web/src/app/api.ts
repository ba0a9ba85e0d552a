/**
 * The one backend client of the app and the one place that turns failures into toasts and
 * redirects (STYLE.md): error toasts with the seed 000 §8 texts, a success toast on every
 * non-GET call (seed 000 §7), a token refresh and one retry after a 602, and a redirect to the
 * login screen when the tokens are gone.
 */
import { API_ERROR, type RouteName } from "../../../lib/api.js";
import { type ApiFailure, createApiClient } from "../../../lib/client.js";
import { awakeToast } from "./events";
import { getSession, setSession } from "./session-store";

type Navigate = (to: string) => void;
let navigate: Navigate = (to) => window.location.assign(to);
let refreshAccess: () => Promise<boolean> = async () => false;

/** The router registers itself so a 603/607 can send the user to the login screen. */
export function setNavigator(fn: Navigate): void {
  navigate = fn;
}
/** The session registers its refresh (it imports this module, so it cannot be imported here). */
export function setAccessExpiredHandler(fn: () => Promise<boolean>): void {
  refreshAccess = fn;
}

/** Calls that must not wait on a refresh: the refresh itself, the profile it loads, the logout. */
const NO_RETRY: readonly RouteName[] = ["refresh", "me", "logout"];

/**
 * Seed 000 §8 602 'Need to refresh your Access Token...': refresh the token, then the client sends
 * the failed call once more. The server refuses a 602 call before acting on it, so the retry cannot
 * double an order. Concurrent 602s share one refresh (session.ts).
 */
export async function recoverFailure(failure: ApiFailure, route: RouteName): Promise<boolean> {
  if (failure.code !== API_ERROR.ACCESS_EXPIRED || NO_RETRY.includes(route)) return false;
  return refreshAccess();
}

/** Seed 000 §8 failures as toasts and what follows them. */
export function handleFailure(failure: ApiFailure): void {
  awakeToast("error", failure.title, failure.description);
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
  recover: recoverFailure,
  onSuccess: (method, path) => awakeToast("success", "Success", successTitle(method, path)),
});
