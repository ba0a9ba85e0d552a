import { exchangeSymbol } from "../../lib/pair.js";
import { FeedParseError, isRecord, parseLevels } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { restBase } from "../core/options.js";
import { type RestSnapshot, RestSnapshotFeed } from "../core/rest-snapshot-feed.js";
import type { Frame } from "../core/socket-feed.js";
import { isCode, isSuccessCode } from "../core/success.js";
import { XT_REST_URL, XT_WS_URL } from "./info.js";

export { XT_REST_URL, XT_WS_URL };

const TOPIC = "depth_update";
/** GET /v4/public/depth takes limit 1..500 (default 100). */
const SNAPSHOT_LIMIT = 500;

/** Reads an integer id straight from the JSON text, so ids beyond 2^53 keep every digit. */
export function idFromText(text: string, key: string): bigint {
  const match = new RegExp(`"${key}"\\s*:\\s*"?(\\d+)"?`).exec(text);
  if (!match) throw new FeedParseError(`no ${key}`);
  return BigInt(match[1]!);
}

function idFromValue(value: unknown, what: string): bigint {
  if (typeof value === "number" && Number.isInteger(value)) return BigInt(value);
  if (typeof value === "string" && /^\d+$/.test(value)) return BigInt(value);
  throw new FeedParseError(`bad ${what}: ${JSON.stringify(value)}`);
}

/**
 * XT v4 spot incremental depth: depth_update@{symbol} pushes changes covering update ids fi..i;
 * the book starts from GET /v4/public/depth, whose lastUpdateId decides which buffered updates
 * apply (fi <= id + 1 <= i for the first, fi = previous i + 1 after). A gap, and every new socket,
 * throw the book's sequence away and fetch a fresh snapshot (docs/exchange-rules.md#exchange-facts: the widely
 * used library does not, on xt). Keep-alive is the text "ping", answered "pong".
 *
 * XT's ids are larger than 2^53 (the docs' lastUpdateId has 18 digits), so they are read from the
 * raw text as bigints and handed to the sequence algorithm relative to the first id seen.
 */
export class XtFeed extends RestSnapshotFeed {
  readonly symbol: string;
  readonly topic: string;
  private readonly rest: string;
  private requestId = 0;
  private idBase: bigint | undefined;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("xt", pair, options);
    this.symbol = exchangeSymbol(pair, "_", true);
    this.topic = `${TOPIC}@${this.symbol}`;
    this.rest = restBase(options, XT_REST_URL);
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? XT_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({ method: "subscribe", params: [this.topic], id: `spotdesk-${++this.requestId}` });
    this.loadSnapshot();
  }

  protected keepAliveMessage(): string {
    return "ping";
  }

  /** An id as a safe number: its distance from the first id this feed saw. */
  private relative(id: bigint): number {
    this.idBase ??= id;
    const distance = Number(id - this.idBase);
    if (!Number.isSafeInteger(distance)) throw new FeedParseError(`update id ${id} out of range`);
    return distance;
  }

  protected async fetchSnapshot(): Promise<RestSnapshot> {
    const limit = Math.min(SNAPSHOT_LIMIT, Math.max(100, this.depth));
    const answer = await this.fetchJson(`${this.rest}/v4/public/depth?symbol=${this.symbol}&limit=${limit}`, {
      text: true,
    });
    const body: unknown = typeof answer === "string" ? JSON.parse(answer) : answer;
    const result = isRecord(body) && isCode(body.rc, 0) && isRecord(body.result) ? body.result : undefined;
    if (!result) throw new Error(`unexpected snapshot ${JSON.stringify(body).slice(0, 200)}`);
    const id =
      typeof answer === "string"
        ? idFromText(answer, "lastUpdateId")
        : idFromValue(result.lastUpdateId, "lastUpdateId");
    return {
      sequence: this.relative(id),
      bids: parseLevels(result.bids, "bids"),
      asks: parseLevels(result.asks, "asks"),
    };
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    if (frame === "pong") return;
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.topic !== TOPIC) {
      // the subscription answer: {"id", "code": 0 success | 1 failure, "msg"}
      if (!isSuccessCode(message.code, 0, true)) this.log.error("xt refused", { code: message.code, msg: message.msg });
      return;
    }
    if (message.event !== this.topic) return;
    const data = message.data;
    if (!isRecord(data)) throw new FeedParseError("data is not an object");
    const bids = parseLevels(data.b, "b");
    const asks = parseLevels(data.a, "a");
    this.onDelta({
      first: this.relative(idFromText(frame, "fi")),
      last: this.relative(idFromText(frame, "i")),
      bids,
      asks,
    });
  }
}
