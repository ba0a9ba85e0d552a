/**
 * `paper`, the built-in simulated exchange (docs/product.md#paper): the same
 * adapter and feed interfaces as the fifteen real exchanges, over a synthetic market.
 *
 *   pairs.ts   the pairs it trades and a new account's demo balances
 *   market.ts  the synthetic market: a seeded, deterministic function of time
 *   state.ts   one account's state as kept on disk
 *   engine.ts  matching and balances over that state
 *   lock.ts    the lock file that serializes processes
 *   snapshot.ts the account's snapshot file: validation, atomic writes
 *   journal.ts the account's journal: one JSON line per call that changed something
 *   store.ts   the account's files (snapshot + journal): location, calls, in-memory cache
 *   adapter.ts the ExchangeAdapter
 *   feed.ts    the BookFeed
 */

import type { BookLevel } from "../../lib/types.js";
import { CATALOGUE } from "../catalogue.js";
import { resolveSeed, syntheticMarket } from "./market.js";
import { paperPair } from "./pairs.js";

export { createPaperExchange, PaperExchange, type PaperOptions } from "./adapter.js";
export { createPaperFeed, type PaperFeedOptions } from "./feed.js";
export { BUCKET_MS, DEFAULT_SEED, SyntheticMarket, syntheticMarket } from "./market.js";
export { DEMO_BALANCES, listPaperPairs, PAPER_PAIRS, type PaperPair, paperPair } from "./pairs.js";
export { defaultDataDir, paperJournalFile, paperStateFile } from "./store.js";

/**
 * The synthetic book of a paper pair at an instant, best first (for a one-shot `book` without a
 * feed). `depth` is paper's default depth (20) when absent, and at most the market's 50 levels.
 */
export function paperBook(
  pair: string,
  options: { now?: () => number; depth?: number; seed?: string } = {},
): { pair: string; ts: number; mid: string; bids: BookLevel[]; asks: BookLevel[] } {
  const spec = paperPair(pair);
  const ts = (options.now ?? Date.now)();
  const book = syntheticMarket(spec, resolveSeed(options.seed)).book(ts, options.depth ?? CATALOGUE.paper.depth);
  return { pair: spec.pair, ts, ...book };
}
