/**
 * The build writes its chunks in ASCII (docs/tui-memory.md "Script sources"): V8 keeps a script's
 * source in memory for the life of the process, at two bytes a character as soon as one character
 * is outside Latin-1. The escapes must still mean the same characters on the screen.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { capture, hasTmux, root, sleep, tmuxScratch } from "../tui/tmux.js";

const { sessions, dirs } = tmuxScratch();

describe("the built CLI's chunks (the global setup builds them)", () => {
  it("hold no character outside printable ASCII, tabs and line ends", () => {
    const files = [
      join(root, "dist", "cli.js"),
      ...readdirSync(join(root, "dist", "chunks"))
        .filter((name) => name.endsWith(".js"))
        .map((name) => join(root, "dist", "chunks", name)),
    ];
    expect(files.length).toBeGreaterThan(10);
    const offending = files.filter((file) => /[^\t\n\r -~]/.test(readFileSync(file, "utf8")));
    expect(offending).toEqual([]);
    // the TUI's chunks do write non-ASCII text: as escapes
    expect(files.some((file) => readFileSync(file, "utf8").includes("\\u00b7"))).toBe(true);
  });

  it.skipIf(!hasTmux)("draw the TUI's non-ASCII text as the source has it", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-build-ascii-"));
    const session = `spotdesk-build-ascii-${process.pid}`;
    dirs.push(dataDir);
    sessions.push(session);
    execFileSync("tmux", [
      "new-session",
      "-d",
      "-s",
      session,
      "-x",
      "120",
      "-y",
      "40",
      `cd '${root}' && LANG=C.UTF-8 LC_ALL=C.UTF-8 SPOTDESK_DATA_DIR='${dataDir}' node bin/spotdesk tui`,
    ]);
    let screen = "";
    for (let i = 0; i < 150 && !/Order book BTC\/USDT\s+live/.test(screen); i++) {
      await sleep(100);
      screen = capture(session);
    }
    expect(screen).toContain("spotdesk · Paper (simulated) · default · BTC/USDT");
    expect(screen).not.toMatch(/\\u[0-9a-f]{4}/);
  });
});
