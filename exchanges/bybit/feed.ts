import { exchangeSymbol } from "../../lib/pair.js";
import { applyLevels, FeedParseError, isRecord, parseLevels, sequence } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { type Frame, SocketFeed } from "../core/socket-feed.js";
import { BYBIT_WS_URL } from "./info.js";

export { BYBIT_WS_URL };

/** Spot depths bybit publishes on orderbook.{depth}.{symbol}. */
const BYBIT_DEPTHS = [1, 50, 200, 1000] as const;

/**
 * Bybit v5 spot order book: orderbook.{depth}.{symbol} sends a snapshot, then deltas whose update
 * id `u` runs on by one. A new snapshot, or a message with u = 1 (a service restart), replaces the
 * whole book (docs/exchange-rules.md#exchange-facts); any other jump in `u` is a gap, answered by resubscribing
 * for a fresh snapshot. Keep-alive is {"op":"ping"}.
 */
export class BybitFeed extends SocketFeed {
  readonly topic: string;
  private lastUpdateId: number | undefined;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("bybit", pair, options);
    const levels = BYBIT_DEPTHS.find((d) => d >= this.depth && d > 1) ?? 1000;
    this.topic = `orderbook.${levels}.${exchangeSymbol(pair, "")}`;
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? BYBIT_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({ op: "subscribe", args: [this.topic] });
  }

  protected keepAliveMessage(): string {
    return JSON.stringify({ op: "ping" });
  }

  protected override resetSequence(): void {
    this.lastUpdateId = undefined;
  }

  /** Unsubscribe and subscribe again on the same socket: bybit answers with a snapshot. */
  protected override requestSnapshot(): void {
    if (!this.isOpen()) {
      this.renewSocket();
      return;
    }
    this.sendJson({ op: "unsubscribe", args: [this.topic] });
    this.subscribe();
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.topic !== this.topic) {
      if (message.op === "subscribe" && message.success === false) {
        this.log.error("bybit subscription refused", { topic: this.topic, message: message.ret_msg });
      }
      return; // pong and subscription acknowledgements
    }
    const data = message.data;
    if (!isRecord(data)) throw new FeedParseError("data is not an object");
    const u = sequence(data.u, "u");
    if (message.type === "snapshot" || u === 1) {
      this.book.applySnapshot(parseLevels(data.b, "b"), parseLevels(data.a, "a"));
      this.lastUpdateId = u;
      this.markLive();
      return;
    }
    if (message.type !== "delta") throw new FeedParseError(`unknown type ${String(message.type)}`);
    if (this.lastUpdateId === undefined) return; // a delta before the snapshot: wait for it
    if (u <= this.lastUpdateId) return; // already applied
    if (u !== this.lastUpdateId + 1) {
      this.resync("update id gap", { expected: this.lastUpdateId + 1, got: u });
      return;
    }
    const bids = parseLevels(data.b, "b");
    const asks = parseLevels(data.a, "a");
    applyLevels(this.book, "bid", bids);
    applyLevels(this.book, "ask", asks);
    this.lastUpdateId = u;
  }
}
