import type { ExchangeId } from "../../lib/types.js";
import { ExchangeError } from "../../lib/errors.js";
import type { Logger } from "../../lib/log.js";
import { silentLogger } from "../../lib/log.js";

export type HttpMethod = "GET" | "POST" | "DELETE" | "PUT";

/**
 * One request exactly as it goes on the wire. Adapters build `query` and `body` once, sign those
 * very strings, and the client sends them unchanged (issue 3: "the signed bytes must be the bytes
 * sent").
 */
export interface HttpRequest {
  method: HttpMethod;
  /** path beginning with '/', without the query */
  path: string;
  /** encoded query without '?', '' for none */
  query: string;
  /** raw body, '' for none */
  body: string;
  headers: Record<string, string>;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** parsed JSON, or undefined when the body is not JSON */
  json: unknown;
}

export interface RestClientOptions {
  baseUrl: string;
  /** 10 s unless configured (seed 000 §9 request time-out; issue 8 "bounded time-out") */
  timeoutMs?: number;
  /** proxy URL (PRODUCT D12) */
  proxy?: string;
  logger?: Logger;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

type Got = typeof import("got").default;
let gotPromise: Promise<Got> | undefined;
/** got is loaded on the first request, so commands that never call an exchange start fast. */
function loadGot(): Promise<Got> {
  gotPromise ??= import("got").then((m) => m.default);
  return gotPromise;
}

/** Network failure codes that prove the request never reached the exchange. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ERR_INVALID_URL", "EPROTO_NOT_SENT"]);

/**
 * True when a failed request may still have been executed by the exchange (a time-out, a reset
 * after sending): a create must then be looked up by its client order id before any retry.
 */
export function mayHaveReachedExchange(error: unknown): boolean {
  return error instanceof ExchangeError && error.kind === "network" && !NOT_SENT_CODES.has(String(error.code));
}

export class RestClient {
  readonly exchange: ExchangeId;
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly proxy: string | undefined;
  private readonly logger: Logger;
  private agent: Record<string, unknown> | undefined;

  constructor(exchange: ExchangeId, options: RestClientOptions) {
    this.exchange = exchange;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.proxy = options.proxy;
    this.logger = options.logger ?? silentLogger;
  }

  url(request: Pick<HttpRequest, "path" | "query">): string {
    return `${this.baseUrl}${request.path}${request.query ? `?${request.query}` : ""}`;
  }

  private async proxyAgent(): Promise<Record<string, unknown> | undefined> {
    if (!this.proxy) return undefined;
    if (!this.agent) {
      const { HttpProxyAgent, HttpsProxyAgent } = await import("hpagent");
      const options = { proxy: this.proxy, keepAlive: true };
      this.agent = { http: new HttpProxyAgent(options), https: new HttpsProxyAgent(options) };
    }
    return this.agent;
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    const got = await loadGot();
    const url = this.url(request);
    const started = Date.now();
    const agent = await this.proxyAgent();
    try {
      const response = await got(url, {
        method: request.method,
        headers: request.headers,
        ...(request.body !== "" ? { body: request.body } : {}),
        timeout: { request: this.timeoutMs },
        retry: { limit: 0 },
        throwHttpErrors: false,
        followRedirect: false,
        decompress: true,
        ...(agent ? { agent } : {}),
      });
      const text = response.body;
      let json: unknown;
      try {
        json = text === "" ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      this.logger.debug("http", { exchange: this.exchange, method: request.method, path: request.path, status: response.statusCode, ms: Date.now() - started });
      return { status: response.statusCode, headers: response.headers, text, json };
    } catch (error) {
      const code = (error as { code?: string }).code ?? "ENETWORK";
      // "Network errors fall back to the library message or the status text" (seed 001 §8);
      // the URL is not repeated because a query may carry a signature.
      const detail =
        code === "ETIMEDOUT"
          ? `Request timed out after ${this.timeoutMs} ms (${request.method} ${request.path})`
          : `${(error as Error).message.replace(/https?:\/\/\S+/g, "").trim() || "Network error"} (${request.method} ${request.path})`;
      throw new ExchangeError(this.exchange, detail, { kind: "network", code, cause: error });
    }
  }
}

/**
 * Builds an encoded query string from parameters, skipping undefined values. `sort` orders keys
 * alphabetically (the canonical form several exchanges sign).
 */
export function buildQuery(
  params: Record<string, string | number | boolean | undefined>,
  options: { sort?: boolean; encode?: (value: string) => string } = {},
): string {
  const encode = options.encode ?? encodeURIComponent;
  const keys = Object.keys(params).filter((k) => params[k] !== undefined);
  if (options.sort) keys.sort();
  return keys.map((k) => `${encode(k)}=${encode(String(params[k]))}`).join("&");
}

/** Reads a Retry-After header (seconds or HTTP date) into milliseconds. */
export function retryAfterMs(headers: HttpResponse["headers"], now = Date.now()): number | undefined {
  const raw = headers["retry-after"];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
