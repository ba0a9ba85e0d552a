import { ExchangeError } from "../../lib/errors.js";
import type { Logger } from "../../lib/log.js";
import { silentLogger } from "../../lib/log.js";
import type { ExchangeId } from "../../lib/types.js";

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

/**
 * The answer as it came: its body is left as text for the caller to parse once, with the parser
 * its numbers need (RestAdapter.sendJson keeps long numbers exact; a feed snapshot its levels).
 */
export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

export interface RestClientOptions {
  baseUrl: string;
  /** 10 s unless configured (docs/dashboard-rules.md#constants request time-out; issue 8 "bounded time-out") */
  timeoutMs?: number;
  /** proxy URL (docs/decisions.md#d12) */
  proxy?: string;
  logger?: Logger;
  /** build and sign every request but send none: send() throws DryRun with it (docs/cli.md "Dry run") */
  dryRun?: boolean;
}

/**
 * Thrown by a dry-run RestClient instead of sending: the request exactly as it would have gone on
 * the wire, signature included (the CLI masks secrets before printing it).
 */
export class DryRun extends Error {
  readonly request: HttpRequest;
  readonly url: string;
  constructor(request: HttpRequest, url: string) {
    super(`Dry run: ${request.method} ${request.path} not sent`);
    this.name = "DryRun";
    this.request = request;
    this.url = url;
  }
}

export const DEFAULT_TIMEOUT_MS = 10_000;

type HttpModule = typeof import("node:http");
const transports = new Map<string, Promise<HttpModule>>();
/**
 * The transport is Node's own http/https, loaded on the first request of its protocol. (got was the
 * first choice of the stack; its import alone costs 3.7–6x a bare `node -e 0` here, which breaks
 * issue 3's "whole CLI call within 2x of bare node" — see the issue note.)
 */
function transport(protocol: string): Promise<HttpModule> {
  let module = transports.get(protocol);
  if (!module) {
    module = (protocol === "https:" ? import("node:https") : import("node:http")) as Promise<HttpModule>;
    transports.set(protocol, module);
  }
  return module;
}

/** Decodes a gzip/deflate/br body; anything else is returned as it came. */
async function decode(body: Buffer, encoding: string | undefined): Promise<Buffer> {
  if (!encoding || encoding === "identity") return body;
  const zlib = await import("node:zlib");
  if (encoding === "gzip" || encoding === "x-gzip") return zlib.gunzipSync(body);
  if (encoding === "deflate") return zlib.inflateSync(body);
  if (encoding === "br") return zlib.brotliDecompressSync(body);
  return body;
}

class RequestTimeout extends Error {
  readonly code = "ETIMEDOUT";
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

/**
 * The one HTTP transport of the exchange layer: every adapter's signed calls and, in Node, every
 * feed's REST snapshot (exchanges/feed-node.ts), so the proxy of docs/decisions.md#d12 covers both.
 */
export class RestClient {
  readonly exchange: ExchangeId;
  readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly proxy: string | undefined;
  private readonly logger: Logger;
  private readonly dryRun: boolean;
  private agent: { http: unknown; https: unknown } | undefined;

  constructor(exchange: ExchangeId, options: RestClientOptions) {
    this.exchange = exchange;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.proxy = options.proxy;
    this.logger = options.logger ?? silentLogger;
    this.dryRun = options.dryRun === true;
  }

  url(request: Pick<HttpRequest, "path" | "query">): string {
    return `${this.baseUrl}${request.path}${request.query ? `?${request.query}` : ""}`;
  }

  private async proxyAgent(): Promise<{ http: unknown; https: unknown } | undefined> {
    if (!this.proxy) return undefined;
    if (!this.agent) {
      const { HttpProxyAgent, HttpsProxyAgent } = await import("hpagent");
      // Stryker disable next-line BooleanLiteral: keepAlive only reuses the tunnel; every answer is the same without it
      const options = { proxy: this.proxy, keepAlive: true };
      this.agent = { http: new HttpProxyAgent(options), https: new HttpsProxyAgent(options) };
    }
    return this.agent;
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    if (this.dryRun) throw new DryRun(request, this.url(request));
    const started = Date.now();
    try {
      // inside the try: an address that is no URL is a network error that sent nothing (ERR_INVALID_URL), not a TypeError
      const url = new URL(this.url(request));
      const [http, agent] = await Promise.all([transport(url.protocol), this.proxyAgent()]);
      const raw = await new Promise<{ status: number; headers: HttpResponse["headers"]; body: Buffer }>(
        (resolve, reject) => {
          const body = request.body === "" ? undefined : Buffer.from(request.body, "utf8");
          const req = http.request(
            url,
            {
              method: request.method,
              headers: {
                "accept-encoding": "gzip, deflate, br",
                ...request.headers,
                // Stryker disable next-line ObjectLiteral: Node sets the same Content-Length for a body given whole to end()
                ...(body ? { "content-length": String(body.length) } : {}),
              },
              ...(agent
                ? { agent: (url.protocol === "https:" ? agent.https : agent.http) as import("node:http").Agent }
                : {}),
            },
            (res) => {
              const chunks: Buffer[] = [];
              res.on("data", (chunk: Buffer) => chunks.push(chunk));
              res.on("end", () =>
                resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
              );
              res.on("error", reject);
            },
          );
          // One bound on the whole exchange, like a request time-out: no command hangs on a silent exchange.
          const timer = setTimeout(
            () => req.destroy(new RequestTimeout(`timed out after ${this.timeoutMs} ms`)),
            this.timeoutMs,
          );
          req.on("close", () => clearTimeout(timer));
          req.on("error", reject);
          req.end(body);
        },
      );
      const text = (
        await decode(raw.body, String(raw.headers["content-encoding"] ?? "").toLowerCase() || undefined)
      ).toString("utf8");
      this.logger.debug("http", {
        exchange: this.exchange,
        method: request.method,
        path: request.path,
        status: raw.status,
        ms: Date.now() - started,
      });
      return { status: raw.status, headers: raw.headers, text };
    } catch (error) {
      const code = (error as { code?: string }).code ?? "ENETWORK";
      // "Network errors fall back to the library message or the status text" (docs/exchange-rules.md#errors);
      // the URL is not repeated because a query may carry a signature.
      const detail =
        code === "ETIMEDOUT"
          ? `Request timed out after ${this.timeoutMs} ms (${request.method} ${request.path})`
          : `${(error as Error).message.replace(/https?:\/\/\S+/g, "").trim() || "Network error"} (${request.method} ${request.path})`;
      throw new ExchangeError(this.exchange, detail, { kind: "network", code, cause: error });
    }
  }
}

const UNRESERVED = /^[A-Za-z0-9._~-]*$/;

/**
 * Percent-encodes a query key or value (upper-case hex, as encodeURIComponent writes it). Plain
 * values — most symbols, numbers and ids — skip the encoder: this sits on every signed request.
 */
export function encodeQueryValue(value: string): string {
  return UNRESERVED.test(value) ? value : encodeURIComponent(value);
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
