import type { BookLevel } from "../../lib/types.js";
import { backoffDelay, FEED_DEFAULTS } from "./options.js";
import { SocketFeed } from "./socket-feed.js";

/** A level change; `seq` is the per-change sequence where the exchange gives one (kucoin). */
export type SequencedLevel = [price: string, amount: string, seq?: number];

/** One websocket delta covering the exchange's sequence range first..last. */
export interface RangeDelta {
  first: number;
  last: number;
  bids: SequencedLevel[];
  asks: SequencedLevel[];
}

export interface RestSnapshot {
  sequence: number;
  bids: BookLevel[];
  asks: BookLevel[];
}

/** Deltas kept while a snapshot is on its way; more than this means the snapshot is not coming. */
const MAX_BUFFERED = 5_000;

/**
 * The REST-snapshot-plus-buffered-deltas algorithm (kucoin level2, gate order_book_update):
 * deltas are buffered from the subscription on; the snapshot's sequence S decides which apply —
 * those ending at or before S are dropped, the first kept one must start at or before S + 1, and
 * every later one must start exactly one after the previous end. Anything else is a gap: the book
 * is thrown away and a new snapshot fetched while deltas buffer again.
 */
export abstract class RestSnapshotFeed extends SocketFeed {
  private lastSequence: number | undefined;
  private buffered: RangeDelta[] = [];
  /** bumps on every resync so a slow, superseded snapshot is dropped */
  private snapshotEpoch = 0;
  private snapshotTimer: ReturnType<typeof setTimeout> | undefined;
  private snapshotAttempts = 0;

  /** Fetches the REST snapshot with its sequence number; throws on failure. */
  protected abstract fetchSnapshot(): Promise<RestSnapshot>;

  protected override resetSequence(): void {
    this.lastSequence = undefined;
    this.buffered = [];
    this.snapshotEpoch++;
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
  }

  /** A resync keeps the socket and its subscription: deltas buffer while a new snapshot comes. */
  protected override requestSnapshot(): void {
    if (!this.isOpen()) {
      this.renewSocket();
      return;
    }
    this.loadSnapshot();
  }

  override stop(): void {
    clearTimeout(this.snapshotTimer);
    this.snapshotTimer = undefined;
    this.snapshotEpoch++;
    super.stop();
  }

  /** Called by the module once its subscription is sent. */
  protected loadSnapshot(): void {
    const epoch = ++this.snapshotEpoch;
    this.fetchSnapshot().then(
      (snapshot) => {
        if (epoch !== this.snapshotEpoch || !this.isRunning) return;
        this.snapshotAttempts = 0;
        this.book.applySnapshot(snapshot.bids, snapshot.asks);
        this.lastSequence = snapshot.sequence;
        const pending = this.buffered;
        this.buffered = [];
        for (const delta of pending) {
          if (!this.applyInOrder(delta)) return;
        }
        this.markLive();
      },
      (error: unknown) => {
        if (epoch !== this.snapshotEpoch || !this.isRunning) return;
        this.log.warn("feed snapshot failed", {
          exchange: this.exchange,
          error: (error as Error).message ?? String(error),
        });
        const delay = backoffDelay(
          ++this.snapshotAttempts,
          this.options.reconnectBaseMs ?? FEED_DEFAULTS.reconnectBaseMs,
          this.options.reconnectMaxMs ?? FEED_DEFAULTS.reconnectMaxMs,
          this.options.random ?? Math.random,
        );
        this.snapshotTimer = setTimeout(() => {
          this.snapshotTimer = undefined;
          if (epoch === this.snapshotEpoch && this.isRunning) this.loadSnapshot();
        }, delay);
      },
    );
  }

  /** Hands one websocket delta to the algorithm. */
  protected onDelta(delta: RangeDelta): void {
    if (this.lastSequence === undefined) {
      this.buffered.push(delta);
      if (this.buffered.length > MAX_BUFFERED) this.resync("snapshot too slow: delta buffer full");
      return;
    }
    this.applyInOrder(delta);
  }

  /** Applies a delta that follows the book; false when it revealed a gap (a resync is under way). */
  private applyInOrder(delta: RangeDelta): boolean {
    const last = this.lastSequence!;
    if (delta.last <= last) return true; // already in the snapshot
    if (delta.first > last + 1) {
      this.resync("sequence gap", { expected: last + 1, first: delta.first, last: delta.last });
      return false;
    }
    this.applySide("bid", delta.bids, last);
    this.applySide("ask", delta.asks, last);
    this.lastSequence = delta.last;
    return true;
  }

  private applySide(side: "bid" | "ask", levels: SequencedLevel[], after: number): void {
    for (const [price, amount, seq] of levels) {
      if (seq !== undefined && seq <= after) continue;
      this.book.applyDelta(side, price, amount);
    }
  }
}
