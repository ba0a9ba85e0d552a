/**
 * V8's heap settings for the TUI process (docs/tui-memory.md "V8 flags of the TUI"). The TUI runs
 * for days and allocates a little per frame, and V8 grows the young generation to two 16 MB
 * semi-spaces once enough has survived its scavenges (loading Ink alone takes it to 16 MB): 30 MB
 * of resident memory that a trading screen does not need. A growth factor of 1 keeps it at the
 * size it has when the flag is set, before Ink and React load.
 *
 * V8 reads the growth factor each time it would grow the young generation, so setting it in the
 * running process works, and needs no second process. On node's command line it would do
 * nothing: V8 raises a factor under 2 to 2 when it sets the heap up. The same goes for the size
 * limits (`--max-semi-space-size`): they are read once, at that moment.
 */
export const TUI_V8_FLAGS: readonly string[] = ["--semi-space-growth-factor=1"];

/** The flag's name without `--` or `--no-`, dashes and underscores alike (V8 takes both). */
export function flagName(arg: string): string {
  return arg
    .replace(/^--(no-?)?/, "")
    .replace(/=.*$/, "")
    .replaceAll("_", "-");
}

/**
 * Sets TUI_V8_FLAGS in this process, except a flag node's command line already names
 * (`node --semi-space-growth-factor=2 bin/spotdesk tui` keeps V8's default). Returns the flags it set.
 */
export function tuneHeapForTui(setFlags: (flags: string) => void, execArgv: readonly string[]): string[] {
  const given = new Set(execArgv.filter((arg) => arg.startsWith("--")).map(flagName));
  const flags = TUI_V8_FLAGS.filter((flag) => !given.has(flagName(flag)));
  if (flags.length > 0) setFlags(flags.join(" "));
  return flags;
}

/** How often the reducer looks at the heap; reading its size costs microseconds. */
export const REDUCE_CHECK_MS = 10_000;
/** How far V8's heap may grow past its size after the last compacting collection. */
export const REDUCE_SLACK_BYTES = 12 * 1024 * 1024;
/** The least time between two compacting collections. */
export const REDUCE_MIN_GAP_MS = 60_000;

/**
 * Gives the old generation's garbage back (docs/tui-memory.md "Giving memory back"). V8 collects
 * the TUI's old generation every few seconds, but keeps the pages it freed, half empty, and takes
 * more: the heap grows by 3-5 MB a minute while what is live stays the same. A collection that
 * compacts (what V8 does for a tab in the background) brings it back to what is live. The reducer
 * runs one when the heap has grown `slackBytes` past its size after the last one, looking every
 * `everyMs`, and never twice within `minGapMs`: each one stops the process for tens of milliseconds.
 *
 * `heapSize` is V8's committed heap (`v8.getHeapStatistics().total_heap_size`); `collect` runs the
 * compacting collection and calls back when it is done. Returns the function that stops it.
 */
export function startHeapReducer(
  heapSize: () => number,
  collect: (done: () => void) => void,
  { everyMs = REDUCE_CHECK_MS, slackBytes = REDUCE_SLACK_BYTES, minGapMs = REDUCE_MIN_GAP_MS } = {},
): () => void {
  const gapChecks = Math.ceil(minGapMs / everyMs);
  let floor = heapSize();
  let checksSince = gapChecks;
  let busy = false;
  const timer = setInterval(() => {
    checksSince++;
    if (busy || checksSince < gapChecks || heapSize() - floor < slackBytes) return;
    busy = true;
    collect(() => {
      floor = heapSize();
      checksSince = 0;
      busy = false;
    });
  }, everyMs);
  // never what keeps the process alive
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The compacting collection through node's inspector, in this process (no port is opened):
 * `HeapProfiler.collectGarbage` collects with V8's memory-reducing flags, as for a background
 * tab, where `gc()` would not compact. Undefined when this node has no inspector.
 */
export async function compactingCollector(): Promise<((done: () => void) => void) | undefined> {
  try {
    const { Session } = await import("node:inspector");
    const session = new Session();
    session.connect();
    return (done) => session.post("HeapProfiler.collectGarbage", () => done());
  } catch {
    return undefined;
  }
}

/**
 * Everything above for the TUI's process: the flags, then the reducer. With
 * SPOTDESK_TUI_V8_DEFAULTS=1 nothing is changed, to compare with V8's own behaviour
 * (bench/tui-rss.bench.ts). Returns the function that stops the reducer.
 */
export async function tuneTuiHeap(
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
): Promise<() => void> {
  if (env.SPOTDESK_TUI_V8_DEFAULTS === "1") return () => {};
  const v8 = await import("node:v8");
  tuneHeapForTui(v8.setFlagsFromString, execArgv);
  const collect = await compactingCollector();
  return collect ? startHeapReducer(() => v8.getHeapStatistics().total_heap_size, collect) : () => {};
}

/**
 * Forgets the development builds node read but never ran (docs/tui-memory.md "React's development
 * builds"). When an ES module (Ink) imports a CommonJS package (react, react-reconciler, scheduler),
 * node reads the package's entry to learn its exports, and reads every file the entry may
 * re-export, both sides of `NODE_ENV === "production" ? … : …` alike. Each file it read stays in
 * `require.cache`, unloaded, with its source: react-reconciler's development build alone is 0.75 MB.
 * Only files named `*.development.js` that never ran are dropped; none is loaded under
 * NODE_ENV=production, and if one were required later node would read it again.
 * Returns the paths it dropped.
 */
export function dropUnloadedDevelopmentBuilds(cache: Record<string, { loaded: boolean } | undefined>): string[] {
  const dropped: string[] = [];
  for (const [path, module] of Object.entries(cache)) {
    if (module && !module.loaded && /\.development\.js$/.test(path)) {
      delete cache[path];
      dropped.push(path);
    }
  }
  return dropped;
}
