import { exchangeSymbol } from "../../lib/pair.js";
import type { BookLevel } from "../../lib/types.js";
import { isRecord, parseLevels } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { restBase } from "../core/options.js";
import { PollingFeed } from "../core/polling-feed.js";
import { BITTEAM_REST_URL } from "./info.js";

export { BITTEAM_REST_URL };

/**
 * BIT.TEAM has no socket source: its book is polled (docs/exchange-rules.md#states) from
 * GET /trade/api/orderbooks/{pair with underscore}, whose result.bids and result.asks are
 * [price, amount] pairs (docs/exchange-rules.md#calls). Failed polls are logged only.
 */
export class BitteamFeed extends PollingFeed {
  readonly symbol: string;
  private readonly rest: string;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("bitteam", pair, options);
    this.symbol = exchangeSymbol(pair, "_", true);
    this.rest = restBase(options, BITTEAM_REST_URL);
  }

  protected async fetchBook(): Promise<{ bids: BookLevel[]; asks: BookLevel[] }> {
    const answer = await this.fetchJson(`${this.rest}/trade/api/orderbooks/${this.symbol}`);
    const result = isRecord(answer) ? answer.result : undefined;
    if (!isRecord(result)) throw new Error(`unexpected answer ${JSON.stringify(answer).slice(0, 200)}`);
    return { bids: parseLevels(result.bids, "bids"), asks: parseLevels(result.asks, "asks") };
  }
}
