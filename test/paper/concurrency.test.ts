import { spawn } from "node:child_process";
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
});
