import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { capture, hasTmux, root, sleep, tmuxScratch } from "./tmux.js";

/**
 * The built CLI in tmux (docs/tui.md "Mouse"): the terminal's SGR mouse reports, as a terminal
 * writes them on a click and a wheel turn, reach the book and never the keys.
 */
const { sessions, dirs } = tmuxScratch();

async function waitFor(session: string, ok: (s: string) => boolean): Promise<string> {
  let screen = "";
  for (let i = 0; i < 300; i++) {
    screen = capture(session);
    if (ok(screen)) return screen;
    await sleep(50);
  }
  throw new Error(`screen never matched:\n${screen}`);
}

describe.skipIf(!hasTmux)("spotdesk tui in tmux: the mouse (issue 21)", () => {
  it("fills the panel from a clicked level and scrolls the selection with the wheel", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-tui-mouse-"));
    dirs.push(dataDir);
    const session = `spotdesk-mouse-${process.pid}`;
    sessions.push(session);
    const command = `cd '${root}' && SPOTDESK_DATA_DIR='${dataDir}' node bin/spotdesk tui; sleep 60`;
    execFileSync("tmux", ["new-session", "-d", "-s", session, "-x", "100", "-y", "30", command]);
    // live, with the best bid drawn under the middle row
    const bestBidDrawn = (s: string) => {
      const l = s.split("\n");
      const m = l.findIndex((x) => /~\d+\.\d+%/.test(x));
      return /Order book BTC\/USDT\s+live/.test(s) && m > 0 && /^\s*[\d,]+\.\d\d\s/.test(l[m + 1] ?? "");
    };
    const screen = await waitFor(session, bestBidDrawn);
    const lines = screen.split("\n");
    const middle = lines.findIndex((l) => /~\d+\.\d+%/.test(l));
    // the row just under the middle: the best bid, as a terminal reports a left press and release there
    const y = middle + 1;
    const price = /^\s*([\d,]+\.\d\d)/.exec(lines[y] ?? "")?.[1] ?? "";
    expect(price).not.toBe("");
    execFileSync("tmux", ["send-keys", "-t", session, "-l", `\u001b[<0;10;${y + 1}M\u001b[<0;10;${y + 1}m`]);
    const filled = await waitFor(session, (s) => s.includes("panel filled"));
    expect(filled).toMatch(new RegExp(`Price\\s+${price.replace(/,/g, "").replace(".00", "")}(\\.\\d+)?\\s`));
    expect(filled).toMatch(/^\s*▸[\d,]+\.\d\d/m);
    // nothing of the report was typed anywhere
    expect(filled).not.toMatch(/\[<|;10;/);
    // the wheel down moves the selection one bid further from the middle
    execFileSync("tmux", ["send-keys", "-t", session, "-l", `\u001b[<65;10;${y + 1}M`]);
    await waitFor(session, (s) => {
      const at = s.split("\n").findIndex((l) => /^\s*▸/.test(l));
      return at === y + 1;
    });
    execFileSync("tmux", ["send-keys", "-t", session, "q"]);
  });
});
