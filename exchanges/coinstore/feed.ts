import { exchangeSymbol } from "../../lib/pair.js";
import { FeedParseError, isRecord, parseLevels } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { restBase } from "../core/options.js";
import { type Frame, SocketFeed } from "../core/socket-feed.js";
import { isCode } from "../core/success.js";
import { COINSTORE_REST_URL, COINSTORE_WS_URL } from "./info.js";

export { COINSTORE_REST_URL, COINSTORE_WS_URL };

/** Levels Coinstore's limited depth stream offers. */
const COINSTORE_DEPTHS = [5, 10, 20, 50, 100] as const;

/**
 * Coinstore spot limited depth. Its streams are named by the pair's numeric id, which comes from
 * POST /api/v2/public/config/spot/symbols with {symbolCodes:[...]} as data[0].symbolId (docs/exchange-rules.md
 * docs/exchange-rules.md#calls); we subscribe {"op":"SUB","channel":["{id}@depth@{levels}"]}, and each push carries the whole
 * top of the book (b / a), so the book is watched for staleness only. The server pings with
 * websocket frames; our keep-alive is the unsolicited pong message Coinstore accepts.
 */
export class CoinstoreFeed extends SocketFeed {
  readonly symbol: string;
  readonly levels: number;
  private readonly rest: string;
  private symbolId: string | undefined;
  private requestId = 0;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("coinstore", pair, options);
    this.symbol = exchangeSymbol(pair, "");
    this.levels = COINSTORE_DEPTHS.find((n) => n >= this.depth) ?? 100;
    this.rest = restBase(options, COINSTORE_REST_URL);
  }

  get channel(): string | undefined {
    return this.symbolId === undefined ? undefined : `${this.symbolId}@depth@${this.levels}`;
  }

  /** The symbol id is looked up once; a failure is logged and retried with the reconnect backoff. */
  protected async socketUrl(): Promise<string> {
    this.symbolId ??= await this.lookUpSymbolId();
    return this.options.wsUrl ?? COINSTORE_WS_URL;
  }

  private async lookUpSymbolId(): Promise<string> {
    const answer = await this.fetchJson(`${this.rest}/api/v2/public/config/spot/symbols`, {
      method: "POST",
      body: JSON.stringify({ symbolCodes: [this.symbol] }),
    });
    const first = isRecord(answer) && isCode(answer.code, 0) && Array.isArray(answer.data) ? answer.data[0] : undefined;
    const id = isRecord(first) ? first.symbolId : undefined;
    if (typeof id !== "number" && typeof id !== "string")
      throw new Error(`no symbolId for ${this.symbol}: ${JSON.stringify(answer).slice(0, 200)}`);
    return String(id);
  }

  protected subscribe(): void {
    this.sendJson({ op: "SUB", channel: [this.channel], id: ++this.requestId });
  }

  protected keepAliveMessage(): string {
    return JSON.stringify({ op: "pong", epochMillis: Date.now() });
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.T === "resp" || message.T === "echo") {
      if (message.C !== undefined && !isCode(message.C, 200))
        this.log.error("coinstore refused", { code: message.C, msg: message.M });
      return;
    }
    if (!this.isOurDepth(message)) return;
    this.book.applySnapshot(parseLevels(message.b, "b"), parseLevels(message.a, "a"));
    this.markLive();
  }

  /**
   * Coinstore documents a depth push two ways (docs/feeds.md "coinstore"): its message schema
   * carries "T":"depth" and the channel; its depth example carries neither, only level,
   * instrumentId, symbol, b and a. Both are ours when they name our channel or our symbol id.
   */
  private isOurDepth(message: Record<string, unknown>): boolean {
    if (message.T !== undefined && message.T !== "depth") return false;
    if (message.channel !== undefined) return message.channel === this.channel;
    if (message.b === undefined && message.a === undefined) return false;
    return message.instrumentId !== undefined && String(message.instrumentId) === this.symbolId;
  }
}
