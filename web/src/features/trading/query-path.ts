/**
 * PRODUCT D13: /c/{queryPath} is `[client][exchange][account]`, each segment URI-encoded once
 * (docs/dashboard-delivery.md#links). The brackets are literal in the URL, so a name's own `[`,
 * `]` and `%` travel as %5B, %5D and %25. The router's params decode the path (and its navigate
 * would encode the segments a second time), so the view reads the raw path and links carry the
 * href built here.
 */
import type { AccountPath } from "../../../../lib/api.js";

export function encodeQueryPath(path: readonly [string, string, string]): string {
  return path.map((s) => `[${encodeURIComponent(s)}]`).join("");
}

/** The trading view's href for an account path: the one place a /c/ link is built. */
export function queryPathHref(path: readonly [string, string, string]): string {
  return `/c/${encodeQueryPath(path)}`;
}

/** The still-encoded queryPath of a location href ("/c/[a][b][c]?x#y"), undefined off /c/. */
export function queryPathOf(href: string): string | undefined {
  const pathname = href.replace(/[?#][\s\S]*$/, "");
  return /^\/c\/([^/]+)\/?$/.exec(pathname)?.[1];
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
