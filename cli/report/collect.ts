/**
 * Collecting `spotdesk report` (docs/report.md): which accounts, their balances and the mids that
 * value them. Exchanges run in parallel; the accounts of one exchange one after another (one
 * private call in flight per exchange, well within every exchange's rate limit); books are asked
 * once per exchange and run. A failing account becomes a failed result, never a thrown error.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { defaultDataDir, paperBook } from "../../exchanges/paper/index.js";
import { Decimal } from "../../lib/decimal.js";
import { ExchangeError, isExchangeError } from "../../lib/errors.js";
import { EXCHANGE_IDS, type ExchangeId, isExchangeId } from "../../lib/types.js";
import type { Context } from "../context.js";
import { openBookFeed, withExchange } from "../exchange.js";
import { Output } from "../output.js";
import type { AccountResult, FailureKind } from "./model.js";
import { type MidSource, memoMids, midOf, priceIn } from "./value.js";

export interface AccountRef {
  exchange: ExchangeId;
  account: string;
  /** where the account lives: the credential store, or paper's data directory */
  source: "store" | "paper";
}

/** Per-exchange REST and websocket addresses (a testnet, a proxy, a mock). */
export interface Endpoints {
  baseUrl?: string;
  wsUrl?: string;
}

export interface CollectOptions {
  quote: string;
  /** how long a book may take to show both sides before its pair counts as absent */
  priceTimeoutMs: number;
  endpoints: ReadonlyMap<ExchangeId, Endpoints>;
  onProgress?: (done: number, total: number) => void;
}

const ACCOUNT_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The paper accounts that exist: the state files in `<data dir>/paper/`. */
export function paperAccounts(dataDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(dataDir, "paper"));
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".json"))
    .map((name) => name.slice(0, -".json".length))
    .filter((name) => ACCOUNT_NAME_RE.test(name))
    .sort();
}

/** Splits a comma-separated --exchange list and checks every id. */
export function parseExchangeList(text: string): ExchangeId[] {
  const ids = text
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== "");
  for (const id of ids) {
    if (!isExchangeId(id)) {
      throw new ExchangeError("spotdesk", `Unknown exchange '${id}'. Known: ${EXCHANGE_IDS.join(", ")}`, {
        kind: "bad-input",
      });
    }
  }
  return ids as ExchangeId[];
}

export function parseAccountList(text: string): string[] {
  return text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

export function failureOf(error: unknown): { kind: FailureKind; message: string } {
  if (isExchangeError(error)) return { kind: error.kind, message: error.message };
  return { kind: "unexpected", message: error instanceof Error ? error.message : String(error) };
}

/**
 * What an account's work may print: nothing. cli/exchange.ts's notes (which of the environment's
 * and the store's keys was used, paper ignoring keys) do not apply to a report, and a cron job
 * mails every line on stderr.
 */
class QuietOutput extends Output {
  override note(): void {}
}

/** The context of one account: its exchange, its name, its endpoints; stored credentials only. */
function accountContext(ctx: Context, ref: AccountRef, endpoints: Endpoints | undefined): Context {
  const options = { ...ctx.options, exchange: ref.exchange, account: ref.account };
  delete options.baseUrl;
  delete options.wsUrl;
  if (endpoints?.baseUrl) options.baseUrl = endpoints.baseUrl;
  if (endpoints?.wsUrl) options.wsUrl = endpoints.wsUrl;
  // accountGiven: a report reads the named stored account, never SPOTDESK_API_* (docs/report.md).
  return { ...ctx, options, exchangeGiven: true, accountGiven: true, out: new QuietOutput(ctx.out.json) };
}

/** Waits until the book has a best bid and a best ask; false after the time-out or when the feed closes. */
function bothSides(
  feed: {
    book: { bidCount: number; askCount: number };
    onChange(l: () => void): () => void;
    onState(l: (s: string) => void): () => void;
  },
  timeoutMs: number,
): Promise<boolean> {
  const ready = () => feed.book.bidCount > 0 && feed.book.askCount > 0;
  if (ready()) return Promise.resolve(true);
  return new Promise((resolve) => {
    const done = (value: boolean) => {
      clearTimeout(timer);
      offChange();
      offState();
      resolve(value);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    const offChange = feed.onChange(() => {
      if (ready()) done(true);
    });
    const offState = feed.onState((state) => {
      if (state === "closed") done(false);
    });
  });
}

/** Mids of one exchange: paper's synthetic book at the CLI's clock, else the exchange's public feed. */
async function midSource(
  ctx: Context,
  id: ExchangeId,
  endpoints: Endpoints | undefined,
  timeoutMs: number,
): Promise<MidSource> {
  if (id === "paper") {
    return memoMids(async (pair) => {
      try {
        const book = paperBook(pair, { now: ctx.now, depth: 1 });
        return midOf(book.bids[0]?.[0], book.asks[0]?.[0]);
      } catch {
        return undefined; // paper does not trade this pair
      }
    });
  }
  const feedCtx = accountContext(ctx, { exchange: id, account: ctx.options.account, source: "store" }, endpoints);
  return memoMids(async (pair) => {
    let feed: Awaited<ReturnType<typeof openBookFeed>>;
    try {
      feed = await openBookFeed(feedCtx, id, pair);
    } catch {
      return undefined; // a pair the exchange's symbol rules refuse
    }
    try {
      feed.start();
      if (!(await bothSides(feed, timeoutMs))) return undefined;
      return midOf(feed.book.bestBid()?.[0], feed.book.bestAsk()?.[0]);
    } finally {
      feed.stop();
    }
  });
}

/** Balances and prices of every account; failures are results too. */
export async function collect(
  ctx: Context,
  refs: readonly AccountRef[],
  options: CollectOptions,
): Promise<AccountResult[]> {
  const byExchange = new Map<ExchangeId, AccountRef[]>();
  for (const ref of refs) byExchange.set(ref.exchange, [...(byExchange.get(ref.exchange) ?? []), ref]);
  let done = 0;
  const tick = () => options.onProgress?.(++done, refs.length);
  const perExchange = [...byExchange].map(async ([id, accounts]) => {
    const endpoints = options.endpoints.get(id);
    const mids = await midSource(ctx, id, endpoints, options.priceTimeoutMs);
    const valued: Promise<AccountResult>[] = [];
    for (const ref of accounts) {
      let balances: Record<string, { f: string; l: string }>;
      try {
        balances = await withExchange(accountContext(ctx, ref, endpoints), (adapter) => adapter.fetchBalances(), id);
      } catch (error) {
        valued.push(Promise.resolve({ exchange: id, account: ref.account, ok: false, ...failureOf(error) }));
        tick();
        continue;
      }
      // Valuing waits on public books; the next account's private call does not wait for it.
      valued.push(
        value(balances, options.quote, mids).then(
          (holdings): AccountResult => {
            tick();
            return { exchange: id, account: ref.account, ok: true, holdings };
          },
          (error: unknown): AccountResult => {
            tick();
            return { exchange: id, account: ref.account, ok: false, ...failureOf(error) };
          },
        ),
      );
    }
    return Promise.all(valued);
  });
  return (await Promise.all(perExchange)).flat();
}

async function value(
  balances: Record<string, { f: string; l: string }>,
  quote: string,
  mids: MidSource,
): Promise<Extract<AccountResult, { ok: true }>["holdings"]> {
  const held = Object.entries(balances).filter(([, b]) => !new Decimal(b.f).plus(b.l).isZero());
  return Promise.all(
    held.map(async ([asset, b]) => ({
      asset: asset.toUpperCase(),
      free: b.f,
      locked: b.l,
      price: await priceIn(asset.toUpperCase(), quote, mids),
    })),
  );
}

export interface Selection {
  refs: AccountRef[];
  /** accounts known to fail before any call: the store could not be read or its key does not open it */
  failed: AccountResult[];
}

/**
 * Every stored account and every existing paper account, narrowed by the --exchange and
 * --account lists. A paper account named with --account is reported even before its file exists
 * (paper opens it with the demo balances, as `balances` does). The store key is read once, before
 * anything runs in parallel: a wrong or missing key fails the stored accounts, not the report.
 */
export async function selectAccounts(filter: {
  exchanges?: readonly ExchangeId[];
  accounts?: readonly string[];
}): Promise<Selection> {
  const wantExchange = (id: ExchangeId) => !filter.exchanges || filter.exchanges.includes(id);
  const wantAccount = (name: string) => !filter.accounts || filter.accounts.includes(name);
  const refs: AccountRef[] = [];
  const failed: AccountResult[] = [];

  if (wantExchange("paper")) {
    const names = new Set(paperAccounts(defaultDataDir()).filter(wantAccount));
    if (filter.accounts && filter.exchanges?.includes("paper")) for (const name of filter.accounts) names.add(name);
    for (const name of [...names].sort()) refs.push({ exchange: "paper", account: name, source: "paper" });
  }

  const realWanted = !filter.exchanges || filter.exchanges.some((id) => id !== "paper");
  if (realWanted) {
    const { openStore, readStoreKey, storeDir } = await import("../store.js");
    let stored: { exchange: ExchangeId; name: string }[] = [];
    try {
      stored = (await openStore()).list().filter((entry) => wantExchange(entry.exchange) && wantAccount(entry.name));
    } catch (error) {
      failed.push({
        exchange: "spotdesk",
        account: `(credential store ${storeDir()})`,
        ok: false,
        ...failureOf(error),
      });
    }
    let keyProblem: { kind: FailureKind; message: string } | undefined;
    if (stored.length > 0) {
      try {
        await readStoreKey(await openStore(), { creating: false });
      } catch (error) {
        keyProblem = failureOf(error);
      }
    }
    for (const entry of stored) {
      if (keyProblem) failed.push({ exchange: entry.exchange, account: entry.name, ok: false, ...keyProblem });
      else refs.push({ exchange: entry.exchange, account: entry.name, source: "store" });
    }
  }
  return { refs, failed };
}
