/** Text layout helpers shared by the panels: fixed-width cells, so a row is one <Text>. */

/**
 * `text` cut to `width` with "…" when longer, never padded: Ink leaves the rest of a line blank,
 * and every character written costs it a per-cell style pass on each frame.
 */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (text.length <= width) return text;
  return width === 1 ? text.slice(0, 1) : `${text.slice(0, width - 1)}…`;
}

export function padEnd(text: string, width: number): string {
  if (width <= 0) return "";
  if (text.length > width) return width === 1 ? text.slice(0, 1) : `${text.slice(0, width - 1)}…`;
  return text + " ".repeat(width - text.length);
}

export function padStart(text: string, width: number): string {
  if (width <= 0) return "";
  if (text.length > width) return width === 1 ? text.slice(0, 1) : `${text.slice(0, width - 1)}…`;
  return " ".repeat(width - text.length) + text;
}

/** Splits `width` into columns by weights, giving the rounding remainder to the first column. */
export function columns(width: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const cols = weights.map((w) => Math.floor((width * w) / sum));
  cols[0] = (cols[0] ?? 0) + width - cols.reduce((a, b) => a + b, 0);
  return cols;
}

/** The first candidate no wider than `width`, else the last one cut to it with "…". */
export function firstFitting(width: number, candidates: readonly string[]): string {
  for (const text of candidates) if (text.length <= width) return text;
  return truncate(candidates[candidates.length - 1] ?? "", width);
}

/**
 * `text` word-wrapped to `width` columns, in at most `maxLines` lines (the last one cut with "…"
 * when more would be needed). Words longer than a line are split. A message the trader must read in
 * full (what is missing, why an order is refused) wraps instead of being cut at the terminal's edge.
 */
export function wrapText(text: string, width: number, maxLines = Number.POSITIVE_INFINITY): string[] {
  if (width <= 0 || maxLines <= 0) return [];
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter((w) => w !== "")) {
    let rest = word;
    if (line !== "" && line.length + 1 + rest.length <= width) {
      line = `${line} ${rest}`;
      continue;
    }
    if (line !== "") lines.push(line);
    while (rest.length > width) {
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
    }
    line = rest;
  }
  if (line !== "") lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1] as string;
  kept[maxLines - 1] = last.length < width ? `${last}…` : `${last.slice(0, width - 1)}…`;
  return kept;
}
