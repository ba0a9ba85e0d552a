import { Decimal } from "./decimal.js";
import type { BookLevel } from "./types.js";

export type BookSide = "bid" | "ask";

/**
 * The order-book model (issue 2): two sorted sides keyed by exact decimal prices. A delta with
 * amount 0 removes the level (seed 001 §4). Best levels come first: bids descending, asks ascending.
 *
 * This first version keeps a Map per side and sorts on read; it is correct and simple, and the
 * performance version replaces its internals behind the same API.
 */
export class OrderBook {
  private readonly bids = new Map<string, string>();
  private readonly asks = new Map<string, string>();
  /** Increments on every change, so a reader can tell whether anything moved. */
  version = 0;

  clear(): void {
    this.bids.clear();
    this.asks.clear();
    this.version++;
  }

  applySnapshot(bids: readonly BookLevel[], asks: readonly BookLevel[]): void {
    this.bids.clear();
    this.asks.clear();
    for (const [p, a] of bids) this.set(this.bids, p, a);
    for (const [p, a] of asks) this.set(this.asks, p, a);
    this.version++;
  }

  applyDelta(side: BookSide, price: string, amount: string): void {
    this.set(side === "bid" ? this.bids : this.asks, price, amount);
    this.version++;
  }

  private set(map: Map<string, string>, price: string, amount: string): void {
    const key = new Decimal(price).toFixed();
    if (new Decimal(amount).isZero()) map.delete(key);
    else map.set(key, new Decimal(amount).toFixed());
  }

  top(n: number): { bids: BookLevel[]; asks: BookLevel[] } {
    const sort = (map: Map<string, string>, desc: boolean): BookLevel[] =>
      [...map.entries()]
        .sort((x, y) => (desc ? -1 : 1) * new Decimal(x[0]).comparedTo(y[0])!)
        .slice(0, n);
    return { bids: sort(this.bids, true), asks: sort(this.asks, false) };
  }

  get bidCount(): number {
    return this.bids.size;
  }

  get askCount(): number {
    return this.asks.size;
  }

  bestBid(): BookLevel | undefined {
    return this.top(1).bids[0];
  }

  bestAsk(): BookLevel | undefined {
    return this.top(1).asks[0];
  }

  /** Mid price: (best bid + best ask) / 2, undefined while a side is empty. */
  midPrice(): string | undefined {
    const bid = this.bestBid();
    const ask = this.bestAsk();
    if (!bid || !ask) return undefined;
    return new Decimal(bid[0]).plus(ask[0]).dividedBy(2).toFixed();
  }

  /** Spread percent of the dashboard's middle row: (ask - bid) / mid * 100. */
  spreadPercent(decimals = 2): string | undefined {
    const bid = this.bestBid();
    const ask = this.bestAsk();
    if (!bid || !ask) return undefined;
    const mid = new Decimal(bid[0]).plus(ask[0]).dividedBy(2);
    if (mid.isZero()) return undefined;
    return new Decimal(ask[0]).minus(bid[0]).dividedBy(mid).times(100).toFixed(decimals);
  }
}

export interface CumulativeRow {
  price: string;
  amount: string;
  /** price times amount (seed 001 §3 "Order book level") */
  total: string;
  cumAmount: string;
  cumTotal: string;
}

/** Cumulative amount and total from the best level outward (seed 000 §2 "Order book" hover). */
export function cumulativeRows(levels: readonly BookLevel[]): CumulativeRow[] {
  let cumAmount = new Decimal(0);
  let cumTotal = new Decimal(0);
  return levels.map(([price, amount]) => {
    const total = new Decimal(price).times(amount);
    cumAmount = cumAmount.plus(amount);
    cumTotal = cumTotal.plus(total);
    return { price, amount, total: total.toFixed(), cumAmount: cumAmount.toFixed(), cumTotal: cumTotal.toFixed() };
  });
}
