import { ExchangeError } from "../lib/errors.js";
import { normalizePair } from "../lib/pair.js";
import { isExchangeId, type RealExchangeId } from "../lib/types.js";
import { BingxFeed } from "./bingx/feed.js";
import { BitgetFeed } from "./bitget/feed.js";
import { BitmartFeed } from "./bitmart/feed.js";
import { BitrueFeed } from "./bitrue/feed.js";
import { BitteamFeed } from "./bitteam/feed.js";
import { BybitFeed } from "./bybit/feed.js";
import { CATALOGUE } from "./catalogue.js";
import { CoinstoreFeed } from "./coinstore/feed.js";
import type { FeedRuntimeOptions } from "./core/options.js";
import { GateFeed } from "./gate/feed.js";
import { HtxFeed } from "./htx/feed.js";
import { KucoinFeed } from "./kucoin/feed.js";
import { LbankFeed } from "./lbank/feed.js";
import { MexcFeed } from "./mexc/feed.js";
import { trackFeed } from "./observe.js";
import { OkxFeed } from "./okx/feed.js";
import { createPaperFeed } from "./paper/index.js";
import { ProbitFeed } from "./probit/feed.js";
import type { BookFeed, FeedOptions } from "./types.js";
import { XtFeed } from "./xt/feed.js";

type FeedClass = new (pair: string, options: FeedRuntimeOptions) => BookFeed;

/**
 * One constructor per real exchange (docs/exchanges.md "Hooks that stay"): a static import each,
 * because the server keeps the whole index loaded and a bundler needs literal import paths. Keyed
 * by every id, so a new exchange does not compile until its line is written. paper's synthetic
 * feed, which reads its accounts on disk, is built by its own module; browser code imports
 * exchanges/<id>/feed.ts directly.
 */
const FEEDS: Readonly<Record<RealExchangeId, FeedClass>> = {
  bingx: BingxFeed,
  bitget: BitgetFeed,
  bitmart: BitmartFeed,
  bitrue: BitrueFeed,
  bitteam: BitteamFeed,
  bybit: BybitFeed,
  coinstore: CoinstoreFeed,
  gate: GateFeed,
  htx: HtxFeed,
  kucoin: KucoinFeed,
  lbank: LbankFeed,
  mexc: MexcFeed,
  okx: OkxFeed,
  probit: ProbitFeed,
  xt: XtFeed,
};

/**
 * The live public order book of one pair on one exchange. Options beyond FeedOptions
 * (FeedRuntimeOptions: inflate, intervals) ride along in the same object; in Node spread
 * nodeFeedOptions() from exchanges/feed-node.ts in. Nothing starts until `start()`.
 */
export function createFeed(id: string, pair: string, options: FeedOptions): BookFeed {
  if (!isExchangeId(id)) throw new ExchangeError("spotdesk", `Unknown exchange '${id}'`, { kind: "bad-input" });
  const normalized = normalizePair(pair, id);
  const runtime = options as FeedRuntimeOptions;
  // docs/operations.md#metrics: a server watching its feeds sees each one until it closes
  if (id === "paper") return trackFeed(createPaperFeed(normalized, runtime));
  const Feed = FEEDS[id] as FeedClass | undefined;
  if (!Feed) throw new ExchangeError(id, `No live order book for ${CATALOGUE[id].name} yet`, { kind: "unsupported" });
  return trackFeed(new Feed(normalized, runtime));
}

/** Exchanges whose feed is built. */
export function feedExchanges(): string[] {
  return ["paper", ...Object.keys(FEEDS)];
}
