import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { capture, hasTmux, root, sleep, tmuxScratch } from "./tmux.js";

/**
 * The built CLI in tmux under a locale that is not UTF-8 (docs/tui.md "Every size"): the screen
 * holds only ASCII, laid out as in UTF-8.
 */
const { sessions, dirs } = tmuxScratch();

describe.skipIf(!hasTmux)("spotdesk tui in tmux with LANG=C (issue 21)", () => {
  it("draws the live book, the header and the selection in ASCII only", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-tui-ascii-"));
    dirs.push(dataDir);
    const session = `spotdesk-ascii-${process.pid}`;
    sessions.push(session);
    const command = `cd '${root}' && LC_ALL=C LANG=C SPOTDESK_DATA_DIR='${dataDir}' node bin/spotdesk tui; sleep 60`;
    execFileSync("tmux", ["new-session", "-d", "-s", session, "-x", "100", "-y", "30", command]);
    let screen = "";
    for (let i = 0; i < 300; i++) {
      screen = capture(session);
      if (/Order book BTC\/USDT\s+live/.test(screen) && /~\d+\.\d+%/.test(screen)) break;
      await sleep(50);
    }
    expect(screen).toMatch(/Order book BTC\/USDT\s+live/);
    expect(screen).toContain("spotdesk - Paper (simulated) - default - BTC/USDT");
    execFileSync("tmux", ["send-keys", "-t", session, "k"]);
    // the pair's decimals come with its market info, which can follow the first book under load
    for (let i = 0; i < 200 && !/^\s*>\d{1,3}(,\d{3})*\.\d\d\s+\d/m.test(screen); i++) {
      await sleep(50);
      screen = capture(session);
    }
    // the selected row's marker, and the cumulative line
    expect(screen).toMatch(/^\s*>\d{1,3}(,\d{3})*\.\d\d\s+\d/m);
    expect(screen).toMatch(/S 1 asks: [\d.]+ BTC - [\d,.]+ USDT/);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is the range \x00-\x7f
    expect(screen).toMatch(/^[\x00-\x7f]*$/);
    execFileSync("tmux", ["send-keys", "-t", session, "q"]);
  });
});
