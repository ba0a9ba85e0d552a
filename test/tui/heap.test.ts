/**
 * The TUI's heap (docs/tui-memory.md "V8 flags of the TUI", "Giving memory back"): a flag set once
 * before Ink loads, unless node's own command line names it, and a compacting collection when the
 * heap has grown. What they save is measured by bench/tui-rss.bench.ts, not asserted here.
 */
import { execFileSync } from "node:child_process";
import { getHeapSpaceStatistics } from "node:v8";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  compactingCollector,
  dropUnloadedDevelopmentBuilds,
  flagName,
  startHeapReducer,
  TUI_V8_FLAGS,
  tuneHeapForTui,
} from "../../tui/heap.js";

afterEach(() => {
  vi.useRealTimers();
});

describe("tuneHeapForTui", () => {
  it("sets the TUI's flags in one call when node's command line names none of them", () => {
    const calls: string[] = [];
    expect(tuneHeapForTui((flags) => calls.push(flags), ["--inspect=127.0.0.1:0"])).toEqual([...TUI_V8_FLAGS]);
    expect(calls).toEqual(["--semi-space-growth-factor=1"]);
  });

  it("leaves a flag given on node's command line as given, in either spelling", () => {
    for (const given of ["--semi-space-growth-factor=2", "--semi_space_growth_factor=4"]) {
      const calls: string[] = [];
      expect(tuneHeapForTui((flags) => calls.push(flags), [given])).toEqual([]);
      expect(calls).toEqual([]);
    }
    expect(flagName("--no-optimize-for-size")).toBe("optimize-for-size");
  });

  it("names only flags this node's V8 knows", () => {
    // V8 prints "unrecognized flag" for a misspelt one and carries on: nothing would be set
    const options = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
    for (const flag of TUI_V8_FLAGS) expect(options).toContain(`\n  --${flagName(flag)} (`);
  });

  it("keeps the young generation from growing in a process already running, where node's flag would not", () => {
    const script = `
      const v8 = require("node:v8");
      const size = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
      if (process.argv[1] === "set") v8.setFlagsFromString(${JSON.stringify(TUI_V8_FLAGS.join(" "))});
      const before = size();
      const keep = [];
      for (let i = 0; i < 2e6; i++) { keep.push({ i, s: "x" + i }); if (keep.length > 200000) keep.splice(0, 100000); }
      console.log(JSON.stringify({ before, after: size() }));`;
    const run = (mode: string, nodeFlags: string[] = []) =>
      JSON.parse(execFileSync(process.execPath, [...nodeFlags, "-e", script, mode], { encoding: "utf8" })) as {
        before: number;
        after: number;
      };
    const tuned = run("set");
    const plain = run("plain");
    const onCommandLine = run("plain", [...TUI_V8_FLAGS]);
    // V8's default doubles it again and again (1 MB to 16 MB semi-spaces here); tuned, it stays
    // within one step of where it was when the flag was set
    expect(plain.after).toBeGreaterThanOrEqual(8 * plain.before);
    expect(tuned.after).toBeLessThanOrEqual(2 * tuned.before);
    // on node's command line V8 raises the factor back to 2 when it sets the heap up
    expect(onCommandLine.after).toBeGreaterThanOrEqual(8 * onCommandLine.before);
  });
});

describe("startHeapReducer", () => {
  it("collects once the heap has grown by the slack past its size after the last collection", () => {
    vi.useFakeTimers();
    let heap = 50;
    const done: (() => void)[] = [];
    const stop = startHeapReducer(
      () => heap,
      (finish) => done.push(finish),
      { everyMs: 1000, slackBytes: 10, minGapMs: 3000 },
    );
    heap = 59;
    vi.advanceTimersByTime(5000);
    expect(done).toHaveLength(0);
    heap = 60;
    vi.advanceTimersByTime(1000);
    expect(done).toHaveLength(1);
    // one at a time: still growing while the first runs
    heap = 80;
    vi.advanceTimersByTime(3000);
    expect(done).toHaveLength(1);
    // compacted to 52: the next one is due at 62, not at 60
    heap = 52;
    done[0]?.();
    heap = 61;
    vi.advanceTimersByTime(4000);
    expect(done).toHaveLength(1);
    heap = 62;
    vi.advanceTimersByTime(1000);
    expect(done).toHaveLength(2);
    // and never within minGapMs of the last one, however far it grew
    heap = 40;
    done[1]?.();
    heap = 100;
    vi.advanceTimersByTime(2000);
    expect(done).toHaveLength(2);
    vi.advanceTimersByTime(1000);
    expect(done).toHaveLength(3);
    stop();
    done[2]?.();
    heap = 1000;
    vi.advanceTimersByTime(10_000);
    expect(done).toHaveLength(3);
  });
});

describe("compactingCollector", () => {
  it("runs V8's memory-reducing collection in this process and calls back", async () => {
    const newSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === "new_space")?.space_size ?? 0;
    // grow the young generation first (V8 doubles it while objects survive its scavenges)
    const keep: object[] = [];
    for (let i = 0; i < 2e6; i++) {
      keep.push({ i, s: `x${i}` });
      if (keep.length > 200_000) keep.splice(0, 100_000);
    }
    const grown = newSpace();
    const collect = await compactingCollector();
    expect(collect).toBeTypeOf("function");
    await new Promise<void>((resolve) => collect?.(resolve));
    // a memory-reducing collection shrinks the young generation, which gc() leaves as it is
    expect(newSpace()).toBeLessThan(grown);
    expect(keep.length).toBeGreaterThan(0);
  });
});

describe("dropUnloadedDevelopmentBuilds", () => {
  it("drops only development builds that never ran", () => {
    const cache: Record<string, { loaded: boolean } | undefined> = {
      "/m/react/index.js": { loaded: true },
      "/m/react/cjs/react.development.js": { loaded: false },
      "/m/react/cjs/react.production.js": { loaded: true },
      "/m/other/cjs/other.development.js": { loaded: true },
      "/m/other/cjs/being-loaded.js": { loaded: false },
    };
    expect(dropUnloadedDevelopmentBuilds(cache)).toEqual(["/m/react/cjs/react.development.js"]);
    expect(Object.keys(cache)).toEqual([
      "/m/react/index.js",
      "/m/react/cjs/react.production.js",
      "/m/other/cjs/other.development.js",
      "/m/other/cjs/being-loaded.js",
    ]);
  });

  it("frees the sources node read of React's development builds when Ink loaded, and Ink still draws", () => {
    // an ES module child, as the TUI: importing Ink makes node read react's, react-reconciler's and
    // scheduler's development builds to learn their exports
    const script = `
      process.env.NODE_ENV = "production";
      const { createRequire } = await import("node:module");
      const { dropUnloadedDevelopmentBuilds } = await import(${JSON.stringify(new URL("../../tui/heap.ts", import.meta.url).href)});
      const { renderToString, Text } = await import("ink");
      const React = await import("react");
      const cache = createRequire(import.meta.url).cache;
      const development = () => Object.keys(cache).filter((p) => p.endsWith(".development.js"));
      const before = development();
      const dropped = dropUnloadedDevelopmentBuilds(cache);
      const drawn = renderToString(React.createElement(Text, { bold: true }, "63,764.50"));
      console.log(JSON.stringify({ before, dropped, after: development(), drawn }));`;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: new URL("../..", import.meta.url),
      encoding: "utf8",
    });
    const result = JSON.parse(out.trim().split("\n").at(-1) ?? "") as {
      before: string[];
      dropped: string[];
      after: string[];
      drawn: string;
    };
    expect(result.before.some((p) => p.endsWith("react-reconciler.development.js"))).toBe(true);
    expect(result.dropped.sort()).toEqual(result.before.sort());
    expect(result.after).toEqual([]);
    expect(result.drawn).toContain("63,764.50");
  });
});
