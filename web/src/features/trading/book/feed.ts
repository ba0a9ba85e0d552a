/**
 * The trading view's order-book feed (issue 13, docs/web-trading.md "Order book"): straight from
 * the exchange where the browser may connect (the exchange's own feed module, loaded on demand),
 * through the server's book relay (`/book` websocket, server/README.md) for paper and whenever the
 * direct feed cannot start or is not live within DIRECT_GRACE_MS.
 */

import type { BookAnswer } from "../../../../../lib/api.js";
import type { BookFeedState } from "../../../../../lib/order-checks.js";
import { OrderBook } from "../../../../../lib/orderbook.js";
import { exchangeSymbol } from "../../../../../lib/pair.js";
import { liveUrl } from "../../../app/live";

export interface WebBookFeed {
  readonly book: OrderBook;
  readonly state: BookFeedState;
  /** "direct" (the exchange's socket) or "relay" (the server's /book socket) */
  readonly source: "direct" | "relay";
  start(): void;
  stop(): void;
  /** docs/exchange-rules.md#states manual refresh: a fresh snapshot now */
  refresh(): Promise<void>;
  onState(listener: (state: BookFeedState) => void): () => void;
}

/** A direct feed that is not live this long after it opened gives way to the relay. */
export const DIRECT_GRACE_MS = 8_000;
/** The relay socket's reconnect delays: 1 s doubling, capped at the seed's 15 s keep-alive. */
export const RELAY_RETRY_MS = { first: 1_000, max: 15_000 } as const;

type Listener = (state: BookFeedState) => void;

/** The server's book relay for one pair: full books, at most every 500 ms when changed. */
export class RelayBookFeed implements WebBookFeed {
  readonly book = new OrderBook();
  readonly source = "relay" as const;
  /** the server's version of the book last applied (its feed's `book.version`), for a reader to compare */
  sourceVersion: number | undefined;
  private current: BookFeedState = "connecting";
  private socket: WebSocket | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private running = false;
  private readonly listeners = new Set<Listener>();

  constructor(
    readonly exchange: string,
    readonly pair: string,
    private readonly depth: number,
    private readonly base: string = liveUrl(window.location, import.meta.env.VITE_LIVE_URL || undefined),
  ) {}

  get state(): BookFeedState {
    return this.current;
  }

  private setState(state: BookFeedState): void {
    if (state === this.current) return;
    this.current = state;
    for (const l of this.listeners) l(state);
  }

  private url(): string {
    const query = new URLSearchParams({
      exchange: this.exchange,
      pair: exchangeSymbol(this.pair, "-"),
      depth: String(this.depth),
    });
    return `${this.base.replace(/\/$/, "")}/book?${query}`;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.open();
  }

  private open(): void {
    if (!this.running) return;
    this.setState("connecting");
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = ws;
    ws.onmessage = (e) => {
      if (typeof e.data !== "string") return;
      try {
        const m = JSON.parse(e.data) as {
          type?: string;
          data?: BookAnswer;
        };
        if (m.type !== "book" || !m.data) return;
        this.attempts = 0;
        // The relay says how its upstream feed is: a book is live only when that feed is (an
        // exchange out of reach answers an empty book, which is no market to trade on).
        const upstream = m.data.state ?? "live";
        if (upstream === "live") {
          this.book.applySnapshot(m.data.bids, m.data.asks);
          this.sourceVersion = m.data.version;
        }
        this.setState(upstream === "closed" ? "connecting" : upstream);
      } catch {
        // docs/api.md#errors: feed parse failures are only logged
        console.warn("book relay: unreadable message");
      }
    };
    ws.onclose = () => {
      if (this.socket !== ws) return;
      this.socket = undefined;
      if (!this.running) return;
      this.setState("connecting");
      this.scheduleRetry();
    };
    ws.onerror = () => ws.close();
  }

  private scheduleRetry(): void {
    if (!this.running || this.retry) return;
    const delay = Math.min(RELAY_RETRY_MS.max, RELAY_RETRY_MS.first * 2 ** this.attempts++);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.open();
    }, delay);
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.retry);
    this.retry = undefined;
    const ws = this.socket;
    this.socket = undefined;
    ws?.close();
    this.setState("closed");
  }

  async refresh(): Promise<void> {
    const response = await fetch(
      `/book/${encodeURIComponent(this.exchange)}/${exchangeSymbol(this.pair, "-")}?depth=${this.depth}`,
      { cache: "no-store" },
    );
    if (!response.ok) throw new Error(`book refresh: HTTP ${response.status}`);
    const answer = (await response.json()) as BookAnswer;
    // as on the socket: only a live upstream book is a book (an unreachable exchange answers an empty one)
    if ((answer.state ?? "live") !== "live")
      throw new Error(`book refresh: the server's ${this.exchange} feed is ${answer.state}`);
    this.book.applySnapshot(answer.bids, answer.asks);
    this.sourceVersion = answer.version;
  }

  onState(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
