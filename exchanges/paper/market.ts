import type BigNumber from "bignumber.js";
import { Decimal } from "../../lib/decimal.js";
import { ExchangeError } from "../../lib/errors.js";
import type { BookLevel } from "../../lib/types.js";
import { type PaperPair, paperPair } from "./pairs.js";

/**
 * paper's synthetic market: a pure function of (seed, pair, time bucket). Two processes that ask
 * for the market at the same instant compute the same book, so no daemon and no shared clock
 * state are needed; fills are replayed lazily from it (engine.ts).
 *
 * Everything here is integer ticks (price / 10^-priceDecimals) and lots (amount / 10^-amountDecimals):
 * exact, and cheap enough to replay thousands of buckets per CLI call.
 */

/** The market moves in steps of one second; nothing finer is ever replayed. */
export const BUCKET_MS = 1000;
/** Resting synthetic levels on each side. */
export const BOOK_LEVELS = 50;
/** A synthetic level's amount is redrawn every this many buckets (each level at its own phase). */
export const LEVEL_REFRESH_BUCKETS = 5;
/** The seed every process uses unless configured (SPOTDESK_PAPER_SEED or the `seed` option). */
export const DEFAULT_SEED = "spotdesk";

/**
 * Octaves of value noise summed into the log of the mid price. Amplitudes grow with the square
 * root of the period, as a random walk's spread does, so the mid moves a little every second and
 * wanders further over hours and days, yet stays bounded around the pair's start price.
 */
const OCTAVE_PERIODS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144] as const;
/** Scale of the walk: about 0.008% per second, about 1-2% over a day. */
const SIGMA = 5e-5;
const OCTAVE_AMPLITUDES = OCTAVE_PERIODS.map((p) => SIGMA * Math.sqrt(p));
/** Share of synthetic levels that are empty at a given moment, so the book has gaps. */
const EMPTY_LEVEL_SHARE = 0.12;

export type MarketSide = "bid" | "ask";

export function bucketOf(ms: number): number {
  return Math.floor(ms / BUCKET_MS);
}

/** FNV-1a over a string: the seed and the pair become a 32-bit key. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Mixes one more integer (any safe integer) into a 32-bit hash: murmur3's finalizer. */
function mix(h: number, value: number): number {
  const lo = value >>> 0;
  const hi = Math.floor(value / 4294967296) >>> 0;
  let x = (h ^ Math.imul(lo, 0x9e3779b1) ^ Math.imul(hi ^ 0x5bd1e995, 0x85ebca6b)) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** A hash as a number in [0, 1). */
function unit(h: number): number {
  return h / 4294967296;
}

const SIDE_CODE: Record<MarketSide, number> = { bid: 1, ask: 2 };

/** The synthetic market of one pair under one seed. */
export class SyntheticMarket {
  readonly spec: PaperPair;
  readonly seed: string;
  private readonly key: number;
  private readonly startTicks: number;
  private readonly tickScale: Decimal;
  private cachedBucket = Number.NaN;
  private cachedMid = 0;
  /** How many times midTicks was asked: the work a caller made, observable (docs/server-limits.md "Bounded work"). */
  midCalls = 0;

  /** the least spread between the best bid and ask, percent of the mid (SPOTDESK_PAPER_SPREAD); 0: one level */
  readonly spreadPercent: number;

  constructor(spec: PaperPair, seed: string = DEFAULT_SEED, spreadPercent = 0) {
    this.spec = spec;
    this.seed = seed;
    this.spreadPercent = spreadPercent;
    this.key = hashString(`${seed}|${spec.pair}`);
    this.startTicks = new Decimal(spec.startMid).shiftedBy(spec.priceDecimals).integerValue().toNumber();
    this.tickScale = new Decimal(1).shiftedBy(-spec.priceDecimals);
  }

  /** The mid price at a bucket, in ticks. */
  midTicks(bucket: number): number {
    this.midCalls++;
    if (bucket === this.cachedBucket) return this.cachedMid;
    let offset = 0;
    for (let k = 0; k < OCTAVE_PERIODS.length; k++) {
      const period = OCTAVE_PERIODS[k]!;
      const index = Math.floor(bucket / period);
      const frac = (bucket - index * period) / period;
      const octaveKey = mix(this.key, k + 1);
      const a = unit(mix(octaveKey, index)) * 2 - 1;
      const b = frac === 0 ? a : unit(mix(octaveKey, index + 1)) * 2 - 1;
      offset += OCTAVE_AMPLITUDES[k]! * (a + (b - a) * frac);
    }
    const mid = Math.max(this.spec.levelTicks * 2, Math.round(this.startTicks * Math.exp(offset)));
    this.cachedBucket = bucket;
    this.cachedMid = mid;
    return mid;
  }

  /**
   * The best synthetic bid: the highest level price at least half a level below the mid, and at
   * least half the set spread (docs/paper-store.md "Spread").
   */
  bestBidTicks(bucket: number): number {
    const step = this.spec.levelTicks;
    const mid = this.midTicks(bucket);
    const half = this.halfSpreadTicks(mid);
    if (half === undefined) return Math.floor((mid * 2 - step) / (2 * step)) * step;
    return Math.floor((mid - half) / step) * step;
  }

  /** The best synthetic ask: the lowest level price at least half a level (and half the set spread) above the mid. */
  bestAskTicks(bucket: number): number {
    const step = this.spec.levelTicks;
    const mid = this.midTicks(bucket);
    const half = this.halfSpreadTicks(mid);
    if (half === undefined) return Math.ceil((mid * 2 + step) / (2 * step)) * step;
    return Math.ceil((mid + half) / step) * step;
  }

  /** Half the set spread in ticks when it is wider than one level; undefined otherwise (the level grid decides). */
  private halfSpreadTicks(mid: number): number | undefined {
    if (this.spreadPercent <= 0) return undefined;
    const half = Math.ceil((mid * this.spreadPercent) / 200);
    return half * 2 > this.spec.levelTicks ? half : undefined;
  }

  /**
   * Which draw of a level's amount is live at a bucket. Each price level refreshes every
   * LEVEL_REFRESH_BUCKETS at its own phase, so a few levels change every second. Liquidity taken
   * by the user's orders stays taken until the level's next draw (engine.ts keys it by epoch).
   */
  levelEpoch(side: MarketSide, priceTicks: number, bucket: number): number {
    const phase = mix(mix(this.key, SIDE_CODE[side] + 10), priceTicks) % LEVEL_REFRESH_BUCKETS;
    return Math.floor((bucket + phase) / LEVEL_REFRESH_BUCKETS);
  }

  /** The synthetic amount resting at a price level at a bucket, in lots (0: the level is empty). */
  levelLots(side: MarketSide, priceTicks: number, bucket: number): number {
    const epoch = this.levelEpoch(side, priceTicks, bucket);
    const h = mix(mix(mix(this.key ^ 0x5f3759df, SIDE_CODE[side]), priceTicks), epoch);
    if (unit(h) < EMPTY_LEVEL_SHARE) return 0;
    const u = unit(mix(h, 7));
    const [min, max] = this.spec.levelLots;
    // Squared: many small levels and a few large ones, as in a real book.
    return min + Math.floor(u * u * (max - min));
  }

  /** The price of the k-th synthetic level of a side (k = 0 is the best), in ticks; 0 or less when none. */
  levelPriceTicks(side: MarketSide, k: number, bucket: number): number {
    return side === "bid"
      ? this.bestBidTicks(bucket) - k * this.spec.levelTicks
      : this.bestAskTicks(bucket) + k * this.spec.levelTicks;
  }

  /**
   * The synthetic book at a bucket as [ticks, lots] rows, best first: the first `count` non-empty
   * levels among the BOOK_LEVELS level prices of the side.
   */
  levels(side: MarketSide, bucket: number, count: number = BOOK_LEVELS): Array<[ticks: number, lots: number]> {
    const rows: Array<[number, number]> = [];
    for (let k = 0; k < BOOK_LEVELS && rows.length < count; k++) {
      const ticks = this.levelPriceTicks(side, k, bucket);
      if (ticks <= 0) break;
      const lots = this.levelLots(side, ticks, bucket);
      if (lots > 0) rows.push([ticks, lots]);
    }
    return rows;
  }

  /** The book at an instant as decimal strings, best first (the feed and `book` show this). */
  book(atMs: number, depth: number = BOOK_LEVELS): { mid: string; bids: BookLevel[]; asks: BookLevel[] } {
    const bucket = bucketOf(atMs);
    const toLevel = ([ticks, lots]: [number, number]): BookLevel => [this.price(ticks), this.amount(lots)];
    return {
      mid: this.price(this.midTicks(bucket)),
      bids: this.levels("bid", bucket, depth).map(toLevel),
      asks: this.levels("ask", bucket, depth).map(toLevel),
    };
  }

  price(ticks: number): string {
    return new Decimal(ticks).shiftedBy(-this.spec.priceDecimals).toFixed();
  }

  amount(lots: number): string {
    return new Decimal(lots).shiftedBy(-this.spec.amountDecimals).toFixed();
  }

  /** A price already truncated to the pair's decimals, in ticks. */
  ticksOf(price: BigNumber.Value): number {
    return new Decimal(price).dividedBy(this.tickScale).integerValue(Decimal.ROUND_DOWN).toNumber();
  }

  /** An amount already truncated to the pair's decimals, in lots. */
  lotsOf(amount: BigNumber.Value): number {
    return new Decimal(amount).shiftedBy(this.spec.amountDecimals).integerValue(Decimal.ROUND_DOWN).toNumber();
  }
}

const markets = new Map<string, SyntheticMarket>();

/**
 * One market object per (seed, pair, spread) in a process, so the mid cache is shared. The spread
 * is the pair's entry of SPOTDESK_PAPER_SPREAD unless given.
 */
export function syntheticMarket(
  spec: PaperPair,
  seed: string = DEFAULT_SEED,
  spreadPercent: number = paperSpreads()[spec.pair] ?? 0,
): SyntheticMarket {
  const key = `${seed}|${spec.pair}|${spreadPercent}`;
  let market = markets.get(key);
  if (!market) {
    market = new SyntheticMarket(spec, seed, spreadPercent);
    markets.set(key, market);
  }
  return market;
}

/** The largest spread paper takes for a pair, percent. */
export const MAX_PAPER_SPREAD = 50;
let parsedSpreads: { text: string; spreads: Readonly<Record<string, number>> } | undefined;

/**
 * SPOTDESK_PAPER_SPREAD: the least spread of paper pairs, percent of the mid, as `PAIR=PERCENT`
 * entries separated by commas (`BTC/USDT=2,ETH/BTC=0.5`; docs/paper-store.md "Spread"). Every
 * process of one paper store must see the same value: fills are replayed from the same book. A bad
 * entry is refused naming it.
 */
export function paperSpreads(
  env: Record<string, string | undefined> = globalThis.process?.env ?? {},
): Readonly<Record<string, number>> {
  const text = env.SPOTDESK_PAPER_SPREAD ?? "";
  if (parsedSpreads?.text === text) return parsedSpreads.spreads;
  const spreads: Record<string, number> = {};
  for (const entry of text.split(",").map((e) => e.trim())) {
    if (entry === "") continue;
    const match = /^([A-Za-z0-9]+\/[A-Za-z0-9]+)=([0-9]+(?:\.[0-9]+)?)$/.exec(entry);
    const percent = match ? Number(match[2]) : Number.NaN;
    if (!match || !(percent >= 0 && percent <= MAX_PAPER_SPREAD))
      throw new ExchangeError(
        "paper",
        `SPOTDESK_PAPER_SPREAD entry '${entry}' is not PAIR=PERCENT with a percent from 0 to ${MAX_PAPER_SPREAD} (for example BTC/USDT=2)`,
        { kind: "bad-input" },
      );
    let pair: string;
    try {
      pair = paperPair(match[1]!).pair;
    } catch (error) {
      throw new ExchangeError("paper", `SPOTDESK_PAPER_SPREAD entry '${entry}': ${(error as ExchangeError).detail}`, {
        kind: "bad-input",
      });
    }
    spreads[pair] = percent;
  }
  parsedSpreads = { text, spreads };
  return spreads;
}

/** The seed in force: the option, else SPOTDESK_PAPER_SEED, else DEFAULT_SEED. */
export function resolveSeed(
  seed?: string,
  env: Record<string, string | undefined> = globalThis.process?.env ?? {},
): string {
  if (seed !== undefined && seed !== "") return seed;
  const fromEnv = env.SPOTDESK_PAPER_SEED;
  return fromEnv !== undefined && fromEnv !== "" ? fromEnv : DEFAULT_SEED;
}
