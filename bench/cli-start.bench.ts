/**
 * CLI cold start (issue 2 Checks, issue 21 Speed): wall time of `node bin/spotdesk --version`,
 * `balances --json` and `orders BTC/USDT --json` on paper, in a fresh temporary HOME and XDG
 * directories, against bare `node -e 0` in the same run. Target: the read commands scripts and
 * cron run within 1.2x of bare node (docs/cli.md "Cold start"); `--version` within 1.5x.
 *
 * Runs are interleaved (baseline, version, balances, baseline, …) so machine load hits all three
 * alike; the first round is a warm-up (file cache, paper's first state file, the read path's code
 * cache) and is not counted. Each process also reports its own CPU time at exit (user + system,
 * `process.cpuUsage()`, through a `--require`d probe on fd 3, in the baseline too): on a shared,
 * loaded machine wall times swing with the scheduler while CPU time does not, so every command
 * has a second result, its CPU time against bare node's.
 * A command that fails is reported as "skipped: <reason>", never as a crash.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { type BenchOutcome, median } from "./index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "spotdesk");
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 15);
const TIMEOUT_MS = 30_000;

interface Command {
  name: string;
  args: string[];
  /** checks the output of a successful run; returns a reason when it is wrong */
  check?: (stdout: string) => string | undefined;
  targetRatio: number;
}

/** A clean environment: temp HOME and XDG dirs, no spotdesk variables, no colour. */
function cleanEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("SPOTDESK_") || key.startsWith("XDG_") || key === "NODE_OPTIONS") continue;
    env[key] = value;
  }
  const dirs = {
    XDG_CONFIG_HOME: ".config",
    XDG_DATA_HOME: ".local/share",
    XDG_CACHE_HOME: ".cache",
    XDG_STATE_HOME: ".local/state",
  };
  for (const [key, sub] of Object.entries(dirs)) {
    const dir = join(home, sub);
    mkdirSync(dir, { recursive: true });
    env[key] = dir;
  }
  return { ...env, HOME: home, USERPROFILE: home, NO_COLOR: "1" };
}

/** A probe `--require`d by every run: the process's CPU time (µs) on fd 3 at exit. */
const CPU_PROBE = `process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  try { require("node:fs").writeSync(3, String(user + system)); } catch {}
});
`;

/** One timed run (wall and CPU ms); undefined times with a reason when the command failed. */
function timeRun(command: Command, env: NodeJS.ProcessEnv): { ms?: number; cpuMs?: number; reason?: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, command.args, {
    cwd: ROOT,
    env,
    encoding: "utf8",
    timeout: TIMEOUT_MS,
    stdio: ["ignore", "pipe", "pipe", "pipe"],
  });
  const ms = performance.now() - started;
  if (result.error) return { reason: result.error.message };
  if (result.status !== 0) {
    const firstLine = (result.stderr || result.stdout || "").trim().split("\n")[0] ?? "";
    return { reason: `exit code ${result.status ?? result.signal}${firstLine ? `: ${firstLine.slice(0, 160)}` : ""}` };
  }
  const wrong = command.check?.(result.stdout);
  if (wrong) return { reason: wrong };
  const cpuMicros = Number(result.output[3]);
  if (!(cpuMicros > 0)) return { reason: "the CPU probe reported nothing" };
  return { ms, cpuMs: cpuMicros / 1000 };
}

function isJson(stdout: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(stdout);
    return parsed !== null && typeof parsed === "object" ? undefined : "stdout is not a JSON object";
  } catch {
    return `stdout is not one JSON document: ${stdout.trim().slice(0, 80)}`;
  }
}

export async function run(): Promise<BenchOutcome[]> {
  const baseline: Command = { name: "node -e 0", args: ["-e", "0"], targetRatio: 1 };
  const commands: Command[] = [
    {
      name: "cli: spotdesk --version",
      args: [BIN, "--version"],
      check: (out) => (out.trim() === "" ? "no version printed" : undefined),
      targetRatio: 1.5,
    },
    {
      name: "cli: spotdesk balances --json (paper)",
      args: [BIN, "balances", "--json"],
      check: isJson,
      targetRatio: 1.2,
    },
    {
      name: "cli: spotdesk orders BTC/USDT --json (paper)",
      args: [BIN, "orders", "BTC/USDT", "--json"],
      check: isJson,
      targetRatio: 1.2,
    },
  ];
  if (!existsSync(BIN)) return commands.map((c) => ({ name: c.name, skipped: `${BIN} does not exist` }));
  const home = mkdtempSync(join(tmpdir(), "spotdesk-bench-cli-"));
  try {
    const probe = join(home, "cpu-probe.cjs");
    writeFileSync(probe, CPU_PROBE);
    const env = { ...cleanEnv(home), NODE_OPTIONS: `--require ${JSON.stringify(probe)}` };
    const all = [baseline, ...commands];
    const times = new Map<Command, number[]>(all.map((c) => [c, []]));
    const cpu = new Map<Command, number[]>(all.map((c) => [c, []]));
    const failed = new Map<Command, string>();
    for (let round = 0; round <= RUNS; round++) {
      for (const command of all) {
        if (failed.has(command)) continue;
        const { ms, cpuMs, reason } = timeRun(command, env);
        if (reason !== undefined) failed.set(command, reason);
        else if (round > 0) {
          times.get(command)!.push(ms!);
          cpu.get(command)!.push(cpuMs!);
        }
      }
    }
    const base = failed.has(baseline) ? undefined : median(times.get(baseline)!);
    const cpuBase = failed.has(baseline) ? undefined : median(cpu.get(baseline)!);
    return commands.flatMap((command): BenchOutcome[] => {
      const reason =
        failed.get(command) ?? (base === undefined ? `the baseline failed: ${failed.get(baseline)}` : undefined);
      if (reason !== undefined) return [{ name: command.name, skipped: reason }];
      const samples = times.get(command)!;
      const cpuSamples = cpu.get(command)!;
      // The fastest runs are the least disturbed by other load on the machine: a second view.
      const minRatio = Math.min(...samples) / Math.min(...times.get(baseline)!);
      return [
        {
          name: command.name,
          unit: "ms",
          better: "lower",
          value: median(samples),
          baseline: { name: "node -e 0", value: base! },
          targetRatio: command.targetRatio,
          detail: `median of ${samples.length} interleaved runs (min ${Math.min(...samples).toFixed(1)}, max ${Math.max(...samples).toFixed(1)} ms; fastest-run ratio ${minRatio.toFixed(2)}x), fresh HOME, paper`,
        },
        {
          name: `${command.name}, CPU time`,
          unit: "ms",
          better: "lower",
          value: median(cpuSamples),
          baseline: { name: "node -e 0", value: cpuBase! },
          targetRatio: command.targetRatio,
          detail: `median user + system time of the same ${cpuSamples.length} runs (min ${Math.min(...cpuSamples).toFixed(1)}, max ${Math.max(...cpuSamples).toFixed(1)} ms)`,
        },
      ];
    });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

// `tsx bench/cli-start.bench.ts` runs it alone
if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  void run().then((results) => console.log(JSON.stringify(results, null, 2)));
}
