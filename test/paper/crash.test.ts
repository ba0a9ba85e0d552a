import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, existsSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  createPaperExchange,
  type PaperExchange,
  paperJournalFile,
  paperStateFile,
} from "../../exchanges/paper/index.js";
import type { PaperState } from "../../exchanges/paper/state.js";
import { Decimal } from "../../lib/decimal.js";
import type { ExchangeError } from "../../lib/errors.js";
import { rejection } from "../rejection.js";
import { askLotsAtOrBelow, firstBucketAfter, market, paperOn, SEED, TestClock, tempDataDir } from "./helpers.js";

/**
 * paper's store under crashes (docs/paper-store.md): processes killed with SIGKILL in the middle
 * of a burst, and the exact states a crash can leave on disk, built by hand.
 */

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const BURST = fileURLToPath(new URL("./fixtures/burst.ts", import.meta.url));
const BTC = "BTC/USDT";

interface Child {
  placed: Map<string, string>;
  canceled: Set<string>;
  done: Promise<number | null>;
  kill(): void;
}

/** A burst child; `killAfter` acknowledged placements, it is killed with SIGKILL. */
function burst(dir: string, tag: string, count: number, startAt: number, killAfter?: number): Child {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", BURST, dir, "default", tag, String(count), String(startAt), "4096"],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  const placed = new Map<string, string>();
  const canceled = new Set<string>();
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
      if (what === "canceled") canceled.add(id!);
    }
    if (killAfter !== undefined && placed.size >= killAfter) child.kill("SIGKILL");
  });
  const done = new Promise<number | null>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (killAfter === undefined && code !== 0) reject(new Error(`burst ${tag} exited ${code}: ${stderr}`));
      resolve(signal === "SIGKILL" ? -9 : code);
    });
  });
  return { placed, canceled, done, kill: () => child.kill("SIGKILL") };
}

/** The account as this process holds it in memory (the cache the server relies on). */
function inMemory(paper: PaperExchange): Promise<PaperState> {
  return paper.store.transact((existing) => ({ result: structuredClone(existing!), state: existing! }));
}

/** The account read afresh from its files, without the lock or any cache. */
function fromDisk(paper: PaperExchange): PaperState {
  return paper.store.read()!;
}

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

const files = (dir: string): string[] => readdirSync(join(dir, "paper")).sort();

describe("paper survives kill -9", () => {
  it("several processes bursting on one account, three killed mid-burst: every acknowledged order is there, balances add up, nothing is left behind", async () => {
    const dir = tempDataDir();
    const startAt = Date.now() + 2500;
    const children = [
      burst(dir, "a", 150, startAt, 25),
      burst(dir, "b", 150, startAt, 45),
      burst(dir, "c", 150, startAt, 70),
      burst(dir, "d", 60, startAt),
    ];
    const codes = await Promise.all(children.map((c) => c.done));
    expect(codes).toEqual([-9, -9, -9, 0]);

    const paper = createPaperExchange({ api: "", secret: "" }, { dataDir: dir, seed: SEED });
    const open = await paper.fetchOpenOrders(BTC);
    const state = fromDisk(paper);
    const byId = new Map(state.orders.map((o) => [o.id, o]));
    let acknowledged = 0;
    for (const child of children) {
      for (const [id, clientOrderId] of child.placed) {
        acknowledged++;
        const order = byId.get(id);
        expect(order, `acknowledged order ${id} (${clientOrderId})`).toBeDefined();
        expect(order!.clientOrderId).toBe(clientOrderId);
        if (child.canceled.has(id)) expect(order!.status).toBe("canceled");
      }
    }
    expect(acknowledged).toBeGreaterThanOrEqual(25 + 45 + 70 + 60);
    expect(new Set(state.orders.map((o) => o.clientOrderId)).size).toBe(state.orders.length);
    // every order locks 0.001 × 1000 = 1 USDT while it is open; none fills (far below the market)
    const locked = open.reduce((sum, o) => sum.plus(new Decimal(o.price).times(o.amount)), new Decimal(0));
    const balances = await paper.fetchBalances();
    expect(balances.USDT!.l).toBe(locked.toFixed());
    expect(new Decimal(balances.USDT!.f).plus(balances.USDT!.l).toFixed()).toBe("10000");
    expect(balances.BTC).toEqual({ f: "1", l: "0" });
    // the state read afresh equals the one this process now keeps in memory
    expect(fromDisk(paper)).toEqual(await inMemory(paper));
    expect(files(dir)).toEqual(["default.journal", "default.json"]);
    // the snapshot stays plain, readable JSON
    expect(JSON.parse(readFileSync(paperStateFile(dir, "default"), "utf8")).version).toBe(2);
  }, 120_000);
});

describe("paper reads what a crash leaves on disk", () => {
  /** An account with a few orders, one cancelled, all in its journal (no compaction). */
  async function accountWithJournal(dir: string, clock: TestClock): Promise<PaperExchange> {
    const paper = paperOn(dir, clock, { journalCompactBytes: 1 << 30 });
    for (let i = 0; i < 4; i++) {
      await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: String(50000 + i) });
    }
    await paper.cancelOrder(BTC, "2");
    return paper;
  }

  it("a partial last journal line (killed while appending) is skipped, then cut off by the next writer", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const paper = await accountWithJournal(dir, clock);
    const before = fromDisk(paper);
    const journal = paperJournalFile(dir, "default");
    appendFileSync(journal, '{"seq":6,"lastBucket":1,"nextId":9,"orders":[{"id":"5","clientOr');
    expect(fromDisk(paper)).toEqual(before);
    const other = paperOn(dir, clock);
    expect((await other.fetchOpenOrders(BTC)).map((o) => o.id)).toEqual(["1", "3", "4"]);
    await other.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "40000" });
    const text = readFileSync(journal, "utf8");
    expect(text.endsWith("\n")).toBe(true);
    expect(text).not.toContain('"clientOr\n');
    expect(fromDisk(paper).orders.map((o) => o.id)).toEqual(["1", "2", "3", "4", "5"]);
  });

  it("a crash between a compaction's new snapshot and its journal reset: entries the snapshot holds are not applied twice", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const paper = await accountWithJournal(dir, clock);
    const state = fromDisk(paper);
    expect(state.seq).toBe(4);
    writeFileSync(paperStateFile(dir, "default"), JSON.stringify(state));
    expect(fromDisk(paper)).toEqual(state);
    // the process's cache notices the new snapshot and reads the account afresh
    expect(await inMemory(paper)).toEqual(state);
    expect((await paper.fetchBalances()).USDT).toEqual({ f: "8499.95", l: "1500.05" });
    await paper.cancelOrder(BTC, "1");
    expect(fromDisk(paper)).toEqual(await inMemory(paper));
    expect((await paper.fetchBalances()).USDT).toEqual({ f: "8999.95", l: "1000.05" });
  });

  it("a crash that emptied the journal in a compaction: the snapshot is the state, the next call starts a new journal", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const paper = await accountWithJournal(dir, clock);
    const state = fromDisk(paper);
    writeFileSync(paperStateFile(dir, "default"), JSON.stringify(state));
    truncateSync(paperJournalFile(dir, "default"), 0);
    expect(fromDisk(paper)).toEqual(state);
    await paper.cancelOrder(BTC, "3");
    const lines = readFileSync(paperJournalFile(dir, "default"), "utf8").trim().split("\n");
    expect(JSON.parse(lines[0]!)).toMatchObject({ journal: 1, base: 4 });
    expect(JSON.parse(lines[1]!)).toMatchObject({ seq: 5 });
    expect(fromDisk(paper).orders.find((o) => o.id === "3")?.status).toBe("canceled");
  });

  it("the temp file of a snapshot being written and a stale lock of a killed process are gone after the next call", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    await accountWithJournal(dir, clock);
    const file = paperStateFile(dir, "default");
    const pid = deadPid();
    writeFileSync(`${file}.${pid}.0a1b2c3d.tmp`, '{"version":2,"account":"def');
    writeFileSync(`${file}.lock`, JSON.stringify({ pid, host: hostname(), at: Date.now(), token: "killed" }));
    writeFileSync(`${file}.lock.stale-${pid}-0a1b2c3d`, "{}");
    await paperOn(dir, clock).fetchBalances();
    expect(files(dir)).toEqual(["default.journal", "default.json"]);
  });

  it("a journal line that is not an entry is an error naming the journal and the line, and nothing is overwritten", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    await accountWithJournal(dir, clock);
    const journal = paperJournalFile(dir, "default");
    const lines = readFileSync(journal, "utf8").split("\n");
    lines[2] = '{"seq":2,"lastBucket":"x"}';
    const text = lines.join("\n");
    writeFileSync(journal, text);
    const snapshot = readFileSync(paperStateFile(dir, "default"), "utf8");
    const error = await rejection(
      paperOn(dir, clock).createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "1000" }),
    );
    expect(error.kind).toBe("bad-input");
    expect(error.message).toContain(`Corrupt paper journal '${journal}': line 3 has no integer 'lastBucket'`);
    expect(readFileSync(journal, "utf8")).toBe(text);
    expect(readFileSync(paperStateFile(dir, "default"), "utf8")).toBe(snapshot);
  });

  it("a missing entry (a gap in the sequence) is an error, not a silently different account", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    await accountWithJournal(dir, clock);
    const journal = paperJournalFile(dir, "default");
    const lines = readFileSync(journal, "utf8").split("\n");
    lines.splice(2, 1);
    writeFileSync(journal, lines.join("\n"));
    const error = await rejection(paperOn(dir, clock).fetchBalances());
    expect(error.message).toContain("line 3 is entry 3, expected 2");
  });
});

describe("paper's account files", () => {
  it("converts a state file of the single-file format (version 1) once, keeping its orders and balances", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const paper = paperOn(dir, clock);
    await paper.createOrder({ pair: BTC, side: "Sell", amount: "0.5", price: "90000" });
    const file = paperStateFile(dir, "default");
    const v2 = fromDisk(paper);
    const { seq: _seq, ...rest } = v2;
    writeFileSync(file, JSON.stringify({ ...rest, version: 1 }));
    const other = paperOn(dir, clock);
    expect((await other.fetchOpenOrders(BTC)).map((o) => [o.id, o.amount, o.status])).toEqual([["1", "0.5", "open"]]);
    expect((await other.fetchBalances()).BTC).toEqual({ f: "0.5", l: "0.5" });
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject({ version: 2, seq: 0 });
    await other.cancelOrder(BTC, "1");
    expect((await paperOn(dir, clock).fetchBalances()).BTC).toEqual({ f: "1", l: "0" });
  });

  it("a call that fails after changing the account in memory (a batch refused at its second item) leaves no trace, in memory or on disk", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const paper = paperOn(dir, clock);
    await paper.fetchBalances();
    const error = await rejection(
      paper.createBatch(BTC, [
        { side: "Buy", amount: "0.01", price: "50000" },
        { side: "Buy", amount: "1", price: "50000" },
      ]),
    );
    expect(error.kind).toBe("insufficient-funds");
    expect(await paper.fetchOpenOrders(BTC)).toEqual([]);
    expect((await paper.fetchBalances()).USDT).toEqual({ f: "10000", l: "0" });
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "50000" });
    expect(order.id).toBe("1");
    expect(fromDisk(paper)).toEqual(await inMemory(paper));
  });

  it("a call that fails after the market replay filled a resting order keeps the fill (the replay is the market's, not the call's)", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const paper = paperOn(dir, clock);
    const m = market();
    const bid = m.bestBidTicks(clock.bucket);
    const order = await paper.createOrder({ pair: BTC, side: "Buy", amount: "0.001", price: m.price(bid) });
    expect(order.status).toBe("open");
    clock.toBucket(firstBucketAfter(clock.bucket, (b) => askLotsAtOrBelow(m, bid, b) > 0));
    expect((await rejection(paper.cancelOrder(BTC, "999"))).kind).toBe("order-not-found");
    const disk = fromDisk(paper);
    expect(disk.orders[0]!.filled).toBe("0.001");
    expect(disk.orders[0]!.status).toBe("closed");
    expect(disk).toEqual(await inMemory(paper));
    // less the maker fee: 0.1% of 0.001 BTC, in the base the buy received (docs/paper-store.md "Fees")
    expect((await paper.fetchBalances()).BTC).toEqual({ f: "1.000999", l: "0" });
  });

  it("a process keeping the account in memory sees what another process appended, and appends after it", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const server = paperOn(dir, clock);
    await server.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "1000", clientOrderId: "server-1" });
    const place = fileURLToPath(new URL("./fixtures/place-orders.ts", import.meta.url));
    const child = spawnSync(process.execPath, ["--import", "tsx", place, dir, "default", "3", "cli"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(child.status, child.stderr).toBe(0);
    await server.createOrder({ pair: BTC, side: "Buy", amount: "0.01", price: "1000", clientOrderId: "server-2" });
    expect((await server.fetchOpenOrders(BTC)).map((o) => o.clientOrderId)).toEqual([
      "server-1",
      "cli0",
      "cli1",
      "cli2",
      "server-2",
    ]);
    expect(fromDisk(server)).toEqual(await inMemory(server));
  }, 60_000);

  it("many calls with fills and trims: the journal is folded into the snapshot, and a fresh read equals the state in memory", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    const paper = paperOn(dir, clock, { journalCompactBytes: 8192 });
    const journal = paperJournalFile(dir, "default");
    let largest = 0;
    // Buys and sells around the market, some crossing it: orders fill at placement and in the
    // replay as the clock moves, others are cancelled; the history passes its limit of 1000.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const mid = 65000;
    for (let i = 0; i < 1600; i++) {
      const side = random() < 0.5 ? "Buy" : "Sell";
      const offset = Math.round((random() - 0.3) * 400);
      const price = String(side === "Buy" ? mid - offset : mid + offset);
      try {
        const order = await paper.createOrder({ pair: BTC, side, amount: "0.001", price });
        if (random() < 0.6 && order.status === "open") await paper.cancelOrder(BTC, order.id);
      } catch (error) {
        expect((error as ExchangeError).kind).toBe("insufficient-funds");
      }
      clock.ms += Math.round(random() * 1500);
      largest = Math.max(largest, existsSync(journal) ? statSync(journal).size : 0);
      if (i % 200 === 199) expect(fromDisk(paper)).toEqual(await inMemory(paper));
    }
    const state = await inMemory(paper);
    expect(state.orders.filter((o) => o.status !== "open")).toHaveLength(1000);
    expect(state.orders.some((o) => o.status === "closed")).toBe(true);
    expect(fromDisk(paper)).toEqual(state);
    // bounded by the snapshot's size (plus one entry), not by the number of calls
    const snapshotBytes = statSync(paperStateFile(dir, "default")).size;
    expect(largest).toBeLessThan(Math.max(8192, snapshotBytes) * 1.5);
  }, 60_000);
});
