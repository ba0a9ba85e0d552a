import { exchangeSymbol } from "../../lib/pair.js";
import { FeedParseError, isRecord, parseJsonKeepingLevels, parseLevels } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { type Frame, SocketFeed } from "../core/socket-feed.js";
import { LBANK_WS_URL } from "./info.js";

export { LBANK_WS_URL };

/** Depths LBank's depth subscription accepts. */
const LBANK_DEPTHS = [10, 50, 100] as const;

/**
 * LBank v2 depth (docs/decisions.md#d14: lbank gets a live book): {"action":"subscribe","subscribe":"depth",
 * "depth":N,"pair":"btc_usdt"}; every push carries the whole top N of the book, so it is watched
 * for staleness only (issue 4: "lbank and bitrue snapshots only"). The server's
 * {"action":"ping","ping":id} is answered {"action":"pong","pong":id}; our keep-alive is a ping.
 */
export class LbankFeed extends SocketFeed {
  readonly symbol: string;
  readonly levels: number;
  private pingId = 0;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("lbank", pair, options);
    this.symbol = exchangeSymbol(pair, "_", true);
    this.levels = LBANK_DEPTHS.find((n) => n >= this.depth) ?? 100;
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? LBANK_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({ action: "subscribe", subscribe: "depth", depth: String(this.levels), pair: this.symbol });
  }

  protected keepAliveMessage(): string {
    return JSON.stringify({ action: "ping", ping: `spotdesk-${++this.pingId}` });
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    // levels are bare JSON numbers: read as decimal text, never rounded through floats (docs/feeds.md)
    const message: unknown = parseJsonKeepingLevels(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.action === "ping") {
      this.sendJson({ action: "pong", pong: message.ping });
      return;
    }
    if (message.action === "pong") return;
    if (message.status === "error") {
      this.log.error("lbank refused", { message: message.message });
      return;
    }
    if (message.type !== "depth" || message.pair !== this.symbol) return;
    const depth = message.depth;
    if (!isRecord(depth)) throw new FeedParseError("depth is not an object");
    this.book.applySnapshot(parseLevels(depth.bids, "bids"), parseLevels(depth.asks, "asks"));
    this.markLive();
  }
}
