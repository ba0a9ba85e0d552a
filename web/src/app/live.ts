/**
 * The live channel (docs/dashboard-rules.md#states "Live channel", docs/api.md#calls): a websocket to the backend host with no
 * path. It opens when an access token exists, has not expired and no open socket exists; on open
 * it sends {purpose:'sub_for_bots', userId, token}; every 15 s it reconnects when the socket is
 * closed or closing; every 5 s it sends 'ping', and a ping with no answer within 5 s is a frozen
 * server (docs/decisions.md#d37); 'ping'/'pong' are otherwise ignored; subscription replies
 * become toasts; every other message is re-broadcast as an app event named by its type.
 */
import { LIVE_SUBSCRIBE } from "../../../lib/api.js";
import { SESSION_ENDED, type SessionEndReason } from "./api";
import { awakeToast, emit, LIVE_TOAST_ID, type ToastKind } from "./events";
import { probeServer, reportServerReachable } from "./server-status";
import { getSession, hasValidToken, subscribeSession } from "./session-store";

/** The server closes a subscription whose session was revoked with 4607 (server/live.ts LIVE_CLOSE_SESSION_ENDED). */
export const LIVE_CLOSE_SESSION_ENDED = 4607;
/** Closes that say nothing about the server being down: normal, expired token, session ended. */
const EXPECTED_CLOSES = new Set([1000, 4602, LIVE_CLOSE_SESSION_ENDED]);

/** docs/dashboard-rules.md#constants: websocket keep-alive 15 s (the reconnect tick). */
export const KEEP_ALIVE_MS = 15_000;
/**
 * docs/decisions.md#d37: a server that stops answering is noticed. Every 5 s the open channel sends
 * 'ping', which the server answers 'pong'; no message at all within 5 s of a ping means the server
 * is frozen (stopped, overloaded, a half-open connection) and it is treated as a dead one.
 */
export const HEARTBEAT_MS = 5_000;
export const HEARTBEAT_ANSWER_MS = 5_000;

export type LiveAction =
  | { kind: "ignore" }
  | { kind: "toast"; toast: ToastKind; title: string; description: string }
  | { kind: "event"; name: string; data: unknown };

/** What one incoming message means (docs/dashboard-rules.md#states). Pure, so every rule is tested. */
export function liveMessageAction(text: string): LiveAction {
  if (text === "ping" || text === "pong") return { kind: "ignore" };
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { kind: "ignore" };
  }
  if (typeof message !== "object" || message === null) return { kind: "ignore" };
  const m = message as { purpose?: unknown; result?: unknown; type?: unknown; data?: unknown };
  if (typeof m.purpose === "string" && "result" in m) {
    const description = `For channel '${m.purpose}'`;
    return m.result
      ? { kind: "toast", toast: "success", title: "Subscribed", description }
      : { kind: "toast", toast: "error", title: "Not subscribed", description };
  }
  if (typeof m.type === "string") return { kind: "event", name: m.type, data: m.data };
  return { kind: "ignore" };
}

export function subscribeMessage(userId: string, token: string): string {
  return JSON.stringify({ purpose: LIVE_SUBSCRIBE, userId, token });
}

/** docs/api.md#calls: the backend host over ws (wss under https), no path. */
export function liveUrl(location: { protocol: string; host: string }, configured?: string): string {
  if (configured) return configured;
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/`;
}

let socket: WebSocket | undefined;
let keepAlive: ReturnType<typeof setInterval> | undefined;
let heartbeat: ReturnType<typeof setInterval> | undefined;
/** set while a ping waits for its answer: the time-out that declares the server frozen */
let awaitingAnswer: ReturnType<typeof setTimeout> | undefined;
let unwatchSession: (() => void) | undefined;
let subscribedToken: string | undefined;

function open(): void {
  const session = getSession();
  if (!hasValidToken(session) || !session.userId) return;
  if (socket && (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING)) return;
  const ws = new WebSocket(liveUrl(window.location, import.meta.env.VITE_LIVE_URL || undefined));
  socket = ws;
  ws.onopen = () => {
    awakeToast("success", "Connected", undefined, LIVE_TOAST_ID);
    const s = getSession();
    subscribedToken = s.accessToken;
    ws.send(subscribeMessage(s.userId ?? "", s.accessToken ?? ""));
  };
  ws.onclose = (e) => {
    awakeToast("info", "Disconnected", `With code: ${e.code}`);
    if (socket !== ws) return; // closed by stopLive: nothing to learn
    if (e.code === LIVE_CLOSE_SESSION_ENDED) emit<SessionEndReason>(SESSION_ENDED, "revoked");
    // a dropped socket may be a server down: ask /health, so the page says so (docs/dashboard.md "Sessions")
    else if (!EXPECTED_CLOSES.has(e.code)) void probeServer();
  };
  ws.onerror = (e) => {
    awakeToast("error", "WebSocket Error", JSON.stringify({ type: e.type }));
    ws.close();
  };
  ws.onmessage = (e) => {
    // any message answers the heartbeat: the server is alive
    clearTimeout(awaitingAnswer);
    awaitingAnswer = undefined;
    const action = liveMessageAction(typeof e.data === "string" ? e.data : "");
    // Connected and its Subscribed share one place (every page load raises both); "Not subscribed" stands alone
    if (action.kind === "toast")
      awakeToast(
        action.toast,
        action.title,
        action.description,
        action.toast === "success" ? LIVE_TOAST_ID : undefined,
      );
    else if (action.kind === "event") emit(action.name, action.data);
  };
}

/** Starts the channel and its 15 s timer (idempotent). */
export function startLive(): void {
  open();
  // The server ends a subscription when its access token expires (close code 4602): subscribe
  // again on the same socket with each refreshed token, so the channel does not drop every TTL.
  unwatchSession ??= subscribeSession(() => {
    const s = getSession();
    if (!socket || socket.readyState !== WebSocket.OPEN || !s.accessToken || s.accessToken === subscribedToken) return;
    subscribedToken = s.accessToken;
    socket.send(subscribeMessage(s.userId ?? "", s.accessToken));
  });
  heartbeat ??= setInterval(beat, HEARTBEAT_MS);
  if (keepAlive) return;
  keepAlive = setInterval(() => {
    if (!socket || socket.readyState === WebSocket.CLOSED || socket.readyState === WebSocket.CLOSING) open();
  }, KEEP_ALIVE_MS);
}

/**
 * docs/decisions.md#d37: sends a ping on the open channel and waits HEARTBEAT_ANSWER_MS for any
 * message. Unanswered, the server does not answer: the page says so (the banner, the stale book)
 * as for a dead server, the socket is dropped, and /health is asked until it answers again.
 */
function beat(): void {
  const ws = socket;
  if (!ws || ws.readyState !== WebSocket.OPEN || awaitingAnswer !== undefined) return;
  ws.send("ping");
  awaitingAnswer = setTimeout(() => {
    awaitingAnswer = undefined;
    if (socket !== ws) return;
    socket = undefined;
    ws.onclose = null;
    ws.onmessage = null;
    ws.close();
    reportServerReachable(false);
  }, HEARTBEAT_ANSWER_MS);
}

export function stopLive(): void {
  clearInterval(keepAlive);
  keepAlive = undefined;
  clearInterval(heartbeat);
  heartbeat = undefined;
  clearTimeout(awaitingAnswer);
  awaitingAnswer = undefined;
  unwatchSession?.();
  unwatchSession = undefined;
  subscribedToken = undefined;
  socket?.close();
  socket = undefined;
}
