import { exchangeSymbol } from "../../lib/pair.js";
import { FeedParseError, isRecord, parseLevelObjects, parseLevels, sequence } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { restBase } from "../core/options.js";
import { type RestSnapshot, RestSnapshotFeed } from "../core/rest-snapshot-feed.js";
import type { Frame } from "../core/socket-feed.js";
import { isSuccessCode } from "../core/success.js";
import { MEXC_REST_URL, MEXC_WS_URL } from "./info.js";
import { decodePush } from "./proto.js";

export { MEXC_REST_URL, MEXC_WS_URL };

/** MEXC's docs take the snapshot with limit=5000 so levels outside it are rarely missed. */
const SNAPSHOT_LIMIT = 5000;

/**
 * MEXC spot v3 aggregated depth, protobuf only (docs/exchange-rules.md#exchange-facts: the JSON channels are
 * retired). We subscribe to spot@public.aggre.depth.v3.api.pb@100ms@{SYMBOL}; each binary push is
 * a PushDataV3ApiWrapper whose publicAggreDepths covers versions fromVersion..toVersion. The book
 * starts from GET /api/v3/depth (lastUpdateId) with the pushes buffered meanwhile, and every push
 * must start at the previous toVersion + 1, or the book is thrown away and the snapshot fetched
 * again (MEXC "How to properly maintain a local copy of the order book"). Acknowledgements and
 * pongs come as JSON text; keep-alive is {"method":"PING"}.
 */
export class MexcFeed extends RestSnapshotFeed {
  readonly symbol: string;
  readonly channel: string;

  private readonly rest: string;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("mexc", pair, options);
    this.symbol = exchangeSymbol(pair, "");
    this.channel = `spot@public.aggre.depth.v3.api.pb@100ms@${this.symbol}`;
    this.rest = restBase(options, MEXC_REST_URL);
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? MEXC_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({ method: "SUBSCRIPTION", params: [this.channel] });
    this.loadSnapshot();
  }

  protected keepAliveMessage(): string {
    return JSON.stringify({ method: "PING" });
  }

  /** Binary frames are protobuf (gzip or zlib would still be inflated); they stay bytes for handleFrame. */
  protected override readonly binaryPayload = true;

  protected override binaryFrame(bytes: Uint8Array): Frame {
    return bytes;
  }

  protected async fetchSnapshot(): Promise<RestSnapshot> {
    const answer = await this.fetchJson(`${this.rest}/api/v3/depth?symbol=${this.symbol}&limit=${SNAPSHOT_LIMIT}`);
    if (!isRecord(answer)) throw new Error("unexpected snapshot");
    return {
      sequence: sequence(answer.lastUpdateId, "lastUpdateId"),
      bids: parseLevels(answer.bids, "bids"),
      asks: parseLevels(answer.asks, "asks"),
    };
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame === "string") {
      this.handleText(frame);
      return;
    }
    const push = decodePush(frame);
    if (push.channel !== this.channel) return;
    const depths = push.publicAggreDepths;
    if (!depths) throw new FeedParseError("push without publicAggreDepths");
    this.onDelta({
      first: sequence(depths.fromVersion, "fromVersion"),
      last: sequence(depths.toVersion, "toVersion"),
      bids: parseLevelObjects(depths.bids, "price", "quantity", "bids"),
      asks: parseLevelObjects(depths.asks, "price", "quantity", "asks"),
    });
  }

  /** JSON text: {"id":0,"code":0,"msg":<channel>} acknowledges, {"msg":"PONG"} answers PING. */
  private handleText(frame: string): void {
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (!isSuccessCode(message.code, 0, true)) {
      this.log.error("mexc refused", { code: message.code, msg: message.msg });
      return;
    }
    if (message.msg === "PONG" || message.msg === this.channel) return;
    throw new FeedParseError("unexpected text message");
  }
}
