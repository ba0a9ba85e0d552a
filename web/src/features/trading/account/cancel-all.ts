/**
 * Cancel all, on a desk where bots trade (docs/web-trading.md "Balances and open orders"): the
 * question names the bots that will place their orders again, from the bots list the dashboard
 * already holds (the live channel's, docs/dashboard-rules.md#states "Bot list").
 */
import type { AccountPath, BotAnswer } from "../../../../../lib/api.js";

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((s, i) => s === b[i]);

/** The pair a bot's setup trades (a floating bot's under `main`), upper-cased as every pair is compared. */
export function setupPair(bot: Pick<BotAnswer, "setup">): string | undefined {
  const s = bot.setup as { pair?: unknown; main?: { pair?: unknown } } | null;
  const pair = s?.main?.pair ?? s?.pair;
  return typeof pair === "string" ? pair.trim().toUpperCase() : undefined;
}

/** Statuses of a bot that places orders now or will again by itself (docs/bots.md): running, or retrying after an error. */
const PLACING: readonly BotAnswer["status"][] = ["running", "backing-off"];

/** The bots that place orders on this account's pair: its own path or an extra path (heavy volume), running or backing off. */
export function botsPlacingOn(
  bots: readonly Pick<BotAnswer, "botId" | "botType" | "path" | "paths" | "setup" | "status">[],
  path: AccountPath,
  pair: string,
) {
  const wanted = pair.toUpperCase();
  return bots.filter(
    (b) =>
      PLACING.includes(b.status) &&
      setupPair(b) === wanted &&
      (samePath(b.path, path) || (b.paths ?? []).some((p) => samePath(p, path))),
  );
}

/** The question's words: what Cancel all does, and which bots will place their orders again at once. */
export function cancelAllQuestion(
  path: AccountPath,
  pair: string,
  count: number,
  bots: readonly Pick<BotAnswer, "botId" | "botType" | "status">[],
): { text: string; bots: string | undefined } {
  const text = `Cancel all ${count} open ${pair} order${count === 1 ? "" : "s"} of ${path.join(" / ")}?`;
  if (bots.length === 0) return { text, bots: undefined };
  const names = bots.map((b) => `${b.botType} ${b.botId} (${b.status})`).join(", ");
  const many = bots.length > 1;
  return {
    text,
    bots: `${bots.length} bot${many ? "s are" : " is"} running on ${pair} here and will place ${many ? "their" : "its"} orders again: ${names}. Stop ${many ? "them" : "it"} first (Bots) to keep the book clear.`,
  };
}
