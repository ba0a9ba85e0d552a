import { describe, expect, it } from "vitest";
import { runJsonChild } from "./json-child.js";

/**
 * Issue 24: the TUI stays open all week, so drawing the book must not keep memory per frame.
 * A child node with --expose-gc (test/tui/memory-frames.tsx) renders thousands of distinct book
 * frames through the real Ink renderer and reports the heap left after forced collections across
 * the run. Without the Ink patch (patches/ink+6.8.0.patch) the trend is over 1 MB for these frames
 * (docs/tui-memory.md); with it the heap stays flat.
 */
interface FramesReport {
  frames: number;
  startHeap: number;
  endHeap: number;
  trendBytes: number;
  bytesPerFrame: number;
  bytesWritten: number;
  samples: [number, number][];
}

const renderFrames = (frames: number, warmup: number) =>
  runJsonChild<FramesReport>("memory-frames.tsx", [String(frames), String(warmup)]);

describe("TUI memory (issue 24)", () => {
  it("draws 2,000 distinct book frames through Ink without the heap growing", { timeout: 240_000 }, async () => {
    const report = await renderFrames(2000, 800);
    // every frame was drawn and written
    expect(report.frames).toBe(2000);
    expect(report.bytesWritten).toBeGreaterThan(2000 * 1000);
    expect(report.samples.length).toBeGreaterThanOrEqual(10);
    // the trend over the run (least squares over 11 samples), not one collection's noise: flat
    // within 0.5 MB. Unbounded Ink caches keep about 1.5 MB over these frames.
    expect(report.trendBytes, JSON.stringify(report)).toBeLessThan(512 * 1024);
  });
});
