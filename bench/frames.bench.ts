/**
 * What reading compressed and number-written frames costs (issue 19, docs/feeds.md "Frames").
 *
 * 1. bitmart's default address sends every frame as raw-DEFLATE binary: the same update stream
 *    through BitmartFeed's decode (first-byte sniff + Node zlib inflateRaw + UTF-8) and handleFrame,
 *    against the baseline of the same messages as text frames through handleFrame alone.
 * 2. lbank and htx write levels as bare JSON numbers, read digit for digit by parseJsonKeepingLevels,
 *    against the baseline JSON.parse (which would round them through floats).
 *
 * Both alternate the measured path with its baseline in this process; medians of 5 runs.
 */
import { deflateRawSync } from "node:zlib";
import { BitmartFeed } from "../exchanges/bitmart/feed.js";
import { parseJsonKeepingLevels } from "../exchanges/core/levels.js";
import { nodeInflate } from "../exchanges/feed-node.js";
import { syntheticBookStream } from "./book-stream.js";
import { type BenchResult, median } from "./index.js";

interface BitmartStream {
  snapshot: string;
  updates: string[];
  deflated: Uint8Array[];
  levels: number;
}

function bitmartStream(deltaCount: number): BitmartStream {
  const stream = syntheticBookStream({ seed: 11, deltas: deltaCount });
  let version = 1;
  const message = (type: string, bids: [string, string][], asks: [string, string][]) =>
    JSON.stringify({
      data: [{ asks, bids, ms_t: 1, symbol: "BTC_USDT", type, version }],
      table: "spot/depth/increase100",
    });
  const snapshot = message("snapshot", stream.snapshot.bids, stream.snapshot.asks);
  const updates: string[] = [];
  let i = 0;
  while (i < stream.length) {
    const size = 1 + (i % 6);
    const b: [string, string][] = [];
    const a: [string, string][] = [];
    for (let k = 0; k < size && i < stream.length; k++, i++)
      (stream.sides[i] === 0 ? b : a).push([stream.prices[i]!, stream.amounts[i]!]);
    version++;
    updates.push(message("update", b, a));
  }
  return { snapshot, updates, deflated: updates.map((u) => deflateRawSync(Buffer.from(u))), levels: stream.length };
}

type FeedInternals = { decode(data: unknown): string; handleFrame(frame: string): void };

function runBitmart(stream: BitmartStream, compressed: boolean): number {
  const feed = new BitmartFeed("BTC/USDT", { inflate: nodeInflate });
  const internals = feed as unknown as FeedInternals;
  internals.handleFrame(stream.snapshot);
  const start = performance.now();
  if (compressed) for (const bytes of stream.deflated) internals.handleFrame(internals.decode(bytes));
  else for (const text of stream.updates) internals.handleFrame(internals.decode(text));
  const seconds = (performance.now() - start) / 1000;
  if (feed.stats.resyncs !== 0 || feed.book.bidCount === 0) throw new Error("bench stream broke the version chain");
  return stream.levels / seconds;
}

/** lbank depth pushes of 50 levels a side written as bare numbers, as LBank documents them. */
function lbankPushes(count: number): string[] {
  const pushes: string[] = [];
  for (let n = 0; n < count; n++) {
    const row = (base: number, i: number) =>
      `[${(base + i * 0.0001 + n * 1e-7).toFixed(7)},${(1 + ((i * 7 + n) % 13) / 3).toFixed(4)}]`;
    const asks = Array.from({ length: 50 }, (_, i) => row(0.0252, i)).join(",");
    const bids = Array.from({ length: 50 }, (_, i) => row(0.0251, -i)).join(",");
    pushes.push(
      `{"depth":{"asks":[${asks}],"bids":[${bids}]},"count":50,"type":"depth","pair":"eth_btc","SERVER":"V2","TS":"2019-06-28T17:49:22.722"}`,
    );
  }
  return pushes;
}

function runParse(pushes: string[], parse: (text: string) => unknown): number {
  let sink = 0;
  const start = performance.now();
  for (const text of pushes) sink += (parse(text) as { count: number }).count;
  const seconds = (performance.now() - start) / 1000;
  if (sink !== pushes.length * 50) throw new Error("bench pushes misread");
  return pushes.length / seconds;
}

export async function run(): Promise<BenchResult[]> {
  const stream = bitmartStream(Number(process.env.BENCH_FRAMES_DELTAS ?? 200_000));
  const pushes = lbankPushes(Number(process.env.BENCH_FRAMES_PUSHES ?? 5_000));
  runBitmart(stream, true);
  runBitmart(stream, false);
  runParse(pushes, parseJsonKeepingLevels);
  runParse(pushes, JSON.parse); // warm-up
  const deflated: number[] = [];
  const text: number[] = [];
  const keeping: number[] = [];
  const plain: number[] = [];
  for (let r = 0; r < 5; r++) {
    deflated.push(runBitmart(stream, true));
    text.push(runBitmart(stream, false));
    keeping.push(runParse(pushes, parseJsonKeepingLevels));
    plain.push(runParse(pushes, JSON.parse));
  }
  const bytes = stream.deflated.reduce((n, b) => n + b.length, 0);
  const textBytes = stream.updates.reduce((n, u) => n + u.length, 0);
  return [
    {
      name: "frames: bitmart raw-DEFLATE binary decoded + applied",
      unit: "deltas/s",
      better: "higher",
      value: median(deflated),
      baseline: { name: "the same updates as text frames", value: median(text) },
      // BitMart pushes a pair's depth every 100 ms: 50,000 level changes a second is ample headroom
      target: 50_000,
      detail: `${stream.levels.toLocaleString("en")} level changes in ${stream.updates.length.toLocaleString("en")} frames, ${Math.round(bytes / 1024)} KB deflated from ${Math.round(textBytes / 1024)} KB`,
    },
    {
      name: "frames: lbank depth push, levels read digit for digit",
      unit: "pushes/s",
      better: "higher",
      value: median(keeping),
      baseline: { name: "JSON.parse (rounds levels through floats)", value: median(plain) },
      // LBank pushes a pair's book as it changes, a few times a second: 1,000 pushes/s is ample
      target: 1_000,
      detail: `${pushes.length.toLocaleString("en")} pushes of 50 levels a side`,
    },
  ];
}

// Run alone: npx tsx bench/frames.bench.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  void run().then((results) => console.log(JSON.stringify(results, null, 2)));
}
