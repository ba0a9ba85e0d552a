import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { listPaperPairs, PAPER_PAIRS, paperBook } from "../../exchanges/paper/index.js";
import { Decimal } from "../../lib/decimal.js";
import { SEED, T0 } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SNAPSHOT = fileURLToPath(new URL("./fixtures/market-snapshot.ts", import.meta.url));

const at = (ms: number) => () => ms;

describe("paper's synthetic market", () => {
  it("trades at least BTC/USDT and ETH/USDT", () => {
    expect(listPaperPairs()).toEqual(expect.arrayContaining(["BTC/USDT", "ETH/USDT"]));
  });

  it("is deterministic: the same seed and instant give the same book", () => {
    const a = paperBook("BTC/USDT", { now: at(T0 + 123_456), seed: SEED, depth: 50 });
    const b = paperBook("BTC/USDT", { now: at(T0 + 123_456), seed: SEED, depth: 50 });
    expect(a).toEqual(b);
  });

  it("is deterministic across processes: another process computes the same book at the same instant", () => {
    const instant = T0 + 987_654;
    const out = execFileSync(process.execPath, ["--import", "tsx", SNAPSHOT, "ETH/USDT", String(instant), SEED], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(JSON.parse(out)).toEqual(paperBook("ETH/USDT", { now: at(instant), seed: SEED, depth: 50 }));
  }, 30_000);

  it("depends on the seed", () => {
    const a = paperBook("BTC/USDT", { now: at(T0), seed: "one" });
    const b = paperBook("BTC/USDT", { now: at(T0), seed: "two" });
    expect(a.bids).not.toEqual(b.bids);
  });

  it("is live: the mid moves and the levels change from one second to the next", () => {
    const mids = new Set<string>();
    let changed = 0;
    let previous = paperBook("BTC/USDT", { now: at(T0), seed: SEED, depth: 50 });
    mids.add(previous.mid);
    for (let s = 1; s <= 30; s++) {
      const book = paperBook("BTC/USDT", { now: at(T0 + s * 1000), seed: SEED, depth: 50 });
      mids.add(book.mid);
      if (JSON.stringify(book.bids) !== JSON.stringify(previous.bids)) changed++;
      previous = book;
    }
    expect(mids.size).toBeGreaterThan(10);
    expect(changed).toBe(30);
    // within one second nothing moves
    expect(paperBook("BTC/USDT", { now: at(T0 + 400), seed: SEED })).toEqual({
      ...paperBook("BTC/USDT", { now: at(T0), seed: SEED }),
      ts: T0 + 400,
    });
  });

  it("stays near the pair's start price over a month and never goes negative", () => {
    for (const spec of PAPER_PAIRS) {
      for (let day = 0; day < 30; day++) {
        const mid = new Decimal(paperBook(spec.pair, { now: at(T0 + day * 86_400_000), seed: SEED }).mid);
        expect(mid.dividedBy(spec.startMid).minus(1).abs().toNumber()).toBeLessThan(0.2);
      }
    }
  });

  it.each(PAPER_PAIRS.map((p) => [p.pair, p] as const))(
    "%s: sorted sides, bid below ask, prices and amounts at the pair's decimals",
    (_, spec) => {
      const book = paperBook(spec.pair, { now: at(T0 + 55_000), seed: SEED, depth: 50 });
      expect(book.bids.length).toBeGreaterThan(30);
      expect(book.asks.length).toBeGreaterThan(30);
      expect(new Decimal(book.bids[0]![0]).isLessThan(book.mid)).toBe(true);
      expect(new Decimal(book.asks[0]![0]).isGreaterThan(book.mid)).toBe(true);
      for (let i = 1; i < book.bids.length; i++)
        expect(new Decimal(book.bids[i]![0]).isLessThan(book.bids[i - 1]![0])).toBe(true);
      for (let i = 1; i < book.asks.length; i++)
        expect(new Decimal(book.asks[i]![0]).isGreaterThan(book.asks[i - 1]![0])).toBe(true);
      for (const [price, amount] of [...book.bids, ...book.asks]) {
        expect(new Decimal(price).decimalPlaces()).toBeLessThanOrEqual(spec.priceDecimals);
        expect(new Decimal(amount).decimalPlaces()).toBeLessThanOrEqual(spec.amountDecimals);
        expect(new Decimal(amount).isGreaterThan(0)).toBe(true);
      }
    },
  );

  it("gives the requested depth", () => {
    const book = paperBook("BTC/USDT", { now: at(T0), seed: SEED, depth: 20 });
    expect(book.bids).toHaveLength(20);
    expect(book.asks).toHaveLength(20);
  });
});
