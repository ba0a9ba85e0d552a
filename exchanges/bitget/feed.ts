import type { BookSide } from "../../lib/orderbook.js";
import { exchangeSymbol } from "../../lib/pair.js";
import type { BookLevel } from "../../lib/types.js";
import { crc32Signed, FeedParseError, isRecord, parseLevels, priceKey } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { type Frame, SocketFeed } from "../core/socket-feed.js";
import { BITGET_WS_URL } from "./info.js";

export { BITGET_WS_URL };

/** Levels per side in bitget's checksum string. */
const CHECKSUM_LEVELS = 25;

export type BitgetChannel = "books15" | "books";

/**
 * Bitget v2 spot depth. Its channel is books15 (docs/exchange-rules.md#feeds), a full 15-level snapshot in
 * every push, so it cannot drift and is only watched for staleness. When more than 15 levels are
 * asked for, the `books` channel is used: a snapshot, then updates, each carrying a CRC32 checksum
 * of the top 25 levels written "bid1p:bid1a:ask1p:ask1a:…" from the exchange's own strings; a
 * mismatch throws the book away and resubscribes. Keep-alive is the text "ping".
 */
export class BitgetFeed extends SocketFeed {
  readonly instId: string;
  readonly channel: BitgetChannel;
  private synced = false;
  /** the exchange's own price and amount text per level, for the checksum */
  private readonly rawBids = new Map<string, BookLevel>();
  private readonly rawAsks = new Map<string, BookLevel>();

  constructor(pair: string, options: FeedRuntimeOptions & { channel?: BitgetChannel }) {
    super("bitget", pair, options);
    this.instId = exchangeSymbol(pair, "");
    this.channel = options.channel ?? (options.depth !== undefined && options.depth > 15 ? "books" : "books15");
  }

  private get arg() {
    return { instType: "SPOT", channel: this.channel, instId: this.instId };
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? BITGET_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({ op: "subscribe", args: [this.arg] });
  }

  protected keepAliveMessage(): string {
    return "ping";
  }

  protected override resetSequence(): void {
    this.synced = false;
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
      this.log.error("bitget refused", { code: message.code, msg: message.msg });
      return;
    }
    if (message.event !== undefined) return;
    const arg = message.arg;
    if (!isRecord(arg) || arg.channel !== this.channel || arg.instId !== this.instId) return;
    const data = Array.isArray(message.data) ? message.data[0] : undefined;
    if (!isRecord(data)) throw new FeedParseError("data[0] is not an object");
    const bids = parseLevels(data.bids, "bids");
    const asks = parseLevels(data.asks, "asks");
    if (message.action === "snapshot") {
      this.book.applySnapshot(bids, asks);
      this.rawBids.clear();
      this.rawAsks.clear();
      this.remember(this.rawBids, bids);
      this.remember(this.rawAsks, asks);
      this.synced = true;
    } else if (message.action === "update") {
      if (!this.synced) return;
      this.apply("bid", this.rawBids, bids);
      this.apply("ask", this.rawAsks, asks);
    } else throw new FeedParseError(`unknown action ${String(message.action)}`);
    if (this.channel === "books" && typeof data.checksum === "number" && data.checksum !== 0) {
      const local = this.checksum();
      if (local !== data.checksum) {
        this.resync("checksum mismatch", { expected: data.checksum, local });
        return;
      }
    }
    if (message.action === "snapshot") this.markLive();
  }

  private remember(raw: Map<string, BookLevel>, levels: readonly BookLevel[]): void {
    for (const level of levels) {
      const key = priceKey(level[0]);
      if (Number(level[1]) === 0) raw.delete(key);
      else raw.set(key, level);
    }
  }

  private apply(side: BookSide, raw: Map<string, BookLevel>, levels: readonly BookLevel[]): void {
    for (const [price, amount] of levels) this.book.applyDelta(side, price, amount);
    this.remember(raw, levels);
  }

  /** CRC32 of the top 25 levels, bid and ask interleaved, as bitget documents it. */
  checksum(): number {
    const { bids, asks } = this.book.top(CHECKSUM_LEVELS);
    const parts: string[] = [];
    for (let i = 0; i < CHECKSUM_LEVELS; i++) {
      const bid = bids[i];
      const ask = asks[i];
      if (bid) parts.push(this.text(this.rawBids, bid));
      if (ask) parts.push(this.text(this.rawAsks, ask));
      if (!bid && !ask) break;
    }
    return crc32Signed(parts.join(":"));
  }

  private text(raw: Map<string, BookLevel>, level: BookLevel): string {
    const original = raw.get(priceKey(level[0])) ?? level;
    return `${original[0]}:${original[1]}`;
  }
}
