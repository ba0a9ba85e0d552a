import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createPaperExchange } from "../../exchanges/paper/index.js";
import { Decimal } from "../../lib/decimal.js";
import { tempDataDir } from "./helpers.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const PLACE = fileURLToPath(new URL("./fixtures/place-orders.ts", import.meta.url));

function run(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", PLACE, ...args], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += String(chunk);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe("paper across processes", () => {
  it("two processes placing 20 orders each at the same time on one account lose nothing", async () => {
    const dir = tempDataDir();
    // both children start placing at the same instant, whatever their start-up time
    const startAt = String(Date.now() + 1500);
    const results = await Promise.all([
      run([dir, "shared", "20", "a", startAt]),
      run([dir, "shared", "20", "b", startAt]),
    ]);
    for (const result of results) expect(result, result.stderr).toMatchObject({ code: 0 });

    const paper = createPaperExchange({ api: "", secret: "" }, { dataDir: dir, account: "shared", seed: "test-seed" });
    const open = await paper.fetchOpenOrders("BTC/USDT");
    expect(open).toHaveLength(40);
    const tags = open.map((o) => o.clientOrderId).sort();
    const expected = [
      ...Array.from({ length: 20 }, (_, i) => `a${i}`),
      ...Array.from({ length: 20 }, (_, i) => `b${i}`),
    ].sort();
    expect(tags).toEqual(expected);
    expect(new Set(open.map((o) => o.id)).size).toBe(40);
    // each order locks 1000 × 0.001 = 1 USDT
    const balances = await paper.fetchBalances();
    expect(balances.USDT).toEqual({ f: "9960", l: "40" });
    const locked = open.reduce((sum, o) => sum.plus(new Decimal(o.price).times(o.amount)), new Decimal(0));
    expect(locked.toFixed()).toBe(balances.USDT!.l);
  }, 60_000);

  it("a process streaming calls from 20 workers (a busy server, its account in memory) and a CLI process placing meanwhile: nothing lost, nobody starved", async () => {
    const dir = tempDataDir();
    const server = createPaperExchange({ api: "", secret: "" }, { dataDir: dir, account: "shared", seed: "test-seed" });
    await server.fetchBalances();
    const startAt = Date.now() + 1500;
    // the child waits at most 8 s for the lock per call (the default is 10 s): it must get in between calls
    const child = run([dir, "shared", "20", "cli", String(startAt), "8000"]);
    let stop = false;
    let calls = 0;
    const stream = async (worker: number) => {
      for (let i = 0; !stop; i++) {
        const order = await server.createOrder({
          pair: "BTC/USDT",
          side: "Buy",
          amount: "0.001",
          price: "1000",
          clientOrderId: `srv${worker}-${i}`,
        });
        await server.cancelOrder("BTC/USDT", order.id);
        calls += 2;
        // let timers and the child's output in
        if (i % 10 === worker % 10) await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const workers = Array.from({ length: 20 }, (_, w) => stream(w));
    const result = await child;
    stop = true;
    await Promise.all(workers);
    expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(calls).toBeGreaterThan(100);
    expect(
      await server.store.transact((existing) => ({ result: structuredClone(existing), state: existing! })),
    ).toEqual(server.store.read());
    const open = await server.fetchOpenOrders("BTC/USDT");
    expect(open.map((o) => o.clientOrderId).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `cli${i}`).sort());
    expect((await server.fetchBalances()).USDT).toEqual({ f: "9980", l: "20" });
    expect(readdirSync(join(dir, "paper")).sort()).toEqual(["shared.journal", "shared.json"]);
  }, 60_000);
});
