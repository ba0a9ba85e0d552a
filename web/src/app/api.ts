/**
 * The one backend client of the app and the one place that turns failures into toasts and
 * redirects, rather than each screen: error toasts with the docs/api.md#errors texts, a success toast in words on every
 * non-GET call (docs/api.md#calls, docs/dashboard.md "Toasts"), a token refresh and one retry after a
 * 602, the end of the session on 603/607 (docs/dashboard.md "Sessions"), and whether the server
 * answers at all.
 */
import { API_ERROR, type RouteName } from "../../../lib/api.js";
import { type ApiFailure, createApiClient } from "../../../lib/client.js";
import { awakeToast, emit } from "./events";
import { reportServerReachable } from "./server-status";
import { getSession, hasValidToken } from "./session-store";

type Navigate = (href: string) => void;
let navigate: Navigate = (href) => window.location.assign(href);
let refreshAccess: () => Promise<boolean> = async () => false;

/** The router registers itself so an ended session can go to the login screen (an href with its search). */
export function setNavigator(fn: Navigate): void {
  navigate = fn;
}
export function navigateTo(href: string): void {
  navigate(href);
}
/** The session registers its refresh (it imports this module, so it cannot be imported here). */
export function setAccessExpiredHandler(fn: () => Promise<boolean>): void {
  refreshAccess = fn;
}

/** Why a session ended; session.ts listens for SESSION_ENDED and says so on the login screen. */
export type SessionEndReason = "expired" | "revoked" | "elsewhere";
export const SESSION_ENDED = "SESSION_ENDED";

/** Calls that must not wait on a refresh: the refresh itself, the profile it loads, the logout. */
const NO_RETRY: readonly RouteName[] = ["refresh", "me", "logout"];

/**
 * docs/api.md#errors 602 'Need to refresh your Access Token...': refresh the token, then the client sends
 * the failed call once more. The server refuses a 602 call before acting on it, so the retry cannot
 * double an order. Concurrent 602s share one refresh (session.ts).
 */
export async function recoverFailure(failure: ApiFailure, route: RouteName): Promise<boolean> {
  if (failure.code !== API_ERROR.ACCESS_EXPIRED || NO_RETRY.includes(route)) return false;
  return refreshAccess();
}

/** The reason a failure ends the session, if it does: 603 expired; 607, or 606 on a signed-in call (user removed), revoked. */
export function sessionEndOf(failure: ApiFailure): SessionEndReason | undefined {
  if (failure.code === API_ERROR.ALL_EXPIRED) return "expired";
  if (failure.code === API_ERROR.INVALID_TOKEN) return "revoked";
  if (failure.code === API_ERROR.NO_SUCH_USER && failure.path.startsWith("/token/")) return "revoked";
  return undefined;
}

/** docs/api.md#errors failures as toasts and what follows them. */
export function handleFailure(failure: ApiFailure): void {
  // a signed-in call that went without an access token (601) means the session lapsed in this tab:
  // said as an expiry on the login screen, not as "please contact developers" (docs/dashboard.md "Sessions")
  const lapsed =
    failure.code === API_ERROR.MISSING_HEADER &&
    failure.path.startsWith("/token/") &&
    !hasValidToken() &&
    Boolean(getSession().userId);
  if (!lapsed) awakeToast("error", failure.title, failure.description);
  const reason = lapsed ? "expired" : sessionEndOf(failure);
  if (reason && getSession().userId) emit<SessionEndReason>(SESSION_ENDED, reason);
}

/**
 * docs/api.md#calls "Successful non-GET calls show a success toast": what happened, in the operator's
 * words (docs/dashboard.md "Toasts"), not the method and path.
 */
export const SUCCESS_TEXT: Partial<Record<RouteName, string>> = {
  code: "Code sent: check your e-mail",
  register: "Registered",
  loginPassword: "Signed in",
  loginSignature: "Signed in",
  setApiKeys: "API key saved",
  removeApiKeys: "API key deleted",
  setTokenPair: "Pair decimals saved",
  removeTokenPair: "Pair decimals removed",
  createOrder: "Order placed",
  cancelOrder: "Order cancelled",
  cancelAll: "Open orders cancelled",
  setUser: "User permitted to sign in",
  removeUser: "User removed",
  changeScope: "User scope changed",
  setupBot: "Bot created",
  removeBot: "Bot removed",
  editBot: "Bot updated",
  pauseBot: "Bot paused",
  resumeBot: "Bot resumed",
  stopBot: "Bot stopped, its orders cancelled",
  stopAllBots: "Bots stopped, their orders cancelled",
};

export function successTitle(route: RouteName): string {
  return SUCCESS_TEXT[route] ?? "Done";
}

/** Success toasts whose words depend on the answer: a placed order says what filled at once (docs/web-trading.md "Fills"). */
const SUCCESS_FROM_ANSWER: Partial<
  Record<RouteName, (data: unknown) => { title: string; description?: string } | undefined>
> = {};
export function setSuccessFromAnswer(
  route: RouteName,
  words: (data: unknown) => { title: string; description?: string } | undefined,
): void {
  SUCCESS_FROM_ANSWER[route] = words;
}

function successToast(route: RouteName, data: unknown): void {
  const words = SUCCESS_FROM_ANSWER[route]?.(data);
  if (words) awakeToast("success", words.title, words.description);
  else awakeToast("success", successTitle(route));
}

export const api = createApiClient({
  baseUrl: import.meta.env.VITE_API_URL ?? "",
  accessToken: () => getSession().accessToken,
  userId: () => getSession().userId,
  onFailure: handleFailure,
  onReachable: (reachable) => reportServerReachable(reachable),
  recover: recoverFailure,
  onSuccess: (_method, _path, route, data) => successToast(route, data),
});
