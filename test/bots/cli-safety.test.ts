/**
 * `spotdesk bot run`'s safety net (docs/bots.md#safety-net), the built CLI as child processes:
 * one runner per bot name, two bots of one type and pair side by side without touching each
 * other's orders, the start banner, state file and --log, a Ctrl-C whose cancel is refused names
 * the order left open and exits non-zero, and a runner killed with kill -9 whose orders paper's
 * countdown takes off the book.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BybitMock as BybitRest, startBybitMock } from "../../exchanges/bybit/mock.js";
import { BybitMock as BybitSocket } from "../../exchanges/bybit/ws-mock.js";
import { buildCli, type Sandbox, sandbox } from "../cli/helpers.js";
import { waitFor } from "./helpers.js";

const NOW = Date.UTC(2026, 0, 1, 12);
const PINNED = { SPOTDESK_PAPER_NOW: String(NOW), SPOTDESK_PAPER_SEED: "bots-safety" };
const GRID = '{"quote":400,"percent":2,"size":4}';

interface Run {
  pid: number | undefined;
  lines: string[];
  exited: Promise<number | null>;
  stderr(): string;
  interrupt(): void;
  kill(): void;
}

let box: Sandbox;
const runs: Run[] = [];
beforeEach(() => {
  box = sandbox();
});
afterEach(async () => {
  for (const run of runs.splice(0)) {
    run.kill();
    await run.exited;
  }
  box.cleanup();
});

/** `spotdesk … bot run …` as a child process: its stdout lines, its stderr, Ctrl-C and kill -9. */
function startRun(args: string[], stdin: string, env: Record<string, string> = PINNED): Run {
  const child = spawn(process.execPath, [buildCli(), ...args], { env: { ...box.env, ...env }, cwd: box.home });
  const lines: string[] = [];
  let stderr = "";
  let buffer = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split("\n");
    buffer = parts.pop() ?? "";
    lines.push(...parts);
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(stdin);
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const run: Run = {
    pid: child.pid,
    lines,
    exited,
    stderr: () => stderr,
    interrupt: () => child.kill("SIGINT"),
    kill: () => child.kill("SIGKILL"),
  };
  runs.push(run);
  return run;
}

const openIds = async (env: Record<string, string> = PINNED) =>
  (await box.json<{ id: string }[]>(["orders", "BTC/USDT"], { env })).map((o) => o.id).sort();

const gridOf = (run: Run) => waitFor(() => run.lines.some((l) => l.includes("onBuy 2 onSell 2")), "the grid", 20_000);

describe("bad safety flags", () => {
  it("a bad --name, --pull-after or --countdown exits 2 naming it, and starts nothing", async () => {
    const base = ["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-"];
    const cases: [string[], string][] = [
      [
        ["--name", "desk grid"],
        "Invalid --name 'desk grid': use letters, digits, '.', '_' or '-' (at most 64, starting with a letter or digit)",
      ],
      [["--pull-after", "0"], "Invalid --pull-after '0': expected whole seconds from 1 to 86400"],
      [["--countdown", "soon"], "Invalid --countdown 'soon': expected whole seconds from 0 to 86400"],
    ];
    for (const [flags, text] of cases) {
      const result = await box.run([...base, ...flags], { stdin: GRID, env: PINNED });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(text);
    }
    expect(await openIds()).toEqual([]);
  }, 60_000);
});

describe("one runner per bot", () => {
  it("a second run of the same bot (same name) refuses to start, naming the first; another name runs beside it untouched", async () => {
    const a = startRun(["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-"], GRID);
    await gridOf(a);
    const mine = await openIds();
    expect(mine).toHaveLength(4);
    // the same type, pair, account and setup: the same derived name, so the same bot
    const twin = await box.run(["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-"], {
      stdin: GRID,
      env: PINNED,
    });
    expect(twin.code).toBe(2);
    expect(twin.stderr).toMatch(
      new RegExp(
        `grid-bot-[0-9a-f]{12}\\.lock is held by process ${a.pid} \\(spotdesk bot run grid-bot 'grid-bot-[0-9a-f]{12}', since `,
      ),
    );
    expect(twin.stderr).toContain("one runner per bot; stop that one first, or give another --name");
    // the same type and pair under another name: a second bot, side by side
    const b = startRun(["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-", "--name", "twin"], GRID);
    await gridOf(b);
    const all = await openIds();
    expect(all).toHaveLength(8);
    const theirs = all.filter((id) => !mine.includes(id));
    // a while side by side: each lists the pair's orders every 5 s and keeps its own, leaves the other's
    await new Promise((r) => setTimeout(r, 6000));
    expect(await openIds()).toEqual(all);
    // Ctrl-C on one cancels its orders only
    a.interrupt();
    expect(await a.exited).toBe(0);
    expect(await openIds()).toEqual(theirs);
    b.interrupt();
    expect(await b.exited).toBe(0);
    expect(await openIds()).toEqual([]);
  }, 60_000);

  it("prints a start banner, keeps a state file, writes --log, and resumes the state after kill -9", async () => {
    const logFile = join(box.home, "bot.log");
    const args = ["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-", "--name", "desk-grid"];
    const first = startRun([...args, "--log", logFile], GRID);
    await gridOf(first);
    const stateFile = join(
      box.env.SPOTDESK_DATA_DIR ?? join(box.home, ".local/share/spotdesk"),
      "bots",
      "desk-grid.json",
    );
    expect(first.stderr()).toContain(
      `spotdesk bot run grid-bot 'desk-grid' on paper:default BTC/USDT (pid ${first.pid})`,
    );
    expect(first.stderr()).toContain(`  state   ${stateFile} (new)`);
    expect(first.stderr()).toContain(
      "  safety  quotes pulled after 10 s without a live book; paper cancels them 60 s after",
    );
    expect(first.stderr()).toContain("  stop    Ctrl-C cancels its orders, naming any left open");
    expect(existsSync(stateFile)).toBe(true);
    const stored = JSON.parse(readFileSync(stateFile, "utf8"));
    expect(stored).toMatchObject({ name: "desk-grid", botType: "grid-bot", exchange: "paper", pair: "BTC/USDT" });
    expect(stored.state.runner.open).toHaveLength(4);
    const placed = await openIds();
    first.kill();
    await first.exited;
    const log = readFileSync(logFile, "utf8");
    expect(log).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z spotdesk bot run grid-bot 'desk-grid'/m);
    expect(log).toMatch(/Z \d\d:\d\d:\d\d {2}running {2}onBuy 2 onSell 2/);
    const second = startRun(args, GRID);
    await gridOf(second);
    expect(second.stderr()).toMatch(/ {2}state {3}.*desk-grid\.json \(resumed from \d{4}-/);
    expect(await openIds()).toEqual(placed); // its own orders, not a second grid
    second.interrupt();
    expect(await second.exited).toBe(0);
  }, 60_000);
});

describe("paper's countdown after kill -9", () => {
  it("kept armed while the runner lives; once it is killed the book empties on its own", async () => {
    // the real clock: paper's countdown runs in time
    const env = { SPOTDESK_PAPER_SEED: "bots-safety" };
    const run = startRun(
      ["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-", "--countdown", "2"],
      GRID,
      env,
    );
    await gridOf(run);
    const placed = await openIds(env);
    expect(placed).toHaveLength(4);
    // longer than the countdown: alive, the runner arms it again every half second
    await new Promise((r) => setTimeout(r, 3000));
    expect(await openIds(env)).toEqual(placed);
    run.kill();
    await run.exited;
    await new Promise((r) => setTimeout(r, 2500));
    expect(await openIds(env)).toEqual([]);
  }, 60_000);
});

describe("a Ctrl-C whose cancel is refused (bybit's mocks)", () => {
  const CREDENTIALS = { api: "bot-key", secret: "bot-secret" };
  let rest: BybitRest;
  let socket: BybitSocket;
  beforeEach(async () => {
    rest = await startBybitMock(CREDENTIALS);
    socket = await BybitSocket.start();
    socket.truth.reset([["99.90", "1"]], [["100.10", "1"]]);
  });
  afterEach(async () => {
    await rest.close();
    await socket.close();
  });

  it("names the order left open (exchange, pair, id, side, price) and exits non-zero", async () => {
    const env = { SPOTDESK_API_KEY: CREDENTIALS.api, SPOTDESK_API_SECRET: CREDENTIALS.secret };
    const logFile = join(box.home, "bybit.log");
    const run = startRun(
      [
        "--exchange",
        "bybit",
        "--base-url",
        rest.url,
        "--ws-url",
        socket.url,
        "bot",
        "run",
        "floating-bot",
        "--pair",
        "BTC/USDT",
        "--config",
        "-",
        "--log",
        logFile,
        "--decimals",
        "2,6",
      ],
      '{"main":{"side":"Buy","quote":50,"percent":1,"marginOfError":0.5}}',
      env,
    );
    await waitFor(() => run.lines.some((l) => l.includes("order Buy")), "the order", 15_000).catch((error) => {
      throw new Error(`${error}: ${run.lines.join("\n")}\n${run.stderr()}`);
    });
    const order = [...rest.orders.values()].find((o) => o.orderStatus === "New")!;
    rest.server.intercept((req) =>
      req.path === "/v5/order/cancel" ? { status: 503, body: "service unavailable" } : undefined,
    );
    run.interrupt();
    expect(await run.exited).toBe(8); // network: the cancel was refused
    const named = `left open: bybit BTC/USDT order ${order.orderId} Buy @ ${order.price}`;
    expect(run.stderr()).toContain(named);
    expect(readFileSync(logFile, "utf8")).toContain(named);
    expect(run.stderr()).toContain("1 order could not be cancelled and may still be open");
  }, 60_000);
});
