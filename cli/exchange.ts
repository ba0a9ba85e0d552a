import type { BookFeed, ExchangeAdapter, FeedOptions } from "../exchanges/types.js";
import { ExchangeError } from "../lib/errors.js";
import { EXCHANGES } from "../lib/exchanges.js";
import type { Credentials, ExchangeId } from "../lib/types.js";
import { type Context, paperDataDir, proxyUrl } from "./context.js";

/**
 * Checks --exchange. paper is answered without loading the registry: the registry imports every
 * adapter, and `balances --json` on paper must start within 1.5x of bare node (issue 2 bench).
 */
export async function resolveExchangeId(ctx: Context): Promise<ExchangeId> {
  const id = ctx.options.exchange;
  if (id === "paper") return "paper";
  const { assertExchangeId } = await import("../exchanges/registry.js");
  return assertExchangeId(id);
}

/** What the exchange needs that the credentials lack (seed 001 §3: passphrase on bitmart, bitget, kucoin, okx). */
export function missingCredentials(id: ExchangeId, credentials: Credentials): string[] {
  const missing: string[] = [];
  if (!credentials.api) missing.push("API key (SPOTDESK_API_KEY)");
  if (!credentials.secret) missing.push("API secret (SPOTDESK_API_SECRET)");
  if (EXCHANGES[id].needsPassphrase && !credentials.password) missing.push("passphrase (SPOTDESK_API_PASSWORD)");
  return missing;
}

/**
 * Credentials of a real exchange: the environment when SPOTDESK_API_KEY or SPOTDESK_API_SECRET
 * is set (it takes precedence), else the encrypted store entry of --account for that exchange.
 * Anything missing is an auth error before a request is built.
 */
export async function resolveCredentials(id: ExchangeId, ctx: Context): Promise<Credentials> {
  const env = process.env;
  const account = ctx.options.account;
  let credentials: Credentials;
  if (env.SPOTDESK_API_KEY || env.SPOTDESK_API_SECRET) {
    credentials = { api: env.SPOTDESK_API_KEY ?? "", secret: env.SPOTDESK_API_SECRET ?? "" };
    if (env.SPOTDESK_API_PASSWORD) credentials.password = env.SPOTDESK_API_PASSWORD;
    const missing = missingCredentials(id, credentials);
    if (missing.length > 0) {
      throw new ExchangeError(id, `Missing credential: ${missing.join(", ")}`, { kind: "auth" });
    }
  } else {
    const { openStore, readStoreKey } = await import("./store.js");
    const store = await openStore();
    const entry = store.find(id, account);
    if (!entry) {
      const needs = EXCHANGES[id].needsPassphrase
        ? ", SPOTDESK_API_SECRET and SPOTDESK_API_PASSWORD"
        : " and SPOTDESK_API_SECRET";
      throw new ExchangeError(
        id,
        `Missing credential: no API key for ${id} account '${account}'. Set SPOTDESK_API_KEY${needs}, or run \`spotdesk accounts add ${account} --exchange ${id}\``,
        { kind: "auth" },
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

/** The adapter for --exchange with its credentials and options (PRODUCT "The exchange layer contract"). */
export async function openExchange(ctx: Context, id?: ExchangeId): Promise<ExchangeAdapter> {
  const exchange = id ?? (await resolveExchangeId(ctx));
  const base = {
    ...(ctx.options.baseUrl ? { baseUrl: ctx.options.baseUrl } : {}),
    ...(ctx.options.wsUrl ? { wsUrl: ctx.options.wsUrl } : {}),
    now: ctx.now,
  };
  if (exchange === "paper") {
    const { createPaperExchange } = await import("../exchanges/paper/index.js");
    const dataDir = paperDataDir();
    // paper needs no keys; --account names the simulated account.
    return createPaperExchange(
      { api: "", secret: "" },
      { ...base, account: ctx.options.account, ...(dataDir ? { dataDir } : {}) },
    );
  }
  const credentials = await resolveCredentials(exchange, ctx);
  const { createExchange } = await import("../exchanges/registry.js");
  return createExchange(exchange, credentials, base);
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
 * The public order-book feed of an exchange: paper's synthetic feed straight from its module (no
 * ws or zlib loaded), the live feeds of the fifteen exchanges from exchanges/feeds.ts (issue 4).
 */
export async function openBookFeed(ctx: Context, id: ExchangeId, pair: string, depth?: number): Promise<BookFeed> {
  const options: FeedOptions = {
    ...(ctx.options.wsUrl ? { wsUrl: ctx.options.wsUrl } : {}),
    ...(ctx.options.baseUrl ? { baseUrl: ctx.options.baseUrl } : {}),
    ...(depth !== undefined ? { depth } : {}),
    now: ctx.now,
  };
  if (id === "paper") {
    const { createPaperFeed } = await import("../exchanges/paper/index.js");
    const dataDir = paperDataDir();
    return createPaperFeed(pair, { ...options, ...(dataDir ? { dataDir } : {}) });
  }
  const [{ createFeed }, { nodeFeedOptions }] = await Promise.all([
    import("../exchanges/feeds.js"),
    import("../exchanges/feed-node.js"),
  ]);
  return createFeed(id, pair, { ...nodeFeedOptions(), ...options });
}
