/**
 * What the TUI's tmux tests share: the built CLI run in a real pseudo-terminal (tmux), its screen
 * read back, and the sessions and directories a test made, killed and removed after each test.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";

export const root = join(import.meta.dirname, "..", "..");
export const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

export const capture = (session: string) =>
  execFileSync("tmux", ["capture-pane", "-p", "-t", session], { encoding: "utf8" });
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Lists to push a test's tmux sessions and directories to; each is gone after every test. */
export function tmuxScratch(): { sessions: string[]; dirs: string[] } {
  const sessions: string[] = [];
  const dirs: string[] = [];
  afterEach(() => {
    for (const s of sessions.splice(0)) spawnSync("tmux", ["kill-session", "-t", s]);
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  return { sessions, dirs };
}
