import { ExchangeError } from "../lib/errors.js";
import { type Credentials, type ExchangeId, isExchangeId } from "../lib/types.js";
import { CATALOGUE } from "./catalogue.js";
import type { ExchangeAdapter, ExchangeOptions } from "./types.js";

type AdapterFactory = (credentials: Credentials, options: ExchangeOptions) => ExchangeAdapter;

/**
 * One line per exchange: how to load its module's factory (docs/exchanges.md "Hooks that stay").
 * Modules load on first use, so a command on one exchange never pays for the other fourteen (CLI
 * cold start); the bundler splits a chunk only at a literal import path, so each line names its
 * own. Keyed by every id, so a new exchange does not compile until its line is written.
 */
const LOADERS: Readonly<Record<ExchangeId, () => Promise<AdapterFactory>>> = {
  paper: () => import("./paper/index.js").then((m) => m.createPaperExchange),
  bybit: () => import("./bybit/rest.js").then((m) => m.createBybitExchange),
  okx: () => import("./okx/rest.js").then((m) => m.createOkxExchange),
  bitget: () => import("./bitget/rest.js").then((m) => m.createBitgetExchange),
  gate: () => import("./gate/rest.js").then((m) => m.createGateExchange),
  kucoin: () => import("./kucoin/rest.js").then((m) => m.createKucoinExchange),
  mexc: () => import("./mexc/rest.js").then((m) => m.createMexcExchange),
  htx: () => import("./htx/rest.js").then((m) => m.createHtxExchange),
  bingx: () => import("./bingx/rest.js").then((m) => m.createBingxExchange),
  probit: () => import("./probit/rest.js").then((m) => m.createProbitExchange),
  lbank: () => import("./lbank/rest.js").then((m) => m.createLbankExchange),
  coinstore: () => import("./coinstore/rest.js").then((m) => m.createCoinstoreExchange),
  bitmart: () => import("./bitmart/rest.js").then((m) => m.createBitmartExchange),
  xt: () => import("./xt/rest.js").then((m) => m.createXtExchange),
  bitrue: () => import("./bitrue/rest.js").then((m) => m.createBitrueExchange),
  bitteam: () => import("./bitteam/rest.js").then((m) => m.createBitteamExchange),
};

export function hasAdapter(id: ExchangeId): boolean {
  return LOADERS[id] !== undefined;
}

/** Checks an exchange id typed by a person, naming the valid ones when it is wrong. */
export function assertExchangeId(id: string): ExchangeId {
  if (!isExchangeId(id)) {
    throw new ExchangeError(id, `Unknown exchange '${id}'. Known exchanges: ${Object.keys(CATALOGUE).join(", ")}`, {
      kind: "bad-input",
    });
  }
  return id;
}

/**
 * docs/exchange-rules.md#contract: `createExchange(id, credentials, options)` returns an
 * adapter. Missing credentials are refused here, before any request is built.
 */
export function createExchange(id: string, credentials: Credentials, options: ExchangeOptions = {}): ExchangeAdapter {
  const exchange = assertExchangeId(id);
  const load = LOADERS[exchange];
  if (!load) {
    throw new ExchangeError(exchange, `Not supported for ${exchange}: no adapter in this build`, {
      kind: "unsupported",
    });
  }
  if (CATALOGUE[exchange].needsApiKey) {
    if (!credentials.api) throw new ExchangeError(exchange, "Missing credential: API key", { kind: "auth" });
    if (!credentials.secret) throw new ExchangeError(exchange, "Missing credential: API secret", { kind: "auth" });
    if (CATALOGUE[exchange].needsPassphrase && !credentials.password) {
      throw new ExchangeError(exchange, "Missing credential: passphrase (needed on bitmart, bitget, kucoin and okx)", {
        kind: "auth",
      });
    }
  }
  return lazyAdapter(exchange, () => loadFactory(exchange, load).then((factory) => factory(credentials, options)));
}

/**
 * An adapter for public calls only, such as the pair list (docs/exchange-rules.md#pairs): built
 * without a key, so it signs nothing and needs none. `proxy` carries its requests like an
 * account's (docs/decisions.md#d12).
 */
export function createPublicExchange(
  id: string,
  options: ExchangeOptions = {},
  proxy?: string | undefined,
): ExchangeAdapter {
  const exchange = assertExchangeId(id);
  const load = LOADERS[exchange];
  const credentials: Credentials = { api: "", secret: "", ...(proxy ? { httpAgent: proxy } : {}) };
  return lazyAdapter(exchange, () => loadFactory(exchange, load).then((factory) => factory(credentials, options)));
}

/**
 * Each module is imported once per process: the server builds an adapter per call, and a dynamic
 * import() still costs a module resolution every time (a round trip to the loader thread under tsx).
 */
const factories = new Map<ExchangeId, Promise<AdapterFactory>>();
function loadFactory(id: ExchangeId, load: () => Promise<AdapterFactory>): Promise<AdapterFactory> {
  let factory = factories.get(id);
  if (!factory) {
    factory = load();
    factories.set(id, factory);
    // a failed import is tried again by the next call
    factory.catch(() => factories.delete(id));
  }
  return factory;
}

/**
 * An adapter whose module is imported on its first operation. Every operation is async already, so
 * callers see no difference; a factory error surfaces from that first call.
 */
function lazyAdapter(id: ExchangeId, load: () => Promise<ExchangeAdapter>): ExchangeAdapter {
  let loaded: Promise<ExchangeAdapter> | undefined;
  const adapter = () => (loaded ??= load());
  return {
    id,
    createOrder: async (request) => (await adapter()).createOrder(request),
    createBatch: async (pair, items) => (await adapter()).createBatch(pair, items),
    cancelOrder: async (pair, orderId) => (await adapter()).cancelOrder(pair, orderId),
    cancelBatch: async (pair, ids) => (await adapter()).cancelBatch(pair, ids),
    cancelAll: async (pair) => (await adapter()).cancelAll(pair),
    fetchOrder: async (pair, orderId) => (await adapter()).fetchOrder(pair, orderId),
    fetchOpenOrders: async (pair) => (await adapter()).fetchOpenOrders(pair),
    fetchBalances: async () => (await adapter()).fetchBalances(),
    fetchPairs: async () => (await adapter()).fetchPairs(),
    findOrderByClientOrderId: async (pair, clientOrderId) =>
      (await adapter()).findOrderByClientOrderId(pair, clientOrderId),
    close: async () => {
      if (loaded !== undefined) await (await loaded).close();
    },
    // docs/exchange-rules.md#countdown: only where the exchange documents one
    ...(CATALOGUE[id].countdown
      ? {
          countdown: CATALOGUE[id].countdown,
          cancelAllAfter: async (pair: string | undefined, seconds: number) => {
            const loadedAdapter = await adapter();
            if (!loadedAdapter.cancelAllAfter) throw new Error(`${id}'s adapter has no cancelAllAfter`);
            return loadedAdapter.cancelAllAfter(pair, seconds);
          },
        }
      : {}),
  };
}
