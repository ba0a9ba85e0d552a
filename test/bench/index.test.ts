import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeResult, findModules, judge, median, runModule } from "../../bench/index.js";

const dir = mkdtempSync(join(tmpdir(), "spotdesk-bench-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("bench framework (issue 2: results as ratios against a baseline run in the same process)", () => {
  it("computes value / baseline and checks a rate's ratio target as a minimum", () => {
    const fast = judge("book.bench.ts", {
      name: "book",
      unit: "deltas/s",
      better: "higher",
      value: 300,
      baseline: { name: "naive", value: 100 },
      targetRatio: 1.5,
    });
    expect(fast.ratio).toBe(3);
    expect(fast.verdict).toBe("pass");
    const slow = judge("book.bench.ts", {
      name: "book",
      unit: "deltas/s",
      better: "higher",
      value: 140,
      baseline: { name: "naive", value: 100 },
      targetRatio: 1.5,
    });
    expect(slow.verdict).toBe("miss");
  });

  it("checks a time's ratio target as a maximum ('within 1.5x')", () => {
    const within = judge("cli", {
      name: "start",
      unit: "ms",
      better: "lower",
      value: 60,
      baseline: { name: "node -e 0", value: 40 },
      targetRatio: 1.5,
    });
    expect(within.ratio).toBe(1.5);
    expect(within.verdict).toBe("pass");
    expect(
      judge("cli", {
        name: "start",
        unit: "ms",
        better: "lower",
        value: 61,
        baseline: { name: "node -e 0", value: 40 },
        targetRatio: 1.5,
      }).verdict,
    ).toBe("miss");
  });

  it("checks an absolute target on the value, and needs every target met", () => {
    expect(
      judge("feed", { name: "f", unit: "deltas/s", better: "higher", value: 250_000, target: 200_000 }).verdict,
    ).toBe("pass");
    expect(judge("tui", { name: "t", unit: "ms/frame", better: "lower", value: 6, target: 5 }).verdict).toBe("miss");
    const both = judge("x", {
      name: "x",
      unit: "ops/s",
      better: "higher",
      value: 150,
      target: 200,
      baseline: { name: "b", value: 50 },
      targetRatio: 1.5,
    });
    expect(both.verdict).toBe("miss");
    expect(judge("x", { name: "x", unit: "ops/s", better: "higher", value: 1 }).verdict).toBe("none");
  });

  it("prints skipped results as 'skipped: <reason>'", () => {
    const lines = describeResult(
      judge("cli", { name: "cli: spotdesk --version", skipped: "bin/spotdesk does not exist" }),
    );
    expect(lines[0]).toBe("  cli: spotdesk --version: skipped: bin/spotdesk does not exist");
  });

  it("prints the ratio and the verdict beside the baseline", () => {
    const text = describeResult(
      judge("book", {
        name: "book",
        unit: "deltas/s",
        better: "higher",
        value: 3_000_000,
        baseline: { name: "naive", value: 1_000_000 },
        targetRatio: 1.5,
      }),
    ).join("\n");
    expect(text).toContain("vs naive: 1,000,000 deltas/s → ratio 3.00x (target ≥ 1.5x)");
    expect(text).toContain("PASS");
  });

  it("finds *.bench.ts modules, filtered by words in the file name", () => {
    for (const f of ["book.bench.ts", "cli-start.bench.ts", "helper.ts", "book-stream.ts"])
      writeFileSync(join(dir, f), "");
    expect(findModules(dir).map((f) => f.slice(dir.length + 1))).toEqual(["book.bench.ts", "cli-start.bench.ts"]);
    expect(findModules(dir, ["cli"]).map((f) => f.slice(dir.length + 1))).toEqual(["cli-start.bench.ts"]);
  });

  it("reports a module that throws or has no run() as failed instead of crashing", async () => {
    const throwing = join(dir, "throws.mjs");
    writeFileSync(throwing, "export async function run() { throw new Error('no server here'); }\n");
    const empty = join(dir, "empty.mjs");
    writeFileSync(empty, "export const x = 1;\n");
    const good = join(dir, "good.mjs");
    writeFileSync(
      good,
      "export async function run() { return [{ name: 'n', unit: 'ms', better: 'lower', value: 2, baseline: { name: 'b', value: 1 } }]; }\n",
    );
    expect((await runModule(throwing)).failed).toBe("no server here");
    expect((await runModule(empty)).failed).toContain("exports no run()");
    const ok = await runModule(good);
    expect(ok.failed).toBeUndefined();
    expect(ok.judged[0]!.ratio).toBe(2);
  });

  it("takes the median of odd and even counts", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});

describe("the CCXT comparison bench (bench/ccxt.bench.ts)", () => {
  it("skips every result with the reason when CCXT cannot be installed", async () => {
    const folder = mkdtempSync(join(tmpdir(), "spotdesk-bench-ccxt-"));
    // a version that does not exist, asked of npm offline: the install fails at once
    writeFileSync(
      join(folder, "package.json"),
      JSON.stringify({ name: "x", private: true, dependencies: { ccxt: "0.0.0-none" } }),
    );
    const saved = { dir: process.env.BENCH_CCXT_DIR, offline: process.env.npm_config_offline };
    process.env.BENCH_CCXT_DIR = folder;
    process.env.npm_config_offline = "true";
    try {
      const { run } = await import("../../bench/ccxt.bench.js");
      const outcomes = await run();
      expect(outcomes).toHaveLength(5);
      for (const outcome of outcomes) {
        expect(outcome).toMatchObject({
          skipped: expect.stringMatching(/^CCXT not installed: npm install --prefix bench\/ccxt/),
        });
      }
    } finally {
      if (saved.dir === undefined) delete process.env.BENCH_CCXT_DIR;
      else process.env.BENCH_CCXT_DIR = saved.dir;
      if (saved.offline === undefined) delete process.env.npm_config_offline;
      else process.env.npm_config_offline = saved.offline;
      rmSync(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
