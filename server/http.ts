/**
 * A tiny router over node:http: routes declare method, path (with :params), who may call them,
 * and a handler that returns the JSON answer (always status 200) or throws an ApiError
 * (PRODUCT D2: the 60x code in the body with a conventional HTTP status).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "zod";
import { type AccessTokenPayload, API_ERROR, HEADER, type HttpMethod, SERVER_LIMITS } from "../lib/api.js";
import type { Logger } from "../lib/log.js";
import { formatIssues } from "../lib/schemas.js";
import { ApiError, taskFailed } from "./errors.js";
import type { UserRecord } from "./storage/types.js";

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  readonly path: string;
  readonly params: Record<string, string>;
  readonly query: URLSearchParams;
  readonly ip: string;
  /** a header's trimmed value, or undefined when absent or empty */
  header(name: string): string | undefined;
  /** 601 when the header is missing */
  requireHeader(name: string): string;
  /** parses the JSON body with a schema: 600 with issues on bad JSON, wrong types, unknown fields */
  body<S extends z.ZodType>(schema: S): Promise<z.output<S>>;
  cookie(name: string): string | undefined;
  setCookie(cookie: string): void;
  /** set by the authentication step of "user" and "admin" routes */
  user?: UserRecord;
  token?: AccessTokenPayload;
}

export type Handler = (ctx: RequestContext) => Promise<unknown>;

/**
 * An answer passed through as received: its own status and JSON text, byte for byte (the gateway
 * relays of PRODUCT D14; re-serializing would round numbers longer than 15 digits).
 */
export class PassThroughJson {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {}
}

export interface Route {
  method: HttpMethod;
  path: string;
  auth: "public" | "user" | "admin";
  handler: Handler;
}

export interface RouterHooks {
  /** authenticates "user"/"admin" routes: sets ctx.user and ctx.token or throws */
  authenticate(ctx: RequestContext, route: Route): Promise<void>;
  /** public routes: a per-address limit (604) */
  limitPublic(ctx: RequestContext): Promise<void> | void;
  logger: Logger;
  /** origins allowed to call with credentials (CORS) */
  corsOrigins: Set<string>;
  /** true while shutting down: new requests get 503 */
  draining(): boolean;
  /** the caller's address for the per-address limits (server/address.ts) */
  clientAddress(req: IncomingMessage): string;
}

interface CompiledRoute extends Route {
  segments: string[];
}

function compile(routes: Route[]): CompiledRoute[] {
  return routes.map((r) => ({ ...r, segments: r.path.split("/").filter(Boolean) }));
}

/** The first route of the list whose path matches `parts` and, when one does, whether its method is `method`. */
function findRoute(
  compiled: readonly CompiledRoute[],
  method: string,
  parts: string[],
): { found?: { route: CompiledRoute; params: Record<string, string> }; pathMatched: boolean } {
  let pathMatched = false;
  for (const route of compiled) {
    const params = match(route, parts);
    if (!params) continue;
    pathMatched = true;
    if (route.method === method) return { found: { route, params }, pathMatched };
  }
  return { pathMatched };
}

/**
 * The answer of `findRoute` for every method and every literal route path (no `:param`), worked
 * out once (docs/server-speed.md): a request for one of them (nearly all calls) is one map
 * look-up instead of a walk over the routes. Keyed by "METHOD path" with the path's segments
 * joined by "/"; other paths walk the list as before, so the first matching route still wins.
 */
function literalIndex(
  compiled: readonly CompiledRoute[],
): Map<string, { route: CompiledRoute; params: Record<string, string> }> {
  const index = new Map<string, { route: CompiledRoute; params: Record<string, string> }>();
  const methods = new Set(compiled.map((r) => r.method));
  for (const route of compiled) {
    if (route.segments.some((seg) => seg.startsWith(":"))) continue;
    for (const method of methods) {
      const { found } = findRoute(compiled, method, route.segments);
      if (found) index.set(`${method} ${route.segments.join("/")}`, found);
    }
  }
  return index;
}

function match(route: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  if (route.segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const seg = route.segments[i]!;
    const part = parts[i]!;
    if (seg.startsWith(":")) {
      try {
        params[seg.slice(1)] = decodeURIComponent(part);
      } catch {
        return undefined;
      }
    } else if (seg !== part) return undefined;
  }
  return params;
}

/**
 * The request target as a URL, or undefined when it is not a path. Only origin-form targets
 * ("/path?query") are served; they are appended to a fixed origin, so "//", "//@", "//[::1" or
 * "//%zz" stay paths instead of being read as an authority (issue 16: `new URL("//", base)` threw
 * outside the error path and ended the process).
 */
export function parseTarget(target: string | undefined): URL | undefined {
  const text = target ?? "/";
  if (!text.startsWith("/")) return undefined;
  try {
    return new URL(`http://localhost${text}`);
  } catch {
    return undefined;
  }
}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? 0);
    if (declared > limit) {
      reject(taskFailed(`Request body too large: the limit is ${limit} bytes`, 413));
      return;
    }
    // one chunk (nearly every body) is decoded as it is, without a copy into a new buffer
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    let failed = false;
    req.on("data", (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(taskFailed(`Request body too large: the limit is ${limit} bytes`, 413));
        return;
      }
      if (first === undefined) first = chunk;
      else {
        chunks ??= [first];
        chunks.push(chunk);
      }
    });
    req.on("end", () => {
      if (failed) return;
      resolve(chunks ? Buffer.concat(chunks).toString("utf8") : (first?.toString("utf8") ?? ""));
    });
    req.on("error", (err) => {
      if (!failed) reject(err);
    });
  });
}

function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    try {
      out.set(name, decodeURIComponent(value));
    } catch {
      // a malformed cookie is ignored, not fatal
    }
  }
  return out;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders: Record<string, string> = {},
): void {
  sendRawJson(res, status, JSON.stringify(body ?? null), extraHeaders);
}

function sendRawJson(res: ServerResponse, status: number, text: string, extraHeaders: Record<string, string>): void {
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...extraHeaders,
  });
  res.end(text);
}

const ALLOWED_HEADERS = [
  HEADER.email,
  HEADER.password,
  HEADER.code,
  HEADER.timestamp,
  HEADER.publicKey,
  HEADER.credentialsId,
  HEADER.userId,
  HEADER.clientData,
  HEADER.authenticatorData,
  HEADER.signature,
  HEADER.path,
  HEADER.key,
  HEADER.authorization,
  "content-type",
].join(", ");

export function createRouter(routes: Route[], hooks: RouterHooks) {
  const compiled = compile(routes);
  const literal = literalIndex(compiled);

  return async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const url = parseTarget(req.url);
    const pathname = url?.pathname ?? "(invalid target)";
    const method = (req.method ?? "GET").toUpperCase();
    const origin = req.headers.origin;
    const cors: Record<string, string> =
      origin && hooks.corsOrigins.has(origin)
        ? { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" }
        : {};
    let status = 200;
    let code: number | undefined;
    let userId: string | undefined;
    const cookies: string[] = [];
    try {
      if (method === "OPTIONS") {
        res.writeHead(204, {
          ...cors,
          "access-control-allow-methods": "GET, POST, PUT, DELETE",
          "access-control-allow-headers": ALLOWED_HEADERS,
          "access-control-max-age": "600",
        });
        res.end();
        status = 204;
        return;
      }
      if (hooks.draining()) throw taskFailed("The server is shutting down", 503);
      if (!url) throw taskFailed("Invalid request target: expected a path such as /health", 400);
      const parts = url.pathname.split("/").filter(Boolean);
      const known = literal.get(`${method} ${parts.join("/")}`);
      const { found, pathMatched } = known
        ? { found: { route: known.route, params: { ...known.params } }, pathMatched: true }
        : findRoute(compiled, method, parts);
      if (!found)
        throw taskFailed(
          pathMatched ? `Method ${method} not allowed on ${pathname}` : `Not found: ${method} ${pathname}`,
          pathMatched ? 405 : 404,
        );

      let cookieJar: Map<string, string> | undefined;
      let bodyRead = false;
      const ctx: RequestContext = {
        req,
        res,
        method,
        path: pathname,
        params: found.params,
        query: url.searchParams,
        ip: hooks.clientAddress(req),
        header(name) {
          const v = req.headers[name];
          const text = Array.isArray(v) ? v[0] : v;
          const trimmed = text?.trim();
          return trimmed ? trimmed : undefined;
        },
        requireHeader(name) {
          const v = this.header(name);
          if (v === undefined) throw new ApiError(API_ERROR.MISSING_HEADER);
          return v;
        },
        async body(schema) {
          if (bodyRead) throw new Error("body read twice");
          bodyRead = true;
          const text = await readBody(req, SERVER_LIMITS.bodyLimitBytes);
          let json: unknown;
          try {
            json = text.trim() === "" ? undefined : JSON.parse(text);
          } catch {
            throw taskFailed("Invalid JSON body");
          }
          const parsed = schema.safeParse(json);
          if (!parsed.success) {
            const issues = formatIssues(parsed.error);
            throw taskFailed(`Invalid request body: ${issues.join("; ")}`, 400, issues);
          }
          return parsed.data;
        },
        cookie: (name) => {
          cookieJar ??= parseCookies(req.headers.cookie);
          return cookieJar.get(name);
        },
        setCookie: (c) => {
          cookies.push(c);
        },
      };
      if (found.route.auth === "public") await hooks.limitPublic(ctx);
      else await hooks.authenticate(ctx, found.route);
      userId = ctx.user?.id;
      const answer = await found.route.handler(ctx);
      if (!bodyRead && (method === "POST" || method === "PUT" || method === "DELETE")) {
        // Drain an unread body so keep-alive connections stay usable (and huge ones are refused).
        await readBody(req, SERVER_LIMITS.bodyLimitBytes).catch(() => undefined);
      }
      const extra = { ...cors, ...(cookies.length ? { "set-cookie": cookies as unknown as string } : {}) };
      if (answer instanceof PassThroughJson) {
        status = answer.status;
        sendRawJson(res, answer.status, answer.text, extra);
      } else {
        sendJson(res, 200, answer ?? { ok: true }, extra);
      }
    } catch (error) {
      const apiError = error instanceof ApiError ? error : undefined;
      if (!apiError) hooks.logger.error("unexpected failure", { path: pathname, method, error: String(error) });
      const failure = apiError ?? taskFailed("Task failed to execute...", 500);
      status = failure.status;
      code = failure.code;
      const headers: Record<string, string> = { ...cors };
      if (cookies.length) headers["set-cookie"] = cookies as unknown as string;
      if (status === 413) headers.connection = "close";
      if (!res.headersSent) sendJson(res, status, failure.toBody(), headers);
      if (status === 413) req.resume();
    } finally {
      hooks.logger.info("request", {
        method,
        path: pathname,
        status,
        ...(code === undefined ? {} : { code }),
        ...(userId ? { user: userId } : {}),
        ms: Math.round((performance.now() - started) * 10) / 10,
      });
    }
  };
}
