/**
 * The security headers of every answer `spotdesk serve` gives (issue 23, docs/security-headers.md):
 * the page's Content-Security-Policy, no framing, no referrer, no powerful features, and HSTS
 * under TLS (docs/decisions.md#d7). One module so the policy is read and reviewed in one place; the
 * request listener applies `commonHeaders` to every answer and the static handler replaces the
 * CSP of an HTML page with `pagePolicy`.
 */
import type { ServerResponse } from "node:http";
import { CATALOGUE } from "../exchanges/catalogue.js";

/**
 * What a browser opens itself for an exchange's public book, read from each
 * exchange's info.ts `browserFeed.connect` (docs/exchanges.md "The browser's feed"): its feed's
 * default socket, plus the REST host of its snapshots or symbol ids. bitteam's polling and
 * kucoin's token go through the server's gateway relays (same origin), and paper's book comes
 * from the server, so they add nothing. Every info.ts must declare `browserFeed`, so a new
 * exchange does not compile until it does.
 */
export const BROWSER_FEED_URLS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.values(CATALOGUE).flatMap((info) => (info.browserFeed ? [[info.id, info.browserFeed.connect]] : [])),
);

/** The origins of BROWSER_FEED_URLS, sorted and without repeats: the page's connect-src beyond 'self'. */
export function feedOrigins(): string[] {
  return [...new Set(Object.values(BROWSER_FEED_URLS).flatMap((urls) => urls.map((u) => new URL(u).origin)))].sort();
}

/**
 * The <style> elements the bundled components insert with fixed text, allowed by their SHA-256
 * (CSP hash sources): sonner's toaster CSS (sonner 2.0.8 `__insertCSS`), Radix Select's viewport
 * scrollbar rule (@radix-ui/react-select 2.4.1) and lightweight-charts' attribution logo rule
 * (5.2.1; the built-in candle chart, docs/exchange-rules.md#chart fallback). test/server/security-headers.test.ts
 * recomputes them from node_modules, so an upgrade that changes one fails there first. The empty
 * text is sonner's element between its insertion and its text node.
 */
export const STYLE_HASHES = [
  "'sha256-StEaX+se6YS7pqjzrzMIA0KaX9zF/8zAhvQXZAe5epY='",
  "'sha256-441zG27rExd4/il+NvIqyL8zFx5XmyNQtE381kSkUJk='",
  "'sha256-3pRED1tOXas1FXFoPb9TGCjmYe9XQsmO9OV23khV2nY='",
  "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='",
] as const;

/**
 * The chart provider's advanced widget (docs/exchange-rules.md#chart, web/src/features/trading/chart/provider.ts):
 * its script by exact origin (it publishes no subresource-integrity hash) and the frame it opens.
 * Nothing wider; offline the built-in candle chart takes its place under the same policy.
 */
export const CHART_PROVIDER = { script: "https://s3.tradingview.com", frame: "https://s.tradingview.com" } as const;

export interface PagePolicyOptions {
  /** a fresh per-answer nonce for the <style> elements the components create at run time */
  styleNonce?: string;
  /** extra connect-src sources (the Vite dev server's HMR socket and the API it proxies) */
  connect?: readonly string[];
  /** extra script-src sources (the dev server's inline React refresh preamble, by hash) */
  script?: readonly string[];
}

/** The Content-Security-Policy of the dashboard's page (issue 23; docs/security-headers.md). */
export function pagePolicy(options: PagePolicyOptions = {}): string {
  const style = ["'self'", ...STYLE_HASHES, ...(options.styleNonce ? [`'nonce-${options.styleNonce}'`] : [])];
  return [
    "default-src 'self'",
    `script-src ${["'self'", CHART_PROVIDER.script, ...(options.script ?? [])].join(" ")}`,
    `style-src ${style.join(" ")}`,
    `connect-src ${["'self'", ...feedOrigins(), ...(options.connect ?? [])].join(" ")}`,
    `frame-src ${CHART_PROVIDER.frame}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The CSP of every answer that is not the app's page (JSON, assets, error pages): nothing may load or frame it. */
export const NON_PAGE_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface SecurityOptions {
  /** Strict-Transport-Security: only when the browser reaches us over TLS (docs/decisions.md#d7) */
  hsts: boolean;
}

/**
 * One year, without includeSubDomains or preload: the operator's other hosts are not ours to pin
 * to HTTPS.
 */
export const HSTS = "max-age=31536000";

/** The headers of every answer (HTML page, asset, API JSON, error, 404). */
export function commonHeaders(options: SecurityOptions): Record<string, string> {
  return {
    "content-security-policy": NON_PAGE_POLICY,
    "x-content-type-options": "nosniff",
    // older browsers that do not read frame-ancestors (clickjacking)
    "x-frame-options": "DENY",
    "referrer-policy": "no-referrer",
    "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    ...(options.hsts ? { "strict-transport-security": HSTS } : {}),
  };
}

/** Sets the common headers on an answer before its handler writes it; a handler may still replace one. */
export function createSecurityHook(options: SecurityOptions): (res: ServerResponse) => void {
  const headers = Object.entries(commonHeaders(options));
  return (res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}
