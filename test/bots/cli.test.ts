/**
 * `spotdesk bot run` and `spotdesk bot types`, the built CLI as a child process on paper with a
 * pinned clock and seed (docs/bots.md): a line per state change, Ctrl-C cancels and exits 0, a bad
 * config exits 2 naming the field, a restarted run adopts instead of placing again.
 */
import { spawn } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { paperBook } from "../../exchanges/paper/index.js";
import { Decimal } from "../../lib/decimal.js";
import { buildCli, type Sandbox, sandbox } from "../cli/helpers.js";
import { waitFor } from "./helpers.js";

const NOW = Date.UTC(2026, 0, 1, 12);
const SEED = "bots-cli";
const PINNED = { SPOTDESK_PAPER_NOW: String(NOW), SPOTDESK_PAPER_SEED: SEED };

let box: Sandbox;
beforeEach(() => {
  box = sandbox();
});
afterEach(() => box.cleanup());

/** Starts `spotdesk … bot run …` and collects its stdout lines; `interrupt` sends Ctrl-C (SIGINT). */
function startRun(args: string[], stdin: string) {
  const child = spawn(process.execPath, [buildCli(), ...args], { env: { ...box.env, ...PINNED }, cwd: box.home });
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
  return {
    lines,
    exited,
    stderr: () => stderr,
    interrupt: () => child.kill("SIGINT"),
    kill: () => child.kill("SIGKILL"),
  };
}

describe("spotdesk bot", () => {
  it("bot types lists every type with its parameters and whether it runs", async () => {
    const types = await box.json<{ type: string; runs: boolean; parameters: string[] }[]>(["bot", "types"]);
    expect(types.map((t) => [t.type, t.runs])).toEqual([
      ["floating-bot", true],
      ["grid-bot", true],
      ["volume-bot", false],
      ["heavy-volume-bot", false],
      ["spread-decompression-bot", true],
      ["candle-closer-bot", false],
      ["liquidity-arranger-bot", true],
    ]);
    expect(types[1]!.parameters).toEqual([
      "pair",
      "quote",
      "percent",
      "profit",
      "RF",
      "size",
      "postOnly",
      "limits.maxLoss",
      "limits.maxInventory",
      "limits.maxOrdersPerMinute",
    ]);
  });

  it("a bad config exits 2 naming the field, and places nothing", async () => {
    const odd = await box.run(["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-"], {
      stdin: '{"quote":100,"size":3}',
      env: PINNED,
    });
    expect(odd.code).toBe(2);
    expect(odd.stderr).toContain("size: Order count must be greater than 0 and even");
    const module = await box.run(["bot", "run", "floating-bot", "--pair", "BTC/USDT", "--config", "-"], {
      stdin: '{"main":{"side":"Buy","quote":10},"modules":{"price-bounds":{"min":"low","max":1}}}',
      env: PINNED,
    });
    expect(module.code).toBe(2);
    expect(module.stderr).toContain("modules.price-bounds: Incorrect params for price-bounds module");
    const notRun = await box.run(["bot", "run", "volume-bot", "--pair", "BTC/USDT"], { env: PINNED });
    expect(notRun.code).toBe(9);
    expect(notRun.stderr).toMatch(/wash trading/);
    expect(await box.json(["orders", "BTC/USDT"], { env: PINNED })).toEqual([]);
  });

  it("runs a floating bot: one JSON line per state change, the order at the docs/decisions.md#d21 target; Ctrl-C cancels and exits 0", async () => {
    const run = startRun(
      ["--json", "bot", "run", "floating-bot", "--pair", "BTC/USDT", "--config", "-"],
      '{"main":{"side":"Sell","quote":100,"percent":2,"marginOfError":0.1}}',
    );
    const first = await waitFor(
      () => run.lines.map((l) => JSON.parse(l)).find((s) => s.order),
      "a line with the order",
      15_000,
    );
    const book = paperBook("BTC/USDT", { now: () => NOW, seed: SEED });
    const mid = new Decimal(book.bids[0]![0]).plus(book.asks[0]![0]).dividedBy(2);
    const target = mid.times(1.02).decimalPlaces(2, Decimal.ROUND_DOWN);
    expect(first).toMatchObject({
      botType: "floating-bot",
      status: "running",
      order: { side: "Sell", price: target.toFixed() },
    });
    expect(first.runner).toBeUndefined();
    const open = await box.json<{ id: string }[]>(["orders", "BTC/USDT"], { env: PINNED });
    expect(open.map((o) => o.id)).toEqual([first.order.id]);
    run.interrupt();
    expect(await run.exited).toBe(0);
    expect(JSON.parse(run.lines.at(-1)!)).toMatchObject({ status: "stopped", order: null });
    expect(await box.json(["orders", "BTC/USDT"], { env: PINNED })).toEqual([]);
  });

  it("killed without Ctrl-C and started again: the new run adopts the grid instead of placing it twice (docs/decisions.md#d25)", async () => {
    const config = '{"quote":400,"percent":2,"size":4}';
    const first = startRun(["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-"], config);
    await waitFor(() => first.lines.some((l) => l.includes("onBuy 2 onSell 2")), "the grid", 15_000);
    // SIGKILL: no clean-up at all, the orders stay on the exchange
    first.kill();
    await first.exited;
    const left = (await box.json<{ id: string }[]>(["orders", "BTC/USDT"], { env: PINNED })).map((o) => o.id).sort();
    expect(left).toHaveLength(4);
    const second = startRun(["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-"], config);
    await waitFor(() => second.lines.some((l) => l.includes("onBuy 2 onSell 2")), "the adopted grid", 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect((await box.json<{ id: string }[]>(["orders", "BTC/USDT"], { env: PINNED })).map((o) => o.id).sort()).toEqual(
      left,
    );
    second.interrupt();
    expect(await second.exited).toBe(0);
    expect(await box.json<unknown[]>(["orders", "BTC/USDT"], { env: PINNED })).toEqual([]);
  });

  it('bot status shows each foreground bot; bot stop --all cancels their orders and ends them (docs/bots.md "Risk limits and the kill switch")', async () => {
    const config = '{"quote":400,"percent":2,"size":4}';
    const run = startRun(
      ["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-", "--id", "desk-grid"],
      config,
    );
    await waitFor(() => run.lines.some((l) => l.includes("onBuy 2 onSell 2")), "the grid", 15_000);
    const listed = await waitFor(async () => {
      const all = await box.json<{ botId: string; running: boolean; state: { status: string } }[]>(["bot", "status"], {
        env: PINNED,
      });
      return all.length === 1 && all[0]!.running && all;
    }, "the running bot in bot status");
    expect(listed[0]).toMatchObject({ botId: "desk-grid", pair: "BTC/USDT", exchange: "paper", running: true });
    const stopped = await box.json<{ stopped: string[] }>(["bot", "stop", "--all"], { env: PINNED });
    expect(stopped).toEqual({ stopped: ["desk-grid"] });
    expect(await run.exited).toBe(0);
    expect(await box.json(["orders", "BTC/USDT"], { env: PINNED })).toEqual([]);
    const one = await box.json<{ running: boolean; state: { status: string } }>(["bot", "status", "desk-grid"], {
      env: PINNED,
    });
    expect(one).toMatchObject({ running: false, state: { status: "stopped" } });
    const unknown = await box.run(["bot", "status", "nope"], { env: PINNED });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("No bot 'nope'");
  });

  it("a risk limit stops a foreground bot: orders cancelled, exit 2 with the reason, refused again until --resume", async () => {
    const config = '{"quote":400,"percent":2,"size":4,"limits":{"maxOrdersPerMinute":2}}';
    const args = ["bot", "run", "grid-bot", "--pair", "BTC/USDT", "--config", "-", "--id", "capped"];
    const run = startRun(args, config);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain("Stopped: its maxOrdersPerMinute 2 reached");
    expect(await box.json(["orders", "BTC/USDT"], { env: PINNED })).toEqual([]);
    const status = await box.json<{ state: { status: string; halted: { by: string } } }>(["bot", "status", "capped"], {
      env: PINNED,
    });
    expect(status.state).toMatchObject({ status: "stopped", halted: { by: "limit" } });
    const again = startRun(args, config);
    expect(await again.exited).toBe(2);
    expect(again.stderr()).toContain("Bot capped is stopped: Stopped: its maxOrdersPerMinute 2 reached");
    expect(again.stderr()).toContain("--resume");
  });
});
