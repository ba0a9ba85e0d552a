import { closeSync, ftruncateSync, openSync, unlinkSync, writeSync } from "node:fs";
import { ExchangeError } from "../../lib/errors.js";
import { randomHex } from "../../lib/random.js";
import type { BalanceRow, JournalEntry, PaperFees, PaperOrderRecord, PaperState, TakenEntry } from "./state.js";

/**
 * The journal of a paper account, `<account>.journal` beside its snapshot `<account>.json`
 * (docs/paper-store.md): JSON lines, appended one per call that changed something.
 *
 *   {"journal":1,"base":120,"id":"5f0c2a91"}          header: the snapshot seq it continues
 *   {"seq":121,"lastBucket":…,"nextId":…,"orders":[…],"balances":{…}}
 *
 * A line counts only once its newline is written: a crash in the middle of an append leaves a
 * partial last line, which readers skip and the next writer cuts off. Parsing is by hand (no
 * schema library), as for the snapshot: every CLI call on paper reads this file.
 */

export const JOURNAL_FORMAT = 1;

export interface JournalHeader {
  journal: typeof JOURNAL_FORMAT;
  /** the snapshot seq the entries continue from */
  base: number;
  /** tells this journal from an earlier one of the same account */
  id: string;
}

export type JournalLine = { header: JournalHeader } | { entry: JournalEntry };

/** The journal file of a snapshot file: `<account>.journal` for `<account>.json`. */
export function journalFileOf(stateFile: string): string {
  return `${stateFile.replace(/\.json$/, "")}.journal`;
}

export function corruptJournal(file: string, reason: string): ExchangeError {
  return new ExchangeError(
    "paper",
    `Corrupt paper journal '${file}': ${reason}. It was left untouched; move it and the account's .json away to start the account afresh.`,
    { kind: "bad-input" },
  );
}

const NEWLINE = 0x0a;

/** Complete lines of a journal chunk and the byte length they span (a partial last line is left out). */
export function completeLines(chunk: Buffer): { lines: string[]; bytes: number; last: Buffer } {
  const end = chunk.lastIndexOf(NEWLINE);
  if (end < 0) return { lines: [], bytes: 0, last: Buffer.alloc(0) };
  const text = chunk.toString("utf8", 0, end);
  const lines = text.split("\n");
  // (a negative offset would count from the chunk's end: a chunk starting with its only newline)
  const lastStart = end > 0 ? chunk.lastIndexOf(NEWLINE, end - 1) + 1 : 0;
  return { lines, bytes: end + 1, last: Buffer.from(chunk.subarray(lastStart, end + 1)) };
}

const DECIMAL_RE = /^\d+(\.\d+)?$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function isBalanceRow(value: unknown): value is BalanceRow {
  return (
    isObject(value) &&
    typeof value.free === "string" &&
    typeof value.locked === "string" &&
    DECIMAL_RE.test(value.free) &&
    DECIMAL_RE.test(value.locked)
  );
}

export function isOrderRecord(value: unknown): value is PaperOrderRecord {
  if (!isObject(value)) return false;
  const o = value;
  return (
    typeof o.id === "string" &&
    typeof o.clientOrderId === "string" &&
    typeof o.pair === "string" &&
    (o.side === "Buy" || o.side === "Sell") &&
    typeof o.price === "string" &&
    DECIMAL_RE.test(o.price) &&
    typeof o.amount === "string" &&
    DECIMAL_RE.test(o.amount) &&
    typeof o.filled === "string" &&
    DECIMAL_RE.test(o.filled) &&
    (o.cost === undefined || (typeof o.cost === "string" && DECIMAL_RE.test(o.cost))) &&
    (o.fee === undefined || (typeof o.fee === "string" && DECIMAL_RE.test(o.fee))) &&
    (o.status === "open" || o.status === "closed" || o.status === "canceled") &&
    Number.isSafeInteger(o.timestamp) &&
    Number.isSafeInteger(o.updatedAt) &&
    Number.isSafeInteger(o.bucket)
  );
}

export function isPaperFees(value: unknown): value is PaperFees {
  return (
    isObject(value) &&
    typeof value.maker === "string" &&
    typeof value.taker === "string" &&
    DECIMAL_RE.test(value.maker) &&
    DECIMAL_RE.test(value.taker)
  );
}

export function isTakenEntry(value: unknown): value is TakenEntry {
  return Array.isArray(value) && value.length === 2 && value.every((n) => Number.isSafeInteger(n));
}

/** One line of a journal, checked; `lineNo` (1-based) names it in the error. */
export function parseJournalLine(text: string, file: string, lineNo: number): JournalLine {
  const fail = (what: string): never => {
    throw corruptJournal(file, `line ${lineNo} ${what}`);
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    fail("is not JSON");
  }
  if (!isObject(value)) return fail("is not an object");
  if ("journal" in value) {
    if (value.journal !== JOURNAL_FORMAT) fail(`has an unknown journal format ${JSON.stringify(value.journal)}`);
    if (!Number.isSafeInteger(value.base) || typeof value.id !== "string") fail("is not a journal header");
    return { header: value as unknown as JournalHeader };
  }
  for (const field of ["seq", "lastBucket", "nextId"] as const) {
    if (!Number.isSafeInteger(value[field])) fail(`has no integer '${field}'`);
  }
  const { balances, orders, dropped, taken, countdowns, fees } = value;
  if (fees !== undefined && !isPaperFees(fees)) fail("has malformed fees");
  if (balances !== undefined && !(isObject(balances) && Object.values(balances).every(isBalanceRow)))
    fail("has malformed balances");
  if (orders !== undefined && !(Array.isArray(orders) && orders.every(isOrderRecord))) fail("has a malformed order");
  if (dropped !== undefined && !(Array.isArray(dropped) && dropped.every((id) => typeof id === "string")))
    fail("has malformed dropped ids");
  if (taken !== undefined && !(isObject(taken) && Object.values(taken).every((t) => t === null || isTakenEntry(t))))
    fail("has malformed taken liquidity");
  if (
    countdowns !== undefined &&
    !(isObject(countdowns) && Object.values(countdowns).every((d) => d === null || Number.isSafeInteger(d)))
  )
    fail("has malformed countdowns");
  return { entry: value as unknown as JournalEntry };
}

/** The journal's entries that continue `state`, checked: each one the next seq. */
export function continuation(
  state: PaperState,
  lines: readonly string[],
  journalFile: string,
  firstLineNo: number,
  atStart: boolean,
): JournalEntry[] {
  const entries: JournalEntry[] = [];
  let seq = state.seq;
  lines.forEach((text, i) => {
    const line = parseJournalLine(text, journalFile, firstLineNo + i);
    if ("header" in line) {
      if (!atStart || i !== 0)
        throw corruptJournal(journalFile, `line ${firstLineNo + i} is a header within the journal`);
      if (line.header.base > seq)
        throw corruptJournal(journalFile, `it continues entry ${line.header.base}, the state file holds ${seq}`);
      return;
    }
    if (atStart && i === 0) throw corruptJournal(journalFile, "line 1 is not a journal header");
    const { entry } = line;
    // entries the snapshot already holds: a crash came between a compaction's rename and its reset
    if (entry.seq <= state.seq) return;
    if (entry.seq !== seq + 1)
      throw corruptJournal(journalFile, `line ${firstLineNo + i} is entry ${entry.seq}, expected ${seq + 1}`);
    seq = entry.seq;
    entries.push(entry);
  });
  return entries;
}

export function cutPartialLine(journalFile: string, bytes: number): void {
  const fd = openSync(journalFile, "r+");
  try {
    ftruncateSync(fd, bytes);
  } finally {
    closeSync(fd);
  }
}

export function removeJournal(journalFile: string): void {
  try {
    unlinkSync(journalFile);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

export function headerLine(base: number): Buffer {
  const header: JournalHeader = { journal: JOURNAL_FORMAT, base, id: randomHex(4) };
  return Buffer.from(`${JSON.stringify(header)}\n`);
}

/** Writes all of `data` at the journal's end; a short write is undone and is an error. */
export function appendAll(fd: number, data: Buffer, sizeBefore: number, journalFile: string): void {
  let written = 0;
  try {
    while (written < data.length) {
      // write(2) to a regular file takes the whole buffer or fails: the loop runs once, from 0 (docs/mutation.md, paper)
      // Stryker disable next-line ArithmeticOperator: see above
      const n = writeSync(fd, data, written, data.length - written);
      // Stryker disable next-line all: see above
      if (n <= 0) throw new Error("nothing written");
      written += n;
    }
  } catch (error) {
    ftruncateSync(fd, sizeBefore);
    throw new ExchangeError("paper", `Cannot append to paper journal '${journalFile}': ${(error as Error).message}`, {
      kind: "network",
      cause: error,
    });
  }
}
