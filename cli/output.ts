/**
 * Everything the CLI prints. stdout carries the result (one JSON document with --json, a table
 * otherwise); stderr carries errors and progress. Plain ANSI, no colour library: cold start matters.
 */
import { writeSync } from "node:fs";

export type Style = "green" | "red" | "dim" | "bold" | "yellow";

const ANSI: Record<Style, [string, string]> = {
  green: ["\x1b[32m", "\x1b[39m"],
  red: ["\x1b[31m", "\x1b[39m"],
  yellow: ["\x1b[33m", "\x1b[39m"],
  dim: ["\x1b[2m", "\x1b[22m"],
  bold: ["\x1b[1m", "\x1b[22m"],
};

/**
 * Colour (docs/cli.md "Colour and terminals"): FORCE_COLOR decides when set (`0` or `false` never,
 * anything else always, even in a pipe); else NO_COLOR (https://no-color.org), TERM=dumb and a
 * pipe turn it off.
 */
export function colorEnabled(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  const noColor = env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  if (env.TERM === "dumb") return false;
  return stream.isTTY === true;
}

/** Cursor movement and line clearing: only on a terminal that is not TERM=dumb. */
export function cursorControl(stream: NodeJS.WriteStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return stream.isTTY === true && env.TERM !== "dumb";
}

const sent: string[] = [];

/** What went out so far (an order placed, ids cancelled), named on stderr if stdout then fails. */
export function sentSoFar(): readonly string[] {
  return sent;
}

export function paint(text: string, style: Style | undefined, enabled: boolean): string {
  if (!style || !enabled) return text;
  const [open, close] = ANSI[style];
  return `${open}${text}${close}`;
}

export type Cell = string | { text: string; style?: Style };
export type Align = "left" | "right";

/** Simple aligned text: columns padded to their widest cell, numbers right-aligned by the caller's choice. */
export function formatTable(
  headers: readonly string[],
  rows: readonly Cell[][],
  align: readonly Align[],
  color: boolean,
): string {
  const text = (cell: Cell): string => (typeof cell === "string" ? cell : cell.text);
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => text(row[i] ?? "").length)));
  const pad = (value: string, i: number): string =>
    align[i] === "right" ? value.padStart(widths[i] ?? 0) : value.padEnd(widths[i] ?? 0);
  const lines = [
    headers
      .map((h, i) => paint(pad(h, i), "bold", color))
      .join("  ")
      .trimEnd(),
  ];
  for (const row of rows) {
    lines.push(
      headers
        .map((_, i) => {
          const cell = row[i] ?? "";
          return paint(pad(text(cell), i), typeof cell === "string" ? undefined : cell.style, color);
        })
        .join("  ")
        .trimEnd(),
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * stdout and stderr without their streams until something needs them (docs/cli.md "Cold start").
 * Node builds `process.stdout` on first use, and on a pipe that loads `net` and the streams stack,
 * a tenth of a read command's start. Results are written with `writeSync(1)` while no stream
 * exists; once one does (the TUI, `book --watch`, commander's help), every write goes through it so
 * nothing overtakes what it still buffers. A pipe left non-blocking by another process (EAGAIN)
 * hands the rest to the stream too. A failed write goes to the same handler as the stream's
 * 'error' event, which is attached whenever the stream is built.
 */
const opened: { stdout?: NodeJS.WriteStream; stderr?: NodeJS.WriteStream } = {};
let onWriteError: ((error: NodeJS.ErrnoException) => void) | undefined;

/** Watches for process.stdout and process.stderr to be built; `onStdoutError` gets stdout's failures. */
export function watchStdio(onStdoutError: (error: NodeJS.ErrnoException) => void): void {
  onWriteError = onStdoutError;
  for (const name of ["stdout", "stderr"] as const) {
    const descriptor = Object.getOwnPropertyDescriptor(process, name);
    const get = descriptor?.get;
    if (!get || !descriptor.configurable) {
      opened[name] = process[name];
      continue;
    }
    Object.defineProperty(process, name, {
      configurable: true,
      enumerable: descriptor.enumerable,
      get(): NodeJS.WriteStream {
        const stream = get.call(process) as NodeJS.WriteStream;
        if (opened[name] === undefined) {
          opened[name] = stream;
          if (name === "stdout") stream.on("error", onStdoutError);
        }
        return stream;
      },
    });
  }
}

/** The stream, when something built it (or nothing is watched); undefined while none exists. */
export function openedStream(name: "stdout" | "stderr"): NodeJS.WriteStream | undefined {
  return onWriteError === undefined ? process[name] : opened[name];
}

/** Writes the result on stdout: directly while no stream exists, else through it. */
export function writeStdout(text: string): void {
  if (onWriteError === undefined || opened.stdout !== undefined) {
    process.stdout.write(text);
    return;
  }
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    if (failure.code !== "EAGAIN") {
      onWriteError(failure);
      return;
    }
    process.stdout.write(bytes.subarray(done));
  }
}

export class Output {
  readonly json: boolean;
  private progressShown = false;
  #color: boolean | undefined;
  #progressEnabled: boolean | undefined;

  constructor(json: boolean) {
    this.json = json;
  }

  /** Colour on stdout; asked only when a table is printed (it may build the stream). */
  get color(): boolean {
    this.#color ??= !this.json && colorEnabled(process.stdout);
    return this.#color;
  }

  /** progress lines only on a terminal that can rewrite a line: a pipe, a log file or TERM=dumb stays quiet */
  get progressEnabled(): boolean {
    this.#progressEnabled ??= cursorControl(process.stderr);
    return this.#progressEnabled;
  }

  /**
   * Records what went out before the result is printed ("order 12 placed"): when stdout then
   * fails, the error names it so nobody sends it again (docs/cli.md "Exit codes").
   */
  sent(what: string): void {
    sent.push(what);
  }

  /** The one JSON document of a --json command. */
  document(value: unknown): void {
    writeStdout(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** One compact JSON object per line (the --watch stream). */
  line(value: unknown): void {
    writeStdout(`${JSON.stringify(value)}\n`);
  }

  text(value: string): void {
    writeStdout(value.endsWith("\n") ? value : `${value}\n`);
  }

  table(headers: readonly string[], rows: readonly Cell[][], align: readonly Align[]): void {
    writeStdout(formatTable(headers, rows, align, this.color));
  }

  /** A message for the person at the terminal, on stderr so stdout stays the result. */
  note(message: string): void {
    this.clearProgress();
    process.stderr.write(`${message}\n`);
  }

  /** Overwrites one status line on stderr; nothing at all when stderr is not a terminal. */
  progress(message: string): void {
    if (!this.progressEnabled) return;
    process.stderr.write(`\r\x1b[2K${message}`);
    this.progressShown = true;
  }

  clearProgress(): void {
    if (!this.progressShown) return;
    process.stderr.write("\r\x1b[2K");
    this.progressShown = false;
  }
}
