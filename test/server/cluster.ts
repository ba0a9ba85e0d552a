/**
 * Several `spotdesk serve` processes (the built CLI, as children) on one PostgreSQL and one Redis
 * (docs/scale-out.md): the harness of test/server/scale-out.test.ts and bench/scale-out.bench.ts.
 * The processes share one data directory, as processes on one machine do: the paper accounts,
 * the outbox, and the key files (a deployment on several machines gives SPOTDESK_TOKEN_SECRET and
 * SPOTDESK_DATA_KEY instead).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../bin/spotdesk", import.meta.url));

export interface ServerProcess {
  url: string;
  wsUrl: string;
  child: ChildProcess;
  /** stdout and stderr, for a failing test's message */
  output: string[];
  /** kill -9: no shutdown, no flush, no lease released */
  kill(): Promise<void>;
  /** SIGTERM and wait for the exit */
  stop(): Promise<void>;
}

export interface Cluster {
  dataDir: string;
  processes: ServerProcess[];
  /** starts one more process on the same database, Redis and data directory */
  add(): Promise<ServerProcess>;
  close(): Promise<void>;
}

export interface ClusterOptions {
  database?: string;
  redis?: string;
  /** keys of the servers' config.json (ServerOptions) */
  config?: Record<string, unknown>;
  /** `serve --keep-orders`: a stop leaves the bots' orders resting (docs/bots.md#safety-net) */
  keepOrders?: boolean;
  /**
   * runs when the first process is up, before the others start: on an empty database each start
   * writes a new setup code (docs/scale-out.md), so the first admin registers here
   */
  first?: (process: ServerProcess, setupCode: string) => Promise<void>;
}

export async function startCluster(count: number, options: ClusterOptions): Promise<Cluster> {
  const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-cluster-"));
  writeFileSync(join(dataDir, "config.json"), JSON.stringify({ scryptCost: 4096, ...options.config }));
  const processes: ServerProcess[] = [];
  const add = async () => {
    const started = await startProcess(dataDir, options);
    processes.push(started);
    return started;
  };
  // the first one alone: it migrates the database and writes the setup code
  const first = await add();
  await options.first?.(first, readFileSync(join(dataDir, "setup-code"), "utf8").trim());
  await Promise.all(Array.from({ length: count - 1 }, add));
  return {
    dataDir,
    processes,
    add,
    async close() {
      await Promise.all(processes.map((p) => p.stop()));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startProcess(dataDir: string, options: ClusterOptions): Promise<ServerProcess> {
  const args = [BIN, "serve", "--port", "0", "--data", dataDir];
  if (options.database) args.push("--database", options.database);
  if (options.redis) args.push("--redis", options.redis);
  if (options.keepOrders) args.push("--keep-orders");
  const child = spawn(process.execPath, args, {
    env: { ...process.env, SPOTDESK_LOG_LEVEL: "warn", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output.join("")}`)), 30_000);
    const read = (data: Buffer) => {
      output.push(data.toString());
      const match = /spotdesk server on (http:\/\/\S+)/.exec(output.join(""));
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output.join("")}`));
    });
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  return {
    url,
    wsUrl: url.replace(/^http/, "ws"),
    child,
    output,
    kill: () => end("SIGKILL"),
    stop: () => end("SIGTERM"),
  };
}
