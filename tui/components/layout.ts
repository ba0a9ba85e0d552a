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
