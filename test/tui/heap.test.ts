/**
 * The TUI's V8 heap flags (docs/tui-memory.md "V8 flags of the TUI"): set once before Ink loads,
 * unless node's own command line already says otherwise. What they save is measured by
 * bench/tui-rss.bench.ts, not asserted here.
 */
import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { TUI_V8_FLAGS, tuneHeapForTui } from "../../tui/heap.js";

describe("tuneHeapForTui", () => {
  it("sets the TUI's flags in one call when node's command line names none of them", () => {
    const calls: string[] = [];
    expect(tuneHeapForTui((flags) => calls.push(flags), ["--inspect=127.0.0.1:0"])).toEqual([...TUI_V8_FLAGS]);
    expect(calls).toEqual(["--optimize-for-size"]);
  });

  it("leaves a flag given on node's command line as given, in either spelling", () => {
    for (const given of ["--no-optimize-for-size", "--optimize_for_size", "--nooptimize-for-size"]) {
      const calls: string[] = [];
      expect(tuneHeapForTui((flags) => calls.push(flags), [given])).toEqual([]);
      expect(calls).toEqual([]);
    }
  });

  it("names only flags this node's V8 knows", () => {
    // V8 prints "unrecognized flag" for a misspelt one and carries on: nothing would be set
    const options = execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8" });
    for (const flag of TUI_V8_FLAGS) expect(options).toContain(`\n  ${flag} (`);
  });
});
