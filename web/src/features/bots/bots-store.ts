/**
 * The bots of the live channel (docs/dashboard-rules.md#states "Bot list"): a snapshot replaces the list, a delta sets
 * or removes one bot. GET /token/bots seeds it when the store starts, so a view opened after the
 * channel's snapshot is not empty. Views copy it every second (BOT_VIEW_REFRESH_MS).
 */
import { useEffect, useState } from "react";
import type { BotAnswer } from "../../../../lib/api.js";
import { api } from "../../app/api";
import { LIVE_EVENTS, listen } from "../../app/events";

/** docs/dashboard-rules.md#constants "Bot view refresh": 1 s. */
export const BOT_VIEW_REFRESH_MS = 1000;

/** A bot as the live channel carries it: the seed's records plus the runner's status, note, lastError, updatedAt (docs/bots.md). */
export type LiveBot = BotAnswer;

const bots = new Map<string, LiveBot>();
let version = 0;
let started = false;

function isBot(v: unknown): v is LiveBot {
  return (
    typeof v === "object" &&
    v !== null &&
    typeof (v as { botId?: unknown }).botId === "string" &&
    typeof (v as { botType?: unknown }).botType === "string"
  );
}

/** Applies one live-channel event (pure on the store; exported for tests of the rule). */
export function applyLive(kind: "snapshot" | "delta", data: unknown): void {
  if (kind === "snapshot") {
    if (!Array.isArray(data)) return;
    bots.clear();
    for (const b of data) if (isBot(b)) bots.set(b.botId, b);
  } else if (typeof data === "object" && data !== null) {
    const d = data as { botId?: unknown; removed?: unknown };
    if (typeof d.botId !== "string") return;
    if (d.removed === true) bots.delete(d.botId);
    else if (isBot(data)) bots.set(d.botId, data);
  }
  version++;
}

/** Starts listening (once) and loads the current list. */
export function startBotsStore(): void {
  if (started) return;
  started = true;
  listen<unknown>(LIVE_EVENTS.snapshot, (d) => applyLive("snapshot", d));
  listen<unknown>(LIVE_EVENTS.delta, (d) => applyLive("delta", d));
  void reloadBots();
}

export async function reloadBots(): Promise<void> {
  const r = await api.call<LiveBot[]>("bots", { quiet: true });
  if (r.ok) applyLive("snapshot", r.data);
}

/** Removes a bot at once after a successful DELETE (the delta follows on the channel). */
export function forgetBot(botId: string): void {
  applyLive("delta", { botId, removed: true });
}

/** The bots, copied to the view every second when they changed (docs/dashboard-rules.md#states, #constants). */
export function useLiveBots(): LiveBot[] {
  const [list, setList] = useState<LiveBot[]>(() => [...bots.values()]);
  useEffect(() => {
    startBotsStore();
    let shown = -1;
    const copy = () => {
      if (shown === version) return;
      shown = version;
      setList([...bots.values()]);
    };
    copy();
    const timer = setInterval(copy, BOT_VIEW_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  return list;
}
