/**
 * A terminal for Ink without a terminal: output swallowed (or counted), keys pressed by the test.
 * With the heap a process keeps after forced collections, for the children that measure Ink's
 * memory (test/tui/memory-frames.tsx, test/tui/line-cache-heap.tsx, under `node --expose-gc`).
 */
import { EventEmitter } from "node:events";
import { getHeapSpaceStatistics } from "node:v8";

export class NullStdout extends EventEmitter {
  isTTY = true;
  bytes = 0;
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (chunk: string): boolean => {
    this.bytes += chunk.length;
    return true;
  };
}

/**
 * A terminal's input as Ink reads it: nothing until `press` sends a key (or a paste) the way a
 * terminal would. Also the stdin of test/tui/render.tsx and the TUI benches.
 */
export class TerminalStdin extends EventEmitter {
  isTTY = true;
  private pending: string | null = null;
  press = (data: string): void => {
    this.pending = data;
    this.emit("readable");
    this.emit("data", data);
  };
  /** ink-testing-library's name for `press` */
  write = this.press;
  setEncoding(): void {}
  setRawMode(): void {}
  resume(): void {}
  pause(): void {}
  ref(): void {}
  unref(): void {}
  read = (): string | null => {
    const { pending } = this;
    this.pending = null;
    return pending;
  };
}

/** Ink's options for rendering into the null terminal. */
export function nullTerminal(columns: number, rows: number) {
  const stdout = new NullStdout(columns, rows);
  return {
    stdout,
    options: {
      stdout: stdout as unknown as NodeJS.WriteStream,
      stdin: new TerminalStdin() as unknown as NodeJS.ReadStream,
      debug: true,
      patchConsole: false,
      exitOnCtrlC: false,
    },
  };
}

/**
 * The JavaScript heap's data (every space but compiled code, which grows as the JIT warms up and
 * is not kept per frame), after collections until it stops shrinking: what the process keeps.
 */
export function settledHeap(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error("run node with --expose-gc");
  const data = () =>
    getHeapSpaceStatistics()
      .filter((space) => !space.space_name.startsWith("code"))
      .reduce((sum, space) => sum + space.space_used_size, 0);
  let last = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 6; i++) {
    gc();
    const used = data();
    if (used >= last - 1024) return used;
    last = used;
  }
  return last;
}

/** One turn of the event loop, as the TUI has between frames: React's scheduler runs its queued work there. */
export const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
