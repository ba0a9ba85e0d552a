import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { createPaperExchange, type PaperExchange, type PaperOptions } from "../../exchanges/paper/index.js";
import { BUCKET_MS, type SyntheticMarket, syntheticMarket } from "../../exchanges/paper/market.js";
import { paperPair } from "../../exchanges/paper/pairs.js";

/** A fixed instant the tests start from: 2026-01-01T00:00:00Z. */
export const T0 = Date.UTC(2026, 0, 1);
export const SEED = "test-seed";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary data directory, removed after the test. */
export function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "spotdesk-paper-"));
  dirs.push(dir);
  return dir;
}

/** A clock the test moves by hand. */
export class TestClock {
  constructor(public ms: number = T0) {}
  readonly now = (): number => this.ms;
  /** moves to the start of a market bucket (one second) */
  toBucket(bucket: number): void {
    this.ms = bucket * BUCKET_MS;
  }
  get bucket(): number {
    return Math.floor(this.ms / BUCKET_MS);
  }
}

export function paperOn(dataDir: string, clock: TestClock, options: PaperOptions = {}): PaperExchange {
  return createPaperExchange({ api: "", secret: "" }, { dataDir, now: clock.now, seed: SEED, ...options });
}

export function market(pair = "BTC/USDT"): SyntheticMarket {
  return syntheticMarket(paperPair(pair), SEED);
}

/** Synthetic ask lots at prices ≤ limitTicks at a bucket (what a resting buy at that limit can take). */
export function askLotsAtOrBelow(m: SyntheticMarket, limitTicks: number, bucket: number): number {
  let lots = 0;
  for (const [ticks, amount] of m.levels("ask", bucket)) if (ticks <= limitTicks) lots += amount;
  return lots;
}

/** Synthetic bid lots at prices ≥ limitTicks at a bucket. */
export function bidLotsAtOrAbove(m: SyntheticMarket, limitTicks: number, bucket: number): number {
  let lots = 0;
  for (const [ticks, amount] of m.levels("bid", bucket)) if (ticks >= limitTicks) lots += amount;
  return lots;
}

/** The first bucket after `from` (within a day) where `test` holds. */
export function firstBucketAfter(from: number, test: (bucket: number) => boolean): number {
  for (let b = from + 1; b < from + 86_400; b++) if (test(b)) return b;
  throw new Error("the synthetic market never met the condition within a day");
}
