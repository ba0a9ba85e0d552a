import { EventEmitter } from "node:events";
import { type Instance, render as inkRender } from "ink";
import type { ReactElement } from "react";
import { App } from "../../tui/app.js";
import type { TuiServices } from "../../tui/services.js";
import { createTheme, ThemeContext } from "../../tui/theme.js";
import { TerminalStdin } from "./null-terminal.js";

/**
 * The shared render helper of the TUI tests: a fake terminal of a
 * fixed size that can be resized, the theme provider, and frame helpers. Frames are plain text:
 * colour codes are stripped so assertions read like the screen.
 */

class FakeStdout extends EventEmitter {
  frames: string[] = [];
  isTTY = true;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (frame: string): boolean => {
    this.frames.push(frame);
    return true;
  };
}

const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[[0-9;?]*[A-Za-z]`, "g");
export const stripAnsi = (text: string): string => text.replace(ANSI, "");

export const KEYS = {
  up: "\u001b[A",
  down: "\u001b[B",
  right: "\u001b[C",
  left: "\u001b[D",
  enter: "\r",
  escape: "\u001b",
  tab: "\t",
  backspace: "\u007f",
} as const;

export interface RenderResult {
  instance: Instance;
  stdout: FakeStdout;
  stdin: TerminalStdin;
  /** the latest frame as plain text */
  lastFrame(): string;
  /** the latest frame with its colour codes */
  lastRawFrame(): string;
  /** types keys one write at a time, letting React commit between them */
  press(...keys: string[]): Promise<void>;
  resize(columns: number, rows: number): void;
  /** waits until the frame satisfies `predicate`, failing with the last frame after `timeoutMs` */
  waitForFrame(predicate: (frame: string) => boolean, timeoutMs?: number): Promise<string>;
  unmount(): void;
}

export function render(
  tree: ReactElement,
  options: { columns?: number; rows?: number; noColor?: boolean } = {},
): RenderResult {
  const stdout = new FakeStdout(options.columns ?? 80, options.rows ?? 24);
  const stderr = new FakeStdout(options.columns ?? 80, options.rows ?? 24);
  const stdin = new TerminalStdin();
  const instance = inkRender(
    <ThemeContext.Provider value={createTheme(options.noColor ?? true)}>{tree}</ThemeContext.Provider>,
    {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stderr: stderr as unknown as NodeJS.WriteStream,
      stdin: stdin as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    },
  );
  const lastRawFrame = (): string => stdout.frames.at(-1) ?? "";
  const lastFrame = (): string => stripAnsi(lastRawFrame());
  return {
    instance,
    stdout,
    stdin,
    lastFrame,
    lastRawFrame,
    async press(...keys: string[]) {
      for (const key of keys) {
        stdin.write(key);
        await new Promise((r) => setTimeout(r, 15));
      }
    },
    resize(columns: number, rows: number) {
      stdout.columns = columns;
      stdout.rows = rows;
      stdout.emit("resize");
    },
    async waitForFrame(predicate, timeoutMs = 3000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const frame = lastFrame();
        if (predicate(frame)) return frame;
        if (Date.now() > deadline) throw new Error(`frame never matched; last frame:\n${frame}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    unmount() {
      instance.unmount();
      instance.cleanup();
    },
  };
}

/** Every line of a frame is at most `columns` wide (the layout fits the terminal). */
export function maxLineWidth(frame: string): number {
  return Math.max(0, ...frame.split("\n").map((l) => [...l].length));
}

/**
 * The whole TUI on paper's BTC/USDT as the app tests drive it: fast refresh, polls left to the
 * test (R, o, l), the test's clock.
 */
export function renderPaperDesk(
  services: TuiServices,
  now: () => number,
  size: { columns: number; rows: number },
  refreshMs = 50,
): RenderResult {
  return render(
    <App
      services={services}
      exchange="paper"
      account="default"
      pair="BTC/USDT"
      refreshMs={refreshMs}
      ordersPollMs={60_000}
      balancesPollMs={60_000}
      now={now}
    />,
    size,
  );
}
