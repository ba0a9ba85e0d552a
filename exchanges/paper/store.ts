import {
  closeSync,
  fstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  type Stats,
  statSync,
  unlinkSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import { ExchangeError } from "../../lib/errors.js";
import {
  appendAll,
  completeLines,
  continuation,
  cutPartialLine,
  headerLine,
  journalFileOf,
  removeJournal,
} from "./journal.js";
import { acquireLock, type HeldLock, type LockOptions } from "./lock.js";
import { parseSnapshot, writeFileAtomic } from "./snapshot.js";
import { applyEntries, type JournalEntry, type PaperState, StateChanges } from "./state.js";

export { parseState, writeFileAtomic } from "./snapshot.js";

/**
 * Where and how a paper account lives on disk (docs/paper-store.md):
 *
 * - `<dataDir>/paper/<account>.json`, the snapshot: the whole state as of journal entry `seq`,
 *   only ever replaced atomically (temp file, fsync, rename);
 * - `<account>.journal`, one JSON line per call that changed something since (journal.ts);
 * - `<account>.json.lock` while a call runs (lock.ts): every call, in any process, is a locked
 *   read-modify-append; the calls of one process run in groups under one taking of the lock,
 *   appended in one write (group commit, AccountStore.transact).
 *
 * A call appends only the rows it changed, so its cost does not grow with the account's history;
 * when the journal outgrows the snapshot, the call that noticed writes a new snapshot and starts
 * the journal over. Within one process the account's state stays in memory between calls and only
 * what other processes appended since is read. A file that is not a paper state or journal is an
 * error naming it, and is never overwritten.
 */

/**
 * spotdesk's data directory: SPOTDESK_DATA_DIR, else the platform's user data directory
 * ($XDG_DATA_HOME/spotdesk or ~/.local/share/spotdesk; ~/Library/Application Support/spotdesk on
 * macOS; %LOCALAPPDATA%\spotdesk on Windows). Not env-paths, unlike the credential store: its
 * Windows data directory is %LOCALAPPDATA%\spotdesk\Data, where existing accounts are not.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.SPOTDESK_DATA_DIR) return env.SPOTDESK_DATA_DIR;
  const home = homedir();
  if (platform === "win32") return join(env.LOCALAPPDATA || join(home, "AppData", "Local"), "spotdesk");
  if (platform === "darwin") return join(home, "Library", "Application Support", "spotdesk");
  return join(env.XDG_DATA_HOME || join(home, ".local", "share"), "spotdesk");
}

const ACCOUNT_RE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function assertAccountName(account: string): string {
  if (!ACCOUNT_RE.test(account)) {
    throw new ExchangeError(
      "paper",
      `Invalid paper account name '${account}': use letters, digits, '.', '_' or '-' (at most 64)`,
      {
        kind: "bad-input",
      },
    );
  }
  return account;
}

/** The snapshot file of a paper account. */
export function paperStateFile(dataDir: string, account: string): string {
  return join(dataDir, "paper", `${assertAccountName(account)}.json`);
}

/** The journal file of a paper account. */
export function paperJournalFile(dataDir: string, account: string): string {
  return journalFileOf(paperStateFile(dataDir, account));
}

const escapeRe = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Removes what a process killed in the middle of a call leaves beside the account: the temp file
 * of a snapshot it was writing, the moved-aside lock of a stale-lock break. Only under the lock.
 */
function removeLeftovers(file: string, lockFile: string): void {
  const temp = new RegExp(`^${escapeRe(basename(file))}\\.\\d+\\.[0-9a-f]+\\.tmp$`);
  const aside = new RegExp(`^${escapeRe(basename(lockFile))}\\.stale-\\d+-[0-9a-f]+$`);
  let names: string[];
  try {
    names = readdirSync(dirname(file));
  } catch {
    return;
  }
  for (const name of names) {
    if (!temp.test(name) && !aside.test(name)) continue;
    try {
      unlinkSync(join(dirname(file), name));
    } catch {
      // gone already
    }
  }
}

function statOrUndefined(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function readOrUndefined(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new ExchangeError("paper", `Cannot read paper account file '${file}': ${(error as Error).message}`, {
      kind: "bad-input",
      cause: error,
    });
  }
}

/** A file as last seen: any field that differs means it was replaced or edited since. */
interface FileMark {
  ino: number;
  size: number;
  mtimeMs: number;
}
const markOf = (stats: Stats | undefined): FileMark | undefined =>
  stats && { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
const sameMark = (a: FileMark | undefined, b: FileMark | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.ino === b.ino && a.size === b.size && a.mtimeMs === b.mtimeMs);

/** The journal as far as the state in memory includes it. */
interface JournalView {
  ino: number;
  /** bytes of complete lines read or written */
  size: number;
  /** the last of those lines, newline included (empty when size is 0) */
  last: Buffer;
}

/** One account's files and its state as of them. */
interface Loaded {
  state: PaperState | undefined;
  snapshot: FileMark | undefined;
  snapshotBytes: number;
  journal: JournalView | undefined;
  /** the journal, open for reading and appending while this process keeps the account */
  fd: number | undefined;
}

/**
 * Reads an account from its files. `repair` (only under the lock) converts a version 1 snapshot
 * and cuts off a partial last journal line left by a crash.
 */
function loadAccount(file: string, journalFile: string, repair: boolean): Loaded {
  const snapshotStats = statOrUndefined(file);
  const text = snapshotStats && readOrUndefined(file);
  if (text === undefined)
    return { state: undefined, snapshot: undefined, snapshotBytes: 0, journal: undefined, fd: undefined };
  const { state, legacy } = parseSnapshot(text.toString("utf8"), file);
  if (legacy) {
    if (!repair)
      return { state, snapshot: markOf(snapshotStats), snapshotBytes: text.length, journal: undefined, fd: undefined };
    // Converted once, before any journal: an older spotdesk then refuses the file ("unknown
    // version 2") rather than overwrite it without the journal's changes.
    const converted = JSON.stringify(state);
    writeFileAtomic(file, converted);
    removeJournal(journalFile);
    return {
      state,
      snapshot: markOf(statSync(file)),
      snapshotBytes: converted.length,
      journal: undefined,
      fd: undefined,
    };
  }
  const loaded: Loaded = {
    state,
    snapshot: markOf(snapshotStats),
    snapshotBytes: text.length,
    journal: undefined,
    fd: undefined,
  };
  const journalStats = statOrUndefined(journalFile);
  const journal = journalStats && readOrUndefined(journalFile);
  if (journalStats === undefined || journal === undefined) return loaded;
  const { lines, bytes, last } = completeLines(journal);
  applyEntries(state, continuation(state, lines, journalFile, 1, true));
  loaded.journal = { ino: journalStats.ino, size: bytes, last };
  if (repair && journal.length > bytes) cutPartialLine(journalFile, bytes);
  return loaded;
}

/** A journal longer than this and than its snapshot is folded into a new snapshot. */
export const MIN_COMPACT_BYTES = 64 * 1024;
/** Accounts a process keeps in memory (with their journal open); the least recently used go. */
const MAX_CACHED_ACCOUNTS = 64;

/** The accounts of this process, by snapshot file: their state stays in memory between calls. */
const cache = new Map<string, Loaded>();

function forget(file: string): void {
  const loaded = cache.get(file);
  cache.delete(file);
  if (loaded?.fd !== undefined) {
    try {
      closeSync(loaded.fd);
    } catch {
      // closed already
    }
  }
}

function remember(file: string, loaded: Loaded): void {
  cache.delete(file);
  cache.set(file, loaded);
  while (cache.size > MAX_CACHED_ACCOUNTS) forget(cache.keys().next().value as string);
}

/** At most this many calls of one account run under one taking of its lock (a group). */
export const MAX_GROUP_CALLS = 64;
let groupLimit = MAX_GROUP_CALLS;

/**
 * Sets how many calls a group may hold (1: one call per taking of the lock, as before group
 * commit), for the bench's before/after in one process; returns the previous limit.
 */
export function setGroupLimit(calls: number): number {
  if (!Number.isSafeInteger(calls) || calls < 1)
    throw new RangeError(`group limit must be a positive integer, got ${calls}`);
  const previous = groupLimit;
  groupLimit = calls;
  return previous;
}

/**
 * A group starts without waiting for the event loop's turn to end once this many calls arrived
 * since the last one (a turn in which the server reads many requests would otherwise hold the
 * first ones back until it has routed them all).
 */
const WAKE_CALLS = 8;

/** A group that lost its lock (broken as stale) is run again at most this many times. */
const MAX_LOCK_LOSSES = 3;

type Work<T> = (existing: PaperState | undefined, changes: StateChanges) => Outcome<T>;

/** A call waiting for its account in this process. */
interface Call {
  store: AccountStore;
  work: Work<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** groups this call was in that lost the lock before its entry was written */
  losses: number;
}

/** The calls of one account waiting in this process, and whether a drain of them is under way. */
interface Lane {
  calls: Call[];
  draining: boolean;
  /** calls that arrived since the lane began waiting for its next group */
  arrived: number;
  /** starts the next group now rather than on the event loop's next turn */
  wake: (() => void) | undefined;
}
const lanes = new Map<string, Lane>();

/** What a group did with each call: settled once the lock is released. */
type Settled = { call: Call; ok: true; value: unknown } | { call: Call; ok: false; error: unknown };

/** Thrown inside a group when its lock was broken as stale: nothing more may be written. */
class LostLock extends Error {}

/** Runs the groups of an account's waiting calls, one after the other, until none is left. */
async function drain(file: string, lane: Lane): Promise<void> {
  while (lane.calls.length > 0) {
    // Calls that arrive in this turn of the event loop join the group; and between two groups
    // the lock file is free for other processes (their waiting polls it) while this process does
    // its other I/O. Once WAKE_CALLS calls have arrived meanwhile, it need not wait for the turn
    // to end (a server reading 200 requests in one turn answers the first ones sooner).
    lane.arrived = 0;
    await new Promise<void>((resolve) => {
      const timer = setImmediate(() => {
        lane.wake = undefined;
        resolve();
      });
      lane.wake = () => {
        clearImmediate(timer);
        lane.wake = undefined;
        resolve();
      };
    });
    const first = lane.calls[0];
    if (!first) break;
    await first.store.runGroup(lane);
  }
  lane.draining = false;
  if (lanes.get(file) === lane && lane.calls.length === 0) lanes.delete(file);
}

/** What a transaction returns: its result, and the state it worked on (a new account's state). */
export interface Outcome<T> {
  result: T;
  state: PaperState;
}

export interface AccountStoreOptions extends LockOptions {
  dataDir: string;
  account: string;
  /** the journal is folded into a new snapshot beyond this size, and beyond the snapshot's (64 KiB) */
  compactBytes?: number;
}

export class AccountStore {
  readonly file: string;
  readonly journalFile: string;
  readonly lockFile: string;
  private readonly lockOptions: LockOptions;
  private readonly compactBytes: number;

  constructor(options: AccountStoreOptions) {
    this.compactBytes = options.compactBytes ?? MIN_COMPACT_BYTES;
    this.file = paperStateFile(options.dataDir, options.account);
    this.journalFile = journalFileOf(this.file);
    this.lockFile = `${this.file}.lock`;
    this.lockOptions = {
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.staleMs !== undefined ? { staleMs: options.staleMs } : {}),
    };
  }

  /**
   * The account's state on disk, or undefined when it does not exist yet; read without the lock
   * (a snapshot is replaced atomically and a journal only grows, save for a compaction, which a
   * second attempt then sees whole).
   */
  read(): PaperState | undefined {
    return readPaperAccount(this.file);
  }

  /**
   * One read-modify-write under the account's lock. `work` gets the current state (undefined when
   * the account is new) and a recorder for what it changes (the engine's), and returns its result
   * and the state (the new one, for a new account). What it changed is appended to the journal.
   * When it throws, nothing it changed after `changes.checkpoint()` is kept.
   *
   * Calls of one account in this process queue, and run in groups (group commit,
   * docs/paper-store.md "A call"): up to MAX_GROUP_CALLS of them under one taking of the lock,
   * each with its own changes, their entries appended in one write; each call is answered once its
   * entry is written and the lock released.
   */
  transact<T>(work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let lane = lanes.get(this.file);
      if (!lane) {
        lane = { calls: [], draining: false, arrived: 0, wake: undefined };
        lanes.set(this.file, lane);
      }
      lane.calls.push({
        store: this,
        work: work as Work<unknown>,
        resolve: resolve as (value: unknown) => void,
        reject,
        losses: 0,
      });
      if (!lane.draining) {
        lane.draining = true;
        void drain(this.file, lane);
      } else if (++lane.arrived >= Math.min(groupLimit, WAKE_CALLS) && lane.wake) lane.wake();
    });
  }

  /**
   * Takes the lock, runs a group of the lane's calls, releases the lock, then answers them
   * (internal: called by drain(), never throws).
   */
  async runGroup(lane: Lane): Promise<void> {
    const waited = lane.calls.length;
    let lock: HeldLock;
    try {
      if (!cache.has(this.file)) mkdirSync(dirname(this.file), { recursive: true });
      lock = await acquireLock(this.lockFile, this.lockOptions);
    } catch (error) {
      // the calls that waited for this lock fail; calls that came meanwhile try again
      for (const call of lane.calls.splice(0, waited)) call.reject(error);
      return;
    }
    const group = lane.calls.splice(0, groupLimit);
    let settled: Settled[] = [];
    let retry: Call[] = [];
    try {
      ({ settled, retry } = this.runLocked(group, lock));
    } catch (error) {
      // runLocked answers every call itself; should it throw all the same, no call waits forever
      settled = group.map((call) => ({ call, ok: false, error }));
    } finally {
      try {
        lock.release();
      } catch {
        // an unreadable lock file: it is judged stale by age (lock.ts)
      }
    }
    if (retry.length > 0) lane.calls.unshift(...retry);
    for (const outcome of settled) {
      if (outcome.ok) outcome.call.resolve(outcome.value);
      else outcome.call.reject(outcome.error);
    }
  }

  /**
   * A group under the lock. Each call runs on the state the calls before it left, with changes of
   * its own: one that fails keeps nothing it changed after its checkpoint (the entries of the
   * calls before it are written first, and the account is read again), and the others go on.
   * Nothing is answered before the entries it depends on are written: a read that saw the changes
   * of an earlier call in the group waits for that call's entry as well.
   */
  private runLocked(group: Call[], lock: HeldLock): { settled: Settled[]; retry: Call[] } {
    const settled: Settled[] = [];
    /** entries not written yet, and the calls (changes and reads) answered once they are */
    let lines: Buffer[] = [];
    let waiting: Array<{ call: Call; value: unknown }> = [];
    let base = 0;
    const flush = (loaded: Loaded): void => {
      // a read answered from a state another holder may have changed since is run again too
      if ((lines.length > 0 || waiting.length > 0) && !lock.isHeld()) throw new LostLock();
      if (lines.length > 0) this.append(loaded, lines, base);
      for (const { call, value } of waiting) settled.push({ call, ok: true, value });
      lines = [];
      waiting = [];
    };
    const entryOf = (state: PaperState, changes: StateChanges): Buffer => {
      if (lines.length === 0) base = state.seq;
      const entry = changes.entry(state, state.seq + 1);
      state.seq = entry.seq;
      return Buffer.from(`${JSON.stringify(entry)}\n`);
    };
    let next = 0;
    try {
      if (lock.brokeStale) removeLeftovers(this.file, this.lockFile);
      let loaded = this.current();
      for (; next < group.length; next++) {
        const call = group[next]!;
        const state = loaded.state;
        const changes = new StateChanges();
        let outcome: Outcome<unknown>;
        try {
          outcome = call.work(state, changes);
        } catch (error) {
          if (state === undefined || changes.changedSinceCheckpoint) {
            // What the call changed in memory before it failed must not outlive it: the calls
            // before it are written, and the account is read again for the calls after it.
            flush(loaded);
            forget(this.file);
            settled.push({ call, ok: false, error });
            try {
              loaded = this.current();
            } catch (readError) {
              next++;
              throw readError;
            }
            continue;
          }
          // what the market replay changed before the checkpoint is kept (the next call would redo it)
          if (!changes.empty) lines.push(entryOf(state, changes));
          settled.push({ call, ok: false, error });
          continue;
        }
        if (state === undefined) {
          if (!lock.isHeld()) throw new LostLock();
          this.create(outcome.state);
          loaded = cache.get(this.file)!;
          settled.push({ call, ok: true, value: outcome.result });
          continue;
        }
        if (!changes.empty) lines.push(entryOf(state, changes));
        waiting.push({ call, value: outcome.result });
      }
      flush(loaded);
      return { settled, retry: [] };
    } catch (error) {
      forget(this.file);
      // the calls not answered yet: those whose entries were not written, and those not run
      const unsettled = [...waiting.map((w) => w.call), ...group.slice(next)];
      if (!(error instanceof LostLock)) {
        for (const call of unsettled) settled.push({ call, ok: false, error });
        return { settled, retry: [] };
      }
      // Our lock was broken as stale (a pause longer than staleMs): run them again rather than
      // write over what the new holder wrote.
      const retry: Call[] = [];
      for (const call of unsettled) {
        if (++call.losses < MAX_LOCK_LOSSES) retry.push(call);
        else
          settled.push({
            call,
            ok: false,
            error: new ExchangeError("paper", `Lost the lock on '${this.file}' repeatedly; nothing was saved`, {
              kind: "network",
              code: "ELOCKED",
            }),
          });
      }
      return { settled, retry };
    }
  }

  /** The account as on disk now (under the lock): the cached state brought up to date, or loaded. */
  private current(): Loaded {
    const cached = cache.get(this.file);
    if (cached) {
      try {
        if (this.catchUp(cached)) {
          remember(this.file, cached);
          return cached;
        }
      } catch (error) {
        forget(this.file);
        throw error;
      }
      forget(this.file);
    } else {
      // A process's first call on the account: clear what a crashed one may have left.
      removeLeftovers(this.file, this.lockFile);
    }
    const loaded = loadAccount(this.file, this.journalFile, true);
    remember(this.file, loaded);
    return loaded;
  }

  /**
   * Applies what other processes appended since this process last looked; false when the files
   * changed otherwise (a new snapshot, an edit, a deletion) and the account must be read afresh.
   */
  private catchUp(cached: Loaded): boolean {
    const state = cached.state;
    if (!state || !sameMark(markOf(statOrUndefined(this.file)), cached.snapshot)) return false;
    const stats = statOrUndefined(this.journalFile);
    const view = cached.journal;
    if (!stats || !view) return !stats && !view;
    if (stats.ino !== view.ino || stats.size < view.size) return false;
    const fd = this.journalFd(cached);
    if (view.last.length > 0) {
      const seen = Buffer.alloc(view.last.length);
      readSync(fd, seen, 0, seen.length, view.size - seen.length);
      if (!seen.equals(view.last)) return false;
    }
    if (stats.size === view.size) return true;
    const tail = Buffer.alloc(stats.size - view.size);
    const got = readSync(fd, tail, 0, tail.length, view.size);
    const { lines, bytes, last } = completeLines(tail.subarray(0, got));
    let entries: JournalEntry[];
    try {
      entries = continuation(state, lines, this.journalFile, Number.NaN, view.size === 0);
    } catch {
      return false; // read afresh: the full read names the line if the journal is really corrupt
    }
    applyEntries(state, entries);
    if (bytes > 0) cached.journal = { ino: view.ino, size: view.size + bytes, last };
    // a partial line of a process that died while appending (we hold the lock)
    if (got > bytes) ftruncateSync(fd, view.size + bytes);
    return true;
  }

  private journalFd(loaded: Loaded): number {
    if (loaded.fd === undefined) loaded.fd = openSync(this.journalFile, "a+", 0o600);
    return loaded.fd;
  }

  /** A new account: its first snapshot (a journal left from a deleted account goes first). */
  private create(state: PaperState): void {
    const text = JSON.stringify(state);
    try {
      removeJournal(this.journalFile);
      writeFileAtomic(this.file, text);
    } catch (error) {
      forget(this.file);
      throw error;
    }
    forget(this.file);
    remember(this.file, {
      state,
      snapshot: markOf(statSync(this.file)),
      snapshotBytes: text.length,
      journal: undefined,
      fd: undefined,
    });
  }

  /**
   * Appends the entries of a group in one write (after a header when the journal is new or a crash
   * emptied it; `base` is the seq they continue); folds the journal into the snapshot when it is long.
   */
  private append(loaded: Loaded, lines: readonly Buffer[], base: number): void {
    const state = loaded.state!;
    try {
      const fd = this.journalFd(loaded);
      let data = lines.length === 1 ? lines[0]! : Buffer.concat(lines);
      let view = loaded.journal;
      if (!view || view.size === 0) {
        ftruncateSync(fd, 0);
        data = Buffer.concat([headerLine(base), data]);
        appendAll(fd, data, 0, this.journalFile);
        view = { ino: fstatSync(fd).ino, size: 0, last: Buffer.alloc(0) };
      } else {
        appendAll(fd, data, view.size, this.journalFile);
      }
      loaded.journal = { ino: view.ino, size: view.size + data.length, last: lines.at(-1)! };
    } catch (error) {
      forget(this.file);
      throw error;
    }
    if (loaded.journal.size > Math.max(this.compactBytes, loaded.snapshotBytes)) {
      // The entries are written: their calls succeeded whatever happens to this housekeeping (a
      // full disk leaves the old snapshot and journal, which still read as the account).
      try {
        this.compact(loaded, state, loaded.fd!);
      } catch {
        forget(this.file);
      }
    }
  }

  /** A new snapshot of the whole state, then an empty journal continuing from it. */
  private compact(loaded: Loaded, state: PaperState, fd: number): void {
    const text = JSON.stringify(state);
    writeFileAtomic(this.file, text);
    // A crash here leaves the old journal: its entries are all in the snapshot and are skipped.
    ftruncateSync(fd, 0);
    const header = headerLine(state.seq);
    appendAll(fd, header, 0, this.journalFile);
    loaded.snapshot = markOf(statSync(this.file));
    loaded.snapshotBytes = text.length;
    loaded.journal = { ino: loaded.journal!.ino, size: header.length, last: header };
  }
}

/**
 * What changes when a paper account does: for a reader that polls (the paper feed) without
 * reading the files each time.
 */
export function paperAccountMark(file: string): string {
  const snapshot = statOrUndefined(file);
  const journal = statOrUndefined(journalFileOf(file));
  return `${snapshot?.ino ?? 0}:${snapshot?.mtimeMs ?? 0}|${journal?.ino ?? 0}:${journal?.size ?? 0}:${journal?.mtimeMs ?? 0}`;
}

/** An account's state read without the lock (see AccountStore.read). */
export function readPaperAccount(file: string): PaperState | undefined {
  const journalFile = journalFileOf(file);
  for (let attempt = 0; ; attempt++) {
    try {
      return loadAccount(file, journalFile, false).state;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}
