/**
 * One way to open an account or a public book feed, for the CLI, the TUI and the server
 * (docs/exchanges.md "Opening an account or a feed"). paper is an exchange like the others here:
 * its account name and data directory travel in the same options, and what differs is read from
 * the catalogue, not from the id.
 */
import type { Credentials, ExchangeId } from "../lib/types.js";
import { CATALOGUE } from "./catalogue.js";
import { observedAdapter } from "./observe.js";
import { createPaperExchange, createPaperFeed } from "./paper/index.js";
import { assertExchangeId, createExchange, createPublicExchange } from "./registry.js";
import type { BookFeed, ExchangeAdapter, ExchangeOptions, FeedOptions, PairSpec } from "./types.js";

export interface OpenAccountOptions extends ExchangeOptions {
  /** API key, secret and passphrase; an exchange that needs no key (paper) ignores them */
  credentials?: Credentials | undefined;
  /**
   * The clock of a simulated market (paper), when it is not `now`: the server moves its own
   * clock in tests while real exchanges keep signing with the wall clock.
   */
  marketNow?: (() => number) | undefined;
}

const NO_KEY: Credentials = { api: "", secret: "" };

/**
 * The adapter of one account; an unknown id is refused naming the known ones. Missing credentials are refused before any request is built
 * (exchanges/registry.ts); a real exchange's module loads on its first operation, the built-in
 * simulated one (already loaded) is built at once, so a bad account name fails here. Under `dryRun` a
 * real exchange signs its requests and sends none (RestClient); a simulated one, which signs
 * nothing, refuses its order operations the same way, as `POST paper:createOrder` pseudo-requests.
 */
export function openAccount(id: string, options: OpenAccountOptions = {}): ExchangeAdapter {
  const { credentials, marketNow, ...rest } = options;
  const exchange = assertExchangeId(id);
  // docs/operations.md#metrics: a server watching its exchange calls times each one
  if (CATALOGUE[exchange].needsApiKey) return observedAdapter(createExchange(exchange, credentials ?? NO_KEY, rest));
  const adapter = createPaperExchange(NO_KEY, { ...rest, ...(marketNow ? { now: marketNow } : {}) });
  return observedAdapter(rest.dryRun ? simulatedDryRun(adapter) : adapter);
}

const WRITES = new Set(["createOrder", "createBatch", "cancelOrder", "cancelBatch", "cancelAll", "cancelAllAfter"]);

/** A simulated adapter whose order operations are caught as pseudo-requests instead of carried out. */
function simulatedDryRun(adapter: ExchangeAdapter): ExchangeAdapter {
  return new Proxy(adapter, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver);
      if (typeof value !== "function") return value;
      // the adapter's own methods run on the adapter, not on the proxy
      if (typeof name !== "string" || !WRITES.has(name)) return value.bind(target);
      return async (...args: unknown[]) => {
        const { DryRun } = await import("./core/rest.js");
        const body = JSON.stringify(args.length === 1 ? args[0] : args);
        throw new DryRun(
          { method: "POST", path: `${target.id}:${name}`, query: "", body, headers: {} },
          `${target.id}:${name}`,
        );
      };
    },
  });
}

export interface OpenFeedOptions extends FeedOptions {
  /** paper: the account whose own open orders the book shows */
  account?: string;
}

/**
 * The public order-book feed of one pair, not started. Only the modules this exchange needs are
 * loaded: a simulated market's feed comes straight from its module (no socket library, no zlib);
 * a live one from the feed index with Node's socket and inflate (exchanges/feed-node.ts). A long
 * running process that has the feed index loaded may call `createFeed` (exchanges/feeds.ts) with
 * the same options.
 */
export async function openFeed(id: ExchangeId, pair: string, options: OpenFeedOptions = {}): Promise<BookFeed> {
  if (CATALOGUE[id].feed === "simulated") {
    return createPaperFeed(pair, options);
  }
  const [{ createFeed }, { nodeFeedOptions }] = await Promise.all([import("./feeds.js"), import("./feed-node.js")]);
  return createFeed(id, pair, { ...nodeFeedOptions(), ...options });
}

/**
 * The pairs a venue trades now with their tick and lot (docs/exchange-rules.md#pairs), from its
 * public list: no key is needed; baseUrl and the proxy apply as for an account.
 */
export async function listExchangePairs(
  id: ExchangeId,
  options: ExchangeOptions & { proxy?: string | undefined } = {},
): Promise<PairSpec[]> {
  const { proxy, ...rest } = options;
  const adapter = createPublicExchange(id, rest, proxy);
  try {
    return await adapter.fetchPairs();
  } finally {
    await adapter.close();
  }
}
