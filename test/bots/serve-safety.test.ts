/**
 * `spotdesk serve` and its bots' safety net (docs/bots.md#safety-net): one serve per data directory
 * (a second exits at once naming the first; one killed with kill -9 is taken over), and a clean stop
 * cancels the bots' orders unless --keep-orders.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readPaperAccount } from "../../exchanges/paper/store.js";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { SERVE_LOCK_FILE } from "../../server/index.js";
import { buildCli, isolatedEnv } from "../cli/helpers.js";
import { call, registerFirstAdmin, startTestServer, type TestServer } from "../server/helpers.js";
import { waitFor } from "./helpers.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
const GRID = { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 400, percent: 2, size: 4 } };

const children: ChildProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `spotdesk serve --port 0 --data DIR` as a child process; resolves once it listens (or has exited). */
function serve(dataDir: string) {
  const child = spawn(process.execPath, [buildCli(), "serve", "--port", "0", "--data", dataDir], {
    env: { ...isolatedEnv(dataDir), SPOTDESK_LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const ready = new Promise<"listening" | "exited">((resolve) => {
    child.stderr!.on("data", () => {
      if (stderr.includes("spotdesk server on")) resolve("listening");
    });
    void exited.then(() => resolve("exited"));
  });
  return { child, ready, exited, stderr: () => stderr };
}

describe("one serve per data directory", () => {
  it("a second serve on the same directory exits non-zero at once, naming the process that holds it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-serve-lock-"));
    dirs.push(dataDir);
    const first = serve(dataDir);
    expect(await first.ready).toBe("listening");
    const second = serve(dataDir);
    expect(await second.ready).toBe("exited");
    expect(await second.exited).toBe(2);
    expect(second.stderr()).toContain(`${join(dataDir, SERVE_LOCK_FILE)} is held by process ${first.child.pid}`);
    expect(second.stderr()).toContain("(spotdesk serve, since ");
    expect(second.stderr()).toContain("one spotdesk serve per data directory");
    // the first is untouched; stopped cleanly, it lets the directory go
    first.child.kill("SIGINT");
    expect(await first.exited).toBe(0);
    expect(existsSync(join(dataDir, SERVE_LOCK_FILE))).toBe(false);
    const third = serve(dataDir);
    expect(await third.ready).toBe("listening");
    // killed with kill -9 it leaves its lock file, and the next serve takes the directory over
    third.child.kill("SIGKILL");
    await third.exited;
    expect(existsSync(join(dataDir, SERVE_LOCK_FILE))).toBe(true);
    const fourth = serve(dataDir);
    expect(await fourth.ready).toBe("listening");
    fourth.child.kill("SIGTERM");
    expect(await fourth.exited).toBe(0);
  }, 90_000);
});

describe("a clean stop of serve", () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.cleanup();
    server = undefined;
  });

  const openOrders = async (s: TestServer, token: string) =>
    (await call(s, "GET", "/token/trade/orders", { token, headers: { path: pathHeader(DEMO) } })).body as unknown[];

  async function gridRunning(): Promise<{ token: string }> {
    server = await startTestServer({ runBots: true });
    const admin = await registerFirstAdmin(server);
    const token = admin.session.accessToken;
    const created = await call(server, "POST", "/token/bot", {
      token,
      headers: { path: pathHeader(DEMO) },
      body: GRID,
    });
    expect(created.status).toBe(200);
    await waitFor(async () => (await openOrders(server!, token)).length === 4, "the grid");
    return { token };
  }

  it("cancels every bot's orders, reports none left open, and disarms the paper countdowns the bots kept", async () => {
    const { token } = await gridRunning();
    // a second grid of the same account on another pair, with a countdown of its own
    const second = await call(server!, "POST", "/token/bot", {
      token,
      headers: { path: pathHeader(DEMO) },
      body: { ...GRID, setup: { ...GRID.setup, pair: "ETH/USDT", quote: 100 } },
    });
    expect(second.status).toBe(200);
    await waitFor(
      () => server!.bots!.runnerOf(second.body.botId as string)?.openOrders.length === 4,
      "the second grid",
    );
    const running = server!;
    const paperDir = join(running.dataDir, "paper");
    const accounts = () =>
      readdirSync(paperDir)
        .filter((f) => f.endsWith(".json"))
        .map((f) => readPaperAccount(join(paperDir, f)));
    expect(
      accounts()
        .flatMap((a) => Object.keys(a?.countdowns ?? {}))
        .sort(),
    ).toEqual(["BTC/USDT", "ETH/USDT"]);
    // started again without bots: what the stop left on the exchange is what rests now
    server = await running.restart({ runBots: false });
    expect(running.ordersLeftOpen()).toEqual({ orders: [], problems: [] });
    expect(await openOrders(server, token)).toEqual([]);
    expect(accounts().map((a) => a?.countdowns)).toEqual(accounts().map(() => undefined));
  });

  it("with keepOrders (serve --keep-orders) leaves them resting for the next start", async () => {
    const { token } = await gridRunning();
    server = await server!.restart({ runBots: false, keepOrders: true });
    expect(await openOrders(server, token)).toHaveLength(4);
  });
});
