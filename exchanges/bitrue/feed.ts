import { exchangeSymbol } from "../../lib/pair.js";
import { FeedParseError, isRecord, parseLevels } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { type Frame, SocketFeed } from "../core/socket-feed.js";
import { BITRUE_WS_URL } from "./info.js";

export { BITRUE_WS_URL };

/**
 * Bitrue spot depth: frames are gzip; {"event":"sub","params":{"cb_id","channel"}} subscribes to
 * market_{symbol}_simple_depth_step0, whose every push carries the whole top of the book
 * (tick.buys / tick.asks). There is no sequence to check, so the book is watched for staleness
 * (issue 4: "lbank and bitrue snapshots only"). The server's {"ping": n} is answered {"pong": n}.
 */
export class BitrueFeed extends SocketFeed {
  readonly symbol: string;
  readonly channel: string;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("bitrue", pair, options);
    this.symbol = exchangeSymbol(pair, "", true);
    this.channel = `market_${this.symbol}_simple_depth_step0`;
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? BITRUE_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({ event: "sub", params: { cb_id: this.symbol, channel: this.channel } });
  }

  /** Bitrue pings us; our keep-alive tick only checks that a socket is open (docs/exchange-rules.md#states). */
  protected keepAliveMessage(): undefined {
    return undefined;
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.ping !== undefined) {
      this.sendJson({ pong: message.ping });
      return;
    }
    if (message.event_rep !== undefined) {
      if (message.status !== "ok")
        this.log.error("bitrue refused", { status: message.status, channel: message.channel });
      return;
    }
    if (message.channel !== this.channel) return;
    const tick = message.tick;
    if (!isRecord(tick)) throw new FeedParseError("tick is not an object");
    this.book.applySnapshot(parseLevels(tick.buys, "buys"), parseLevels(tick.asks, "asks"));
    this.markLive();
  }
}
