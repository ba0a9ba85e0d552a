import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { CATALOGUE } from "../exchanges/catalogue.js";
import { openAccount, openFeed } from "../exchanges/open.js";
import { defaultDataDir, paperStateFile } from "../exchanges/paper/index.js";
import { assertExchangeId } from "../exchanges/registry.js";
import type { BookFeed, ExchangeAdapter } from "../exchanges/types.js";
import { ExchangeError } from "../lib/errors.js";
import type { Credentials, ExchangeId, Order } from "../lib/types.js";
import { type Context, paperDataDir, proxyUrl } from "./context.js";

/** Checks --exchange; a wrong one is refused by the registry, naming the known ones. */
export async function resolveExchangeId(ctx: Context): Promise<ExchangeId> {
  return assertExchangeId(ctx.options.exchange);
}

/** What the exchange needs that the credentials lack (docs/exchange-rules.md#entities: passphrase on bitmart, bitget, kucoin, okx). */
export function missingCredentials(id: ExchangeId, credentials: Credentials): string[] {
  const missing: string[] = [];
  if (!credentials.api) missing.push("API key (SPOTDESK_API_KEY)");
  if (!credentials.secret) missing.push("API secret (SPOTDESK_API_SECRET)");
  if (CATALOGUE[id].needsPassphrase && !credentials.password) missing.push("passphrase (SPOTDESK_API_PASSWORD)");
  return missing;
}

/** True when the environment carries credentials (SPOTDESK_API_KEY or SPOTDESK_API_SECRET). */
export function envHasCredentials(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env.SPOTDESK_API_KEY || env.SPOTDESK_API_SECRET);
}

/** What `account` names in JSON output when the environment's keys were used. */
export const ENV_ACCOUNT = "(environment)";

/**
 * Where the credentials of a real exchange come from (docs/orders.md "Which account"): flag >
 * environment > default. An explicit --account is the stored account even when SPOTDESK_API_* are
 * set; without --account the environment's keys win when set; else the stored account 'default'.
 */
export function credentialSource(ctx: Context, env: NodeJS.ProcessEnv = process.env): "store" | "env" {
  return ctx.accountGiven || !envHasCredentials(env) ? "store" : "env";
}

/** The account a command acts on, as JSON output names it: the stored/simulated name, or ENV_ACCOUNT. */
export function accountLabel(ctx: Context, id: ExchangeId): string {
  if (!CATALOGUE[id].needsApiKey) return ctx.options.account;
  return credentialSource(ctx) === "env" ? ENV_ACCOUNT : ctx.options.account;
}

/** An Order as --json prints it: with the exchange and the account it belongs to (docs/orders.md "Which account"). */
export type LabelledOrder = Order & { exchange: ExchangeId; account: string };

export function labelOrders(ctx: Context, id: ExchangeId, orders: readonly Order[]): LabelledOrder[] {
  const account = accountLabel(ctx, id);
  return orders.map((order) => ({ ...order, exchange: id, account }));
}

/**
 * Credentials of a real exchange by credentialSource. When both the environment and a stored
 * account exist, stderr says which was used (never the secret). Anything missing is an auth
 * error before a request is built.
 */
export async function resolveCredentials(id: ExchangeId, ctx: Context): Promise<Credentials> {
  const env = process.env;
  const account = ctx.options.account;
  let credentials: Credentials;
  if (credentialSource(ctx, env) === "env") {
    credentials = { api: env.SPOTDESK_API_KEY ?? "", secret: env.SPOTDESK_API_SECRET ?? "" };
    if (env.SPOTDESK_API_PASSWORD) credentials.password = env.SPOTDESK_API_PASSWORD;
    const missing = missingCredentials(id, credentials);
    if (missing.length > 0) {
      throw new ExchangeError(id, `Missing credential: ${missing.join(", ")}`, { kind: "auth" });
    }
    if (await storedAccountExists(id, account)) {
      ctx.out.note(
        `Using the credentials of SPOTDESK_API_KEY from the environment; the stored ${id} account '${account}' is not used (name it with --account to use it)`,
      );
    }
  } else {
    const { openStore, readStoreKey } = await import("./store.js");
    const store = await openStore();
    const entry = store.find(id, account);
    if (!entry) {
      const needs = CATALOGUE[id].needsPassphrase
        ? ", SPOTDESK_API_SECRET and SPOTDESK_API_PASSWORD"
        : " and SPOTDESK_API_SECRET";
      throw new ExchangeError(
        id,
        `Missing credential: no API key for ${id} account '${account}'. ${ctx.accountGiven ? "Unset --account to use SPOTDESK_API_KEY" : `Set SPOTDESK_API_KEY${needs}`}, or run \`spotdesk accounts add ${account} --exchange ${id}\``,
        { kind: "auth" },
      );
    }
    if (envHasCredentials(env)) {
      ctx.out.note(
        `Using the stored ${id} account '${account}' (--account); SPOTDESK_API_KEY/SPOTDESK_API_SECRET in the environment are not used`,
      );
    }
    credentials = await store.open(entry, await readStoreKey(store, { creating: false }));
    const missing = missingCredentials(id, credentials);
    if (missing.length > 0) {
      throw new ExchangeError(id, `Missing credential in stored account '${account}': ${missing.join(", ")}`, {
        kind: "auth",
      });
    }
  }
  const proxy = proxyUrl(ctx.options);
  if (proxy) credentials.httpAgent = proxy;
  return credentials;
}

/** Whether the store holds credentials for this account; a store that cannot be read counts as none. */
async function storedAccountExists(id: ExchangeId, account: string): Promise<boolean> {
  try {
    const { openStore } = await import("./store.js");
    return (await openStore()).find(id, account) !== undefined;
  } catch {
    return false;
  }
}

/**
 * The adapter for --exchange with its credentials and options (docs/exchange-rules.md#contract), opened through exchanges/open.ts like the TUI's and the server's. An exchange that
 * needs no key (paper) ignores SPOTDESK_API_*, keeps its state under the data directory and takes
 * --account as the simulated account's name.
 */
export async function openExchange(ctx: Context, id?: ExchangeId): Promise<ExchangeAdapter> {
  const exchange = id ?? (await resolveExchangeId(ctx));
  const options = {
    ...(ctx.options.baseUrl ? { baseUrl: ctx.options.baseUrl } : {}),
    ...(ctx.options.wsUrl ? { wsUrl: ctx.options.wsUrl } : {}),
    now: ctx.now,
    ...(ctx.dryRun ? { dryRun: true } : {}),
  };
  if (!CATALOGUE[exchange].needsApiKey) {
    const dataDir = paperDataDir();
    await prepareSimulatedAccount(ctx, dataDir);
    return openAccount(exchange, { ...options, account: ctx.options.account, ...(dataDir ? { dataDir } : {}) });
  }
  const credentials = await resolveCredentials(exchange, ctx);
  if (ctx.dryRun) {
    const { rememberSecrets } = await import("./dry-run.js");
    rememberSecrets([credentials.api, credentials.secret, credentials.password]);
  }
  return openAccount(exchange, { ...options, credentials });
}

/**
 * paper's account file before the first call: its directory writable (a clear error otherwise), and
 * a note when a typed --account does not exist yet (docs/cli.md "Paper accounts": a typo would
 * otherwise trade on a fresh account without a word).
 */
async function prepareSimulatedAccount(ctx: Context, dataDir: string | undefined): Promise<void> {
  if (envHasCredentials()) ctx.out.note("paper needs no credentials: SPOTDESK_API_KEY/SPOTDESK_API_SECRET are ignored");
  const { DATA_DIR, ensureWritableDir } = await import("./dirs.js");
  const stateFile = paperStateFile(dataDir ?? defaultDataDir(), ctx.options.account);
  ensureWritableDir(dirname(stateFile), DATA_DIR, "paper");
  if (ctx.accountGiven && !existsSync(stateFile)) {
    ctx.out.note(`paper account '${ctx.options.account}' does not exist yet: creating it with the demo balances`);
  }
}

/** Runs work with an adapter and always releases it (sockets, timers, file handles). */
export async function withExchange<T>(
  ctx: Context,
  work: (adapter: ExchangeAdapter, id: ExchangeId) => Promise<T>,
  id?: ExchangeId,
): Promise<T> {
  const exchange = id ?? (await resolveExchangeId(ctx));
  const adapter = await openExchange(ctx, exchange);
  try {
    return await work(adapter, exchange);
  } finally {
    await adapter.close();
  }
}

/**
 * The public order-book feed of an exchange through exchanges/open.ts: paper's synthetic feed
 * without ws or zlib loaded, the live feeds of the fifteen exchanges from exchanges/feeds.ts.
 */
export async function openBookFeed(ctx: Context, id: ExchangeId, pair: string, depth?: number): Promise<BookFeed> {
  const dataDir = paperDataDir();
  const proxy = proxyUrl(ctx.options);
  return openFeed(id, pair, {
    ...(ctx.options.wsUrl ? { wsUrl: ctx.options.wsUrl } : {}),
    ...(ctx.options.baseUrl ? { baseUrl: ctx.options.baseUrl } : {}),
    ...(depth !== undefined ? { depth } : {}),
    now: ctx.now,
    ...(dataDir ? { dataDir } : {}),
    // docs/decisions.md#d12: the snapshots go through --proxy like the orders do.
    ...(proxy ? { proxy } : {}),
  });
}
