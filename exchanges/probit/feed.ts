import { exchangeSymbol } from "../../lib/pair.js";
import type { BookLevel } from "../../lib/types.js";
import { applyLevels, decimalText, FeedParseError, isRecord } from "../core/levels.js";
import type { FeedRuntimeOptions } from "../core/options.js";
import { type Frame, SocketFeed } from "../core/socket-feed.js";
import { PROBIT_WS_URL } from "./info.js";

export { PROBIT_WS_URL };

/**
 * ProBit marketdata channel with the order_books filter: the first message (reset: true) is the
 * whole book, later ones change levels, and a quantity of 0 removes one (docs/exchange-rules.md#states: "snapshot
 * first, then incremental updates"). ProBit gives no sequence numbers, so a book that stops
 * changing is marked stale and a new socket brings a fresh reset. It documents no ping message:
 * the keep-alive tick only checks that the socket is open.
 */
export class ProbitFeed extends SocketFeed {
  readonly marketId: string;
  private hasSnapshot = false;

  constructor(pair: string, options: FeedRuntimeOptions) {
    super("probit", pair, options);
    this.marketId = exchangeSymbol(pair, "-");
  }

  protected socketUrl(): string {
    return this.options.wsUrl ?? PROBIT_WS_URL;
  }

  protected subscribe(): void {
    this.sendJson({
      type: "subscribe",
      channel: "marketdata",
      market_id: this.marketId,
      interval: 100,
      filter: ["order_books"],
    });
  }

  protected keepAliveMessage(): undefined {
    return undefined;
  }

  protected override resetSequence(): void {
    this.hasSnapshot = false;
  }

  protected handleFrame(frame: Frame): void {
    if (typeof frame !== "string") throw new FeedParseError("binary frame");
    const message: unknown = JSON.parse(frame);
    if (!isRecord(message)) throw new FeedParseError("not an object");
    if (message.errorCode !== undefined) {
      this.log.error("probit refused", { code: message.errorCode, msg: message.message });
      return;
    }
    if (message.channel !== "marketdata" || message.market_id !== this.marketId) return;
    if (message.order_books === undefined) return; // ticker-only or status messages
    const { bids, asks } = splitSides(message.order_books);
    if (message.reset === true) {
      this.book.applySnapshot(bids, asks);
      this.hasSnapshot = true;
      this.markLive();
      return;
    }
    if (!this.hasSnapshot) return; // changes before the reset cannot be placed
    applyLevels(this.book, "bid", bids);
    applyLevels(this.book, "ask", asks);
  }
}

/** ProBit levels are {side: "buy" | "sell", price, quantity}. */
function splitSides(raw: unknown): { bids: BookLevel[]; asks: BookLevel[] } {
  if (!Array.isArray(raw)) throw new FeedParseError("order_books is not a list");
  const bids: BookLevel[] = [];
  const asks: BookLevel[] = [];
  for (const row of raw as unknown[]) {
    if (!isRecord(row)) throw new FeedParseError("order_books row is not an object");
    const level: BookLevel = [decimalText(row.price, "price"), decimalText(row.quantity, "quantity")];
    if (row.side === "buy") bids.push(level);
    else if (row.side === "sell") asks.push(level);
    else throw new FeedParseError(`unknown side ${JSON.stringify(row.side)}`);
  }
  return { bids, asks };
}
