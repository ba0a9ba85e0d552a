/**
 * `npm run bench` (build, then `tsx bench/index.ts`): runs every `bench/*.bench.ts` module in
 * this process, one after the other, and prints each result beside its baseline as a ratio.
 *
 * ## Adding a benchmark
 * Create `bench/<topic>.bench.ts` exporting
 *
 *     export async function run(): Promise<BenchOutcome[]>
 *
 * (`BenchOutcome` = a measured `BenchResult` or a `BenchSkip`; a module that never skips may
 * declare `Promise<BenchResult[]>`. Import the types with `import type { … } from "./index.js"`;
 * importing this file never starts a run, and it also exports helpers such as `median`). Nothing else to register: the file name is enough. Rules:
 * - Measure the baseline in the same process and the same run (same machine load, same JIT), and
 *   alternate it with the measured code rather than running one after the other.
 * - Report medians of several runs; warm up first.
 * - When the thing cannot be measured here (not built yet, a command fails), return
 *   a `BenchSkip` `{ name, skipped: "<reason>" }` instead of throwing. A module that throws is reported as
 *   failed and the other modules still run.
 *
 * ## A result
 * - `value` with its `unit`, and `better`: "higher" for rates (deltas/s), "lower" for times (ms).
 * - `baseline`: the same measurement of the reference (naive model, bare `node -e 0`, …); the
 *   printed ratio is value / baseline.
 * - `targetRatio`: the goal for that ratio — at least this when better is "higher" (1.5 = 1.5x
 *   the baseline's rate), at most this when "lower" (1.5 = within 1.5x of the baseline's time).
 * - `target`: a goal for the value itself (200000 deltas/s, 5 ms/frame), read the same way.
 * - `detail`: one line on what was measured (stream size, runs, spread).
 *
 * ## Running
 *     npm run bench                  every module
 *     npm run bench -- book cli      only modules whose file name contains "book" or "cli"
 *     npm run bench -- --json        one JSON document on stdout instead of the table
 *     npm run bench -- --strict      exit 1 when a target is missed or a module fails
 */
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** One measured figure. */
export interface BenchResult {
  name: string;
  unit: string;
  better: "higher" | "lower";
  value: number;
  baseline?: { name: string; value: number };
  /** goal for value / baseline.value (see the contract above) */
  targetRatio?: number;
  /** goal for value itself */
  target?: number;
  detail?: string;
}

/** A figure that could not be measured in this run. */
export interface BenchSkip {
  name: string;
  /** why it was not measured: "skipped: <reason>" is printed */
  skipped: string;
  detail?: string;
}

export type BenchOutcome = BenchResult | BenchSkip;

export interface BenchModule {
  run(): Promise<BenchOutcome[]>;
}

export function isSkipped(result: BenchOutcome): result is BenchSkip {
  return "skipped" in result;
}

/** The median of a list of timings or rates. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export type Verdict = "pass" | "miss" | "none";

export interface Judged {
  module: string;
  result: BenchOutcome;
  ratio?: number;
  verdict: Verdict;
}

/** value / baseline and whether every stated target is met. */
export function judge(module: string, result: BenchOutcome): Judged {
  if (isSkipped(result)) return { module, result, verdict: "none" };
  const meets = (actual: number, goal: number): boolean =>
    result.better === "higher" ? actual >= goal : actual <= goal;
  const ratio = result.baseline && result.baseline.value > 0 ? result.value / result.baseline.value : undefined;
  const checks: boolean[] = [];
  if (result.targetRatio !== undefined && ratio !== undefined) checks.push(meets(ratio, result.targetRatio));
  if (result.target !== undefined) checks.push(meets(result.value, result.target));
  const verdict: Verdict = checks.length === 0 ? "none" : checks.every(Boolean) ? "pass" : "miss";
  return { module, result, ...(ratio === undefined ? {} : { ratio }), verdict };
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 1 ? 2 : 4;
  return value.toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

/** The lines printed for one result. */
export function describeResult(judged: Judged): string[] {
  const { result } = judged;
  if (isSkipped(result)) {
    return [`  ${result.name}: skipped: ${result.skipped}`, ...(result.detail ? [`      ${result.detail}`] : [])];
  }
  const sign = result.better === "higher" ? "≥" : "≤";
  const lines = [`  ${result.name}: ${formatNumber(result.value)} ${result.unit}`];
  if (result.baseline) {
    const ratio = judged.ratio === undefined ? "n/a" : `${judged.ratio.toFixed(2)}x`;
    const goal = result.targetRatio === undefined ? "" : ` (target ${sign} ${result.targetRatio}x)`;
    lines.push(
      `      vs ${result.baseline.name}: ${formatNumber(result.baseline.value)} ${result.unit} → ratio ${ratio}${goal}`,
    );
  }
  if (result.target !== undefined) lines.push(`      target ${sign} ${formatNumber(result.target)} ${result.unit}`);
  if (judged.verdict !== "none") lines.push(`      ${judged.verdict === "pass" ? "PASS" : "MISS"}`);
  if (result.detail) lines.push(`      ${result.detail}`);
  return lines;
}

/** The bench modules in a folder, optionally only those whose file name contains a filter word. */
export function findModules(dir: string, filters: readonly string[] = []): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith(".bench.ts"))
    .filter((file) => filters.length === 0 || filters.some((word) => file.includes(word)))
    .sort()
    .map((file) => join(dir, file));
}

/** Runs one module; a module that throws or exports no run() becomes one failed line, never a crash. */
export async function runModule(file: string): Promise<{ judged: Judged[]; failed?: string; ms: number }> {
  const name = basename(file);
  const started = performance.now();
  try {
    const mod = (await import(pathToFileURL(file).href)) as Partial<BenchModule>;
    if (typeof mod.run !== "function") throw new Error("exports no run(): Promise<BenchOutcome[]>");
    const results = await mod.run();
    return { judged: results.map((r) => judge(name, r)), ms: performance.now() - started };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { judged: [], failed: message.split("\n")[0] ?? message, ms: performance.now() - started };
  }
}

async function main(argv: readonly string[]): Promise<number> {
  const json = argv.includes("--json");
  const strict = argv.includes("--strict");
  const filters = argv.filter((a) => !a.startsWith("--"));
  const dir = dirname(fileURLToPath(import.meta.url));
  const files = findModules(dir, filters);
  const log = (line: string): void => {
    if (!json) process.stdout.write(`${line}\n`);
  };
  log(
    `spotdesk bench — node ${process.version}, ${files.length} module(s); ratios are value / baseline in this process`,
  );
  const all: Judged[] = [];
  const failures: { module: string; error: string }[] = [];
  for (const file of files) {
    const name = basename(file);
    log(`\n${name}`);
    const { judged, failed, ms } = await runModule(file);
    if (failed !== undefined) {
      failures.push({ module: name, error: failed });
      log(`  failed: ${failed}`);
    }
    for (const j of judged) for (const line of describeResult(j)) log(line);
    log(`  (${(ms / 1000).toFixed(1)} s)`);
    all.push(...judged);
    (globalThis as { gc?: () => void }).gc?.();
  }
  const count = (v: Verdict): number => all.filter((j) => j.verdict === v).length;
  const skipped = all.filter((j) => isSkipped(j.result)).length;
  log(
    `\n${count("pass")} target(s) met, ${count("miss")} missed, ${skipped} skipped, ${failures.length} module(s) failed`,
  );
  if (json) {
    const results = all.map((j) => ({
      module: j.module,
      ...j.result,
      ...(j.ratio === undefined ? {} : { ratio: j.ratio }),
      verdict: j.verdict,
    }));
    process.stdout.write(`${JSON.stringify({ node: process.version, results, failures }, null, 2)}\n`);
  }
  return strict && (count("miss") > 0 || failures.length > 0) ? 1 : 0;
}

// Only when run as the entry point: modules import this file for its types and helpers. No
// top-level await: a module imported while this one still awaited would wait for it forever.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  void main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
