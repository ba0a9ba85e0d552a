import { exchangeSymbol } from "../../lib/pair.js";
import { applyLevels, FeedParseError, isRecord, parseLevels, sequence } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { type Frame, SocketFeed } from "../core/socket-feed.js";
import { BITMART_WS_URL } from "./info.js";

export { BITMART_WS_URL };

/**
 * BitMart spot depth-increase channel spot/depth/increase100:{SYMBOL}: a `snapshot` first, then
 * `update` messages whose `version` runs on by one. A jump in `version` is a gap: the book is
 * thrown away and a fresh snapshot asked for on the same socket with {"op":"request"}. Keep-alive
 * is the text "ping", answered "pong". The default address sends every other frame binary, raw
 * DEFLATE; the shared frame decoder reads it and plain text alike (docs/feeds.md "bitmart").
 */
export class BitmartFeed extends SocketFeed {
  readonly symbol: string;
  readonly topic: string;
  private lastVersion: number | undefined;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("bitmart", pair, options);
    this.symbol = exchangeSymbol(pair, "_");
    this.topic = `spot/depth/increase100:${this.symbol}`;
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? BITMART_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({ op: "subscribe", args: [this.topic] });
  }

  protected keepAliveMessage(): string {
    return "ping";
  }

  protected override resetSequence(): void {
    this.lastVersion = undefined;
  }

  /** BitMart answers {"op":"request"} with a snapshot of the channel, no new socket needed. */
  protected override requestSnapshot(): void {
    if (!this.isOpen()) {
      this.renewSocket();
      return;
    }
    this.sendJson({ op: "request", args: [this.topic] });
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    if (frame === "pong") return;
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.table === undefined) {
      if (message.errorCode !== undefined)
        this.log.error("bitmart refused", { code: message.errorCode, msg: message.errorMessage });
      return; // subscription acknowledgement
    }
    if (message.table !== "spot/depth/increase100" || !Array.isArray(message.data)) return;
    for (const entry of message.data) {
      if (!isRecord(entry)) throw new FeedParseError("data entry is not an object");
      if (entry.symbol === this.symbol) this.applyEntry(entry);
    }
  }

  private applyEntry(entry: Record<string, unknown>): void {
    const version = sequence(entry.version, "version");
    const bids = parseLevels(entry.bids, "bids");
    const asks = parseLevels(entry.asks, "asks");
    if (entry.type === "snapshot") {
      this.book.applySnapshot(bids, asks);
      this.lastVersion = version;
      this.markLive();
      return;
    }
    if (entry.type !== "update") throw new FeedParseError(`unknown type ${String(entry.type)}`);
    if (this.lastVersion === undefined) return; // before the snapshot
    if (version <= this.lastVersion) return;
    if (version !== this.lastVersion + 1) {
      this.resync("version gap", { expected: this.lastVersion + 1, got: version });
      return;
    }
    applyLevels(this.book, "bid", bids);
    applyLevels(this.book, "ask", asks);
    this.lastVersion = version;
  }
}
