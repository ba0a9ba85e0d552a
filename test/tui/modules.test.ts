import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hasTmux, root, sleep, tmuxScratch } from "./tmux.js";

/**
 * What the built TUI (`node bin/spotdesk tui`, in tmux) loads on paper (docs/tui-memory.md
 * "Resident memory"): the credential store (`conf`, `ajv`) only when a store file exists, and never
 * zod. Node's own ESM debug log (NODE_DEBUG=esm) names every module it loads; the run with a store
 * file shows that the log does name `conf` when it is loaded.
 */
const { sessions, dirs } = tmuxScratch();

const LIVE_WITHIN_MS = 20_000;

/** Packages of node_modules the TUI loaded, from node's ESM debug log. */
function packagesLoaded(log: string): Set<string> {
  const names = new Set<string>();
  for (const [, name] of log.matchAll(/Storing file:\/\/\S*?\/node_modules\/((?:@[^/]+\/)?[^/]+)\//g))
    if (name) names.add(name);
  return names;
}

/** Runs the TUI until its book is live (and balances are read), quits it, returns the packages it loaded. */
async function runTui(name: string, dataDir: string, configDir: string): Promise<Set<string>> {
  const session = `spotdesk-modules-${name}-${process.pid}`;
  sessions.push(session);
  const log = join(dataDir, `esm-${name}.log`);
  const done = join(dataDir, `done-${name}`);
  const command =
    `cd '${root}' && SPOTDESK_DATA_DIR='${dataDir}' SPOTDESK_CONFIG_DIR='${configDir}' NODE_DEBUG=esm ` +
    `node bin/spotdesk tui 2>'${log}'; touch '${done}'; sleep 60`;
  execFileSync("tmux", ["new-session", "-d", "-s", session, "-x", "120", "-y", "40", command]);
  const started = Date.now();
  let screen = "";
  while (Date.now() - started < LIVE_WITHIN_MS) {
    screen = execFileSync("tmux", ["capture-pane", "-p", "-t", session], { encoding: "utf8" });
    if (/Order book BTC\/USDT\s+live/.test(screen) && /USDT\s+[\d,]+\.\d+/.test(screen)) break;
    await sleep(100);
  }
  expect(screen, "no live book").toMatch(/Order book BTC\/USDT\s+live/);
  // a moment for what loads beside the first screen (the far-price setting, the balances)
  await sleep(1500);
  execFileSync("tmux", ["send-keys", "-t", session, "q"]);
  for (let i = 0; i < 100 && !existsSync(done); i++) await sleep(50);
  expect(existsSync(done), "the TUI did not quit on q").toBe(true);
  return packagesLoaded(readFileSync(log, "utf8"));
}

describe.skipIf(!hasTmux)("the paper TUI's modules (issue 21)", () => {
  it("loads neither the credential store nor zod without a store file, and the store once there is one", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-tui-modules-"));
    const parent = mkdtempSync(join(tmpdir(), "spotdesk-tui-modules-conf-"));
    dirs.push(dataDir, parent);
    const configDir = join(parent, "config");

    const bare = await runTui("bare", dataDir, configDir);
    expect(bare.has("ink")).toBe(true);
    expect(bare.has("react")).toBe(true);
    expect(bare.has("conf")).toBe(false);
    expect(bare.has("ajv")).toBe(false);
    expect(bare.has("zod")).toBe(false);
    // nothing was written for it either: no store directory appears
    expect(existsSync(configDir)).toBe(false);

    execFileSync(process.execPath, ["bin/spotdesk", "accounts", "set", "default", "--far-price-percent", "95"], {
      cwd: root,
      env: { ...process.env, SPOTDESK_DATA_DIR: dataDir, SPOTDESK_CONFIG_DIR: configDir },
      encoding: "utf8",
    });
    const stored = await runTui("stored", dataDir, configDir);
    expect(stored.has("conf")).toBe(true);
    expect(stored.has("zod")).toBe(false);
  }, 60_000);
});
