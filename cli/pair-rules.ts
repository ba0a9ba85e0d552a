/**
 * The tick and lot of the pair an order names (docs/orders.md "Numbers on the command line",
 * docs/decisions.md#d35): paper's from its own table; a real venue's from its public pair list
 * (`fetchPairs()`, docs/exchange-rules.md#pairs), kept under the data directory per venue (and base
 * URL) so that an order costs no extra call most of the time. The list is read again once a day,
 * when the pair is missing from it, and after the venue refused an order for its precision.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { paperPair } from "../exchanges/paper/pairs.js";
import { writeFileAtomic } from "../exchanges/paper/snapshot.js";
import { defaultDataDir } from "../exchanges/paper/store.js";
import type { ExchangeAdapter, PairSpec } from "../exchanges/types.js";
import { stepDecimals } from "../lib/decimal.js";
import { ExchangeError } from "../lib/errors.js";
import type { ExchangeId } from "../lib/types.js";
import type { Context } from "./context.js";

/** How long a venue's pair list is trusted before it is read again. */
export const PAIR_LIST_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** How long reading the list may take before the order goes out without it (with a note). */
const PAIR_LIST_TIMEOUT_MS = 10_000;

export interface PairRules {
  priceDecimals: number;
  amountDecimals: number;
  /** the smallest amount step: an amount worked out from --quote is rounded down to a multiple of it */
  lot?: string;
  /** how messages name the pair: "BTC/USDT" on paper, "htx BTC/USDT" on a venue */
  label: string;
}

const CacheSchema = z.object({
  venue: z.string(),
  baseUrl: z.string().optional(),
  fetchedAt: z.number(),
  pairs: z.record(z.string(), z.object({ tick: z.string(), lot: z.string() })),
});
type Cache = z.infer<typeof CacheSchema>;

/** `<data dir>/pairs/<venue>.json`, or `<venue>-<hash of the base URL>.json` under --base-url. */
export function pairCacheFile(ctx: Context, id: ExchangeId): string {
  const baseUrl = ctx.options.baseUrl;
  const name = baseUrl ? `${id}-${createHash("sha256").update(baseUrl).digest("hex").slice(0, 12)}` : id;
  return join(defaultDataDir(), "pairs", `${name}.json`);
}

function readCache(file: string): Cache | undefined {
  try {
    const parsed = CacheSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(file: string, cache: Cache): void {
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileAtomic(file, `${JSON.stringify(cache)}\n`);
  } catch {
    // A data directory that cannot be written only costs the next order one more read of the list.
  }
}

async function readVenueList(ctx: Context, id: ExchangeId, adapter: ExchangeAdapter): Promise<Cache> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${PAIR_LIST_TIMEOUT_MS / 1000} s`)), PAIR_LIST_TIMEOUT_MS);
  });
  let specs: PairSpec[];
  try {
    specs = await Promise.race([adapter.fetchPairs(), late]);
  } finally {
    clearTimeout(timer);
  }
  return {
    venue: id,
    ...(ctx.options.baseUrl ? { baseUrl: ctx.options.baseUrl } : {}),
    fetchedAt: ctx.now(),
    pairs: Object.fromEntries(specs.map((s) => [s.pair, { tick: s.tick, lot: s.lot }])),
  };
}

function rulesOf(id: ExchangeId, pair: string, spec: { tick: string; lot: string }): PairRules {
  return {
    priceDecimals: stepDecimals(spec.tick),
    amountDecimals: stepDecimals(spec.lot),
    lot: spec.lot,
    label: `${id} ${pair}`,
  };
}

/**
 * The pair's decimals. On a venue: from the cached list when it is less than a day old and holds
 * the pair, else read through the order's own adapter (its base URL, proxy and time-outs; its
 * credentials already checked) and cached. A dry run never reads the list, only the cache.
 * A list that cannot be read, or that does not hold the pair, leaves the numbers as typed and
 * says so on stderr: the venue still checks them.
 */
export async function pairRules(
  ctx: Context,
  id: ExchangeId,
  pair: string,
  adapter?: ExchangeAdapter,
): Promise<PairRules | undefined> {
  if (id === "paper") {
    const spec = paperPair(pair);
    return { priceDecimals: spec.priceDecimals, amountDecimals: spec.amountDecimals, label: pair };
  }
  const file = pairCacheFile(ctx, id);
  const cached = readCache(file);
  const fresh =
    cached !== undefined && ctx.now() - cached.fetchedAt < PAIR_LIST_MAX_AGE_MS && cached.fetchedAt <= ctx.now();
  const hit = fresh ? cached.pairs[pair] : undefined;
  if (hit) return rulesOf(id, pair, hit);
  if (ctx.dryRun || !adapter) return cached?.pairs[pair] ? rulesOf(id, pair, cached.pairs[pair]) : undefined;
  let list: Cache;
  try {
    list = await readVenueList(ctx, id, adapter);
  } catch (error) {
    const why = error instanceof ExchangeError ? error.detail : (error as Error).message;
    ctx.out.note(`Note: ${id}'s pair list could not be read (${why}): the numbers go out as typed`);
    return undefined;
  }
  writeCache(file, list);
  const spec = list.pairs[pair];
  if (!spec) {
    ctx.out.note(`Note: ${id} does not list ${pair} among its trading pairs: the numbers go out as typed`);
    return undefined;
  }
  return rulesOf(id, pair, spec);
}

/** Words venues use when they refuse a price or an amount for its digits (docs/exchange-rules.md#errors). */
const PRECISION_RE = /precision|decimal|scale|accuracy|tick size|lot size|step size/i;

/** True for a venue's refusal of an order for the digits of its price or amount. */
export function isPrecisionRefusal(error: unknown): boolean {
  return (
    error instanceof ExchangeError &&
    (error.kind === "invalid-order" || error.kind === "bad-input") &&
    PRECISION_RE.test(`${error.code ?? ""} ${error.detail}`)
  );
}

/**
 * After a refusal for precision the venue's rules may have changed: the cached list is dropped, so
 * the next order reads it again (docs/decisions.md#d35).
 */
export function forgetPairRules(ctx: Context, id: ExchangeId): void {
  if (id === "paper") return;
  rmSync(pairCacheFile(ctx, id), { force: true });
  ctx.out.note(`Note: ${id} refused the order's precision: its pair list will be read again at the next order`);
}
