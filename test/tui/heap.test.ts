/**
 * The TUI's V8 heap flags (docs/tui-memory.md "V8 flags of the TUI"): set once before Ink loads,
 * unless node's own command line already names them. What they save is measured by
 * bench/tui-rss.bench.ts, not asserted here.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { flagName, TUI_V8_FLAGS, tuneHeapForTui } from "../../tui/heap.js";

describe("tuneHeapForTui", () => {
  it("sets the TUI's flags in one call when node's command line names none of them", () => {
    const calls: string[] = [];
    const set = tuneHeapForTui((flags) => calls.push(flags), ["--inspect=127.0.0.1:0"]);
    expect(set).toEqual(TUI_V8_FLAGS.map((f) => f.flag));
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

  it("names flags this node's V8 knows, with V8's own defaults beside them", () => {
    // V8 prints "unrecognized flag" for a misspelt one and carries on: nothing would be set
    const options = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
    for (const { flag, v8Default } of TUI_V8_FLAGS) {
      expect(options).toContain(`\n  --${flagName(flag)} (`);
      expect(options).toMatch(
        new RegExp(`\\n  --${flagName(flag)} \\(.*\\)\\n\\s+type: \\w+\\s+default: ${v8Default}\\n`),
      );
    }
  });

  it("keeps the young generation from growing in a process already running, where node's flag would not", () => {
    // a child node: the flag stays set for the life of a process
    const script = `
      const v8 = require("node:v8");
      const size = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space").space_size;
      if (process.argv[1] === "set") v8.setFlagsFromString(${JSON.stringify(TUI_V8_FLAGS.map((f) => f.flag).join(" "))});
      const before = size();
      const keep = [];
      for (let i = 0; i < 2e6; i++) { keep.push({ i, s: "x" + i }); if (keep.length > 200000) keep.splice(0, 100000); }
      console.log(JSON.stringify({ before, after: size() }));`;
    const run = (mode: string) =>
      JSON.parse(execFileSync(process.execPath, ["-e", script, mode], { encoding: "utf8" })) as {
        before: number;
        after: number;
      };
    const tuned = run("set");
    const plain = run("plain");
    // V8's default doubles it again and again (1 MB to 16 MB semi-spaces here); tuned, it stays
    // within one step of where it was when the flag was set
    expect(plain.after).toBeGreaterThanOrEqual(8 * plain.before);
    expect(tuned.after).toBeLessThanOrEqual(2 * tuned.before);
  });
});
