import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newPaperState, type PaperState, type StateChanges } from "../../exchanges/paper/state.js";
import {
  AccountStore,
  assertAccountName,
  defaultDataDir,
  paperAccountMark,
  paperJournalFile,
  paperStateFile,
  readPaperAccount,
  setGroupLimit,
} from "../../exchanges/paper/store.js";
import { ExchangeError } from "../../lib/errors.js";
import { tempDataDir } from "./helpers.js";

/**
 * The paper store's calls on real files (docs/paper-store.md "A call", "Crashes"): what each call
 * writes, what a process keeping the account in memory reads again when another one wrote, and
 * what a failing call keeps. The "work" of a call here is a counter in the USDT balance, so that
 * every figure on disk can be checked by hand.
 */

const storeOf = (dataDir: string, compactBytes?: number) =>
  new AccountStore({ dataDir, account: "default", ...(compactBytes !== undefined ? { compactBytes } : {}) });

/** A call that adds `n` to USDT's free balance and answers the new figure. */
const add =
  (n: number) =>
  (existing: PaperState | undefined, changes: StateChanges): { result: string; state: PaperState } => {
    const state = existing ?? newPaperState("default", 1000, 1, { USDT: "0" });
    changes.checkpoint();
    const row = state.balances.USDT!;
    row.free = String(Number(row.free) + n);
    changes.balance("USDT");
    return { result: row.free, state };
  };

/** A call that reads the balance and changes nothing. */
const read = (existing: PaperState | undefined) => {
  if (!existing) throw new Error("no account");
  return { result: existing.balances.USDT!.free, state: existing };
};

const lines = (file: string) => readFileSync(file, "utf8").split("\n").filter(Boolean);
const entry = (seq: number, free: string) =>
  `${JSON.stringify({ seq, lastBucket: 1, nextId: 1, balances: { USDT: { free, locked: "0" } } })}\n`;

describe("paper store: what a call writes", () => {
  it("a new account is its snapshot; each later call one journal line after a header", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir);
    expect(store.read()).toBeUndefined();
    expect(await store.transact(add(5))).toBe("5");
    const file = paperStateFile(dir, "default");
    const journal = paperJournalFile(dir, "default");
    expect(readdirSync(join(dir, "paper"))).toEqual(["default.json"]);
    expect(JSON.parse(readFileSync(file, "utf8")).balances.USDT.free).toBe("5");
    expect(await store.transact(add(2))).toBe("7");
    expect(await store.transact(read)).toBe("7");
    expect(await store.transact(add(1))).toBe("8");
    const [header, ...entries] = lines(journal);
    expect(JSON.parse(header!)).toMatchObject({ journal: 1, base: 0 });
    expect(entries.map((l) => JSON.parse(l))).toEqual([
      { seq: 1, lastBucket: 1, nextId: 1, balances: { USDT: { free: "7", locked: "0" } } },
      { seq: 2, lastBucket: 1, nextId: 1, balances: { USDT: { free: "8", locked: "0" } } },
    ]);
    expect(store.read()?.seq).toBe(2);
    expect(readPaperAccount(file)?.balances.USDT?.free).toBe("8");
  });

  it("calls made together are one group: their entries in order, answers in order", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir);
    await store.transact(add(0));
    const answers = await Promise.all([1, 2, 3, 4].map((n) => store.transact(add(n))));
    expect(answers).toEqual(["1", "3", "6", "10"]);
    const seqs = lines(paperJournalFile(dir, "default")).map((l) => JSON.parse(l).seq);
    expect(seqs).toEqual([undefined, 1, 2, 3, 4]);
  });

  it("a failing call keeps nothing it changed; the calls around it are written", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir);
    await store.transact(add(10));
    const failing = (existing: PaperState | undefined, changes: StateChanges) => {
      add(100)(existing, changes);
      throw new Error("refused at the second item");
    };
    const quiet = (_existing: PaperState | undefined, changes: StateChanges) => {
      changes.checkpoint();
      throw new Error("insufficient funds");
    };
    const results = await Promise.allSettled([
      store.transact(add(1)),
      store.transact(failing),
      store.transact(add(2)),
      store.transact(quiet),
      store.transact(add(3)),
    ]);
    expect(results.map((r) => (r.status === "fulfilled" ? r.value : (r.reason as Error).message))).toEqual([
      "11",
      "refused at the second item",
      "13",
      "insufficient funds",
      "16",
    ]);
    expect(await store.transact(read)).toBe("16");
    expect(readPaperAccount(paperStateFile(dir, "default"))?.balances.USDT?.free).toBe("16");
    expect(lines(paperJournalFile(dir, "default")).length).toBe(4);
  });

  it("a failing first call of a new account writes nothing", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir);
    await expect(store.transact(read)).rejects.toThrow("no account");
    expect(readdirSync(join(dir, "paper"))).toEqual([]);
  });

  it("folds the journal into a new snapshot once it outgrows the snapshot and compactBytes", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir, 1);
    await store.transact(add(0));
    const file = paperStateFile(dir, "default");
    const journal = paperJournalFile(dir, "default");
    const snapshotBytes = statSync(file).size;
    const size = () => statSync(journal, { throwIfNoEntry: false })?.size ?? 0;
    let calls = 0;
    let before = 0;
    // the journal grows up to the snapshot's size without a compaction
    for (;;) {
      before = size();
      await store.transact(add(1));
      calls++;
      if (size() < before) break;
      expect(JSON.parse(readFileSync(file, "utf8")).seq).toBe(0);
      expect(size()).toBeLessThanOrEqual(snapshotBytes);
    }
    expect(calls).toBeGreaterThan(2);
    expect(before + entry(calls, String(calls)).length).toBeGreaterThan(snapshotBytes);
    // the call that took it past the snapshot's size compacted it
    const snapshot = JSON.parse(readFileSync(file, "utf8"));
    expect(snapshot.seq).toBe(calls);
    expect(snapshot.balances.USDT.free).toBe(String(calls));
    expect(lines(journal).map((l) => JSON.parse(l))).toEqual([{ journal: 1, base: calls, id: expect.any(String) }]);
    expect(await store.transact(add(1))).toBe(String(calls + 1));
    expect(lines(journal).map((l) => JSON.parse(l).seq)).toEqual([undefined, calls + 1]);
    expect(readPaperAccount(file)?.balances.USDT?.free).toBe(String(calls + 1));
  });

  it("by default a journal under 64 KiB is not folded even when longer than the snapshot", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir);
    await store.transact(add(0));
    const snapshotBytes = statSync(paperStateFile(dir, "default")).size;
    for (let i = 0; i < 10; i++) await store.transact(add(1));
    expect(statSync(paperJournalFile(dir, "default")).size).toBeGreaterThan(snapshotBytes);
    expect(JSON.parse(readFileSync(paperStateFile(dir, "default"), "utf8")).seq).toBe(0);
  });
});

describe("paper store: what another process wrote", () => {
  /** An account with a snapshot and a journal of two entries, kept in this process's memory. */
  async function account() {
    const dir = tempDataDir();
    const store = storeOf(dir);
    await store.transact(add(1));
    await store.transact(add(1));
    await store.transact(add(1));
    return { dir, store, file: paperStateFile(dir, "default"), journal: paperJournalFile(dir, "default") };
  }

  it("appended lines are applied, a partial last line is skipped and then cut off", async () => {
    const { store, journal } = await account();
    appendFileSync(journal, entry(3, "50"));
    expect(await store.transact(read)).toBe("50");
    appendFileSync(journal, `${entry(4, "60")}{"seq":5,"lastB`);
    expect(await store.transact(read)).toBe("60");
    // the reader under the lock cut the partial line
    expect(readFileSync(journal, "utf8").endsWith(entry(4, "60"))).toBe(true);
    expect(await store.transact(add(1))).toBe("61");
    expect(lines(journal).map((l) => JSON.parse(l).seq)).toEqual([undefined, 1, 2, 3, 4, 5]);
  });

  it("a last line rewritten in place (same size), a shorter journal or a deleted one: the account is read afresh", async () => {
    const { store, journal, file } = await account();
    // entry 2 said 3; another writer replaced it by 9 with the same length
    const text = readFileSync(journal, "utf8");
    writeFileSync(journal, text.replace(entry(2, "3"), entry(2, "9")));
    expect(statSync(journal).size).toBe(text.length);
    expect(await store.transact(read)).toBe("9");
    // cut back to entry 1
    writeFileSync(journal, text.replace(entry(2, "3"), ""));
    expect(await store.transact(read)).toBe("2");
    unlinkSync(journal);
    expect(await store.transact(read)).toBe("1");
    // a new snapshot written by another process
    const state = JSON.parse(readFileSync(file, "utf8"));
    state.balances.USDT.free = "77";
    writeFileSync(file, JSON.stringify(state));
    expect(await store.transact(read)).toBe("77");
  });

  it("a snapshot that differs from the one in memory only in its inode, its size or its time is read afresh", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir);
    await store.transact(add(1));
    const file = paperStateFile(dir, "default");
    const at = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    // times of whole milliseconds, so that setting them again gives the same mark
    utimesSync(file, at, at);
    expect(await store.transact(read)).toBe("1");
    const text = readFileSync(file, "utf8");
    // another size, same inode, same time
    writeFileSync(file, text.replace('"free":"1"', '"free":"22"'));
    utimesSync(file, at, at);
    expect(await store.transact(read)).toBe("22");
    // same size and time, another inode
    const other = `${file}.other`;
    writeFileSync(other, text.replace('"free":"1"', '"free":"33"'));
    utimesSync(other, at, at);
    renameSync(other, file);
    expect(await store.transact(read)).toBe("33");
    // same inode and size, another time
    writeFileSync(file, text.replace('"free":"1"', '"free":"44"'));
    const later = new Date(at.getTime() + 5000);
    utimesSync(file, later, later);
    expect(await store.transact(read)).toBe("44");
  });

  it("a journal where only a journal was: the account is read with it", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir);
    await store.transact(add(4));
    const journal = paperJournalFile(dir, "default");
    expect(await store.transact(read)).toBe("4");
    writeFileSync(journal, `${JSON.stringify({ journal: 1, base: 0, id: "x" })}\n${entry(1, "8")}`);
    expect(await store.transact(read)).toBe("8");
  });

  it("a journal line another process wrote that is not an entry is an error naming it, and the journal stays", async () => {
    const { store, journal } = await account();
    appendFileSync(journal, '{"seq":3}\n');
    const text = readFileSync(journal, "utf8");
    const error = await store.transact(read).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExchangeError);
    expect((error as ExchangeError).detail).toContain(`'${journal}': line 4 has no integer 'lastBucket'`);
    expect(readFileSync(journal, "utf8")).toBe(text);
  });

  it("a journal left by a deleted account is removed when the account is created again", async () => {
    const dir = tempDataDir();
    mkdirSync(join(dir, "paper"));
    const journal = paperJournalFile(dir, "default");
    writeFileSync(journal, `${JSON.stringify({ journal: 1, base: 0, id: "old" })}\n${entry(1, "500")}`);
    const store = storeOf(dir);
    expect(await store.transact(add(3))).toBe("3");
    expect(readdirSync(join(dir, "paper"))).toEqual(["default.json"]);
    expect(await store.transact(add(1))).toBe("4");
    expect(readPaperAccount(paperStateFile(dir, "default"))?.balances.USDT?.free).toBe("4");
  });

  it("a version 1 file is read as it is without the lock and rewritten as version 2 under it", async () => {
    const dir = tempDataDir();
    const file = paperStateFile(dir, "default");
    mkdirSync(join(dir, "paper"));
    const { seq: _seq, ...v1 } = { ...newPaperState("default", 1000, 1, { USDT: "20" }), version: 1 };
    writeFileSync(file, JSON.stringify(v1));
    // a journal beside a version 1 file is not the account's (written before the journal existed)
    writeFileSync(paperJournalFile(dir, "default"), `${JSON.stringify({ journal: 1, base: 0, id: "x" })}\n`);
    const store = storeOf(dir);
    expect(store.read()?.balances.USDT?.free).toBe("20");
    expect(JSON.parse(readFileSync(file, "utf8")).version).toBe(1);
    expect(await store.transact(add(1))).toBe("21");
    const converted = JSON.parse(readFileSync(file, "utf8"));
    expect(converted.version).toBe(2);
    expect(converted.seq).toBe(0);
    expect(readPaperAccount(file)?.balances.USDT?.free).toBe("21");
    expect(lines(paperJournalFile(dir, "default")).map((l) => JSON.parse(l).seq)).toEqual([undefined, 1]);
  });
});

describe.runIf(process.platform === "linux")("paper store: open journals", () => {
  const openFds = () => readdirSync("/proc/self/fd").length;

  it("an account read afresh closes the journal it had open", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir);
    await store.transact(add(1));
    await store.transact(add(1));
    const file = paperStateFile(dir, "default");
    const before = openFds();
    for (let i = 0; i < 40; i++) {
      // a new snapshot time: the next call reads the account afresh, then appends
      const at = new Date(Date.now() - (i + 1) * 10_000);
      utimesSync(file, at, at);
      await store.transact(add(1));
    }
    expect(openFds() - before).toBeLessThan(20);
    expect(await store.transact(read)).toBe("42");
  });

  it("a process keeps at most 64 accounts open", async () => {
    const before = openFds();
    for (let i = 0; i < 70; i++) {
      const store = storeOf(tempDataDir());
      await store.transact(add(1));
      await store.transact(add(1));
    }
    expect(openFds() - before).toBeLessThan(68);
  });
});

describe("paper store: leftovers, the lock, names", () => {
  it("a process's first call removes a crashed snapshot's temp files and moved-aside locks, nothing else", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir);
    await store.transact(add(1));
    const paper = join(dir, "paper");
    const leftovers = ["default.json.123.abcd.tmp", "default.json.lock.stale-77-0f3a"];
    const kept = [
      "default.json.x.tmp",
      "default.json.12.ab.tmp.bak",
      "defaultXjson.1.a.tmp",
      "other.json.123.abcd.tmp",
      "default.json.lock.stale-x-1",
      "default.json.12.ABCD.tmp",
    ];
    for (const name of [...leftovers, ...kept]) writeFileSync(join(paper, name), "");
    // a store of another data directory path to the same files: this process's cache is by file,
    // so the first call of a fresh process is simulated by a stale lock broken under it
    writeFileSync(
      join(paper, "default.json.lock"),
      JSON.stringify({ pid: 999_999_999, host: hostname(), at: Date.now(), token: "dead" }),
    );
    expect(await store.transact(add(1))).toBe("2");
    expect(readdirSync(paper).sort()).toEqual(["default.journal", "default.json", ...kept].sort());
  });

  it("a busy lock fails the waiting calls with ELOCKED and the account is unchanged", async () => {
    const dir = tempDataDir();
    const store = new AccountStore({ dataDir: dir, account: "default", timeoutMs: 80 });
    await store.transact(add(1));
    const lock = `${paperStateFile(dir, "default")}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), token: "other" }));
    const results = await Promise.allSettled([store.transact(add(1)), store.transact(add(1))]);
    for (const r of results) expect(r.status === "rejected" && (r.reason as ExchangeError).code).toBe("ELOCKED");
    unlinkSync(lock);
    expect(await store.transact(read)).toBe("1");
  });

  it("a lock older than the configured stale age is broken", async () => {
    const dir = tempDataDir();
    const store = new AccountStore({ dataDir: dir, account: "default", timeoutMs: 3000, staleMs: 1000 });
    await store.transact(add(1));
    const lock = `${paperStateFile(dir, "default")}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() - 2000, token: "old" }));
    expect(await store.transact(add(1))).toBe("2");
  });

  it("the group limit is a positive integer", () => {
    expect(() => setGroupLimit(0)).toThrow("group limit must be a positive integer, got 0");
    expect(() => setGroupLimit(1.5)).toThrow(RangeError);
    const previous = setGroupLimit(1);
    expect(setGroupLimit(3)).toBe(1);
    expect(setGroupLimit(previous)).toBe(3);
  });

  it("with a group limit of 2, five calls still run in order", async () => {
    const dir = tempDataDir();
    const store = storeOf(dir);
    await store.transact(add(0));
    const previous = setGroupLimit(2);
    try {
      expect(await Promise.all([1, 1, 1, 1, 1].map((n) => store.transact(add(n))))).toEqual(["1", "2", "3", "4", "5"]);
    } finally {
      setGroupLimit(previous);
    }
  });

  it("account names: letters, digits, '.', '_', '-', at most 64, not starting with a sign", () => {
    expect(assertAccountName("a")).toBe("a");
    expect(assertAccountName(`a${"b".repeat(63)}`)).toHaveLength(64);
    for (const bad of ["", `a${"b".repeat(64)}`, ".hidden", "-x", "a/b", "a b", "ä"]) {
      let error: unknown;
      try {
        assertAccountName(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ExchangeError);
      expect((error as ExchangeError).exchange).toBe("paper");
      expect((error as ExchangeError).kind).toBe("bad-input");
      expect(() => assertAccountName(bad)).toThrow(
        `Invalid paper account name '${bad}': use letters, digits, '.', '_' or '-' (at most 64)`,
      );
    }
    expect(assertAccountName("Desk_1.b-2")).toBe("Desk_1.b-2");
    expect(paperJournalFile("/d", "desk")).toBe("/d/paper/desk.journal");
  });

  it("the data directory of each platform", () => {
    expect(defaultDataDir({ LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local" }, "win32")).toBe(
      join("C:\\Users\\me\\AppData\\Local", "spotdesk"),
    );
    expect(defaultDataDir({}, "win32")).toMatch(/AppData[/\\]Local[/\\]spotdesk$/);
    expect(defaultDataDir({}, "darwin")).toMatch(/Library\/Application Support\/spotdesk$/);
    expect(defaultDataDir({ XDG_DATA_HOME: "" }, "linux")).toMatch(/\.local\/share\/spotdesk$/);
    expect(defaultDataDir({ SPOTDESK_DATA_DIR: "" }, "linux")).toMatch(/\.local\/share\/spotdesk$/);
  });

  it("the account's mark changes with every write and is zeros for no files", async () => {
    const dir = tempDataDir();
    const file = paperStateFile(dir, "default");
    expect(paperAccountMark(file)).toBe("0:0|0:0:0");
    const store = storeOf(dir);
    await store.transact(add(1));
    const first = paperAccountMark(file);
    const snapshot = statSync(file);
    expect(first).toBe(`${snapshot.ino}:${snapshot.mtimeMs}|0:0:0`);
    await store.transact(add(1));
    const journal = statSync(paperJournalFile(dir, "default"));
    expect(paperAccountMark(file)).toBe(
      `${snapshot.ino}:${snapshot.mtimeMs}|${journal.ino}:${journal.size}:${journal.mtimeMs}`,
    );
    await store.transact(read);
    expect(paperAccountMark(file)).toBe(
      `${snapshot.ino}:${snapshot.mtimeMs}|${journal.ino}:${journal.size}:${journal.mtimeMs}`,
    );
  });
});
