/**
 * One process at a time (docs/bots.md#safety-net "One runner per bot"): `spotdesk serve` on a data
 * directory, `spotdesk bot run` of one bot name. A lock file created with 'wx' holds the owner's pid,
 * host, start time and what it runs; it lives as long as the process, unlike paper's per-call lock
 * (exchanges/paper/lock.ts), so it is judged by its owner being alive, never by its age.
 *
 * - Taken when the file does not exist, or when its owner is gone: same host and no such process,
 *   or a file still empty or unreadable two seconds after it was written (its writer died creating it).
 * - Refused otherwise, naming the owner (pid, host, what, since when): a second runner stops at
 *   once, before it touches anything.
 * - Released by its owner only (the file still holds its token); a process killed with `kill -9`
 *   leaves the file, and the next start on the same host takes it over.
 */
import { readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { ExchangeError } from "../lib/errors.js";

export interface LockOwner {
  pid: number;
  host: string;
  /** ms since the epoch */
  startedAt: number;
  /** what the owner runs: "spotdesk serve", "spotdesk bot run grid-bot (name …)" */
  what: string;
  token: string;
}

export interface OwnerLock {
  readonly path: string;
  readonly owner: LockOwner;
  release(): void;
}

const EMPTY_GRACE_MS = 2000;

function codeOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function readOwner(path: string): { text: string; owner: LockOwner | undefined } | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if (codeOf(error) === "ENOENT") return undefined;
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    if (typeof value.pid === "number" && typeof value.token === "string")
      return {
        text,
        owner: {
          pid: value.pid,
          host: String(value.host ?? ""),
          startedAt: Number(value.startedAt ?? 0),
          what: String(value.what ?? "spotdesk"),
          token: value.token,
        },
      };
  } catch {
    // judged by the file's age below
  }
  return { text, owner: undefined };
}

function alive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return true; // cannot be checked: taken to be alive
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return codeOf(error) === "EPERM";
  }
}

function gone(path: string, owner: LockOwner | undefined): boolean {
  if (!owner) {
    try {
      return Date.now() - statSync(path).mtimeMs > EMPTY_GRACE_MS;
    } catch {
      return true;
    }
  }
  if (owner.pid === process.pid && owner.host === hostname()) return false;
  return owner.host === hostname() && !alive(owner.pid);
}

/** Moves a dead owner's file aside and removes it, unless it changed hands meanwhile. */
function breakDead(path: string, judged: string): void {
  const aside = `${path}.dead-${process.pid}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if (codeOf(error) === "ENOENT") return;
    throw error;
  }
  let moved = "";
  try {
    moved = readFileSync(aside, "utf8");
  } catch {
    // gone
  }
  if (moved !== judged) {
    // another process broke it first and took it: give theirs back
    try {
      renameSync(aside, path);
    } catch {
      // theirs wins
    }
    return;
  }
  try {
    unlinkSync(aside);
  } catch {
    // gone
  }
}

/** Why a lock was refused: its owner, named. */
export class LockHeldError extends ExchangeError {
  readonly owner: LockOwner | undefined;
  constructor(path: string, owner: LockOwner | undefined, advice: string) {
    const who = owner
      ? `process ${owner.pid}${owner.host === hostname() ? "" : ` on ${owner.host}`} (${owner.what}, since ${new Date(owner.startedAt).toISOString()})`
      : "a process that is starting";
    super("spotdesk", `${path} is held by ${who}: ${advice}`, { kind: "config", code: "ELOCKED" });
    this.name = "LockHeldError";
    this.owner = owner;
  }
}

/**
 * Takes the lock file at `path` for this process, or throws LockHeldError naming its owner.
 * `advice` ends the refusal ("stop it first").
 */
export function takeOwnerLock(path: string, what: string, advice: string): OwnerLock {
  const owner: LockOwner = {
    pid: process.pid,
    host: hostname(),
    startedAt: Date.now(),
    what,
    token: `${process.pid}-${process.hrtime.bigint().toString(36)}-${Math.random().toString(36).slice(2)}`,
  };
  const text = JSON.stringify(owner);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      writeFileSync(path, text, { flag: "wx", mode: 0o600 });
      return heldLock(path, text, owner);
    } catch (error) {
      if (codeOf(error) !== "EEXIST") throw error;
    }
    const current = readOwner(path);
    if (current === undefined) continue;
    if (!gone(path, current.owner)) throw new LockHeldError(path, current.owner, advice);
    breakDead(path, current.text);
  }
  throw new LockHeldError(path, readOwner(path)?.owner, advice);
}

function heldLock(path: string, text: string, owner: LockOwner): OwnerLock {
  let released = false;
  return {
    path,
    owner,
    release() {
      if (released) return;
      released = true;
      try {
        if (readFileSync(path, "utf8") === text) unlinkSync(path);
      } catch {
        // gone already
      }
    },
  };
}
