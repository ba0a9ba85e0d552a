/**
 * Key-to-screen (issue 21 Speed): the whole TUI on paper at 120x40, rendered by Ink as
 * `spotdesk tui` renders it (not debug mode: Ink's 30 fps throttle included), and the time from a
 * key written on stdin to the first frame Ink writes after it. Target: under 10 ms at the median.
 *
 * The paper clock is frozen, so the synthetic book holds still and every write after a key is that
 * key's frame (Ink writes nothing when the screen did not change). Keys alternate `j` and `k` (the
 * selection one row down and up), 60 ms apart so each meets Ink's throttle on its leading edge, as
 * a trader's keys do.
 */
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerminalStdin } from "../test/tui/null-terminal.js";
import { type BenchOutcome, median } from "./index.js";

const COLUMNS = 120;
const ROWS = 40;
const KEY_GAP_MS = 60;

class TimedStdout extends EventEmitter {
  columns = COLUMNS;
  rows = ROWS;
  isTTY = true;
  lastWriteAt = 0;
  writes = 0;
  text = "";
  write = (chunk: string): boolean => {
    this.lastWriteAt = performance.now();
    this.writes++;
    this.text += chunk;
    if (this.text.length > 100_000) this.text = this.text.slice(-50_000);
    return true;
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function run(): Promise<BenchOutcome[]> {
  const name = "tui: key to screen (j/k on the book), 120x40";
  const keys = Number(process.env.BENCH_TUI_KEYS ?? 200);
  process.env.NODE_ENV ??= "production";
  process.env.FORCE_COLOR ??= "1";
  const [{ render }, { createElement }, { App }, { defaultServices }, { createTheme, ThemeContext }] =
    await Promise.all([
      import("ink"),
      import("react"),
      import("../tui/app.js"),
      import("../tui/services.js"),
      import("../tui/theme.js"),
    ]);
  const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-bench-keys-"));
  const frozen = Date.UTC(2025, 0, 15, 12, 0, 0);
  const now = () => frozen;
  const stdout = new TimedStdout();
  const stdin = new TerminalStdin();
  const instance = render(
    createElement(
      ThemeContext.Provider,
      { value: createTheme(false) },
      createElement(App, {
        services: defaultServices({ dataDir, now }),
        exchange: "paper",
        account: "default",
        pair: "BTC/USDT",
        now,
      }),
    ),
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: new TimedStdout() as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  try {
    const started = performance.now();
    while (!/~\d+\.\d+%/.test(stdout.text) || !/Last update/.test(stdout.text)) {
      if (performance.now() - started > 15_000) return [{ name, skipped: "no live book within 15 s" }];
      await sleep(20);
    }
    await sleep(1000); // the first polls (orders, balances, settings) come in and settle
    const times: number[] = [];
    let missed = 0;
    for (let i = 0; i <= keys; i++) {
      const writesBefore = stdout.writes;
      const pressedAt = performance.now();
      stdin.press(i % 2 === 0 ? "j" : "k");
      await sleep(KEY_GAP_MS);
      if (stdout.writes === writesBefore) missed++;
      else if (i > 0) times.push(stdout.lastWriteAt - pressedAt);
    }
    if (times.length < keys / 2) return [{ name, skipped: `only ${times.length} of ${keys} keys changed the screen` }];
    times.sort((a, b) => a - b);
    return [
      {
        name,
        unit: "ms",
        better: "lower",
        value: Number(median(times).toFixed(3)),
        target: 10,
        detail: `${times.length} keys, median; p95 ${times[Math.floor(times.length * 0.95)]!.toFixed(2)} ms; ${missed} keys drew nothing; Ink's throttle as in the TUI, colours on`,
      },
    ];
  } finally {
    instance.unmount();
    instance.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `tsx bench/tui-keys.bench.ts` runs it alone
if (import.meta.url === `file://${process.argv[1]}`) {
  void run().then((r) => console.log(JSON.stringify(r, null, 2)));
}
