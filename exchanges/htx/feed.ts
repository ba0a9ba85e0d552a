import { exchangeSymbol } from "../../lib/pair.js";
import { FeedParseError, isRecord, parseJsonKeepingLevels, parseLevels, sequence } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { FEED_DEFAULTS } from "../core/options.js";
import { type RestSnapshot, RestSnapshotFeed } from "../core/rest-snapshot-feed.js";
import type { Frame } from "../core/socket-feed.js";
import { HTX_WS_URL } from "./info.js";

export { HTX_WS_URL };

/**
 * HTX market-by-price incremental book (docs/decisions.md#d14: htx gets a live book). Frames are gzip. We
 * subscribe to market.{symbol}.mbp.{levels}, buffer its updates, and ask for the snapshot on the
 * same connection with a `req`; updates chain prevSeqNum → seqNum (not +1), so a broken link throws
 * the book away and a new `req` follows. HTX's {"ping": n} must be answered {"pong": n} or it
 * closes the connection (docs/exchange-rules.md#exchange-facts).
 */
export class HtxFeed extends RestSnapshotFeed {
  readonly channel: string;
  private requestId = 0;
  private pending:
    | {
        id: string;
        resolve: (s: RestSnapshot) => void;
        reject: (e: Error) => void;
        timer: ReturnType<typeof setTimeout>;
      }
    | undefined;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("htx", pair, options);
    const levels = [5, 20, 150, 400].find((n) => n >= this.depth) ?? 400;
    this.channel = `market.${exchangeSymbol(pair, "", true)}.mbp.${levels}`;
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? HTX_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({ sub: this.channel, id: `sub-${++this.requestId}` });
    this.loadSnapshot();
  }

  /** HTX pings the client; our keep-alive tick only checks that a socket is open (docs/exchange-rules.md#states). */
  protected keepAliveMessage(): undefined {
    return undefined;
  }

  protected fetchSnapshot(): Promise<RestSnapshot> {
    this.pending?.reject(new Error("superseded"));
    const id = `req-${++this.requestId}`;
    return new Promise<RestSnapshot>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.pending?.id === id) this.pending = undefined;
        reject(new Error("snapshot request timed out"));
      }, this.options.httpTimeoutMs ?? FEED_DEFAULTS.httpTimeoutMs);
      this.pending = { id, resolve, reject, timer };
      this.sendJson({ req: this.channel, id });
    });
  }

  override stop(): void {
    if (this.pending) clearTimeout(this.pending.timer);
    this.pending = undefined;
    super.stop();
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    // levels are bare JSON numbers: read as decimal text, never rounded through floats (docs/feeds.md)
    const message: unknown = parseJsonKeepingLevels(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.ping !== undefined) {
      this.sendJson({ pong: message.ping });
      return;
    }
    if (message.status === "error") {
      this.log.error("htx refused", { code: message["err-code"], msg: message["err-msg"] });
      return;
    }
    if (message.rep === this.channel) {
      const pending = this.pending;
      if (!pending || message.id !== pending.id) return;
      this.pending = undefined;
      clearTimeout(pending.timer);
      const data = message.data;
      if (!isRecord(data)) {
        pending.reject(new Error("snapshot without data"));
        return;
      }
      try {
        pending.resolve({
          sequence: sequence(data.seqNum, "seqNum"),
          bids: parseLevels(data.bids, "bids"),
          asks: parseLevels(data.asks, "asks"),
        });
      } catch (error) {
        pending.reject(error as Error);
      }
      return;
    }
    if (message.ch !== this.channel) return; // the subscription acknowledgement
    const tick = message.tick;
    if (!isRecord(tick)) throw new FeedParseError("tick is not an object");
    const seqNum = sequence(tick.seqNum, "seqNum");
    const prevSeqNum = sequence(tick.prevSeqNum, "prevSeqNum");
    // the link as a range: an update continues the book when its prevSeqNum is the last seqNum
    this.onDelta({
      first: prevSeqNum + 1,
      last: seqNum,
      bids: parseLevels(tick.bids, "bids"),
      asks: parseLevels(tick.asks, "asks"),
    });
  }
}
