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

/** https://no-color.org: NO_COLOR present and not empty disables colour; so does a pipe. */
export function colorEnabled(stream: NodeJS.WriteStream): boolean {
  const noColor = process.env.NO_COLOR;
  if (noColor !== undefined && noColor !== "") return false;
  if (process.env.TERM === "dumb") return false;
  return stream.isTTY === true;
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
  /** progress lines only on a terminal: a pipe or a log file stays quiet */
  readonly progressEnabled: boolean;
  private progressShown = false;

  constructor(json: boolean) {
    this.json = json;
    this.color = !json && colorEnabled(process.stdout);
    this.progressEnabled = process.stderr.isTTY === true;
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
