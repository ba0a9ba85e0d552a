import { readdirSync } from "node:fs";
import { join } from "node:path";
import { CATALOGUE } from "../exchanges/catalogue.js";
import { listExchangePairs, openAccount, openFeed } from "../exchanges/open.js";
import { listPaperPairs, paperPair } from "../exchanges/paper/pairs.js";
import { defaultDataDir } from "../exchanges/paper/store.js";
import type { BookFeed, ExchangeAdapter, PairSpec } from "../exchanges/types.js";
import { stepDecimals } from "../lib/decimal.js";
import { ExchangeError } from "../lib/errors.js";
import type { Credentials, ExchangeId } from "../lib/types.js";

/**
 * What the TUI needs from the outside world, injected so the CLI can hand in its own credential
 * rules and tests can hand in a paper exchange in a temp directory. The shape of the first two
 * matches the CLI's `TuiOptions` (cli/commands/tui.ts).
 */
export interface TuiServices {
  openExchange(exchange: ExchangeId, account: string): Promise<ExchangeAdapter>;
  openFeed(exchange: ExchangeId, pair: string, depth?: number): Promise<BookFeed>;
  /** accounts the account switcher offers on `exchange` (the current one is always offered) */
  listAccounts?(exchange: ExchangeId): Promise<string[]>;
  /** pairs the pair switcher offers: the exchange's own list, or pairs to start from (docs/tui.md "Keys") */
  listPairs?(exchange: ExchangeId): Promise<PairChoices>;
  /** the pair's decimals, so the confirmation shows the truncated numbers that are sent (docs/decisions.md#d1) */
  pairDecimals?(
    exchange: ExchangeId,
    pair: string,
  ): Promise<{ priceDecimals: number; amountDecimals: number } | undefined>;
  /**
   * The account's far-price limit in percent (docs/orders.md "Far-price guard": the stored
   * account's farPricePercent); undefined, or no such service, means the guard's default, 5.
   */
  farPricePercent?(exchange: ExchangeId, account: string): Promise<string | undefined>;
}

/** What the pair picker offers. */
export interface PairChoices {
  pairs: string[];
  /**
   * true: the exchange's own list (docs/exchange-rules.md#pairs), and only these can be picked;
   * false: the list could not be had, so these are a start and any typed pair is taken
   */
  listed: boolean;
}

export interface DefaultServicesOptions {
  credentials?: Credentials | undefined;
  baseUrl?: string | undefined;
  wsUrl?: string | undefined;
  /** paper's data directory (SPOTDESK_DATA_DIR or the user's data directory when absent) */
  dataDir?: string | undefined;
  now?: (() => number) | undefined;
  /** --proxy: the pair list goes through it like every other call (docs/decisions.md#d12) */
  proxy?: string | undefined;
}

/** How long the pair list may take before the picker falls back to the pairs it offers without it. */
const PAIR_LIST_TIMEOUT_MS = 10_000;

/** What the picker offers on a real exchange whose list cannot be read; any other pair can be typed. */
export const COMMON_PAIRS = ["BTC/USDT", "ETH/USDT", "SOL/USDT", "XRP/USDT", "DOGE/USDT", "ETH/BTC"];

/** Services built from the exchange layer directly: the paper exchange, or one adapter with the given credentials. */
export function defaultServices(options: DefaultServicesOptions = {}): TuiServices {
  const common = {
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.wsUrl ? { wsUrl: options.wsUrl } : {}),
    ...(options.now ? { now: options.now } : {}),
  };
  // One read of each exchange's list per session, shared by the picker and the decimals; a failed
  // read is forgotten so the next opening of the picker asks again.
  const pairLists = new Map<ExchangeId, Promise<PairSpec[]>>();
  const proxy = options.proxy ?? options.credentials?.httpAgent;
  const pairSpecs = (exchange: ExchangeId): Promise<PairSpec[]> => {
    let list = pairLists.get(exchange);
    if (!list) {
      // the exchange's public list, no key (exchanges/open.ts)
      list = listExchangePairs(exchange, {
        ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
        ...(proxy ? { proxy } : {}),
        timeoutMs: PAIR_LIST_TIMEOUT_MS,
      });
      pairLists.set(exchange, list);
      list.catch(() => {
        if (pairLists.get(exchange) === list) pairLists.delete(exchange);
      });
    }
    return list;
  };
  return {
    async openExchange(exchange, account) {
      if (CATALOGUE[exchange].needsApiKey && !options.credentials) {
        throw new ExchangeError(exchange, `Missing credential: no API key for ${exchange} account '${account}'`, {
          kind: "auth",
        });
      }
      return openAccount(exchange, {
        ...common,
        credentials: options.credentials,
        account,
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
      });
    },
    async openFeed(exchange, pair, depth) {
      return openFeed(exchange, pair, {
        ...common,
        ...(depth === undefined ? {} : { depth }),
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        // docs/decisions.md#d12: the account's proxy carries the feed's snapshots too.
        ...(options.credentials?.httpAgent ? { proxy: options.credentials.httpAgent } : {}),
      });
    },
    listAccounts: (exchange) => listPaperAccounts(exchange, options.dataDir),
    listPairs: async (exchange) => {
      if (!CATALOGUE[exchange].needsApiKey) return { pairs: listPaperPairs(), listed: true };
      try {
        const pairs = (await pairSpecs(exchange)).map((p) => p.pair);
        if (pairs.length > 0) return { pairs, listed: true };
      } catch {
        // unreachable or unreadable: the pairs offered without the list, any typed pair taken
      }
      return { pairs: COMMON_PAIRS, listed: false };
    },
    pairDecimals: async (exchange, pair) => {
      if (!CATALOGUE[exchange].needsApiKey) return paperDecimals(exchange, pair);
      try {
        return specDecimals((await pairSpecs(exchange)).find((p) => p.pair === pair));
      } catch {
        return undefined;
      }
    },
  };
}

/** The decimals of a pair's tick and lot (docs/exchange-rules.md#pairs); undefined for a pair not listed. */
export function specDecimals(
  spec: PairSpec | undefined,
): { priceDecimals: number; amountDecimals: number } | undefined {
  return spec ? { priceDecimals: stepDecimals(spec.tick), amountDecimals: stepDecimals(spec.lot) } : undefined;
}

/** paper keeps one file per account under `<dataDir>/paper/`; other exchanges' accounts come from the CLI's store. */
export async function listPaperAccounts(exchange: ExchangeId, dataDir?: string): Promise<string[]> {
  if (exchange !== "paper") return [];
  try {
    return readdirSync(join(dataDir ?? defaultDataDir(), "paper"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -".json".length))
      .sort();
  } catch {
    return [];
  }
}

export async function paperDecimals(
  exchange: ExchangeId,
  pair: string,
): Promise<{ priceDecimals: number; amountDecimals: number } | undefined> {
  if (exchange !== "paper") return undefined;
  try {
    const spec = paperPair(pair);
    return { priceDecimals: spec.priceDecimals, amountDecimals: spec.amountDecimals };
  } catch {
    return undefined;
  }
}
