/** PRODUCT D13: /c/{queryPath} is `[client][exchange][account]`, each segment URI-encoded. */
import type { AccountPath } from "../../../../lib/api.js";

export function encodeQueryPath(path: readonly [string, string, string]): string {
  return path.map((s) => `[${encodeURIComponent(s)}]`).join("");
}

/** Seed 000 §2: it must decode to exactly 3 parts, otherwise undefined (the view stays empty). */
export function decodeQueryPath(queryPath: string): AccountPath | undefined {
  const parts: string[] = [];
  const re = /\[([^[\]]*)\]/gy;
  let end = 0;
  for (let match = re.exec(queryPath); match !== null; match = re.exec(queryPath)) {
    try {
      parts.push(decodeURIComponent(match[1] as string));
    } catch {
      return undefined;
    }
    end = re.lastIndex;
  }
  if (end !== queryPath.length || parts.length !== 3 || parts.some((p) => p === "")) return undefined;
  return parts as AccountPath;
}
