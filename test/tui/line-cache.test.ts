import { describe, expect, it } from "vitest";
import { runJsonChild } from "./json-child.js";

/**
 * Issue 21: the TUI under 100 MB of resident memory. Ink's line cache (patches/ink+6.8.0.patch)
 * keeps the styled characters of up to 2,000 lines, frozen since frames share them. Made as
 * `Object.freeze({ ...token, styles })`, every character got a hidden class of its own (V8 gives
 * each frozen copy made by a spread a new map): about 320 bytes a character instead of about 100,
 * 9 MB of a trading TUI's heap (docs/tui-memory.md "Ink's frame output"). The child
 * (test/tui/line-cache-heap.tsx) renders 1,600 new coloured lines through the real Ink renderer and
 * reports the heap they keep.
 */
interface LineCacheReport {
  lines: number;
  chars: number;
  before: number;
  after: number;
  bytesWritten: number;
}

const measure = () => runJsonChild<LineCacheReport>("line-cache-heap.tsx", [], { FORCE_COLOR: "1" });

describe("Ink's line cache (issue 21)", () => {
  it("keeps a styled character in about 100 bytes, not a hidden class each", { timeout: 120_000 }, async () => {
    const report = await measure();
    // every line was drawn, in colour
    expect(report.bytesWritten).toBeGreaterThan(report.chars);
    const perChar = (report.after - report.before) / report.chars;
    // the lines are held (the cache keeps them), and each character in well under the 320 bytes
    // the spread copies took
    expect(perChar, JSON.stringify(report)).toBeGreaterThan(50);
    expect(perChar, JSON.stringify(report)).toBeLessThan(160);
  });
});
