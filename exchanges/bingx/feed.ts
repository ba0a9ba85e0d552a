import { exchangeSymbol } from "../../lib/pair.js";
import { FeedParseError, isRecord, parseLevels } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { type Frame, SocketFeed } from "../core/socket-feed.js";
import { isSuccessCode } from "../core/success.js";
import { BINGX_WS_URL } from "./info.js";

export { BINGX_WS_URL };

/**
 * BingX spot depth: every frame is gzip (read by the shared frame decoder, docs/feeds.md), {symbol}@depth{N}
 * pushes the whole top-N book each time, so it cannot drift and is watched for staleness only.
 * The server sends "Ping" and expects "Pong" back, or it closes the connection.
 */
export class BingxFeed extends SocketFeed {
  readonly dataType: string;
  private requestId = 0;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("bingx", pair, options);
    const levels = [5, 10, 20, 50, 100].find((n) => n >= this.depth) ?? 100;
    this.dataType = `${exchangeSymbol(pair, "-")}@depth${levels}`;
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? BINGX_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({ id: `spotdesk-${++this.requestId}`, reqType: "sub", dataType: this.dataType });
  }

  /** BingX pings us; our keep-alive tick only checks that a socket is open (docs/exchange-rules.md#states). */
  protected keepAliveMessage(): undefined {
    return undefined;
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    if (frame === "Ping") {
      this.send("Pong");
      return;
    }
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.ping !== undefined) {
      this.sendJson({ pong: message.ping, time: message.time });
      return;
    }
    if (!isSuccessCode(message.code, 0, true)) {
      this.log.error("bingx refused", { code: message.code, msg: message.msg });
      return;
    }
    if (message.dataType !== this.dataType) return; // the subscription acknowledgement
    const data = message.data;
    if (!isRecord(data)) throw new FeedParseError("data is not an object");
    this.book.applySnapshot(parseLevels(data.bids, "bids"), parseLevels(data.asks, "asks"));
    this.markLive();
  }
}
