/**
 * Feed throughput (issue 4): bybit's orderbook.50 delta stream as it comes off the socket — JSON
 * text — parsed, checked (update id), applied to the order book and read (top 20) after every
 * message, through the real BybitFeed code path minus the socket. The baseline, in the same run
 * on the same messages, is the naive model: JSON.parse, then two sorted float arrays (NaiveBook).
 * Target: at least 200,000 deltas (level changes) per second on one core.
 */
import { BybitFeed } from "../exchanges/bybit/feed.js";
import { syntheticBookStream } from "./book-stream.js";
import type { BenchResult } from "./index.js";
import { NaiveBook } from "./naive-book.js";

const TOPIC = "orderbook.50.BTCUSDT";

interface Messages {
  snapshot: string;
  deltas: string[];
  levels: number;
}

/** Groups the seeded delta stream into bybit delta messages of 1–6 level changes, u running on by one. */
function bybitMessages(deltaCount: number): Messages {
  const stream = syntheticBookStream({ seed: 7, deltas: deltaCount });
  let u = 1000;
  const snapshot = JSON.stringify({
    topic: TOPIC,
    type: "snapshot",
    ts: 1,
    data: { s: "BTCUSDT", b: stream.snapshot.bids, a: stream.snapshot.asks, u, seq: 1 },
  });
  const deltas: string[] = [];
  let i = 0;
  while (i < stream.length) {
    const size = 1 + (i % 6);
    const b: [string, string][] = [];
    const a: [string, string][] = [];
    for (let k = 0; k < size && i < stream.length; k++, i++)
      (stream.sides[i] === 0 ? b : a).push([stream.prices[i]!, stream.amounts[i]!]);
    deltas.push(
      JSON.stringify({ topic: TOPIC, type: "delta", ts: 2, data: { s: "BTCUSDT", b, a, u: ++u, seq: u }, cts: 2 }),
    );
  }
  return { snapshot, deltas, levels: stream.length };
}

/** The feed's own path: BybitFeed.handleFrame (parse + sequence check + apply) and a top-20 read. */
function runFeed(messages: Messages): number {
  const feed = new BybitFeed("BTC/USDT", {});
  const handle = (feed as unknown as { handleFrame(frame: string): void }).handleFrame.bind(feed);
  handle(messages.snapshot);
  let sink = 0;
  const start = performance.now();
  for (const text of messages.deltas) {
    handle(text);
    sink += feed.book.top(20).bids.length;
  }
  const seconds = (performance.now() - start) / 1000;
  if (feed.stats.resyncs !== 0 || sink < 0) throw new Error("bench stream broke the update-id chain");
  return messages.levels / seconds;
}

/** The naive path: JSON.parse into NaiveBook, no validation, and the same top-20 read. */
function runNaive(messages: Messages): number {
  const book = new NaiveBook();
  const snap = JSON.parse(messages.snapshot) as { data: { b: [string, string][]; a: [string, string][] } };
  book.applySnapshot(snap.data.b, snap.data.a);
  let sink = 0;
  const start = performance.now();
  for (const text of messages.deltas) {
    const m = JSON.parse(text) as { data: { b: [string, string][]; a: [string, string][] } };
    for (const [p, q] of m.data.b) book.applyDelta("bid", p, q);
    for (const [p, q] of m.data.a) book.applyDelta("ask", p, q);
    sink += book.top(20).bids.length;
  }
  const seconds = (performance.now() - start) / 1000;
  if (sink < 0) console.log(sink);
  return messages.levels / seconds;
}

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

export async function run(): Promise<BenchResult[]> {
  const deltaCount = Number(process.env.BENCH_FEED_DELTAS ?? 300_000);
  const messages = bybitMessages(deltaCount);
  runFeed(messages);
  runNaive(messages); // warm-up
  const ours: number[] = [];
  const naive: number[] = [];
  for (let r = 0; r < 3; r++) {
    ours.push(runFeed(messages));
    naive.push(runNaive(messages));
  }
  const perMessage = messages.levels / messages.deltas.length;
  const value = median(ours);
  return [
    {
      name: "feed: bybit deltas parsed + applied + top(20) read",
      unit: "deltas/s",
      better: "higher",
      value,
      baseline: { name: "naive JSON.parse + sorted float arrays", value: median(naive) },
      target: 200_000,
      detail: `${deltaCount.toLocaleString("en")} level changes in ${messages.deltas.length.toLocaleString("en")} messages (${perMessage.toFixed(1)} per message, ≈${Math.round(value / perMessage).toLocaleString("en")} messages/s), top 20 read after every message`,
    },
  ];
}

// Run alone: npx tsx bench/feed.bench.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  void run().then((results) => console.log(JSON.stringify(results, null, 2)));
}
