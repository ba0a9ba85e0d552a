import type { Logger } from "../../lib/log.js";
import type { ExchangeId } from "../../lib/types.js";
import type { FeedOptions } from "../types.js";
import type { Inflate } from "./inflate.js";

export interface HttpCall {
  method?: "GET" | "POST";
  body?: string;
  headers?: Record<string, string>;
  /**
   * Answer the body text unparsed: for ids beyond 2^53 (xt's lastUpdateId) that JSON.parse
   * would round. A FetchJson that ignores it answers the parsed value, which callers accept too.
   */
  text?: boolean;
}
/** One public REST call answering JSON (snapshots, tokens, symbol ids); throws on failure. */
export type FetchJson = (url: string, call?: HttpCall) => Promise<unknown>;

/**
 * Opens the REST transport of one feed: in Node the adapters' own RestClient (nodeFeedOptions in
 * exchanges/feed-node.ts), so --proxy covers snapshots as it covers orders; in the browser, fetch.
 */
export type SnapshotTransport = (
  exchange: ExchangeId,
  options: { timeoutMs: number; proxy?: string | undefined; logger?: Logger | undefined },
) => FetchJson;

/**
 * FeedOptions plus what the feed machinery reads at run time. createFeed keeps the
 * FeedOptions signature; these fields ride along in the same object (nodeFeedOptions() spreads
 * `connect` and `inflate` in; tests shorten the intervals).
 */
export interface FeedRuntimeOptions extends FeedOptions {
  /** decompresses binary frames (gzip, zlib, raw deflate); the browser's DecompressionStream when absent */
  inflate?: Inflate;
  /** answers the feed's REST calls directly (tests); else `transport` opens them, else fetch */
  fetchJson?: FetchJson;
  transport?: SnapshotTransport;
  /** docs/exchange-rules.md#states: a keep-alive every 15 s */
  keepAliveMs?: number;
  /** first backoff step after the immediate reconnect (docs/decisions.md#d14) */
  reconnectBaseMs?: number;
  /** backoff cap */
  reconnectMaxMs?: number;
  /** a book unchanged this long is marked stale and the socket renewed */
  staleAfterMs?: number;
  /** bitteam: how often the order book is polled */
  pollIntervalMs?: number;
  /** REST time-out for snapshots and tokens */
  httpTimeoutMs?: number;
  /** jitter source, injectable for tests */
  random?: () => number;
}

export const FEED_DEFAULTS = {
  keepAliveMs: 15_000,
  reconnectBaseMs: 500,
  reconnectMaxMs: 30_000,
  staleAfterMs: 60_000,
  pollIntervalMs: 2_000,
  httpTimeoutMs: 10_000,
} as const;

/**
 * Capped exponential backoff with jitter: the first retry goes at once (docs/decisions.md#d14), then
 * base·2^(n-1) capped, scaled by a random factor in [0.5, 1) so many clients do not reconnect in step.
 */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number, random: () => number): number {
  if (attempt <= 0) return 0;
  const raw = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(raw * (0.5 + random() * 0.5));
}

/** The REST host: --base-url when given (a mock, a testnet, the relay of docs/decisions.md#d14), else the exchange's own. */
export function restBase(options: FeedOptions, fallback: string): string {
  return (options.baseUrl ?? fallback).replace(/\/+$/, "");
}

/** The feed's REST calls: `fetchJson` when given, else the injected transport, else fetch. */
export function feedFetchJson(exchange: ExchangeId, options: FeedRuntimeOptions): FetchJson {
  if (options.fetchJson) return options.fetchJson;
  const timeoutMs = options.httpTimeoutMs ?? FEED_DEFAULTS.httpTimeoutMs;
  if (!options.transport) return defaultFetchJson(timeoutMs);
  return options.transport(exchange, { timeoutMs, proxy: options.proxy, logger: options.logger });
}

/** fetch is in Node 20 and every browser, so the feed modules stay free of Node-only imports. */
export function defaultFetchJson(timeoutMs: number = FEED_DEFAULTS.httpTimeoutMs): FetchJson {
  return async (url, call = {}) => {
    const response = await fetch(url, {
      method: call.method ?? "GET",
      headers: {
        accept: "application/json",
        ...(call.body !== undefined ? { "content-type": "application/json" } : {}),
        ...call.headers,
      },
      ...(call.body !== undefined ? { body: call.body } : {}),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`HTTP ${response.status} from ${new URL(url).pathname}: ${text.slice(0, 200)}`);
    return call.text ? text : (JSON.parse(text) as unknown);
  };
}
