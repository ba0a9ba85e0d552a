/**
 * The exchange's own public feed in the browser (PRODUCT D14): the feed modules of exchanges/feeds
 * are free of Node-only imports; each is its own chunk, loaded only for its exchange. bitteam's
 * polling and kucoin's token go through the server's gateway relays (seed 001 §7), same origin.
 */
import type { FeedRuntimeOptions } from "../../../../../exchanges/feed/options.js";
import type { BookFeed } from "../../../../../exchanges/types.js";

type Maker = (pair: string, options: FeedRuntimeOptions) => Promise<BookFeed>;

const MAKERS: Record<string, Maker> = {
  bingx: async (p, o) => new (await import("../../../../../exchanges/feeds/bingx.js")).BingxFeed(p, o),
  bitget: async (p, o) => new (await import("../../../../../exchanges/feeds/bitget.js")).BitgetFeed(p, o),
  bitmart: async (p, o) => new (await import("../../../../../exchanges/feeds/bitmart.js")).BitmartFeed(p, o),
  bitrue: async (p, o) => new (await import("../../../../../exchanges/feeds/bitrue.js")).BitrueFeed(p, o),
  bitteam: async (p, o) =>
    new (await import("../../../../../exchanges/feeds/bitteam.js")).BitteamFeed(p, {
      ...o,
      baseUrl: `${window.location.origin}/api/bitteam`,
    }),
  bybit: async (p, o) => new (await import("../../../../../exchanges/feeds/bybit.js")).BybitFeed(p, o),
  coinstore: async (p, o) => new (await import("../../../../../exchanges/feeds/coinstore.js")).CoinstoreFeed(p, o),
  gate: async (p, o) => new (await import("../../../../../exchanges/feeds/gate.js")).GateFeed(p, o),
  htx: async (p, o) => new (await import("../../../../../exchanges/feeds/htx.js")).HtxFeed(p, o),
  kucoin: async (p, o) =>
    new (await import("../../../../../exchanges/feeds/kucoin.js")).KucoinFeed(p, {
      ...o,
      baseUrl: `${window.location.origin}/api/kucoin`,
    }),
  lbank: async (p, o) => new (await import("../../../../../exchanges/feeds/lbank.js")).LbankFeed(p, o),
  mexc: async (p, o) => new (await import("../../../../../exchanges/feeds/mexc.js")).MexcFeed(p, o),
  okx: async (p, o) => new (await import("../../../../../exchanges/feeds/okx.js")).OkxFeed(p, o),
  probit: async (p, o) => new (await import("../../../../../exchanges/feeds/probit.js")).ProbitFeed(p, o),
  xt: async (p, o) => new (await import("../../../../../exchanges/feeds/xt.js")).XtFeed(p, o),
};

/** True when the browser opens this exchange's feed itself (paper's book comes from the server). */
export function hasDirectFeed(exchange: string): boolean {
  return exchange in MAKERS;
}

/** The exchange's feed, not started; throws when it cannot be built here. */
export async function createDirectFeed(exchange: string, pair: string, depth: number): Promise<BookFeed> {
  const make = MAKERS[exchange];
  if (!make) throw new Error(`no browser feed for ${exchange}`);
  // compressed frames (htx, bingx, bitmart) inflate with the browser's DecompressionStream by default
  return make(pair, { depth });
}
