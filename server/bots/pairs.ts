/**
 * A bot's pair is checked when the bot is created or edited (docs/bots.md "Create, edit, pause"):
 * a pair the venue does not trade is refused with 600 (400) naming it, instead of being stored
 * and stopping at its first start. paper knows its pairs; a real venue is asked for its public
 * pair list (through `botEndpoints` and the server's proxy) unless the token pair table holds it.
 */

import { needsApiKey } from "../../exchanges/catalogue.js";
import { listExchangePairs } from "../../exchanges/open.js";
import { paperPair } from "../../exchanges/paper/index.js";
import { isExchangeError } from "../../lib/errors.js";
import { normalizePair } from "../../lib/pair.js";
import { isExchangeId } from "../../lib/types.js";
import type { App } from "../app.js";
import { taskFailed } from "../errors.js";

/** How long a create waits for a venue's pair list before it lets the bot's start decide. */
export const PAIR_LIST_TIMEOUT_MS = 5000;

/** The pair a setup trades (floating: main.pair; the others: pair); undefined when it has none. */
export function setupPair(setup: unknown): string | undefined {
  const s = setup as { pair?: unknown; main?: { pair?: unknown } } | null;
  const pair = s?.main?.pair ?? s?.pair;
  return typeof pair === "string" ? pair : undefined;
}

/**
 * Throws 600 (400) `setup.pair: …` when `exchange` does not trade `pair`. A real venue whose list
 * cannot be read now (offline, a time-out) does not block the create: the bot's start says why it
 * cannot run, as before.
 */
export async function refuseUnknownPair(app: App, exchange: string, pair: string): Promise<void> {
  if (!isExchangeId(exchange)) return;
  if (!needsApiKey(exchange)) {
    try {
      paperPair(pair);
    } catch (error) {
      throw taskFailed(`setup.pair: ${isExchangeError(error) ? error.detail : String(error)}`);
    }
    return;
  }
  let name: string;
  try {
    name = normalizePair(pair, exchange);
  } catch (error) {
    throw taskFailed(`setup.pair: ${isExchangeError(error) ? error.detail : String(error)}`);
  }
  if (await app.storage.getTokenPair(exchange, name)) return;
  const baseUrl = app.config.botEndpoints[exchange]?.baseUrl;
  let pairs: string[];
  try {
    pairs = (
      await listExchangePairs(exchange, {
        timeoutMs: PAIR_LIST_TIMEOUT_MS,
        logger: app.logger,
        proxy: app.config.proxy,
        ...(baseUrl ? { baseUrl } : {}),
      })
    ).map((p) => p.pair);
  } catch (error) {
    app.logger.warn("bot pair not checked: the venue's pair list is unavailable", {
      exchange,
      error: isExchangeError(error) ? error.kind : "unexpected",
    });
    return;
  }
  if (!pairs.includes(name)) throw taskFailed(`setup.pair: ${exchange} does not trade '${pair}' (unknown pair)`);
}
