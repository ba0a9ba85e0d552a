/**
 * CLI wall time against a real exchange adapter (issues 3 and 8 bench): `spotdesk --exchange bybit
 * --base-url <loopback mock> balances --json` — the whole process: start, credentials from the
 * environment, the adapter module, got, a signed request, the mock's signature check, parsing and
 * printing — against bare `node -e 0` in the same run. Target: within 2x of bare node.
 *
 * The mock runs in this process, so every command is spawned asynchronously (a synchronous spawn
 * would block the mock from answering). Runs alternate baseline and CLI; the first round warms up.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { startBybitMock } from "../exchanges/bybit/mock.js";
import { type BenchOutcome, median } from "./index.js";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = join(ROOT, "bin", "spotdesk");
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 15);
const CREDENTIALS = { api: "bench-api-key", secret: "bench-api-secret" };

/** Runs a command as a child process and times it as a whole. */
export function timed(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk));
    child.stderr.on("data", (chunk: Buffer) => (err += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ ms: performance.now() - started, code, out, err }));
  });
}

export async function run(): Promise<BenchOutcome[]> {
  const name = "cli: spotdesk --exchange bybit balances --json (loopback mock)";
  if (!existsSync(BIN)) return [{ name, skipped: `${BIN} does not exist` }];
  const mock = await startBybitMock(CREDENTIALS);
  mock.coins = [{ coin: "USDT", walletBalance: "1000.5", locked: "10" }];
  const home = mkdtempSync(join(tmpdir(), "spotdesk-bench-cli-ex-"));
  // The same environment as the rest of the machine's processes (as in cli-start.bench.ts), less
  // spotdesk's own variables; the baseline runs under it too.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith("SPOTDESK_") && !key.startsWith("XDG_") && key !== "NODE_OPTIONS",
    ),
  );
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    HOME: home,
    SPOTDESK_CONFIG_DIR: join(home, "config"),
    SPOTDESK_DATA_DIR: join(home, "data"),
    SPOTDESK_API_KEY: CREDENTIALS.api,
    SPOTDESK_API_SECRET: CREDENTIALS.secret,
    NO_COLOR: "1",
  };
  const cli = [BIN, "--exchange", "bybit", "--base-url", mock.url, "balances", "--json"];
  try {
    const base: number[] = [];
    const times: number[] = [];
    for (let round = 0; round <= RUNS; round++) {
      const b = await timed(["-e", "0"], env);
      const c = await timed(cli, env);
      if (c.code !== 0)
        return [{ name, skipped: `exit code ${c.code}: ${c.err.trim().split("\n")[0]?.slice(0, 160)}` }];
      const balances = JSON.parse(c.out) as Record<string, { f: string; l: string }>;
      if (balances.USDT?.l !== "10") return [{ name, skipped: `unexpected output ${c.out.slice(0, 80)}` }];
      if (round > 0) {
        base.push(b.ms);
        times.push(c.ms);
      }
    }
    return [
      {
        name,
        unit: "ms",
        better: "lower",
        value: median(times),
        baseline: { name: "node -e 0", value: median(base) },
        targetRatio: 2,
        detail: `median of ${times.length} alternated runs (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)} ms); ${mock.server.requests.length} signed requests verified by the mock`,
      },
    ];
  } finally {
    await mock.close();
    rmSync(home, { recursive: true, force: true });
  }
}
