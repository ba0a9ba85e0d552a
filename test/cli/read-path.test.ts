/**
 * The read path (docs/cli.md "Cold start"): bin/spotdesk runs `balances`, `orders PAIR` and
 * `order PAIR ID` on paper through dist/start.cjs and dist/read.cjs, without commander. The same
 * line through the full CLI (`node dist/cli.js`, commander) must give byte for byte the same
 * stdout, stderr and exit code: results, notes, errors, colour. A probe (`--require`) records
 * whether read.cjs ran, so a line that silently fell back to commander cannot pass as the read
 * path.
 */

import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli, type CliResult, isolatedEnv, ROOT } from "./helpers.js";

const T0 = 1_800_000_000_000;
const READ_CJS = join(ROOT, "dist", "read.cjs");

let work: string;
let probe: string;
beforeAll(() => {
  buildCli();
  work = mkdtempSync(join(tmpdir(), "spotdesk-read-path-"));
  probe = join(work, "probe.cjs");
  // at exit: did this process run dist/read.cjs (the read path registers it in require's cache)?
  writeFileSync(
    probe,
    `process.on("exit", () => require("node:fs").writeFileSync(process.env.PROBE_OUT, String(${JSON.stringify(READ_CJS)} in require.cache)));\n`,
  );
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let homes = 0;
/** A fresh HOME with its config and data directories, the paper clock pinned. */
function freshEnv(extra: Record<string, string> = {}): Record<string, string> {
  const home = mkdtempSync(join(work, `home-${++homes}-`));
  return { ...isolatedEnv(home), SPOTDESK_PAPER_NOW: String(T0), ...extra };
}

function run(entry: string, args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [entry, ...args], { env, cwd: env.HOME, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The line through bin/spotdesk (with the probe) and through commander; `readPath` says whether read.cjs ran. */
async function both(args: string[], env: () => Record<string, string>) {
  const out = join(work, `probe-${++homes}`);
  const launcherEnv = env();
  const launcher = await run(join(ROOT, "bin", "spotdesk"), args, {
    ...launcherEnv,
    NODE_OPTIONS: `--require ${probe}`,
    PROBE_OUT: out,
  });
  const commander = await run(join(ROOT, "dist", "cli.js"), args, env());
  return { launcher, commander, readPath: readFileSync(out, "utf8") === "true" };
}

describe("the read path prints what commander prints", () => {
  const fresh: [string[], Record<string, string>?][] = [
    [["balances", "--json"]],
    [["--json", "balances", "--nonzero"]],
    [["balances"]],
    [["balances"], { FORCE_COLOR: "1" }],
    [["-a", "alice", "balances", "--json"]],
    [["balances", "-e", "paper", "--account", "bob"]],
    [["-a", "bad/name", "balances", "--json"]],
    [["balances", "--json"], { SPOTDESK_API_KEY: "k", SPOTDESK_API_SECRET: "s" }],
    [["orders", "BTC/USDT", "--json"]],
    [["orders", "--json", "eth-usdt"]],
    [["orders", "BTC/USDT"]],
    [["orders", "NOPE/USDT", "--json"]],
    [["orders", "NOPE/USDT"]],
    [["order", "BTC/USDT", "1", "--json"]],
    [["order", "BTC/USDT", "not an id", "--json"]],
    [["order", "NOPE/USDT", "1"]],
    [["orders", "BTC/USDT", "--json"], { SPOTDESK_PAPER_NOW: "yesterday" }],
    [["balances", "--json"], { SPOTDESK_CLOCK_OFFSET_MS: "soon", SPOTDESK_PAPER_NOW: "" }],
  ];
  it.each(fresh)("%j on a fresh account", async (args, extra = {}) => {
    const { launcher, commander, readPath } = await both(args, () => freshEnv(extra));
    expect(readPath).toBe(true);
    expect(launcher).toEqual(commander);
  });

  it("reports an unwritable data directory the same way", async () => {
    const file = join(work, "a-file");
    writeFileSync(file, "");
    const { launcher, commander, readPath } = await both(["balances", "--json"], () =>
      freshEnv({ SPOTDESK_DATA_DIR: join(file, "data") }),
    );
    expect(readPath).toBe(true);
    expect(launcher.code).toBe(2);
    expect(launcher).toEqual(commander);
  });

  it("shows the same resting orders and locked balances", async () => {
    const env = freshEnv();
    const bin = join(ROOT, "bin", "spotdesk");
    const ids: string[] = [];
    for (const order of [
      ["buy", "BTC/USDT", "0.01", "50000"],
      ["sell", "BTC/USDT", "0.02", "150000"],
      ["buy", "ETH/USDT", "1", "100"],
    ]) {
      const placed = await run(bin, [...order, "--json"], env);
      expect(placed.code, placed.stderr).toBe(0);
      ids.push((JSON.parse(placed.stdout) as { id: string }).id);
    }
    for (const args of [
      ["orders", "BTC/USDT", "--json"],
      ["orders", "BTC/USDT"],
      ["order", "BTC/USDT", ids[1]!, "--json"],
      ["order", "ETH/USDT", ids[2]!],
      ["balances", "--json"],
      ["balances", "--nonzero"],
    ]) {
      const { launcher, commander, readPath } = await both(args, () => env);
      expect(readPath).toBe(true);
      expect(launcher).toEqual(commander);
      expect(launcher.code).toBe(0);
    }
    // an order of another pair: not found, the same error both ways
    const other = await both(["order", "ETH/USDT", ids[0]!, "--json"], () => env);
    expect(other.readPath).toBe(true);
    expect(other.launcher).toEqual(other.commander);
    expect(other.launcher.code).not.toBe(0);
    const listed = JSON.parse((await both(["orders", "BTC/USDT", "--json"], () => env)).launcher.stdout) as unknown[];
    expect(listed).toHaveLength(2);
  });

  it("leaves a line it does not fully understand to commander, with commander's answer", async () => {
    for (const args of [
      ["balances", "-a", "x", "-a", "y", "--json"],
      ["orders", "--json"],
      ["--nonzero", "balances", "--json"],
      ["balances", "--json", "--frobnicate"],
    ]) {
      const { launcher, commander, readPath } = await both(args, () => freshEnv());
      expect(readPath).toBe(false);
      expect(launcher).toEqual(commander);
    }
  });

  it("answers --version before any of it", async () => {
    for (const args of [["--version"], ["-V", "--json"]]) {
      const { launcher, commander, readPath } = await both(args, () => freshEnv());
      expect(readPath).toBe(false);
      expect(launcher).toEqual(commander);
      expect(launcher.stdout).toMatch(/^(\{"version":"\d+\.\d+\.\d+"\}|\d+\.\d+\.\d+)\n$/);
    }
  });
});

describe("the build", () => {
  it("names read.cjs's code cache by a hash of read.cjs, so a changed read.cjs never takes an old cache", () => {
    const key = createHash("sha256").update(readFileSync(READ_CJS)).digest("hex").slice(0, 16);
    const start = readFileSync(join(ROOT, "dist", "start.cjs"), "utf8");
    expect(start).toContain(`"${key}"`);
    expect(start).not.toContain("@@READ-CACHE-KEY");
  });
});
