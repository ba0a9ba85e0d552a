import { exchangeSymbol } from "../../lib/pair.js";
import { FeedParseError, isRecord, parseLevels, sequence } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { restBase } from "../core/options.js";
import { type RestSnapshot, RestSnapshotFeed } from "../core/rest-snapshot-feed.js";
import type { Frame } from "../core/socket-feed.js";
import { GATE_REST_URL, GATE_WS_URL } from "./info.js";

export { GATE_REST_URL, GATE_WS_URL };

const CHANNEL = "spot.order_book_update";

/**
 * Gate v4 spot: spot.order_book_update (100 ms) pushes deltas covering update ids U..u; the book
 * starts from GET /api/v4/spot/order_book?with_id=true, whose `id` the first applied delta must
 * straddle (U <= id + 1 <= u), and each later U must be the previous u + 1. Keep-alive is a
 * spot.ping message, answered by spot.pong.
 */
export class GateFeed extends RestSnapshotFeed {
  readonly symbol: string;
  private readonly rest: string;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("gate", pair, options);
    this.symbol = exchangeSymbol(pair, "_");
    this.rest = restBase(options, GATE_REST_URL);
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? GATE_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({
      time: Math.floor(Date.now() / 1000),
      channel: CHANNEL,
      event: "subscribe",
      payload: [this.symbol, "100ms"],
    });
    this.loadSnapshot();
  }

  protected keepAliveMessage(): string {
    return JSON.stringify({ time: Math.floor(Date.now() / 1000), channel: "spot.ping" });
  }

  protected async fetchSnapshot(): Promise<RestSnapshot> {
    const limit = Math.max(100, this.depth);
    const answer = await this.fetchJson(
      `${this.rest}/api/v4/spot/order_book?currency_pair=${this.symbol}&limit=${limit}&with_id=true`,
    );
    if (!isRecord(answer)) throw new Error("unexpected snapshot");
    return {
      sequence: sequence(answer.id, "id"),
      bids: parseLevels(answer.bids, "bids"),
      asks: parseLevels(answer.asks, "asks"),
    };
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.channel === "spot.pong") return;
    if (message.channel !== CHANNEL) return;
    if (isRecord(message.error)) {
      this.log.error("gate refused", { error: message.error });
      return;
    }
    if (message.event !== "update") return; // the subscribe acknowledgement
    const result = message.result;
    if (!isRecord(result)) throw new FeedParseError("result is not an object");
    if (result.s !== this.symbol) return;
    this.onDelta({
      first: sequence(result.U, "U"),
      last: sequence(result.u, "u"),
      bids: parseLevels(result.b, "b"),
      asks: parseLevels(result.a, "a"),
    });
  }
}
