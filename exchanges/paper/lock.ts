import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { ExchangeError } from "../../lib/errors.js";
import { randomHex } from "../../lib/random.js";

/**
 * An exclusive lock file beside the state file, so that two processes (two CLI calls, the TUI and
 * a script) never interleave their read-modify-write of one paper account.
 *
 * - Taken by creating the file with 'wx' (fails when it exists), holding the owner's pid, host,
 *   time and a random token.
 * - A lock whose owner is dead (same host, no such pid), or older than `staleMs`, is stale: it is
 *   moved aside and checked before removal, so two processes breaking the same stale lock cannot
 *   remove a fresh one.
 * - Waiters retry with a growing, jittered backoff until `timeoutMs`.
 * The holder keeps the lock only for a synchronous read-compute-write of a few milliseconds.
 *
 * Why not a lock library (issue 14): proper-lockfile, the maintained one, locks with mkdir and
 * judges staleness only by an mtime it refreshes on a timer (10 s by default), so a holder killed
 * with `kill -9` blocks every other process until that age has passed; it also knows no owner to
 * compare on release. This lock breaks a dead holder's lock at once (same host, pid gone), checks
 * its token before removing, and is synchronous, which paper's group commit needs
 * (docs/paper-store.md "A call"). Cheaper forms were measured and not taken: a symlink whose target
 * holds the owner (one system call to take) cost 1.1 ms on this ext4 with the JSON owner (a long
 * target takes a block) and 36-123 us with a short one, against 16-64 us for this file.
 */

export interface LockOptions {
  /** how long to wait for a busy lock before failing; 10 s unless configured */
  timeoutMs?: number;
  /** a lock older than this is taken to be abandoned; 30 s unless configured */
  staleMs?: number;
}

export const DEFAULT_LOCK_TIMEOUT_MS = 10_000;
export const DEFAULT_STALE_LOCK_MS = 30_000;
/** No lock is judged stale by age before this, whatever a process configures. */
export const MIN_STALE_LOCK_MS = 1_000;
/** A lock file still empty after this long was left by a process that died while creating it. */
const EMPTY_LOCK_GRACE_MS = 2_000;

export interface HeldLock {
  readonly path: string;
  /** true when a stale lock was broken to take this one: its holder died, maybe mid-write */
  readonly brokeStale: boolean;
  /** true while the lock file still carries this holder's token */
  isHeld(): boolean;
  release(): void;
}

interface LockOwner {
  pid: number;
  host: string;
  at: number;
  token: string;
}

let host: string | undefined;
/** The host name, asked once per process (a system call on every lock otherwise). */
const thisHost = (): string => (host ??= hostname());

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === "number" && typeof value.at === "number" && typeof value.token === "string") {
      return { pid: value.pid, host: String(value.host ?? ""), at: value.at, token: value.token };
    }
  } catch {
    // an unreadable owner is judged by the file's age below
  }
  return undefined;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return errorCode(error) === "EPERM";
  }
}

function isStale(path: string, text: string, staleMs: number): boolean {
  const owner = parseOwner(text);
  if (!owner) {
    try {
      return Date.now() - statSync(path).mtimeMs > EMPTY_LOCK_GRACE_MS;
    } catch {
      return false;
    }
  }
  if (Date.now() - owner.at > staleMs) return true;
  // A pid of 0 or below would name a process group to process.kill: such an owner is judged by age only.
  const checkable = Number.isSafeInteger(owner.pid) && owner.pid > 0 && owner.pid !== process.pid;
  return checkable && owner.host === thisHost() && !processAlive(owner.pid);
}

/** Removes a stale lock, unless it changed hands since it was judged stale. */
function breakStaleLock(path: string, judged: string): void {
  const aside = `${path}.stale-${process.pid}-${randomHex(4)}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return;
    throw error;
  }
  const moved = readText(aside);
  if (moved !== judged) {
    // Someone else broke the stale lock and took a fresh one first: give theirs back (link fails
    // if yet another lock exists already, which then wins; the owner's isHeld() check catches it).
    try {
      linkSync(aside, path);
    } catch {
      // see above
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // already gone
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function acquireLock(path: string, options: LockOptions = {}): Promise<HeldLock> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const staleMs = Math.max(MIN_STALE_LOCK_MS, options.staleMs ?? DEFAULT_STALE_LOCK_MS);
  const owner: LockOwner = {
    pid: process.pid,
    host: thisHost(),
    at: Date.now(),
    // Tells this holder from any other; not a secret, so no crypto module on every call.
    token: `${process.hrtime.bigint().toString(36)}-${Math.random().toString(36).slice(2)}`,
  };
  const deadline = Date.now() + timeoutMs;
  let delay = 2;
  let brokeStale = false;
  for (;;) {
    owner.at = Date.now();
    const text = JSON.stringify(owner);
    try {
      writeFileSync(path, text, { flag: "wx" });
      return heldLock(path, text, brokeStale);
    } catch (error) {
      if (errorCode(error) !== "EEXIST") throw error;
    }
    const current = readText(path);
    if (current === undefined) continue;
    if (isStale(path, current, staleMs)) {
      breakStaleLock(path, current);
      brokeStale = true;
      continue;
    }
    if (Date.now() >= deadline) {
      const holder = parseOwner(current);
      throw new ExchangeError(
        "paper",
        `The paper account is busy: '${path}' is held by process ${holder?.pid ?? "unknown"} for more than ${timeoutMs} ms. Remove the file if that process is gone.`,
        { kind: "network", code: "ELOCKED" },
      );
    }
    await sleep(delay + Math.random() * delay);
    delay = Math.min(delay * 1.5, 50);
  }
}

function heldLock(path: string, text: string, brokeStale: boolean): HeldLock {
  let released = false;
  const takenAt = Date.now();
  // No process breaks the lock of a live holder before it is MIN_STALE_LOCK_MS old: until half of
  // that has passed, the lock is ours without reading it back (two reads less per call).
  const surelyOurs = () => Date.now() - takenAt < MIN_STALE_LOCK_MS / 2;
  return {
    path,
    brokeStale,
    isHeld: () => !released && (surelyOurs() || readText(path) === text),
    release() {
      if (released) return;
      released = true;
      // Only our own lock is removed: a lock broken as stale may already belong to another process.
      if (surelyOurs() || readText(path) === text) {
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      }
    },
  };
}
