import { exchangeSymbol } from "../../lib/pair.js";
import { decimalText, FeedParseError, isRecord, parseLevels, sequence } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { restBase } from "../core/options.js";
import { type RestSnapshot, RestSnapshotFeed, type SequencedLevel } from "../core/rest-snapshot-feed.js";
import type { Frame } from "../core/socket-feed.js";
import { isCode } from "../core/success.js";
import { KUCOIN_REST_URL, KUCOIN_WS_URL } from "./info.js";

export { KUCOIN_REST_URL, KUCOIN_WS_URL };

/** docs/exchange-rules.md#states: "If the kucoin public token request fails, a placeholder token is used." */
export const KUCOIN_PLACEHOLDER_TOKEN = "spotdesk-placeholder-token";

/**
 * KuCoin spot level 2. The socket address and token come from POST /api/v1/bullet-public (a
 * placeholder token when that fails, docs/exchange-rules.md#states); after the server's welcome we subscribe to
 * /market/level2:{symbol}, whose deltas carry sequenceStart/sequenceEnd and a sequence per change;
 * the book starts from the REST snapshot level2_100 with the deltas buffered meanwhile. Keep-alive
 * is {"type":"ping"}.
 */
export class KucoinFeed extends RestSnapshotFeed {
  readonly symbol: string;
  readonly topic: string;
  private readonly rest: string;
  private connectId = 0;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("kucoin", pair, options);
    this.symbol = exchangeSymbol(pair, "-");
    this.topic = `/market/level2:${this.symbol}`;
    this.rest = restBase(options, KUCOIN_REST_URL);
  }

  protected async socketUrl(): Promise<string> {
    let token = KUCOIN_PLACEHOLDER_TOKEN;
    let endpoint = KUCOIN_WS_URL;
    try {
      const answer = await this.fetchJson(`${this.rest}/api/v1/bullet-public`, { method: "POST", body: "{}" });
      const data = isRecord(answer) && isCode(answer.code, "200000") && isRecord(answer.data) ? answer.data : undefined;
      const server =
        data && Array.isArray(data.instanceServers) && isRecord(data.instanceServers[0])
          ? data.instanceServers[0]
          : undefined;
      if (!data || typeof data.token !== "string")
        throw new Error(`unexpected answer ${JSON.stringify(answer).slice(0, 200)}`);
      token = data.token;
      if (server && typeof server.endpoint === "string") endpoint = server.endpoint;
    } catch (error) {
      this.log.warn("kucoin public token request failed; using the placeholder token", {
        error: (error as Error).message,
      });
    }
    const base = this.options.wsUrl ?? endpoint;
    const separator = base.includes("?") ? "&" : "?";
    return `${base}${separator}token=${encodeURIComponent(token)}&connectId=spotdesk-${Date.now()}-${++this.connectId}`;
  }

  /** KuCoin asks clients to wait for its welcome message; the subscription goes then. */
  protected subscribe(): void {}

  protected keepAliveMessage(): string {
    return JSON.stringify({ id: String(Date.now()), type: "ping" });
  }

  protected async fetchSnapshot(): Promise<RestSnapshot> {
    const answer = await this.fetchJson(
      `${this.rest}/api/v1/market/orderbook/level2_100?symbol=${encodeURIComponent(this.symbol)}`,
    );
    if (!isRecord(answer) || !isCode(answer.code, "200000") || !isRecord(answer.data))
      throw new Error(`unexpected snapshot ${JSON.stringify(answer).slice(0, 200)}`);
    const data = answer.data;
    return {
      sequence: sequence(data.sequence, "sequence"),
      bids: parseLevels(data.bids, "bids"),
      asks: parseLevels(data.asks, "asks"),
    };
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    switch (message.type) {
      case "welcome":
        this.sendJson({
          id: String(Date.now()),
          type: "subscribe",
          topic: this.topic,
          privateChannel: false,
          response: true,
        });
        this.loadSnapshot();
        return;
      case "ping":
        this.sendJson({ id: message.id, type: "pong" });
        return;
      case "pong":
      case "ack":
        return;
      case "error":
        this.log.error("kucoin refused", { code: message.code, data: message.data });
        return;
      case "message":
        break;
      default:
        throw new FeedParseError(`unknown type ${String(message.type)}`);
    }
    if (message.topic !== this.topic) return;
    const data = message.data;
    if (!isRecord(data) || !isRecord(data.changes)) throw new FeedParseError("no changes");
    this.onDelta({
      first: sequence(data.sequenceStart, "sequenceStart"),
      last: sequence(data.sequenceEnd, "sequenceEnd"),
      bids: changes(data.changes.bids),
      asks: changes(data.changes.asks),
    });
  }
}

/** KuCoin change rows are [price, size, sequence]; a price of 0 only moves the sequence. */
function changes(raw: unknown): SequencedLevel[] {
  if (raw === undefined) return [];
  const levels = parseLevels(raw, "changes");
  const rows = raw as unknown[][];
  const out: SequencedLevel[] = [];
  for (let i = 0; i < levels.length; i++) {
    const [price, amount] = levels[i]!;
    if (Number(price) === 0) continue;
    const seq = rows[i]![2];
    out.push(seq === undefined ? [price, amount] : [price, amount, sequence(decimalText(seq, "sequence"), "sequence")]);
  }
  return out;
}
