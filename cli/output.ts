/**
 * Everything the CLI prints. stdout carries the result (one JSON document with --json, a table
 * otherwise); stderr carries errors and progress. Plain ANSI, no colour library: cold start matters.
 */

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

export class Output {
  readonly json: boolean;
  readonly color: boolean;
  /** progress lines only on a terminal that can rewrite a line: a pipe, a log file or TERM=dumb stays quiet */
  readonly progressEnabled: boolean;
  private progressShown = false;

  constructor(json: boolean) {
    this.json = json;
    this.color = !json && colorEnabled(process.stdout);
    this.progressEnabled = cursorControl(process.stderr);
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
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** One compact JSON object per line (the --watch stream). */
  line(value: unknown): void {
    process.stdout.write(`${JSON.stringify(value)}\n`);
  }

  text(value: string): void {
    process.stdout.write(value.endsWith("\n") ? value : `${value}\n`);
  }

  table(headers: readonly string[], rows: readonly Cell[][], align: readonly Align[]): void {
    process.stdout.write(formatTable(headers, rows, align, this.color));
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
