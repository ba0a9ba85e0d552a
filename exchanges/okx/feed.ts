import { exchangeSymbol } from "../../lib/pair.js";
import { applyLevels, FeedParseError, isRecord, parseLevels, sequence } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { type Frame, SocketFeed } from "../core/socket-feed.js";
import { OKX_WS_URL } from "./info.js";

export { OKX_WS_URL };

/**
 * OKX v5 `books` channel (400 levels): a snapshot, then updates chained by prevSeqId → seqId. The
 * ids are not consecutive, so only the link is checked, never +1 (docs/exchange-rules.md#exchange-facts). A
 * heartbeat update with prevSeqId == seqId and no levels keeps the chain; after maintenance seqId
 * may fall below prevSeqId, which the link rule also accepts. The CRC32 `checksum` field is being
 * retired (always 0) and is ignored. Keep-alive is the text "ping" (answered "pong"); OKX drops a
 * connection silent for 30 s.
 */
export class OkxFeed extends SocketFeed {
  readonly instId: string;
  private lastSeqId: number | undefined;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("okx", pair, options);
    this.instId = exchangeSymbol(pair, "-");
  }

  private get arg() {
    return { channel: "books", instId: this.instId };
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? OKX_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({ op: "subscribe", args: [this.arg] });
  }

  protected keepAliveMessage(): string {
    return "ping";
  }

  protected override resetSequence(): void {
    this.lastSeqId = undefined;
  }

  protected override requestSnapshot(): void {
    if (!this.isOpen()) {
      this.renewSocket();
      return;
    }
    this.sendJson({ op: "unsubscribe", args: [this.arg] });
    this.subscribe();
  }

  protected handleFrame(frame: Frame): void {
    if (frame === "pong") return;
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.event === "error") {
      this.log.error("okx refused", { code: message.code, msg: message.msg });
      return;
    }
    if (message.event !== undefined) return; // subscribe / unsubscribe acknowledgements
    const arg = message.arg;
    if (!isRecord(arg) || arg.channel !== "books" || arg.instId !== this.instId) return;
    const data = Array.isArray(message.data) ? message.data[0] : undefined;
    if (!isRecord(data)) throw new FeedParseError("data[0] is not an object");
    const seqId = sequence(data.seqId, "seqId");
    if (message.action === "snapshot") {
      this.book.applySnapshot(parseLevels(data.bids, "bids"), parseLevels(data.asks, "asks"));
      this.lastSeqId = seqId;
      this.markLive();
      return;
    }
    if (message.action !== "update") throw new FeedParseError(`unknown action ${String(message.action)}`);
    if (this.lastSeqId === undefined) return; // before the snapshot
    const prevSeqId = sequence(data.prevSeqId, "prevSeqId");
    if (prevSeqId !== this.lastSeqId) {
      this.resync("seqId chain broken", { expectedPrev: this.lastSeqId, prevSeqId, seqId });
      return;
    }
    const bids = parseLevels(data.bids, "bids");
    const asks = parseLevels(data.asks, "asks");
    applyLevels(this.book, "bid", bids);
    applyLevels(this.book, "ask", asks);
    this.lastSeqId = seqId;
  }
}
