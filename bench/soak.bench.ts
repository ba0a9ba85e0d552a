/**
 * Memory soak (issue 24, docs/tui-memory.md): each long-running process on paper for
 * SPOTDESK_SOAK_MINUTES (30 by default), side by side, reporting the JavaScript heap left after a
 * forced collection at the start and at the end and its growth per hour:
 *
 * - the TUI, `node bin/spotdesk tui`, in a real 200x60 pseudo-terminal (tmux), the selection
 *   moving up and down every few seconds;
 * - `spotdesk book BTC/USDT --watch`, its stream read and discarded;
 * - `spotdesk serve` with trading calls (create, orders, cancel, balances, book) several times a
 *   second, the live channel and the book relay open all along, and a socket of each opened and
 *   closed every 10 s.
 *
 * Each process runs the built CLI with `--inspect=127.0.0.1:0`; the bench attaches over the
 * inspector protocol, collects garbage (HeapProfiler.collectGarbage) and reads the heap in the
 * process itself: its data (every space but compiled code, which grows while the JIT warms up),
 * heapUsed and rss. Growth per hour is the least-squares slope of the heap's data over the samples
 * taken after a warm-up (a minute, or a fifth of a short run), not end minus start.
 *
 * Half an hour is long for `npm run bench`: the soak runs when asked, by naming it
 * (`npm run bench -- soak`, 30 minutes) or with SPOTDESK_SOAK_MINUTES=N (N minutes).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { pathHeader } from "../lib/api.js";
import { askedMinutes } from "./asked-minutes.js";
import type { BenchOutcome } from "./index.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const cli = join(root, "bin", "spotdesk");
const MB = 1024 * 1024;
/** a flat process stays well under this; the TUI grew 28 MB of resident memory an hour before issue 24 */
const TARGET_MB_PER_HOUR = 2;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A process's heap, read through its inspector after a forced collection. */
interface Sample {
  atMs: number;
  /** the heap's data: every space but compiled code, which grows while the JIT warms up */
  heapData: number;
  heapUsed: number;
  rss: number;
}

/** Evaluated in the soaked process (the inspector's command line API has `require`). */
const HEAP_EXPRESSION = `(() => {
  const data = require("v8").getHeapSpaceStatistics()
    .filter((space) => !space.space_name.startsWith("code"))
    .reduce((sum, space) => sum + space.space_used_size, 0);
  const { heapUsed, rss } = process.memoryUsage();
  return JSON.stringify({ heapData: data, heapUsed, rss });
})()`;

/** The inspector protocol over the process's debugger websocket: just what the soak needs. */
class Inspector {
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private constructor(private readonly socket: WebSocket) {
    socket.on("message", (data) => {
      const message = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (message.id === undefined) return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (message.error) waiter?.reject(new Error(message.error.message));
      else waiter?.resolve(message.result);
    });
    socket.on("close", () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error("inspector closed"));
      this.pending.clear();
    });
  }

  static async attach(url: string): Promise<Inspector> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return new Inspector(socket);
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  async sample(started: number): Promise<Sample> {
    for (let i = 0; i < 3; i++) await this.call("HeapProfiler.collectGarbage");
    const result = (await this.call("Runtime.evaluate", {
      expression: HEAP_EXPRESSION,
      includeCommandLineAPI: true,
      returnByValue: true,
    })) as { result: { value: string } };
    const usage = JSON.parse(result.result.value) as Omit<Sample, "atMs">;
    return { atMs: Date.now() - started, ...usage };
  }

  close(): void {
    this.socket.close();
  }
}

/** Waits for "Debugger listening on ws://…" in what `read` returns. */
async function inspectorUrl(read: () => string, what: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = /Debugger listening on (ws:\/\/\S+)/.exec(read());
    if (match?.[1]) return match[1];
    if (Date.now() > deadline) throw new Error(`${what}: no inspector within ${timeoutMs} ms: ${read().slice(-500)}`);
    await sleep(100);
  }
}

/** Least-squares slope of the heap's data over time, in bytes an hour. */
export function growthPerHour(samples: readonly Sample[]): number {
  if (samples.length < 2) return 0;
  const mx = samples.reduce((s, p) => s + p.atMs, 0) / samples.length;
  const my = samples.reduce((s, p) => s + p.heapData, 0) / samples.length;
  let num = 0;
  let den = 0;
  for (const p of samples) {
    num += (p.atMs - mx) * (p.heapData - my);
    den += (p.atMs - mx) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 3_600_000;
}

/** One long-running process under soak: how to start it, drive it and stop it. */
interface Soaked {
  name: string;
  inspector: Inspector;
  /** called every second while the soak runs; errors are counted, never thrown */
  drive?: () => Promise<void>;
  stop(): Promise<void>;
}

function spawnCli(args: string[], dataDir: string): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ["--inspect=127.0.0.1:0", cli, ...args], {
    cwd: root,
    env: { ...process.env, SPOTDESK_DATA_DIR: dataDir, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const keep = (chunk: Buffer) => {
    // only the start matters (the inspector line, the server's address): keep a bounded tail
    out = (out + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { child, output: () => out };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGINT");
  await Promise.race([exited, sleep(10_000)]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
}

async function startTui(dataDir: string): Promise<Soaked | string> {
  if (spawnSync("tmux", ["-V"]).status !== 0) return "tmux is not installed";
  const session = `spotdesk-soak-${process.pid}`;
  const log = join(dataDir, "stderr.log");
  const command = `cd '${root}' && SPOTDESK_DATA_DIR='${dataDir}' NODE_ENV=production exec '${process.execPath}' --inspect=127.0.0.1:0 '${cli}' tui 2>'${log}'`;
  const started = spawnSync("tmux", ["new-session", "-d", "-s", session, "-x", "200", "-y", "60", command]);
  if (started.status !== 0) return `tmux did not start: ${started.stderr}`;
  const read = () => {
    try {
      return readFileSync(log, "utf8");
    } catch {
      return "";
    }
  };
  const inspector = await Inspector.attach(await inspectorUrl(read, "tui"));
  let tick = 0;
  return {
    name: "TUI at 200x60",
    inspector,
    drive: async () => {
      // the selection walks up and down the book every 3 s: the highlighted block comes and goes
      tick++;
      if (tick % 3 === 0) spawnSync("tmux", ["send-keys", "-t", session, tick % 12 < 6 ? "Up" : "Down"]);
    },
    stop: async () => {
      inspector.close();
      spawnSync("tmux", ["send-keys", "-t", session, "q"]);
      await sleep(1000);
      spawnSync("tmux", ["kill-session", "-t", session]);
    },
  };
}

async function startBookWatch(dataDir: string): Promise<Soaked> {
  const { child, output } = spawnCli(["book", "BTC/USDT", "--watch"], dataDir);
  const inspector = await Inspector.attach(await inspectorUrl(output, "book --watch"));
  return {
    name: "book --watch",
    inspector,
    stop: async () => {
      inspector.close();
      await stopChild(child);
    },
  };
}

async function startServe(dataDir: string): Promise<Soaked> {
  // a token for the whole soak and no rate limit: the soak measures memory, not the limiter
  const config = join(dataDir, "config.json");
  writeFileSync(config, JSON.stringify({ accessTtlMs: 24 * 3_600_000, rateLimit: { calls: 1e9, windowMs: 10_000 } }));
  const { child, output } = spawnCli(["serve", "--port", "0", "--data", dataDir, "--config", config], dataDir);
  const inspector = await Inspector.attach(await inspectorUrl(output, "serve"));
  const deadline = Date.now() + 30_000;
  let url: string | undefined;
  while (!url) {
    url = /"url":"(http:\/\/[^"]+)"/.exec(output())?.[1];
    if (!url && Date.now() > deadline) throw new Error(`serve: no "server listening" line: ${output().slice(-500)}`);
    if (!url) await sleep(100);
  }
  const base = url;
  const code = readFileSync(join(dataDir, "setup-code"), "utf8").trim();
  const reg = await fetch(`${base}/register`, {
    method: "POST",
    headers: { email: "soak@example.com", password: "soak-password", code },
  });
  if (reg.status !== 200) throw new Error(`serve: /register answered ${reg.status}: ${await reg.text()}`);
  const { accessToken, uuid } = (await reg.json()) as { accessToken: string; uuid: string };
  const headers = { authorization: `Bearer ${accessToken}`, path: pathHeader(["Demo", "paper", "main"]) };
  const wsBase = base.replace(/^http/, "ws");
  const openLive = () => {
    const socket = new WebSocket(`${wsBase}/`);
    socket.on("open", () => socket.send(JSON.stringify({ purpose: "sub_for_bots", userId: uuid, token: accessToken })));
    socket.on("error", () => {});
    return socket;
  };
  const openBook = () => {
    const socket = new WebSocket(`${wsBase}/book?exchange=paper&pair=BTC-USDT&depth=20`);
    socket.on("error", () => {});
    return socket;
  };
  const sockets = [openLive(), openBook()];
  let tick = 0;
  const call = async (path: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
    const body = await res.text();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body.slice(0, 200)}`);
    return JSON.parse(body) as unknown;
  };
  return {
    name: "serve (trading calls, live channel, book relay)",
    inspector,
    drive: async () => {
      tick++;
      // a resting buy far under the market, then the account's views, then the cancel
      const order = (await call("/token/trade/order/create", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ price: (1000 + (tick % 500)).toString(), amount: "0.001", side: "Buy" }),
      })) as { id: string };
      await call("/token/trade/orders");
      await call("/token/trade/balances");
      await call("/book/paper/BTC-USDT?depth=20");
      await call("/token/trade/order/cancel", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: order.id }),
      });
      // churn: a live-channel and a relay socket opened, then closed, every 10 s
      if (tick % 10 === 0) {
        const extra = [openLive(), openBook()];
        await sleep(300);
        for (const socket of extra) socket.close();
      }
    },
    stop: async () => {
      for (const socket of sockets) socket.close();
      inspector.close();
      await stopChild(child);
    },
  };
}

interface SoakRecord {
  name: string;
  samples: Sample[];
  driveErrors: number;
  lastError?: string;
}

async function soak(target: Soaked, minutes: number): Promise<SoakRecord> {
  const durationMs = minutes * 60_000;
  const warmupMs = Math.min(60_000, durationMs / 5);
  const intervalMs = Math.max(5_000, Math.min(60_000, (durationMs - warmupMs) / 12));
  const record: SoakRecord = { name: target.name, samples: [], driveErrors: 0 };
  const started = Date.now();
  let nextSample = started + warmupMs;
  while (Date.now() - started < durationMs) {
    if (target.drive) {
      try {
        await target.drive();
      } catch (error) {
        record.driveErrors++;
        record.lastError = error instanceof Error ? error.message : String(error);
      }
    }
    if (Date.now() >= nextSample) {
      record.samples.push(await target.inspector.sample(started));
      nextSample += intervalMs;
    }
    await sleep(target.drive ? 250 : 1000);
  }
  record.samples.push(await target.inspector.sample(started));
  return record;
}

function describe(record: SoakRecord, minutes: number): BenchOutcome {
  const name = `soak: ${record.name}, heap growth`;
  const first = record.samples[0];
  const last = record.samples.at(-1);
  if (!first || !last || record.samples.length < 2) return { name, skipped: "fewer than two heap samples" };
  const mb = (bytes: number) => (bytes / MB).toFixed(2);
  return {
    name,
    unit: "MB/h",
    better: "lower",
    value: Number((growthPerHour(record.samples) / MB).toFixed(2)),
    target: TARGET_MB_PER_HOUR,
    detail:
      `${minutes} min; heap after GC ${mb(first.heapData)} → ${mb(last.heapData)} MB without compiled code ` +
      `(heapUsed ${mb(first.heapUsed)} → ${mb(last.heapUsed)} MB, rss ${mb(first.rss)} → ${mb(last.rss)} MB), ` +
      `${record.samples.length} samples from ${(first.atMs / 1000).toFixed(0)} s` +
      (record.driveErrors ? `; ${record.driveErrors} driving calls failed, last: ${record.lastError}` : ""),
  };
}

export async function run(): Promise<BenchOutcome[]> {
  const minutes = askedMinutes("SPOTDESK_SOAK_MINUTES", "soak", 30);
  const names = ["TUI at 200x60", "book --watch", "serve (trading calls, live channel, book relay)"];
  if (minutes === undefined) {
    return names.map((n) => ({
      name: `soak: ${n}, heap growth`,
      skipped: "the 30-minute soak runs when asked: `npm run bench -- soak` or SPOTDESK_SOAK_MINUTES=N",
    }));
  }
  const dirs: string[] = [];
  const tempDir = (tag: string) => {
    const dir = mkdtempSync(join(tmpdir(), `spotdesk-soak-${tag}-`));
    dirs.push(dir);
    return dir;
  };
  const started: Soaked[] = [];
  const outcomes: BenchOutcome[] = [];
  try {
    const starters: [string, () => Promise<Soaked | string>][] = [
      [names[0] as string, () => startTui(tempDir("tui"))],
      [names[1] as string, () => startBookWatch(tempDir("book"))],
      [names[2] as string, () => startServe(tempDir("serve"))],
    ];
    const running: Soaked[] = [];
    for (const [name, start] of starters) {
      try {
        const target = await start();
        if (typeof target === "string") outcomes.push({ name: `soak: ${name}, heap growth`, skipped: target });
        else {
          started.push(target);
          running.push(target);
        }
      } catch (error) {
        outcomes.push({ name: `soak: ${name}, heap growth`, skipped: (error as Error).message });
      }
    }
    const records = await Promise.all(running.map((target) => soak(target, minutes)));
    outcomes.push(...records.map((record) => describe(record, minutes)));
    return outcomes;
  } finally {
    for (const target of started) await target.stop().catch(() => {});
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

// `SPOTDESK_SOAK_MINUTES=3 npx tsx bench/soak.bench.ts` runs it alone
if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(JSON.stringify(r));
}
