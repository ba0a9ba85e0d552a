import { Decimal } from "./decimal.js";
import { ExchangeError } from "./errors.js";
import type { BookLevel } from "./types.js";

export type BookSide = "bid" | "ask";

/*
 * The order-book model (issue 2): two sorted sides keyed by exact decimal prices. A delta with
 * amount 0 removes the level (docs/exchange-rules.md#states). Readers get the best levels first: bids descending,
 * asks ascending.
 *
 * How it is fast without binary floats as keys:
 * - A price string is read once into an integer number of ticks at the side's scale (its most
 *   decimals seen so far): "30123.45" at scale 2 is 3012345. Integers below 2^53 are exact
 *   doubles, so comparing keys is exact. A price with more decimals rescales the side (all keys
 *   times a power of ten); a side whose keys would pass 2^53 switches to BigInt keys, still exact.
 * - Each side is ordered worst → best, so the best level is the last element, and cut into chunks
 *   of at most 256 levels. Most updates touch the top of the book: they land in the last chunk and
 *   are found by a short scan from its end; inserts and removals there move a few elements, and
 *   even deep ones move at most one chunk's worth instead of the whole side.
 * - A level is an immutable [price, amount] tuple: an update swaps the tuple, and top(n) hands out
 *   the stored tuples without copying them. Callers must not mutate returned levels.
 */

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** Powers of ten that are exact doubles (10^0 … 10^22). */
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);
/** How far from the best level to scan before a binary search. */
const TOP_SCAN = 8;
/** Inserts and removals this close to the end move elements by hand; deeper ones use splice. */
const HAND_MOVE = 32;
/** Most levels in one chunk of a side. */
const CHUNK_MAX = 256;

// Scratch results of readPrice (module-level so the hot path allocates nothing).
let readMantissa = 0;
let readDecimals = 0;
/** false when the mantissa does not fit a safe integer: the BigInt path reads the text again */
// Stryker disable next-line BooleanLiteral: readPlainPrice sets readSafe before set() reads it
let readSafe = true;

/**
 * Reads a plain decimal ("30123.45", "0.00001", "42") into mantissa and decimals, trailing
 * fraction zeros dropped. Returns false for anything else (exponents, signs, spaces, garbage).
 */
function readPlainPrice(text: string): boolean {
  let mantissa = 0;
  let decimals = 0;
  let dot = false;
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      mantissa = mantissa * 10 + (c - 48);
      // Stryker disable next-line UpdateOperator: digits is only compared with 0, which it leaves either way
      digits++;
      if (dot) decimals++;
    } else if (c === 46 && !dot) {
      dot = true;
    } else {
      return false;
    }
  }
  if (digits === 0) return false;
  readSafe = mantissa <= MAX_SAFE;
  // Stryker disable next-line ConditionalExpression,BlockStatement: dropping trailing zeros only lowers the scale a key is written at; an unsafe mantissa is read again from the text
  if (readSafe) {
    // Stryker disable next-line ArithmeticOperator: `mantissa * 10 === 0` only keeps trailing zeros, which change the scale, not the key's value
    while (decimals > 0 && mantissa % 10 === 0) {
      mantissa /= 10;
      decimals--;
    }
  }
  readMantissa = mantissa;
  readDecimals = decimals;
  return true;
}

/** Exact mantissa and decimals of a plain decimal string, for the BigInt path. */
function readBigPrice(text: string): { mantissa: bigint; decimals: number } {
  const dot = text.indexOf(".");
  let digits = dot < 0 ? text : text.slice(0, dot) + text.slice(dot + 1);
  let decimals = dot < 0 ? 0 : text.length - dot - 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: trailing zeros kept, or integer zeros moved into a negative exponent, give the same value
  while (decimals > 0 && digits.endsWith("0")) {
    digits = digits.slice(0, -1);
    decimals--;
  }
  // Stryker disable next-line StringLiteral: BigInt("") is 0n, the same as BigInt("0")
  return { mantissa: BigInt(digits === "" ? "0" : digits), decimals };
}

function badNumber(what: string, text: unknown, why: string): ExchangeError {
  return new ExchangeError("spotdesk", `Invalid order-book ${what} '${String(text)}': ${why}`, { kind: "bad-input" });
}

/** Turns an exponent or otherwise unusual form into plain digits, or throws naming the value. */
function normalizeNumber(what: string, text: unknown): Decimal {
  let n: Decimal;
  try {
    n = new Decimal(text as string);
  } catch {
    throw badNumber(what, text, "not a number");
  }
  if (!n.isFinite()) throw badNumber(what, text, "not a finite number");
  if (n.isZero()) return new Decimal(0);
  if (n.isNegative()) throw badNumber(what, text, "it is negative");
  return n;
}

/**
 * Classifies an amount text: 0 = zero (removes the level), 1 = a plain positive decimal kept as
 * it is, 2 = anything else (normalized through Decimal, or refused).
 */
function classifyAmount(text: string): 0 | 1 | 2 {
  let dot = false;
  let digits = 0;
  let nonZero = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 49 && c <= 57) {
      nonZero = true;
      // Stryker disable next-line UpdateOperator: digits is only compared with 0, which it leaves either way
      digits++;
    } else if (c === 48) {
      // Stryker disable next-line UpdateOperator: digits is only compared with 0, which it leaves either way
      digits++;
    } else if (c === 46 && !dot) {
      dot = true;
    } else {
      return 2;
    }
  }
  if (digits === 0) return 2;
  return nonZero ? 1 : 0;
}

/** A run of neighbouring levels: keys ascending, best last. */
interface Chunk {
  keys: number[];
  levels: BookLevel[];
}

/**
 * One side: levels ordered worst → best with exact integer keys rising toward the best, kept in
 * chunks of at most CHUNK_MAX levels so an insert or removal deep in the book moves a few hundred
 * references, not the whole side.
 */
class SideLevels {
  /** fast mode: safe-integer keys; asks store the negated ticks so best is still last */
  chunks: Chunk[] = [];
  /** BigInt mode, once a key outgrew safe integers: one flat sorted array (null in the fast mode) */
  bigKeys: bigint[] | null = null;
  // Stryker disable next-line ArrayDeclaration: read only while bigKeys is set, and toBigKeys sets both
  bigLevels: BookLevel[] = [];
  /** decimals of one tick */
  scale = 0;
  count = 0;

  constructor(private readonly negate: boolean) {}

  clear(): void {
    this.chunks = [];
    this.bigKeys = null;
    // Stryker disable next-line ArrayDeclaration: bigKeys is null after clear(), and toBigKeys sets both
    this.bigLevels = [];
    this.scale = 0;
    this.count = 0;
  }

  /**
   * Sets or removes one level. With `keepExisting`, a level already present is left alone (a
   * snapshot read backwards keeps the last amount listed for a price).
   */
  set(priceText: string, amountText: string, keepExisting = false): void {
    // Stryker disable next-line StringLiteral: a typeof is never "", and String() of a string is the string
    if (typeof priceText !== "string") priceText = String(priceText);
    // Stryker disable next-line StringLiteral: a typeof is never "", and String() of a string is the string
    if (typeof amountText !== "string") amountText = String(amountText);
    let amountKind = classifyAmount(amountText);
    if (amountKind === 2) {
      const n = normalizeNumber("amount", amountText);
      amountKind = n.isZero() ? 0 : 1;
      amountText = n.toFixed();
    }
    if (!readPlainPrice(priceText)) {
      priceText = normalizeNumber("price", priceText).toFixed();
      readPlainPrice(priceText);
    }
    if (this.bigKeys === null) {
      const key = readSafe ? this.numberKey() : undefined;
      if (key !== undefined) {
        this.setNumber(key, priceText, amountText, amountKind === 0, keepExisting);
        return;
      }
      this.toBigKeys();
    }
    this.setBig(this.bigKey(priceText), priceText, amountText, amountKind === 0, keepExisting);
  }

  /** The key of the price just read, rescaling the side if needed; undefined: needs BigInt keys. */
  private numberKey(): number | undefined {
    const mantissa = readMantissa;
    const decimals = readDecimals;
    if (decimals > this.scale) {
      const chunks = this.chunks;
      if (chunks.length === 0) {
        this.scale = decimals;
      } else {
        const up = decimals - this.scale;
        if (up >= POW10.length) return undefined;
        const factor = POW10[up]!;
        const lastKeys = chunks[chunks.length - 1]!.keys;
        const largest = Math.max(Math.abs(chunks[0]!.keys[0]!), Math.abs(lastKeys[lastKeys.length - 1]!));
        if (largest * factor > MAX_SAFE) return undefined;
        for (const chunk of chunks) {
          const keys = chunk.keys;
          for (let i = 0; i < keys.length; i++) keys[i] = keys[i]! * factor;
        }
        this.scale = decimals;
      }
    }
    let ticks = mantissa;
    if (decimals < this.scale) {
      const down = this.scale - decimals;
      if (down >= POW10.length) return mantissa === 0 ? 0 : undefined;
      ticks = mantissa * POW10[down]!;
      if (ticks > MAX_SAFE) return undefined;
    }
    return this.negate ? 0 - ticks : ticks;
  }

  private setNumber(key: number, priceText: string, amountText: string, remove: boolean, keepExisting: boolean): void {
    const chunks = this.chunks;
    let ci = chunks.length - 1;
    if (ci < 0) {
      if (!remove) {
        chunks.push({ keys: [key], levels: [[priceText, amountText]] });
        this.count = 1;
      }
      return;
    }
    // The chunk that holds the key: the top chunk for most updates, else the last chunk whose
    // first key is not above it (chunk 0 for a key below everything).
    let chunk = chunks[ci]!;
    if (key < chunk.keys[0]!) {
      let lo = 0;
      // Stryker disable next-line ArithmeticOperator: the key is below chunk ci's first key, so the search never reaches ci or past it
      let hi = ci - 1;
      ci = 0;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        if (chunks[mid]!.keys[0]! <= key) {
          ci = mid;
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      chunk = chunks[ci]!;
    }
    const keys = chunk.keys;
    const levels = chunk.levels;
    const n = keys.length;
    // Scan down from the chunk's best level, then binary search what is left.
    // Stryker disable next-line ArithmeticOperator: two reads past the end are undefined and skipped; the binary search covers what the shorter scan leaves
    let hi = n - 1;
    // Stryker disable next-line MethodExpression,UnaryOperator,ArithmeticOperator: a longer or shorter scan; the binary search finds the same position
    const stop = Math.max(-1, hi - TOP_SCAN);
    let at = -1;
    let insertAt = -1;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a longer or shorter scan; the binary search finds the same position
    while (hi > stop) {
      const k = keys[hi]!;
      if (k === key) {
        at = hi;
        break;
      }
      if (k < key) {
        insertAt = hi + 1;
        break;
      }
      hi--;
    }
    // Stryker disable next-line LogicalOperator: the binary search finds the position the scan found
    if (at < 0 && insertAt < 0) {
      let lo = 0;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const k = keys[mid]!;
        if (k < key) lo = mid + 1;
        else if (k > key) hi = mid - 1;
        else {
          at = mid;
          break;
        }
      }
      if (at < 0) insertAt = lo;
    }
    if (at >= 0) {
      if (keepExisting) return;
      if (!remove) {
        levels[at] = [priceText, amountText];
        return;
      }
      // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: moving by hand or by splice removes the same element
      if (n - at <= HAND_MOVE) {
        for (let i = at; i < n - 1; i++) {
          keys[i] = keys[i + 1]!;
          levels[i] = levels[i + 1]!;
        }
        keys.pop();
        levels.pop();
      } else {
        keys.splice(at, 1);
        levels.splice(at, 1);
      }
      this.count--;
      if (n === 1) {
        chunks.splice(ci, 1);
        // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty side's scale is only headroom before the next rescale
        if (chunks.length === 0) this.scale = 0;
      }
      return;
    }
    if (remove) return;
    const level: BookLevel = [priceText, amountText];
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: moving by hand or by splice inserts at the same place
    if (n - insertAt <= HAND_MOVE) {
      keys.push(key);
      levels.push(level);
      for (let i = n; i > insertAt; i--) {
        keys[i] = keys[i - 1]!;
        levels[i] = levels[i - 1]!;
      }
      keys[insertAt] = key;
      levels[insertAt] = level;
    } else {
      keys.splice(insertAt, 0, key);
      levels.splice(insertAt, 0, level);
    }
    this.count++;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: chunk sizes change no order, only how far an insert moves elements
    if (n + 1 > CHUNK_MAX) {
      // Split in two; the upper half becomes the next chunk.
      // Stryker disable next-line ArithmeticOperator: where a full chunk splits changes no order
      const half = (n + 1) >>> 1;
      chunks.splice(ci + 1, 0, { keys: keys.splice(half), levels: levels.splice(half) });
    }
  }

  private toBigKeys(): void {
    const bigKeys: bigint[] = [];
    const bigLevels: BookLevel[] = [];
    for (const chunk of this.chunks) {
      for (let i = 0; i < chunk.keys.length; i++) {
        bigKeys.push(BigInt(chunk.keys[i]!));
        bigLevels.push(chunk.levels[i]!);
      }
    }
    // Stryker disable next-line ArrayDeclaration: chunks is not read while bigKeys is set, and clear() empties it again
    this.chunks = [];
    this.bigKeys = bigKeys;
    this.bigLevels = bigLevels;
  }

  private bigKey(priceText: string): bigint {
    const { mantissa, decimals } = readBigPrice(priceText);
    const bigKeys = this.bigKeys!;
    if (decimals > this.scale) {
      const factor = 10n ** BigInt(decimals - this.scale);
      for (let i = 0; i < bigKeys.length; i++) bigKeys[i] = bigKeys[i]! * factor;
      this.scale = decimals;
    }
    const ticks = mantissa * 10n ** BigInt(this.scale - decimals);
    return this.negate ? -ticks : ticks;
  }

  private setBig(key: bigint, priceText: string, amountText: string, remove: boolean, keepExisting: boolean): void {
    const keys = this.bigKeys!;
    const levels = this.bigLevels;
    let lo = 0;
    let hi = keys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const k = keys[mid]!;
      if (k < key) lo = mid + 1;
      else if (k > key) hi = mid - 1;
      else {
        if (keepExisting) return;
        if (!remove) {
          levels[mid] = [priceText, amountText];
          return;
        }
        keys.splice(mid, 1);
        levels.splice(mid, 1);
        this.count--;
        // An empty side starts over in the fast mode.
        if (keys.length === 0) this.clear();
        return;
      }
    }
    if (remove) return;
    keys.splice(lo, 0, key);
    levels.splice(lo, 0, [priceText, amountText]);
    this.count++;
  }

  /** The best `count` levels, best first (shared tuples). */
  top(count: number): BookLevel[] {
    const k = count < this.count ? (count > 0 ? Math.floor(count) : 0) : this.count;
    // Stryker disable next-line ArrayDeclaration: the loops below fill exactly k entries either way
    const out: BookLevel[] = new Array(k);
    if (k === 0) return out;
    if (this.bigKeys !== null) {
      const levels = this.bigLevels;
      const n = levels.length;
      for (let i = 0; i < k; i++) out[i] = levels[n - 1 - i]!;
      return out;
    }
    const chunks = this.chunks;
    let filled = 0;
    // Stryker disable next-line LogicalOperator: with every chunk visited the inner loop copies nothing past k
    for (let c = chunks.length - 1; c >= 0 && filled < k; c--) {
      const levels = chunks[c]!.levels;
      for (let i = levels.length - 1; i >= 0 && filled < k; i--) out[filled++] = levels[i]!;
    }
    return out;
  }

  best(): BookLevel | undefined {
    if (this.bigKeys !== null) return this.bigLevels[this.bigLevels.length - 1];
    const last = this.chunks[this.chunks.length - 1];
    return last ? last.levels[last.levels.length - 1] : undefined;
  }
}

/**
 * The order-book model (issue 2): sorted sides, snapshot, delta (amount 0 removes a level), top N,
 * mid price and spread percent. Prices and amounts are decimal strings in and out.
 */
export class OrderBook {
  private bids = new SideLevels(false);
  private asks = new SideLevels(true);
  /** Increments on every change, so a reader can tell whether anything moved. */
  version = 0;

  clear(): void {
    this.bids.clear();
    this.asks.clear();
    this.version++;
  }

  /**
   * Replaces the whole book. Zero amounts are skipped; a price listed twice keeps its last non-zero
   * amount. A malformed level throws and leaves the book as it was.
   */
  applySnapshot(bids: readonly BookLevel[], asks: readonly BookLevel[]): void {
    const nextBids = new SideLevels(false);
    const nextAsks = new SideLevels(true);
    // Snapshots come best first; feeding them worst first appends each level at the end.
    for (let i = bids.length - 1; i >= 0; i--) nextBids.set(bids[i]![0], bids[i]![1], true);
    for (let i = asks.length - 1; i >= 0; i--) nextAsks.set(asks[i]![0], asks[i]![1], true);
    this.bids = nextBids;
    this.asks = nextAsks;
    this.version++;
  }

  /** Sets one level; amount 0 removes it (docs/exchange-rules.md#states). Throws bad-input on a malformed number. */
  applyDelta(side: BookSide, price: string, amount: string): void {
    (side === "bid" ? this.bids : this.asks).set(price, amount);
    this.version++;
  }

  /** Applies several levels of one side, as one change. A malformed level throws after the ones before it. */
  applyLevels(side: BookSide, levels: readonly BookLevel[]): void {
    const target = side === "bid" ? this.bids : this.asks;
    for (let i = 0; i < levels.length; i++) target.set(levels[i]![0], levels[i]![1]);
    this.version++;
  }

  /** The best `n` levels of each side, best first. The level tuples are shared: do not mutate them. */
  top(n: number): { bids: BookLevel[]; asks: BookLevel[] } {
    return { bids: this.bids.top(n), asks: this.asks.top(n) };
  }

  get bidCount(): number {
    return this.bids.count;
  }

  get askCount(): number {
    return this.asks.count;
  }

  bestBid(): BookLevel | undefined {
    return this.bids.best();
  }

  bestAsk(): BookLevel | undefined {
    return this.asks.best();
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
  /** price times amount (docs/exchange-rules.md#entities "Order book level") */
  total: string;
  cumAmount: string;
  cumTotal: string;
}

/** Cumulative amount and total from the best level outward (docs/dashboard-rules.md#screens "Order book" hover). */
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
