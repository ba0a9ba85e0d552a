import type { BookLevel } from "../lib/types.js";

/** mulberry32: a small seeded PRNG, so every run replays the same stream. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BookStream {
  snapshot: { bids: BookLevel[]; asks: BookLevel[] };
  /** 0 = bid, 1 = ask */
  sides: Uint8Array;
  prices: string[];
  amounts: string[];
  length: number;
}

export interface BookStreamOptions {
  seed?: number;
  deltas?: number;
  /** resting levels per side in the snapshot */
  depth?: number;
  /** mid price in ticks of 0.01 */
  midTicks?: number;
  /** share of deltas at a uniform distance over the whole depth instead of near the touch */
  deepShare?: number;
}

/** Price text of a tick count at 2 decimals, written as exchanges do: trailing zeros sometimes dropped. */
function priceText(ticks: number, dropZeros: boolean): string {
  const whole = Math.floor(ticks / 100);
  const cents = ticks % 100;
  if (dropZeros) {
    if (cents === 0) return String(whole);
    if (cents % 10 === 0) return `${whole}.${cents / 10}`;
  }
  return `${whole}.${cents < 10 ? "0" : ""}${cents}`;
}

/**
 * A synthetic but realistic depth stream (issue 2 bench): a BTC/USDT-like book with tick 0.01
 * around 30 000, a mid that random-walks, and deltas mostly near the top of the book (geometric
 * distance from the touch, mean ~12 ticks), some deep (uniform over the whole depth). About a
 * quarter of the deltas remove a level (amount 0); the rest set an amount with 4 decimals, which
 * inserts a level when it is new. When the mid moves, the levels it crosses are removed, so the
 * book never crosses. Prices and amounts are decimal strings as they come off the wire.
 */
export function syntheticBookStream(options: BookStreamOptions = {}): BookStream {
  const { seed = 42, deltas = 1_000_000, depth = 2_000, midTicks = 3_000_000, deepShare = 0.1 } = options;
  const random = seededRandom(seed);
  const amount = (): string => (0.0001 + random() * 3).toFixed(4);
  let mid = midTicks;
  // Snapshot: levels from the touch outward, dense near the top, sparser further out.
  const bids: BookLevel[] = [];
  const asks: BookLevel[] = [];
  let d = 1;
  for (let i = 0; i < depth; i++) {
    bids.push([priceText(mid - d, false), amount()]);
    asks.push([priceText(mid + d, false), amount()]);
    d += i < 200 ? 1 : 1 + Math.floor(random() * 8);
  }
  const maxDistance = d;
  const sides = new Uint8Array(deltas);
  const prices: string[] = new Array(deltas);
  const amounts: string[] = new Array(deltas);
  let i = 0;
  const push = (side: number, ticks: number, text: string): void => {
    if (i >= deltas) return;
    sides[i] = side;
    prices[i] = priceText(ticks, random() < 0.3);
    amounts[i] = text;
    i++;
  };
  while (i < deltas) {
    // The mid walks one tick now and then; the crossed level on the other side goes away.
    const r = random();
    if (r < 0.002) {
      mid += 1;
      push(1, mid, "0");
      continue;
    }
    if (r < 0.004) {
      mid -= 1;
      push(0, mid, "0");
      continue;
    }
    const side = random() < 0.5 ? 0 : 1;
    let distance: number;
    if (random() >= deepShare) distance = 1 + Math.floor(-Math.log(1 - random()) * 12);
    else distance = 1 + Math.floor(random() * maxDistance);
    const ticks = side === 0 ? mid - distance : mid + distance;
    push(side, ticks, random() < 0.25 ? "0" : amount());
  }
  return { snapshot: { bids, asks }, sides, prices, amounts, length: deltas };
}
