import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { acquireLock, MIN_STALE_LOCK_MS } from "../../exchanges/paper/lock.js";
import { ExchangeError } from "../../lib/errors.js";
import { tempDataDir } from "./helpers.js";

/**
 * The paper account's lock file (docs/paper-store.md "Files", "Crashes"), on real files: who may
 * break a lock, what a waiter says when it gives up, and that a holder removes only its own lock.
 */

/** The pid of a process that has exited (so no live process has it, barring reuse). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

async function refusal(path: string, options: { timeoutMs?: number; staleMs?: number }): Promise<ExchangeError> {
  try {
    const lock = await acquireLock(path, options);
    lock.release();
  } catch (error) {
    expect(error).toBeInstanceOf(ExchangeError);
    return error as ExchangeError;
  }
  throw new Error("expected the lock to be refused");
}

const owner = (fields: Record<string, unknown>) =>
  JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), token: "other", ...fields });

describe("paper's lock", () => {
  it("holds the owner's pid, host, time and a token; released, the file is gone", async () => {
    const path = join(tempDataDir(), "a.json.lock");
    const before = Date.now();
    const lock = await acquireLock(path);
    const held = JSON.parse(readFileSync(path, "utf8"));
    expect(held).toEqual({ pid: process.pid, host: hostname(), at: expect.any(Number), token: expect.any(String) });
    expect(held.at).toBeGreaterThanOrEqual(before);
    expect(held.at).toBeLessThanOrEqual(Date.now());
    expect(held.token.length).toBeGreaterThan(8);
    expect(lock.path).toBe(path);
    expect(lock.brokeStale).toBe(false);
    expect(lock.isHeld()).toBe(true);
    lock.release();
    expect(lock.isHeld()).toBe(false);
    expect(existsSync(path)).toBe(false);
    lock.release();
    // two takings have two tokens
    const again = await acquireLock(path);
    expect(JSON.parse(readFileSync(path, "utf8")).token).not.toBe(held.token);
    again.release();
  });

  it("gives up after the time-out naming the holder's pid, or 'unknown' for an unreadable owner", async () => {
    const path = join(tempDataDir(), "b.json.lock");
    writeFileSync(path, owner({ pid: 4242, host: "elsewhere" }));
    const busy = await refusal(path, { timeoutMs: 60 });
    expect(busy.kind).toBe("network");
    expect(busy.exchange).toBe("paper");
    expect(busy.code).toBe("ELOCKED");
    expect(busy.detail).toBe(
      `The paper account is busy: '${path}' is held by process 4242 for more than 60 ms. Remove the file if that process is gone.`,
    );
    // a fresh file that is not an owner (a process still writing it) is waited for, not broken
    writeFileSync(path, "{not json");
    expect((await refusal(path, { timeoutMs: 40 })).detail).toContain("held by process unknown for more than 40 ms");
    writeFileSync(path, JSON.stringify({ pid: "1", at: Date.now(), token: "t" }));
    expect((await refusal(path, { timeoutMs: 40 })).detail).toContain("held by process unknown");
    writeFileSync(path, JSON.stringify({ pid: 1, at: "now", token: "t" }));
    expect((await refusal(path, { timeoutMs: 40 })).detail).toContain("held by process unknown");
    const noToken = JSON.stringify({ pid: 1, at: Date.now(), token: 5 });
    writeFileSync(path, noToken);
    expect((await refusal(path, { timeoutMs: 40 })).detail).toContain("held by process unknown");
    // nothing was broken or taken
    expect(readFileSync(path, "utf8")).toBe(noToken);
  });

  it("a dead holder's lock is broken at once only on the same host", async () => {
    const dir = tempDataDir();
    const path = join(dir, "c.json.lock");
    const dead = deadPid();
    writeFileSync(path, owner({ pid: dead, token: "dead" }));
    const lock = await acquireLock(path, { timeoutMs: 2000 });
    expect(lock.brokeStale).toBe(true);
    expect(JSON.parse(readFileSync(path, "utf8")).pid).toBe(process.pid);
    lock.release();
    // nothing moved aside is left
    expect(readdirSync(dir)).toEqual([]);
    // another host's pid says nothing about a process here
    writeFileSync(path, owner({ pid: dead, host: "another-host", token: "remote" }));
    expect((await refusal(path, { timeoutMs: 60 })).code).toBe("ELOCKED");
    // an owner without a host is not this host's either
    writeFileSync(path, JSON.stringify({ pid: dead, at: Date.now(), token: "nohost" }));
    expect((await refusal(path, { timeoutMs: 60 })).code).toBe("ELOCKED");
    // a live holder (pid 1) and this process itself are never judged dead
    writeFileSync(path, owner({ pid: 1 }));
    expect((await refusal(path, { timeoutMs: 60 })).detail).toContain("held by process 1 ");
    writeFileSync(path, owner({ pid: process.pid }));
    expect((await refusal(path, { timeoutMs: 60 })).code).toBe("ELOCKED");
    // a negative pid would name a process group: judged by age only
    writeFileSync(path, owner({ pid: -dead }));
    expect((await refusal(path, { timeoutMs: 60 })).code).toBe("ELOCKED");
    writeFileSync(path, owner({ pid: dead + 0.5 }));
    expect((await refusal(path, { timeoutMs: 60 })).code).toBe("ELOCKED");
    expect(JSON.parse(readFileSync(path, "utf8")).pid).toBe(dead + 0.5);
  });

  it("judges a live holder stale by age, never younger than MIN_STALE_LOCK_MS", async () => {
    const path = join(tempDataDir(), "d.json.lock");
    // 10 ms asked for, 1 s applied: a lock half a second old stays
    writeFileSync(path, owner({ at: Date.now() - MIN_STALE_LOCK_MS / 2 }));
    expect((await refusal(path, { timeoutMs: 60, staleMs: 10 })).code).toBe("ELOCKED");
    writeFileSync(path, owner({ at: Date.now() - 2 * MIN_STALE_LOCK_MS }));
    const lock = await acquireLock(path, { timeoutMs: 1000, staleMs: 10 });
    expect(lock.brokeStale).toBe(true);
    lock.release();
    // the default is 30 s: 20 s old stays, 40 s old goes
    writeFileSync(path, owner({ at: Date.now() - 20_000 }));
    expect((await refusal(path, { timeoutMs: 60 })).code).toBe("ELOCKED");
    writeFileSync(path, owner({ at: Date.now() - 40_000 }));
    (await acquireLock(path, { timeoutMs: 1000 })).release();
    // the age is the owner's `at`, not the file's: a 60 s staleMs keeps a 40 s old one
    writeFileSync(path, owner({ at: Date.now() - 40_000 }));
    expect((await refusal(path, { timeoutMs: 60, staleMs: 60_000 })).code).toBe("ELOCKED");
  });

  it("an empty lock file is broken only once it is older than the grace of 2 s", async () => {
    const path = join(tempDataDir(), "e.json.lock");
    writeFileSync(path, "");
    const recent = (Date.now() - 1000) / 1000;
    utimesSync(path, recent, recent);
    expect((await refusal(path, { timeoutMs: 60 })).code).toBe("ELOCKED");
    const old = (Date.now() - 3000) / 1000;
    utimesSync(path, old, old);
    const lock = await acquireLock(path, { timeoutMs: 1000 });
    expect(lock.brokeStale).toBe(true);
    lock.release();
  });

  it("waits for a holder that releases, and does not count that as breaking a stale lock", async () => {
    const path = join(tempDataDir(), "f.json.lock");
    const first = await acquireLock(path);
    setTimeout(() => first.release(), 80);
    const second = await acquireLock(path, { timeoutMs: 3000 });
    expect(second.brokeStale).toBe(false);
    expect(second.isHeld()).toBe(true);
    second.release();
  });

  it("a lock that cannot be created (no directory) is that error, not a wait", async () => {
    const path = join(tempDataDir(), "missing", "g.json.lock");
    await expect(acquireLock(path, { timeoutMs: 5000 })).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("after half of MIN_STALE_LOCK_MS a holder checks the file: a lock taken over is not held, and not removed", async () => {
    const path = join(tempDataDir(), "h.json.lock");
    const lock = await acquireLock(path);
    await new Promise((resolve) => setTimeout(resolve, MIN_STALE_LOCK_MS / 2 + 50));
    expect(lock.isHeld()).toBe(true);
    const theirs = owner({ token: "new-holder" });
    writeFileSync(path, theirs);
    expect(lock.isHeld()).toBe(false);
    lock.release();
    expect(readFileSync(path, "utf8")).toBe(theirs);
  });

  it("after half of MIN_STALE_LOCK_MS a holder still removes its own lock", async () => {
    const path = join(tempDataDir(), "i.json.lock");
    const lock = await acquireLock(path);
    await new Promise((resolve) => setTimeout(resolve, MIN_STALE_LOCK_MS / 2 + 50));
    lock.release();
    expect(existsSync(path)).toBe(false);
  });
});
