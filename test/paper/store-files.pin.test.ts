import { mkdirSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  appendAll,
  completeLines,
  continuation,
  cutPartialLine,
  headerLine,
  isBalanceRow,
  isOrderRecord,
  isTakenEntry,
  journalFileOf,
  parseJournalLine,
  removeJournal,
} from "../../exchanges/paper/journal.js";
import { parseSnapshot, parseState, writeFileAtomic } from "../../exchanges/paper/snapshot.js";
import { newPaperState, type PaperOrderRecord } from "../../exchanges/paper/state.js";
import { ExchangeError } from "../../lib/errors.js";
import { tempDataDir } from "./helpers.js";

/**
 * The paper store's file formats checked field by field (docs/paper-store.md "Files", "Crashes"):
 * a journal line or a snapshot that is not what the store wrote is refused with the line and the
 * field named, never read as something else. Real files in a temp directory.
 */

const FILE = "/data/paper/default.journal";

function order(overrides: Record<string, unknown> = {}): PaperOrderRecord {
  return {
    id: "7",
    clientOrderId: "c-7",
    pair: "BTC/USDT",
    side: "Buy",
    price: "50000.5",
    amount: "0.01",
    filled: "0",
    cost: "0",
    status: "open",
    timestamp: 1,
    updatedAt: 2,
    bucket: 3,
    ...overrides,
  } as PaperOrderRecord;
}

function thrown(run: () => unknown): ExchangeError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error("expected an error");
}

describe("journal rows", () => {
  it("a balance row is two non-negative decimal strings", () => {
    expect(isBalanceRow({ free: "1.5", locked: "0" })).toBe(true);
    expect(isBalanceRow({ free: "10", locked: "0.25" })).toBe(true);
    expect(isBalanceRow({ free: 1, locked: "0" })).toBe(false);
    expect(isBalanceRow({ free: "1", locked: 0 })).toBe(false);
    expect(isBalanceRow({ free: "-1", locked: "0" })).toBe(false);
    expect(isBalanceRow({ free: "1", locked: "-0.5" })).toBe(false);
    expect(isBalanceRow({ free: "1.", locked: "0" })).toBe(false);
    expect(isBalanceRow({ free: "x1", locked: "0" })).toBe(false);
    expect(isBalanceRow({ free: "1x", locked: "0" })).toBe(false);
    expect(isBalanceRow({ free: "1", locked: "0.5x" })).toBe(false);
    expect(isBalanceRow(null)).toBe(false);
    expect(isBalanceRow(["1", "0"])).toBe(false);
    expect(isBalanceRow("1")).toBe(false);
  });

  it("an order record has every field of its type, each checked", () => {
    expect(isOrderRecord(order())).toBe(true);
    expect(isOrderRecord(order({ side: "Sell", status: "closed" }))).toBe(true);
    expect(isOrderRecord(order({ status: "canceled" }))).toBe(true);
    const { cost: _cost, ...withoutCost } = order();
    expect(isOrderRecord(withoutCost)).toBe(true);
    const bad: Record<string, unknown>[] = [
      { id: 7 },
      { clientOrderId: null },
      { pair: 1 },
      { side: "buy" },
      { side: "" },
      { price: 50000 },
      { price: "5e4" },
      { amount: 1 },
      { amount: "-1" },
      { filled: 0 },
      { filled: "0.1.2" },
      { cost: 0 },
      { cost: "x" },
      { status: "filled" },
      { status: "" },
      { timestamp: "1" },
      { timestamp: 1.5 },
      { updatedAt: undefined },
      { bucket: Number.NaN },
    ];
    for (const fields of bad) expect([fields, isOrderRecord(order(fields))]).toEqual([fields, false]);
    expect(isOrderRecord(null)).toBe(false);
    expect(isOrderRecord([order()])).toBe(false);
  });

  it("a taken entry is a pair of safe integers", () => {
    expect(isTakenEntry([3, 100])).toBe(true);
    expect(isTakenEntry([3])).toBe(false);
    expect(isTakenEntry([3, 100, 1])).toBe(false);
    expect(isTakenEntry([3, 1.5])).toBe(false);
    expect(isTakenEntry(["3", 100])).toBe(false);
    expect(isTakenEntry({ 0: 3, 1: 100, length: 2 })).toBe(false);
  });
});

describe("journal lines", () => {
  it("names the file and the line of what is wrong", () => {
    const cases: Array<[string, string]> = [
      ["{", "line 4 is not JSON"],
      ["[1]", "line 4 is not an object"],
      ["null", "line 4 is not an object"],
      ["5", "line 4 is not an object"],
      ['"seq"', "line 4 is not an object"],
      ['{"journal":2,"base":0,"id":"a"}', "line 4 has an unknown journal format 2"],
      ['{"journal":1,"base":"0","id":"a"}', "line 4 is not a journal header"],
      ['{"journal":1,"base":0,"id":5}', "line 4 is not a journal header"],
      ['{"lastBucket":1,"nextId":1}', "line 4 has no integer 'seq'"],
      ['{"seq":1,"nextId":1}', "line 4 has no integer 'lastBucket'"],
      ['{"seq":1,"lastBucket":1,"nextId":1.5}', "line 4 has no integer 'nextId'"],
      ['{"seq":1,"lastBucket":1,"nextId":1,"balances":[]}', "line 4 has malformed balances"],
      ['{"seq":1,"lastBucket":1,"nextId":1,"balances":{"USDT":{"free":"1"}}}', "line 4 has malformed balances"],
      ['{"seq":1,"lastBucket":1,"nextId":1,"orders":{}}', "line 4 has a malformed order"],
      ['{"seq":1,"lastBucket":1,"nextId":1,"orders":[{}]}', "line 4 has a malformed order"],
      ['{"seq":1,"lastBucket":1,"nextId":1,"dropped":"5"}', "line 4 has malformed dropped ids"],
      ['{"seq":1,"lastBucket":1,"nextId":1,"dropped":[5]}', "line 4 has malformed dropped ids"],
      ['{"seq":1,"lastBucket":1,"nextId":1,"taken":[]}', "line 4 has malformed taken liquidity"],
      ['{"seq":1,"lastBucket":1,"nextId":1,"taken":{"k":[1]}}', "line 4 has malformed taken liquidity"],
      // one bad row among good ones is enough
      [
        '{"seq":1,"lastBucket":1,"nextId":1,"balances":{"USDT":{"free":"1","locked":"0"},"BTC":{"free":"x","locked":"0"}}}',
        "line 4 has malformed balances",
      ],
      [`{"seq":1,"lastBucket":1,"nextId":1,"orders":[${JSON.stringify(order())},{}]}`, "line 4 has a malformed order"],
      ['{"seq":1,"lastBucket":1,"nextId":1,"dropped":["1",2]}', "line 4 has malformed dropped ids"],
      [
        '{"seq":1,"lastBucket":1,"nextId":1,"taken":{"a":[1,2],"b":null,"c":[1]}}',
        "line 4 has malformed taken liquidity",
      ],
    ];
    for (const [text, reason] of cases) {
      const error = thrown(() => parseJournalLine(text, FILE, 4));
      expect(error.kind).toBe("bad-input");
      expect(error.exchange).toBe("paper");
      expect(error.detail).toBe(
        `Corrupt paper journal '${FILE}': ${reason}. It was left untouched; move it and the account's .json away to start the account afresh.`,
      );
    }
  });

  it("reads a header and an entry with every optional part", () => {
    expect(parseJournalLine('{"journal":1,"base":12,"id":"ab"}', FILE, 1)).toEqual({
      header: { journal: 1, base: 12, id: "ab" },
    });
    const entry = {
      seq: 13,
      lastBucket: 5,
      nextId: 9,
      balances: { USDT: { free: "1", locked: "2" } },
      orders: [order()],
      dropped: ["1", "2"],
      taken: { "BTC/USDT|Buy|5|0": [1, 5], "BTC/USDT|Sell|6|0": null },
    };
    expect(parseJournalLine(JSON.stringify(entry), FILE, 2)).toEqual({ entry });
    expect(parseJournalLine('{"seq":1,"lastBucket":0,"nextId":1}', FILE, 2)).toEqual({
      entry: { seq: 1, lastBucket: 0, nextId: 1 },
    });
  });

  it("the journal file of a snapshot and its header line", () => {
    expect(journalFileOf("/d/paper/desk.json")).toBe("/d/paper/desk.journal");
    expect(journalFileOf("/d/paper.json/desk.json")).toBe("/d/paper.json/desk.journal");
    const line = headerLine(42).toString("utf8");
    expect(line.endsWith("\n")).toBe(true);
    expect(line.indexOf("\n")).toBe(line.length - 1);
    const header = JSON.parse(line);
    expect(header).toEqual({ journal: 1, base: 42, id: expect.stringMatching(/^[0-9a-f]{8}$/) });
    expect(JSON.parse(headerLine(42).toString()).id).not.toBe(header.id);
  });
});

describe("complete lines of a chunk", () => {
  it("leaves out a partial last line and keeps the last complete one", () => {
    const got = completeLines(Buffer.from('{"a":1}\n{"b":2}\n{"c"'));
    expect(got.lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(got.bytes).toBe(16);
    expect(got.last.toString()).toBe('{"b":2}\n');
  });

  it("a chunk whose only newline is its first byte holds one empty line", () => {
    expect(completeLines(Buffer.from("\nabc"))).toEqual({ lines: [""], bytes: 1, last: Buffer.from("\n") });
  });

  it("a single line is its own last line; no newline at all is nothing", () => {
    const one = completeLines(Buffer.from('{"a":1}\n'));
    expect(one).toEqual({ lines: ['{"a":1}'], bytes: 8, last: Buffer.from('{"a":1}\n') });
    const none = completeLines(Buffer.from('{"a":1'));
    expect(none.lines).toEqual([]);
    expect(none.bytes).toBe(0);
    expect(none.last.length).toBe(0);
  });

  it("the last line is a copy: writing the chunk's buffer again leaves it as read", () => {
    const chunk = Buffer.from("x\ny\n");
    const { last } = completeLines(chunk);
    chunk.fill(0);
    expect(last.toString()).toBe("y\n");
  });
});

describe("continuation of a state by its journal", () => {
  const line = (seq: number) => JSON.stringify({ seq, lastBucket: 0, nextId: 1 });
  const header = (base: number) => JSON.stringify({ journal: 1, base, id: "h" });
  const state = (seq: number) => ({ ...newPaperState("default", 0, 0), seq });

  it("takes the entries after the state's seq, skipping those it holds", () => {
    expect(continuation(state(0), [header(0), line(1), line(2)], FILE, 1, true).map((e) => e.seq)).toEqual([1, 2]);
    // a crash between a compaction's rename and its reset: the snapshot holds 1 and 2 already
    expect(continuation(state(2), [header(0), line(1), line(2), line(3)], FILE, 1, true).map((e) => e.seq)).toEqual([
      3,
    ]);
    // a header continuing an earlier seq than the snapshot's is fine; one beyond it is not
    expect(continuation(state(5), [header(5)], FILE, 1, true)).toEqual([]);
    expect(thrown(() => continuation(state(5), [header(6)], FILE, 1, true)).message).toContain(
      `'${FILE}': it continues entry 6, the state file holds 5.`,
    );
    // a tail read in the middle of the file has no header
    expect(continuation(state(3), [line(4), line(5)], FILE, 9, false).map((e) => e.seq)).toEqual([4, 5]);
  });

  it("a gap, a header inside, or no header first is an error naming the line", () => {
    expect(thrown(() => continuation(state(0), [header(0), line(1), line(3)], FILE, 1, true)).message).toContain(
      `'${FILE}': line 3 is entry 3, expected 2.`,
    );
    expect(thrown(() => continuation(state(3), [line(5)], FILE, 7, false)).message).toContain(
      "line 7 is entry 5, expected 4.",
    );
    expect(thrown(() => continuation(state(0), [header(0), line(1), header(1)], FILE, 1, true)).message).toContain(
      "line 3 is a header within the journal.",
    );
    expect(thrown(() => continuation(state(0), [header(0)], FILE, 5, false)).message).toContain(
      "line 5 is a header within the journal.",
    );
    expect(thrown(() => continuation(state(0), [line(1)], FILE, 1, true)).message).toContain(
      "line 1 is not a journal header.",
    );
    // a line that does not parse is named by its place in the file
    expect(thrown(() => continuation(state(0), [header(0), line(1), "{"], FILE, 1, true)).message).toContain(
      "line 3 is not JSON.",
    );
    expect(thrown(() => continuation(state(3), [line(4), "[]"], FILE, 10, false)).message).toContain(
      "line 11 is not an object.",
    );
    // the state's seq is the base of the count, not the skipped lines
    expect(thrown(() => continuation(state(2), [header(0), line(1), line(4)], FILE, 1, true)).message).toContain(
      "line 3 is entry 4, expected 3.",
    );
  });
});

describe("journal files", () => {
  it("cuts a partial line, removes the journal (absent is fine) and appends all of a buffer", () => {
    const dir = tempDataDir();
    const file = join(dir, "a.journal");
    writeFileSync(file, "one\ntw");
    cutPartialLine(file, 4);
    expect(readFileSync(file, "utf8")).toBe("one\n");
    const fd = openSync(file, "a+");
    appendAll(fd, Buffer.from("two\n"), 4, file);
    expect(readFileSync(file, "utf8")).toBe("one\ntwo\n");
    removeJournal(file);
    expect(readdirSync(dir)).toEqual([]);
    removeJournal(file);
    // a journal that cannot be removed (a directory of that name) is an error, not a silent pass
    mkdirSync(file);
    expect(() => removeJournal(file)).toThrow(/EISDIR|EPERM/);
  });
});

describe("no descriptor is left open", () => {
  const openFds = () => readdirSync("/proc/self/fd").length;

  it.runIf(process.platform === "linux")("by cutting a partial line or writing a snapshot, 40 times over", () => {
    const dir = tempDataDir();
    const journal = join(dir, "x.journal");
    const snapshot = join(dir, "x.json");
    const before = openFds();
    for (let i = 0; i < 40; i++) {
      writeFileSync(journal, "one\ntw");
      cutPartialLine(journal, 4);
      writeFileAtomic(snapshot, `{"n":${i}}`);
    }
    expect(openFds() - before).toBeLessThan(20);
    expect(readFileSync(journal, "utf8")).toBe("one\n");
    expect(readFileSync(snapshot, "utf8")).toBe('{"n":39}');
  });
});

describe("snapshot files", () => {
  const valid = () => newPaperState("default", 1000, 1);
  const refusal = (value: unknown, text = JSON.stringify(value)) =>
    thrown(() => parseSnapshot(text, "/d/paper/default.json")).detail;

  it("names what is wrong in the snapshot", () => {
    const prefix = "Corrupt paper state file '/d/paper/default.json': ";
    const suffix = ". It was left untouched; move it away to start the account afresh.";
    expect(refusal(undefined, "{")).toMatch(/^Corrupt paper state file '\/d\/paper\/default.json': not JSON \(.+\)\./);
    expect(refusal([])).toBe(`${prefix}not an object${suffix}`);
    expect(thrown(() => parseSnapshot("[]", "f")).exchange).toBe("paper");
    expect(refusal(null)).toBe(`${prefix}not an object${suffix}`);
    expect(refusal(5)).toBe(`${prefix}not an object${suffix}`);
    expect(refusal({ ...valid(), version: 3 })).toBe(`${prefix}unknown version 3${suffix}`);
    expect(refusal({ ...valid(), version: "2" })).toBe(`${prefix}unknown version "2"${suffix}`);
    for (const field of ["createdAt", "seq", "lastBucket", "nextId"]) {
      expect(refusal({ ...valid(), [field]: 1.5 })).toBe(`${prefix}'${field}' is not an integer${suffix}`);
    }
    expect(refusal({ ...valid(), account: 1 })).toBe(`${prefix}'account' is not a string${suffix}`);
    for (const balances of [null, [], "x"])
      expect(refusal({ ...valid(), balances })).toBe(`${prefix}'balances' is not an object${suffix}`);
    expect(refusal({ ...valid(), balances: { ETH: { free: "1", locked: "x" } } })).toBe(
      `${prefix}balance of 'ETH' is not {free, locked} as non-negative decimal strings${suffix}`,
    );
    expect(refusal({ ...valid(), orders: {} })).toBe(`${prefix}'orders' is not a list${suffix}`);
    expect(refusal({ ...valid(), orders: [order(), order({ side: "x" })] })).toBe(
      `${prefix}order #2 is malformed${suffix}`,
    );
    for (const taken of [null, [], 1])
      expect(refusal({ ...valid(), taken })).toBe(`${prefix}'taken' is not an object${suffix}`);
    expect(refusal({ ...valid(), taken: { "k|1": [1] } })).toBe(`${prefix}taken entry 'k|1' is malformed${suffix}`);
  });

  it("reads a version 2 snapshot as it is and a version 1 file as seq 0", () => {
    const state = { ...valid(), seq: 17, orders: [order()], taken: { k: [1, 2] } };
    expect(parseSnapshot(JSON.stringify(state), "f")).toEqual({ state, legacy: false });
    expect(parseState(JSON.stringify(state), "f")).toEqual(state);
    const { seq: _seq, ...v1 } = { ...valid(), version: 1, seq: 9 };
    const read = parseSnapshot(JSON.stringify(v1), "f");
    expect(read.legacy).toBe(true);
    expect(read.state.version).toBe(2);
    expect(read.state.seq).toBe(0);
    // a version 1 file with a seq of its own still starts at 0
    expect(parseSnapshot(JSON.stringify({ ...v1, seq: 9 }), "f").state.seq).toBe(0);
  });

  it("writes atomically: the content, mode 0600, no temp file left; a failed rename leaves no temp file", () => {
    const dir = tempDataDir();
    const file = join(dir, "s.json");
    writeFileAtomic(file, "first");
    writeFileAtomic(file, "second");
    expect(readFileSync(file, "utf8")).toBe("second");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["s.json"]);
    // the target is a non-empty directory: the rename fails and the temp file is removed
    const blocked = join(dir, "blocked");
    mkdirSync(join(blocked, "inside"), { recursive: true });
    expect(() => writeFileAtomic(blocked, "x")).toThrow();
    expect(readdirSync(dir).sort()).toEqual(["blocked", "s.json"]);
  });
});
