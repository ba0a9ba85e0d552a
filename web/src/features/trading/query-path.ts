/**
 * docs/decisions.md#d13: /c/{queryPath} is `[client][exchange][account]`, each segment URI-encoded once
 * (docs/dashboard-delivery.md#links). The brackets are literal in the URL, so a name's own `[`,
 * `]` and `%` travel as %5B, %5D and %25.
 */
import type { AccountPath } from "../../../../lib/api.js";

export function encodeQueryPath(path: readonly [string, string, string]): string {
  return path.map((s) => `[${encodeURIComponent(s)}]`).join("");
}

/** The trading view's href for an account path (what a link to it carries). */
export function queryPathHref(path: readonly [string, string, string]): string {
  return `/c/${encodeQueryPath(path)}`;
}

const TRADING = /^\/c\/[^/]+\/?$/;

/**
 * The router's URL rewrite for /c/ (its `rewrite` option). The router decodes a path before it
 * matches it (every %XX but %25, so a name's %5B would become a bracket that splits the name) and
 * encodes a param when it builds a link (so an encoded segment would be encoded twice, %20 as
 * %2520). Inside the router the trading path has each `%` written as `%25`: its decoding then
 * hands the view the queryPath exactly as the address bar has it, and its encoding of that param
 * comes back out as the address once `%25` is `%` again.
 */
export const queryPathRewrite = {
  input: ({ url }: { url: URL }): URL | undefined => {
    if (!TRADING.test(url.pathname)) return undefined;
    const inner = new URL(url.href);
    inner.pathname = url.pathname.replaceAll("%", "%25");
    return inner;
  },
  output: ({ url }: { url: URL }): URL | undefined => {
    if (!TRADING.test(url.pathname)) return undefined;
    const outer = new URL(url.href);
    outer.pathname = url.pathname.replaceAll("%25", "%");
    return outer;
  },
};

/** docs/dashboard-rules.md#screens: it must decode to exactly 3 parts, otherwise undefined (the view stays empty). */
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
