/**
 * Order-book model throughput (issue 2): our exact-decimal model against the naive model of two
 * sorted arrays of plain JS numbers with binary search and splice, on the same seeded synthetic
 * stream of one million deltas, in the same process. Target: at least 1.5x the naive rate.
 */
import { OrderBook } from "../lib/orderbook.js";
import { type BookStream, syntheticBookStream } from "./book-stream.js";
import { type BenchResult, median } from "./index.js";
import { FloatBestLastBook, NaiveBook } from "./naive-book.js";

interface BookLike {
  applySnapshot(bids: BookStream["snapshot"]["bids"], asks: BookStream["snapshot"]["asks"]): void;
  applyDelta(side: "bid" | "ask", price: string, amount: string): void;
  top(n: number): unknown;
}

/** Applies the whole stream; every `readEvery` deltas also reads the top 20 (0 = never). Returns deltas/s. */
function replay(make: () => BookLike, stream: BookStream, readEvery: number, limit = stream.length): number {
  const book = make();
  book.applySnapshot(stream.snapshot.bids, stream.snapshot.asks);
  const { sides, prices, amounts } = stream;
  let sink = 0;
  const start = performance.now();
  if (readEvery === 0) {
    for (let i = 0; i < limit; i++) book.applyDelta(sides[i] === 0 ? "bid" : "ask", prices[i]!, amounts[i]!);
  } else {
    for (let i = 0; i < limit; i++) {
      book.applyDelta(sides[i] === 0 ? "bid" : "ask", prices[i]!, amounts[i]!);
      if (i % readEvery === 0) sink += (book.top(20) as { bids: unknown[] }).bids.length;
    }
  }
  const ms = performance.now() - start;
  if (sink < 0) console.log(sink);
  return limit / (ms / 1000);
}

/** Alternates the models so none benefits from running later; returns median rates. */
function compare(
  stream: BookStream,
  readEvery: number,
  rounds: number,
): { ours: number; naive: number; bestLast: number } {
  const ours: number[] = [];
  const naive: number[] = [];
  const bestLast: number[] = [];
  for (let r = 0; r < rounds; r++) {
    ours.push(replay(() => new OrderBook(), stream, readEvery));
    naive.push(replay(() => new NaiveBook(), stream, readEvery));
    if (readEvery === 0) bestLast.push(replay(() => new FloatBestLastBook(), stream, readEvery));
  }
  return { ours: median(ours), naive: median(naive), bestLast: median(bestLast) };
}

export async function run(): Promise<BenchResult[]> {
  const deltas = Number(process.env.BENCH_BOOK_DELTAS ?? 1_000_000);
  const stream = syntheticBookStream({ seed: 42, deltas });
  // Warm both models up so the JIT has compiled the hot paths before anything is timed.
  for (let r = 0; r < 2; r++) {
    replay(() => new OrderBook(), stream, 1, Math.min(200_000, deltas));
    replay(() => new NaiveBook(), stream, 1, Math.min(200_000, deltas));
    replay(() => new FloatBestLastBook(), stream, 0, Math.min(200_000, deltas));
  }
  const apply = compare(stream, 0, 5);
  const withTop = compare(stream, 1, 3);
  const detail = `${deltas.toLocaleString("en")} seeded deltas (seed 42), ~6000 levels a side, 90% within ~12 ticks of the touch, median of 5`;
  return [
    {
      name: "order book: apply deltas",
      unit: "deltas/s",
      better: "higher",
      value: apply.ours,
      baseline: { name: "naive sorted float arrays", value: apply.naive },
      targetRatio: 1.5,
      detail,
    },
    {
      name: "order book: apply deltas, against float arrays kept best-last (yardstick, no target)",
      unit: "deltas/s",
      better: "higher",
      value: apply.ours,
      baseline: { name: "sorted float arrays, best level last", value: apply.bestLast },
      detail: "what exact integer-tick keys and exact string amounts cost against the same layout with binary floats",
    },
    {
      name: "order book: apply + top(20) after every delta",
      unit: "deltas/s",
      better: "higher",
      value: withTop.ours,
      baseline: { name: "naive sorted float arrays", value: withTop.naive },
      detail: "the read path of a live view (issue 4 wants parse + apply + top-20 at 200,000 deltas/s)",
    },
  ];
}

// `tsx bench/book.bench.ts` runs it alone
if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  void run().then((results) => console.log(JSON.stringify(results, null, 2)));
}
