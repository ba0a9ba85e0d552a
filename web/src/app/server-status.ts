/**
 * Whether the server answers (docs/dashboard.md "Sessions"): a call that gets no answer at all marks
 * it down, any answer marks it up. While it is down the page says so instead of showing what it
 * last loaded as if it were current, and /health is asked every few seconds until it answers.
 */
import { useSyncExternalStore } from "react";

/** How often a down server is asked again. */
export const SERVER_PROBE_MS = 5_000;

export interface ServerStatus {
  /** ms since the epoch of the first unanswered call, or undefined while the server answers */
  downSince: number | undefined;
}

let status: ServerStatus = { downSince: undefined };
const listeners = new Set<() => void>();
let probe: (() => Promise<unknown>) | undefined;
let onBack: (() => void) | undefined;
let timer: ReturnType<typeof setInterval> | undefined;

/** The app registers how to ask the server (GET /health) and what to do when it is back. */
export function setServerProbe(ask: () => Promise<unknown>, back: () => void): void {
  probe = ask;
  onBack = back;
}

export function reportServerReachable(reachable: boolean, now = Date.now()): void {
  const wasDown = status.downSince !== undefined;
  if (reachable === !wasDown) return;
  status = { downSince: reachable ? undefined : now };
  for (const l of listeners) l();
  if (reachable) {
    clearInterval(timer);
    timer = undefined;
    onBack?.();
  } else if (probe && typeof window !== "undefined") {
    timer = setInterval(() => void probe?.(), SERVER_PROBE_MS);
  }
}

/** Asks the server once now (the Retry button, a dropped live channel). */
export function probeServer(): Promise<unknown> {
  return probe?.() ?? Promise.resolve();
}

export function getServerStatus(): ServerStatus {
  return status;
}

export function useServerStatus(): ServerStatus {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    getServerStatus,
    getServerStatus,
  );
}
