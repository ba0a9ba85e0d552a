import type { BookLevel } from "../lib/types.js";

/**
 * The baseline of issue 2's book benchmark: "a naive model of two sorted arrays of plain JS
 * numbers with binary search and splice". Prices and amounts are parsed with parseFloat; each
 * side keeps parallel price and amount arrays best first (bids descending, asks ascending), so
 * top N is a slice. Shared by the benches that compare against it (book, feed throughput).
 */
export class NaiveBook {
  readonly bidPrices: number[] = [];
  readonly bidAmounts: number[] = [];
  readonly askPrices: number[] = [];
  readonly askAmounts: number[] = [];
  version = 0;

  applySnapshot(bids: readonly BookLevel[], asks: readonly BookLevel[]): void {
    for (const arr of [this.bidPrices, this.bidAmounts, this.askPrices, this.askAmounts]) arr.length = 0;
    for (const [p, a] of bids) this.applyDelta("bid", p, a);
    for (const [p, a] of asks) this.applyDelta("ask", p, a);
    this.version++;
  }

  applyDelta(side: "bid" | "ask", price: string, amount: string): void {
    const p = Number.parseFloat(price);
    const a = Number.parseFloat(amount);
    const bid = side === "bid";
    const prices = bid ? this.bidPrices : this.askPrices;
    const amounts = bid ? this.bidAmounts : this.askAmounts;
    let lo = 0;
    let hi = prices.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const q = prices[mid]!;
      if (q === p) {
        if (a === 0) {
          prices.splice(mid, 1);
          amounts.splice(mid, 1);
        } else {
          amounts[mid] = a;
        }
        this.version++;
        return;
      }
      // best first: bids descending, asks ascending
      if (bid ? q > p : q < p) lo = mid + 1;
      else hi = mid - 1;
    }
    if (a !== 0) {
      prices.splice(lo, 0, p);
      amounts.splice(lo, 0, a);
    }
    this.version++;
  }

  top(n: number): { bids: [number, number][]; asks: [number, number][] } {
    const bids: [number, number][] = [];
    const asks: [number, number][] = [];
    for (let i = 0; i < n && i < this.bidPrices.length; i++) bids.push([this.bidPrices[i]!, this.bidAmounts[i]!]);
    for (let i = 0; i < n && i < this.askPrices.length; i++) asks.push([this.askPrices[i]!, this.askAmounts[i]!]);
    return { bids, asks };
  }

  get bidCount(): number {
    return this.bidPrices.length;
  }

  get askCount(): number {
    return this.askPrices.length;
  }
}

/**
 * Not a baseline with a target, a yardstick: the same float arrays kept worst → best, so updates
 * near the touch splice at the end. It shows how much of our speed comes from that layout and
 * what exact keys and string amounts cost on top of it.
 */
export class FloatBestLastBook {
  private readonly bidPrices: number[] = [];
  private readonly bidAmounts: number[] = [];
  private readonly askPrices: number[] = [];
  private readonly askAmounts: number[] = [];

  applySnapshot(bids: readonly BookLevel[], asks: readonly BookLevel[]): void {
    for (const arr of [this.bidPrices, this.bidAmounts, this.askPrices, this.askAmounts]) arr.length = 0;
    for (let i = bids.length - 1; i >= 0; i--) this.applyDelta("bid", bids[i]![0], bids[i]![1]);
    for (let i = asks.length - 1; i >= 0; i--) this.applyDelta("ask", asks[i]![0], asks[i]![1]);
  }

  applyDelta(side: "bid" | "ask", price: string, amount: string): void {
    const p = Number.parseFloat(price);
    const a = Number.parseFloat(amount);
    const bid = side === "bid";
    const prices = bid ? this.bidPrices : this.askPrices;
    const amounts = bid ? this.bidAmounts : this.askAmounts;
    let lo = 0;
    let hi = prices.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const q = prices[mid]!;
      if (q === p) {
        if (a === 0) {
          prices.splice(mid, 1);
          amounts.splice(mid, 1);
        } else {
          amounts[mid] = a;
        }
        return;
      }
      // worst → best: bids ascending, asks descending
      if (bid ? q < p : q > p) lo = mid + 1;
      else hi = mid - 1;
    }
    if (a !== 0) {
      prices.splice(lo, 0, p);
      amounts.splice(lo, 0, a);
    }
  }

  top(n: number): { bids: [number, number][]; asks: [number, number][] } {
    const bids: [number, number][] = [];
    const asks: [number, number][] = [];
    for (let i = this.bidPrices.length - 1; i >= 0 && bids.length < n; i--)
      bids.push([this.bidPrices[i]!, this.bidAmounts[i]!]);
    for (let i = this.askPrices.length - 1; i >= 0 && asks.length < n; i--)
      asks.push([this.askPrices[i]!, this.askAmounts[i]!]);
    return { bids, asks };
  }
}
