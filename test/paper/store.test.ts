import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultDataDir, paperStateFile } from "../../exchanges/paper/index.js";
import { rejection } from "../rejection.js";
import { paperOn, TestClock, tempDataDir } from "./helpers.js";

/** The pid of a process that has exited (so no live process has it, barring reuse). */
function deadPid(): number {
  const child = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" });
  return Number(child.stdout);
}

function writeState(dir: string, text: string): string {
  const file = paperStateFile(dir, "default");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

describe("paper state on disk", () => {
  it("keeps each account in <dataDir>/paper/<account>.json", async () => {
    const dir = tempDataDir();
    await paperOn(dir, new TestClock(), { account: "desk-1" }).fetchBalances();
    expect(readdirSync(join(dir, "paper"))).toEqual(["desk-1.json"]);
  });

  it("leaves no temporary or lock files behind after a write: the snapshot and its journal only", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock());
    await paper.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "50000" });
    await paper.cancelAll("BTC/USDT");
    expect(readdirSync(join(dir, "paper")).sort()).toEqual(["default.journal", "default.json"]);
  });

  it("a state file that is not JSON is an error naming the file, and the file is left untouched", async () => {
    const dir = tempDataDir();
    const file = writeState(dir, '{"version":1, "balances": {"USDT"');
    const before = statSync(file).mtimeMs;
    const paper = paperOn(dir, new TestClock());
    const error = await rejection(paper.fetchBalances());
    expect(error.kind).toBe("bad-input");
    expect(error.message).toContain(`Corrupt paper state file '${file}'`);
    const order = await rejection(paper.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "50000" }));
    expect(order.message).toContain("Corrupt paper state file");
    expect(readFileSync(file, "utf8")).toBe('{"version":1, "balances": {"USDT"');
    expect(statSync(file).mtimeMs).toBe(before);
  });

  it("a state file with the wrong shape is an error naming what is wrong", async () => {
    const dir = tempDataDir();
    const clock = new TestClock();
    await paperOn(dir, clock).fetchBalances();
    const file = paperStateFile(dir, "default");
    const state = JSON.parse(readFileSync(file, "utf8"));
    state.balances.USDT.free = "-5";
    const text = JSON.stringify(state);
    writeFileSync(file, text);
    const error = await rejection(paperOn(dir, clock).fetchBalances());
    expect(error.message).toContain("balance of 'USDT' is not {free, locked}");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("an invalid account name is bad-input", () => {
    expect(() => paperOn(tempDataDir(), new TestClock(), { account: "../etc" })).toThrow(/Invalid paper account name/);
  });

  it("the default data directory honours SPOTDESK_DATA_DIR, then XDG_DATA_HOME, then ~/.local/share", () => {
    expect(defaultDataDir({ SPOTDESK_DATA_DIR: "/data/desk", XDG_DATA_HOME: "/xdg" }, "linux")).toBe("/data/desk");
    expect(defaultDataDir({ XDG_DATA_HOME: "/xdg" }, "linux")).toBe("/xdg/spotdesk");
    expect(defaultDataDir({}, "linux")).toMatch(/\.local\/share\/spotdesk$/);
    expect(paperStateFile("/xdg/spotdesk", "default")).toBe("/xdg/spotdesk/paper/default.json");
  });
});

describe("paper's lock file", () => {
  it("waits for a lock held by a live process and fails with a clear error when it is not released", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock(), { lockTimeoutMs: 150 });
    await paper.fetchBalances();
    const lock = `${paperStateFile(dir, "default")}.lock`;
    // held by this very process (alive), just now
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), token: "other" }));
    const started = Date.now();
    const error = await rejection(paper.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "50000" }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(error.code).toBe("ELOCKED");
    expect(error.message).toContain("The paper account is busy");
    // the holder's lock is still there, and nothing was placed
    expect(JSON.parse(readFileSync(lock, "utf8")).token).toBe("other");
    expect(readFileSync(paperStateFile(dir, "default"), "utf8")).not.toContain("50000");
  });

  it("goes ahead once the holder releases the lock", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock(), { lockTimeoutMs: 5000 });
    await paper.fetchBalances();
    const lock = `${paperStateFile(dir, "default")}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now(), token: "other" }));
    const started = Date.now();
    setTimeout(() => unlinkSync(lock), 100);
    const order = await paper.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "50000" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(order.status).toBe("open");
  });

  it("breaks a stale lock whose process is dead", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock(), { lockTimeoutMs: 2000 });
    await paper.fetchBalances();
    const lock = `${paperStateFile(dir, "default")}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: hostname(), at: Date.now(), token: "dead" }));
    const order = await paper.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "50000" });
    expect(order.status).toBe("open");
    expect(readdirSync(join(dir, "paper")).sort()).toEqual(["default.journal", "default.json"]);
  });

  it("never signals a process group: a lock naming pid 0 is judged by its age", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock(), { lockTimeoutMs: 100 });
    await paper.fetchBalances();
    const lock = `${paperStateFile(dir, "default")}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: 0, host: hostname(), at: Date.now(), token: "zero" }));
    expect((await rejection(paper.fetchBalances())).code).toBe("ELOCKED");
    writeFileSync(lock, JSON.stringify({ pid: 0, host: hostname(), at: Date.now() - 60_000, token: "zero" }));
    expect((await paper.fetchBalances()).BTC).toEqual({ f: "1", l: "0" });
  });

  it("breaks a lock older than the stale age even when its process lives", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock(), { lockTimeoutMs: 2000, staleLockMs: 1000 });
    await paper.fetchBalances();
    const lock = `${paperStateFile(dir, "default")}.lock`;
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: Date.now() - 5000, token: "old" }));
    expect((await paper.fetchBalances()).USDT).toEqual({ f: "10000", l: "0" });
  });

  it("breaks an empty lock file left by a process that died while creating it", async () => {
    const dir = tempDataDir();
    const paper = paperOn(dir, new TestClock(), { lockTimeoutMs: 2000 });
    await paper.fetchBalances();
    const lock = `${paperStateFile(dir, "default")}.lock`;
    writeFileSync(lock, "");
    const old = (Date.now() - 10_000) / 1000;
    utimesSync(lock, old, old);
    expect((await paper.fetchBalances()).BTC).toEqual({ f: "1", l: "0" });
  });
});
