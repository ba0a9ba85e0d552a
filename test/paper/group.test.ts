import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createPaperExchange, type PaperExchange } from "../../exchanges/paper/index.js";
import type { PaperState } from "../../exchanges/paper/state.js";
import { MAX_GROUP_CALLS } from "../../exchanges/paper/store.js";
import type { ExchangeError } from "../../lib/errors.js";
import type { Order } from "../../lib/types.js";
import { rejection } from "../rejection.js";
import { tempDataDir } from "./helpers.js";

/**
 * paper's group commit (docs/paper-store.md "A call"): the calls of one account in a process run
 * in groups under one taking of the lock, their entries appended in one write; each call is
 * answered once its entry is written. Real files, real child processes.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const GROUP_BURST = fileURLToPath(new URL("./fixtures/group-burst.ts", import.meta.url));
const BTC = "BTC/USDT";

const paperAt = (dir: string): PaperExchange =>
  createPaperExchange({ api: "", secret: "" }, { dataDir: dir, account: "shared", seed: "test-seed" });

/** The lock file's owner as a call of a group sees it (the same for every call of one group). */
const lockOwner = (paper: PaperExchange): Promise<string> =>
  paper.store.transact((existing) => ({ result: readFileSync(paper.store.lockFile, "utf8"), state: existing! }));

const inMemory = (paper: PaperExchange): Promise<PaperState> =>
  paper.store.transact((existing) => ({ result: structuredClone(existing!), state: existing! }));

interface Child {
  placed: Map<string, string>;
  done: Promise<number | null>;
  stderr: () => string;
}

function groupBurst(
  dir: string,
  tag: string,
  perWorker: number,
  workers: number,
  startAt: number,
  killAfter?: number,
): Child {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", GROUP_BURST, dir, "shared", tag, String(perWorker), String(workers), String(startAt)],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  const placed = new Map<string, string>();
  let buffer = "";
  let stderr = "";
  child.stderr.on("data", (chunk) => {
    stderr += String(chunk);
  });
  child.stdout.on("data", (chunk) => {
    buffer += String(chunk);
    const lines = buffer.split("\n");
    buffer = lines.pop() ?? "";
    for (const line of lines) {
      const [what, id, clientOrderId] = line.split(" ");
      if (what === "placed") placed.set(id!, clientOrderId!);
    }
    if (killAfter !== undefined && placed.size >= killAfter) child.kill("SIGKILL");
  });
  const done = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve(signal === "SIGKILL" ? -9 : code));
  });
  return { placed, done, stderr: () => stderr };
}

describe("paper group commit", () => {
  it("calls made together run under one taking of the lock; one failing inside the group leaves the others intact", async () => {
    const dir = tempDataDir();
    const paper = paperAt(dir);
    await paper.fetchBalances();
    // all issued in one tick: one group (fewer than MAX_GROUP_CALLS)
    const first = lockOwner(paper);
    const a = paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: "1000", clientOrderId: "a" });
    // changes the account in memory (its first item), then fails at its second: the calls before
    // it are written, the account is read again for the calls after it
    const batch = paper.createBatch(BTC, [
      { side: "Buy", amount: "0.001", price: "1000", clientOrderId: "batch-1" },
      { side: "Buy", amount: "1", price: "1000000", clientOrderId: "batch-2" },
    ]);
    const b = paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: "1000", clientOrderId: "b" });
    // fails before changing anything
    const duplicate = paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: "1000", clientOrderId: "a" });
    const unknown = paper.cancelOrder(BTC, "999");
    const c = paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: "1000", clientOrderId: "c" });
    const cancelB = b.then((order) => paper.cancelOrder(BTC, order.id));
    const balances = paper.fetchBalances();
    const last = lockOwner(paper);

    expect(await first).toBe(await last);
    expect(JSON.parse(await first)).toMatchObject({ pid: process.pid });
    expect((await rejection(batch)).kind).toBe("insufficient-funds");
    expect((await rejection(duplicate)).kind).toBe("invalid-order");
    expect((await rejection(unknown)).kind).toBe("order-not-found");
    const placed = await Promise.all([a, b, c]);
    expect(placed.map((o) => [o.id, o.clientOrderId, o.status])).toEqual([
      ["1", "a", "open"],
      ["2", "b", "open"],
      ["3", "c", "open"],
    ]);
    // the read in the group saw a, b and c locked (b's cancel came in a later group)
    expect((await balances).USDT).toEqual({ f: "9997", l: "3" });
    expect(await cancelB).toBe("2");

    const disk = paper.store.read()!;
    expect(disk).toEqual(await inMemory(paper));
    expect(disk.orders.map((o) => [o.clientOrderId, o.status])).toEqual([
      ["a", "open"],
      ["b", "canceled"],
      ["c", "open"],
    ]);
    expect(disk.balances.USDT).toEqual({ free: "9998", locked: "2" });
    // one entry per call that changed something: a, b, c, then the cancel
    const journal = readFileSync(join(dir, "paper", "shared.journal"), "utf8")
      .trim()
      .split("\n");
    expect(journal.slice(1).map((line) => (JSON.parse(line) as { seq: number }).seq)).toEqual([1, 2, 3, 4]);
    expect(readdirSync(join(dir, "paper")).sort()).toEqual(["shared.journal", "shared.json"]);
  });

  it("a group whose lock was broken as stale while it ran writes nothing and runs again: each call counts once", async () => {
    const dir = tempDataDir();
    const paper = createPaperExchange(
      { api: "", secret: "" },
      { dataDir: dir, account: "shared", seed: "test-seed", staleLockMs: 1000, lockTimeoutMs: 5000 },
    );
    await paper.fetchBalances();
    let runs = 0;
    // the group's first call stalls past the time a lock is surely ours (0.5 s), and meanwhile
    // another holder "broke" the lock and took it (its file now names someone else)
    const stalled = paper.store.transact((existing) => {
      if (runs++ === 0) {
        const until = Date.now() + 700;
        while (Date.now() < until) {
          // a synchronous pause, as a process stopped by the system would make
        }
        writeFileSync(
          paper.store.lockFile,
          JSON.stringify({ pid: process.pid, host: "elsewhere", at: Date.now(), token: "theirs" }),
        );
      }
      return { result: runs, state: existing! };
    });
    const a = paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: "1000", clientOrderId: "a" });
    const b = paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: "1000", clientOrderId: "b" });
    // the second run waits for the foreign lock to turn stale (1 s), breaks it, and writes
    expect(await stalled).toBe(2);
    const placed = await Promise.all([a, b]);
    expect(placed.map((o) => [o.id, o.clientOrderId])).toEqual([
      ["1", "a"],
      ["2", "b"],
    ]);
    const disk = paper.store.read()!;
    expect(disk.orders.map((o) => o.clientOrderId)).toEqual(["a", "b"]);
    expect(disk.balances.USDT).toEqual({ free: "9998", locked: "2" });
    expect(disk).toEqual(await inMemory(paper));
    expect(readdirSync(join(dir, "paper")).sort()).toEqual(["shared.journal", "shared.json"]);
  }, 20_000);

  it(`more calls than a group holds (${MAX_GROUP_CALLS}) run in several groups, in the order they came`, async () => {
    const dir = tempDataDir();
    const paper = paperAt(dir);
    await paper.fetchBalances();
    const count = MAX_GROUP_CALLS * 2 + 5;
    const owners: Array<Promise<string>> = [];
    const orders: Array<Promise<Order>> = [];
    for (let i = 0; i < count; i++) {
      owners.push(lockOwner(paper));
      orders.push(
        paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: "1000", clientOrderId: `o${i}` }),
      );
    }
    const placed = await Promise.all(orders);
    expect(placed.map((o) => o.id)).toEqual(placed.map((_, i) => String(i + 1)));
    // each group is one taking of the lock: a new token; 2 calls per order, so at least 5 groups
    const tokens = new Set((await Promise.all(owners)).map((text) => (JSON.parse(text) as { token: string }).token));
    expect(tokens.size).toBeGreaterThanOrEqual(Math.ceil((count * 2) / MAX_GROUP_CALLS));
    expect(tokens.size).toBeLessThan(count);
    expect(paper.store.read()!.orders).toHaveLength(count);
  });

  it("400 calls in flight in this process and a second process placing at the same time: every acknowledged order is on disk, balances add up", async () => {
    const dir = tempDataDir();
    const paper = paperAt(dir);
    await paper.fetchBalances();
    const startAt = Date.now() + 1500;
    const child = groupBurst(dir, "child", 5, 10, startAt);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
    const results = await Promise.allSettled(
      Array.from({ length: 400 }, (_, i) =>
        // every 20th has a client order id already taken: it fails, its neighbours go on
        paper.createOrder({
          pair: BTC,
          side: "Buy",
          amount: "0.001",
          price: "1000",
          clientOrderId: `srv-${i % 20 === 19 ? 0 : i}`,
        }),
      ),
    );
    expect(await child.done, child.stderr()).toBe(0);
    const acked = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason as ExchangeError] : []));
    expect(acked).toHaveLength(380);
    expect(failed.map((e) => e.kind)).toEqual(Array(20).fill("invalid-order"));
    expect(child.placed.size).toBe(50);

    const disk = createPaperExchange(
      { api: "", secret: "" },
      { dataDir: dir, account: "shared", seed: "test-seed" },
    ).store.read()!;
    const byId = new Map(disk.orders.map((o) => [o.id, o.clientOrderId]));
    for (const order of acked) expect(byId.get(order.id)).toBe(order.clientOrderId);
    for (const [id, clientOrderId] of child.placed) expect(byId.get(id)).toBe(clientOrderId);
    expect(disk.orders).toHaveLength(430);
    expect(new Set(disk.orders.map((o) => o.id)).size).toBe(430);
    expect(disk.balances.USDT).toEqual({ free: "9570", locked: "430" });
    expect(disk).toEqual(await inMemory(paper));
  }, 60_000);

  it("a process killed with SIGKILL while 10 of its calls are in flight: every acknowledged order is there, nothing is left behind", async () => {
    const dir = tempDataDir();
    const paper = paperAt(dir);
    await paper.fetchBalances();
    const startAt = Date.now() + 1500;
    const killed = groupBurst(dir, "killed", 30, 10, startAt, 60);
    const survivor = groupBurst(dir, "survivor", 5, 10, startAt);
    expect(await killed.done).toBe(-9);
    expect(await survivor.done, survivor.stderr()).toBe(0);
    // after the kill: the next call breaks the dead process's lock, if it held it, and cuts a partial line
    const after = await paper.createOrder({
      pair: BTC,
      side: "Buy",
      amount: "0.001",
      price: "1000",
      clientOrderId: "after",
    });

    const disk = paper.store.read()!;
    expect(disk).toEqual(await inMemory(paper));
    const byId = new Map(disk.orders.map((o) => [o.id, o.clientOrderId]));
    expect(killed.placed.size).toBeGreaterThanOrEqual(60);
    for (const [id, clientOrderId] of [...killed.placed, ...survivor.placed]) expect(byId.get(id)).toBe(clientOrderId);
    expect(byId.get(after.id)).toBe("after");
    expect(new Set(disk.orders.map((o) => o.clientOrderId)).size).toBe(disk.orders.length);
    // every order on disk locks 1 USDT: written entries are whole calls, never a part of one
    expect(disk.balances.USDT).toEqual({
      free: String(10000 - disk.orders.length),
      locked: String(disk.orders.length),
    });
    expect(readdirSync(join(dir, "paper")).sort()).toEqual(["shared.journal", "shared.json"]);
  }, 60_000);
});
