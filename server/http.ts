/**
 * The API's router: Hono (https://hono.dev) on its Node adapter, @hono/node-server (issue 14
 * "The server on a maintained router"). `createRouter` registers the routes it is given, which
 * `routesFromTable` builds from the one route table (lib/api.ts ROUTES: method, path, who may
 * call) and the handlers of server/routes/; a handler returns the JSON answer (always status 200)
 * or throws an ApiError (docs/decisions.md#d2: the 60x code in the body with a conventional HTTP status).
 *
 * What the contract keeps from the hand-written router it replaced (server/README.md "Router"):
 * the path is the request target's own, read without decoding and with empty segments dropped
 * (`//health/` is `/health`), so Hono matches exactly what the old router matched; a target that
 * is not a path is 400, a known path with another method 405 (HEAD included), anything else 404;
 * the first matching route of the table wins; params that do not decode are 404; bodies, headers
 * and cookies are read from Node's own request (the 64 KB limit, 413 with the connection closed).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { getRequestListener, type HttpBindings, RequestError } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { type Context, Hono } from "hono";
import type { z } from "zod";
import {
  type AccessTokenPayload,
  API_ERROR,
  HEADER,
  type HttpMethod,
  ROUTES,
  type RouteName,
  SERVER_LIMITS,
} from "../lib/api.js";
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
 * relays of docs/decisions.md#d14; re-serializing would round numbers longer than 15 digits).
 */
export class PassThroughJson {
  constructor(
    readonly status: number,
    readonly text: string,
  ) {}
}

/** A text answer with its own content type (GET /metrics: Prometheus' text format), status 200. */
export class TextAnswer {
  constructor(
    readonly contentType: string,
    readonly text: string,
  ) {}
}

export interface Route {
  method: HttpMethod;
  path: string;
  auth: "public" | "user" | "admin";
  handler: Handler;
}

/** The handlers of some routes of the table, by the table's names (one module of server/routes/). */
export type RouteHandlers = Partial<Record<RouteName, Handler>>;

/**
 * Every route of the table (lib/api.ts ROUTES) with its handler, in the table's order: method,
 * path and who may call come from the table only, so the server, the dashboard's dev proxy
 * (web/vite.config.ts) and the docs cannot disagree on them.
 */
export function routesFromTable(handlers: Record<RouteName, Handler>): Route[] {
  return (Object.keys(ROUTES) as RouteName[]).map((name) => {
    const { method, path, auth } = ROUTES[name];
    return { method, path, auth, handler: handlers[name] };
  });
}

export interface RouterHooks {
  /** authenticates "user"/"admin" routes: sets ctx.user and ctx.token or throws */
  authenticate(ctx: RequestContext, route: Route): Promise<void>;
  /** public routes: a per-address limit (604, thrown) */
  limitPublic(ctx: RequestContext): Promise<void>;
  logger: Logger;
  /** origins allowed to call with credentials (CORS) */
  corsOrigins: Set<string>;
  /** true while shutting down: new requests get 503 */
  draining(): boolean;
  /** the caller's address for the per-address limits (server/address.ts) */
  clientAddress(req: IncomingMessage): string;
  /** after each answer of a route or of no route (docs/operations.md#metrics); never throws */
  observe?(answered: Answered): void;
}

/** One answered request, as the metrics count it. */
export interface Answered {
  req: IncomingMessage;
  /** the route's path of the table ("/book/:exchange/:pair"), undefined for no route */
  route: string | undefined;
  method: string;
  status: number;
  /** the API error code of a failure (604: a limit refused it) */
  code: number | undefined;
  seconds: number;
}

interface CompiledRoute extends Route {
  segments: string[];
  hasParams: boolean;
}

/** What the Node adapter hands to Hono, plus what `requestPath` read of the target. */
interface Bindings extends HttpBindings {
  /** the request target's path and query (`?…` or ""); absent when it is not a path (400) */
  target?: { pathname: string; search: string };
  /** when the request reached the router (performance.now()), for the log line */
  started?: number;
}
type RouterEnv = { Bindings: Bindings };

/**
 * Hono's `getPath`: the request target's path as the old router saw it (no decoding, empty
 * segments dropped), so `//`, `//@`, `//[::1` or `//%zz` stay paths. Only origin-form targets
 * ("/path?query", `parseTarget`) are served; their path and query are read from the URL the
 * adapter already parsed (scheme, host, then the target as `new URL` reads it), not parsed again.
 * A target that is not a path is routed as "/" without a target, which `answer` refuses (400)
 * before it looks at the route.
 */
function requestPath(request: Request, env: Bindings | undefined): string {
  if (!env) return "/";
  env.started = performance.now();
  if (!env.incoming.url?.startsWith("/")) return "/";
  const href = request.url;
  const afterOrigin = href.slice(href.indexOf("/", href.indexOf("//") + 2));
  const hash = afterOrigin.indexOf("#");
  const target = hash < 0 ? afterOrigin : afterOrigin.slice(0, hash);
  const query = target.indexOf("?");
  const pathname = query < 0 ? target : target.slice(0, query);
  env.target = { pathname, search: query < 0 ? "" : target.slice(query) };
  return `/${pathname.split("/").filter(Boolean).join("/")}`;
}

/** Whether the route's path has the request's segments (a `:param` takes any one segment). */
function pathMatches(route: CompiledRoute, parts: string[]): boolean {
  if (route.segments.length !== parts.length) return false;
  return route.segments.every((seg, i) => seg.startsWith(":") || seg === parts[i]);
}

/** The route's params read from the request's path segments; undefined when one does not decode. */
function paramsOf(route: CompiledRoute, parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  if (!route.hasParams) return params;
  for (let i = 0; i < route.segments.length; i++) {
    const seg = route.segments[i]!;
    if (!seg.startsWith(":")) continue;
    try {
      params[seg.slice(1)] = decodeURIComponent(parts[i] ?? "");
    } catch {
      return undefined;
    }
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

type AnswerHeaders = Record<string, string | string[]>;
/** the extra headers of an answer without CORS or cookies: shared, never written to */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * A JSON answer as a Response of the Node adapter: with a string body and plain headers it is
 * written by one `writeHead` and one `end` (the adapter's cached path), as before Hono.
 */
function jsonResponse(status: number, text: string, extraHeaders: Readonly<AnswerHeaders>): Response {
  const headers = {
    "content-type": "application/json; charset=utf-8",
    "content-length": String(Buffer.byteLength(text)),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...extraHeaders,
  };
  // several set-cookie values stay an array: Node's writeHead sends one header line each
  return new Response(text, { status, headers: headers as unknown as HeadersInit });
}

function textResponse(answer: TextAnswer, extraHeaders: Readonly<AnswerHeaders>): Response {
  const headers = {
    "content-type": answer.contentType,
    "content-length": String(Buffer.byteLength(answer.text)),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...extraHeaders,
  };
  return new Response(answer.text, { status: 200, headers: headers as unknown as HeadersInit });
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

/**
 * The router: a Node request listener (`(req, res) => Promise<void>`) serving `routes`; the first
 * route of the list that matches a request answers it.
 */
export function createRouter(
  routes: readonly Route[],
  hooks: RouterHooks,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const app = new Hono<RouterEnv>({ getPath: (request, options) => requestPath(request, options?.env) });
  const compiled: CompiledRoute[] = routes.map((route) => {
    const segments = route.path.split("/").filter(Boolean);
    return { ...route, segments, hasParams: segments.some((seg) => seg.startsWith(":")) };
  });
  for (const route of compiled) app.on(route.method, route.path, (c) => answer(c, hooks, route, true));
  // No route for this method: a known path is 405, anything else 404 (Hono itself says 404). The
  // walk over the routes happens only here, so a matched call stays on Hono's one-handler path.
  app.notFound((c) => {
    const parts = c.env.target?.pathname.split("/").filter(Boolean) ?? [];
    const samePath = c.env.target ? compiled.find((route) => pathMatches(route, parts)) : undefined;
    return answer(c, hooks, samePath, false);
  });
  app.onError((error, c) => {
    // answer() catches every failure of a handler; this is the router's own last guard
    hooks.logger.error("unexpected failure", { path: c.env.target?.pathname ?? "", error: String(error) });
    return jsonResponse(500, JSON.stringify(taskFailed("Task failed to execute...", 500).toBody()), {});
  });
  // the request being handed to the adapter: its errorHandler runs synchronously inside the
  // listener's call when the adapter cannot make a Request of it, and then names the request
  let handing: IncomingMessage | undefined;
  const listener = getRequestListener(app.fetch, {
    hostname: "localhost",
    errorHandler(error) {
      // A target such as "*" or "health", a backslash in the path, a Host header that is not a
      // host: the adapter cannot make a Request of it. Answered like any bad request, never a crash.
      if (error instanceof RequestError) {
        const method = (handing?.method ?? "GET").toUpperCase();
        const msg = parseTarget(handing?.url)
          ? `Invalid request: ${error.message}`
          : "Invalid request target: expected a path such as /health";
        hooks.logger.info("request", {
          method,
          path: "(invalid target)",
          status: 400,
          code: API_ERROR.TASK_FAILED,
          ms: 0,
        });
        return jsonResponse(400, JSON.stringify(taskFailed(msg, 400).toBody()), {});
      }
      hooks.logger.error("request failed outside the router", { error: String(error) });
      return jsonResponse(500, JSON.stringify(taskFailed("Task failed to execute...", 500).toBody()), {});
    },
  });
  return (req, res) => {
    handing = req;
    try {
      return listener(req, res);
    } finally {
      handing = undefined;
    }
  };
}

/**
 * One call's RequestContext: a class, so a request allocates one object for it, not one per method
 * (docs/server-speed.md "The router on Hono").
 */
class Call implements RequestContext {
  user?: UserRecord;
  token?: AccessTokenPayload;
  bodyRead = false;
  private cookieJar: Map<string, string> | undefined;
  private queryParams: URLSearchParams | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly method: string,
    readonly path: string,
    readonly params: Record<string, string>,
    private readonly search: string,
    readonly ip: string,
    /** the answer's set-cookie values */
    private readonly cookies: string[],
  ) {}

  get query(): URLSearchParams {
    this.queryParams ??= new URLSearchParams(this.search);
    return this.queryParams;
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name];
    const text = Array.isArray(v) ? v[0] : v;
    const trimmed = text?.trim();
    return trimmed ? trimmed : undefined;
  }

  requireHeader(name: string): string {
    const v = this.header(name);
    if (v === undefined) throw new ApiError(API_ERROR.MISSING_HEADER);
    return v;
  }

  async body<S extends z.ZodType>(schema: S): Promise<z.output<S>> {
    if (this.bodyRead) throw new Error("body read twice");
    this.bodyRead = true;
    const text = await readBody(this.req, SERVER_LIMITS.bodyLimitBytes);
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
  }

  cookie(name: string): string | undefined {
    this.cookieJar ??= parseCookies(this.req.headers.cookie);
    return this.cookieJar.get(name);
  }

  setCookie(cookie: string): void {
    this.cookies.push(cookie);
  }
}

/**
 * One request's answer. `route` is the route Hono matched (by path, and by method when
 * `methodMatched`); none for a path no route has.
 */
async function answer(
  c: Context<RouterEnv>,
  hooks: RouterHooks,
  route: CompiledRoute | undefined,
  methodMatched: boolean,
): Promise<Response> {
  const { incoming: req, outgoing: res, target: url } = c.env;
  const started = c.env.started ?? performance.now();
  const pathname = url?.pathname ?? "(invalid target)";
  const method = (req.method ?? "GET").toUpperCase();
  const origin = req.headers.origin;
  const cors: Readonly<Record<string, string>> =
    origin && hooks.corsOrigins.has(origin)
      ? { "access-control-allow-origin": origin, "access-control-allow-credentials": "true", vary: "Origin" }
      : NO_HEADERS;
  let status = 200;
  let code: number | undefined;
  let userId: string | undefined;
  const cookies: string[] = [];
  try {
    if (method === "OPTIONS") {
      // written as before: a 204 with no content-type, which a Response would get from the adapter
      res.writeHead(204, {
        ...cors,
        "access-control-allow-methods": "GET, POST, PUT, DELETE",
        "access-control-allow-headers": ALLOWED_HEADERS,
        "access-control-max-age": "600",
      });
      res.end();
      status = 204;
      return RESPONSE_ALREADY_SENT;
    }
    if (hooks.draining()) throw taskFailed("The server is shutting down", 503);
    if (!url) throw taskFailed("Invalid request target: expected a path such as /health", 400);
    const params = route ? paramsOf(route, pathname.split("/").filter(Boolean)) : undefined;
    if (!route || !params) throw taskFailed(`Not found: ${method} ${pathname}`, 404);
    // HEAD reaches the GET route (Hono answers HEAD with GET's headers); the API has no HEAD calls
    if (!methodMatched || method !== route.method) throw taskFailed(`Method ${method} not allowed on ${pathname}`, 405);

    const ctx = new Call(req, res, method, pathname, params, url.search, hooks.clientAddress(req), cookies);
    if (route.auth === "public") await hooks.limitPublic(ctx);
    else await hooks.authenticate(ctx, route);
    userId = ctx.user?.id;
    const result = await route.handler(ctx);
    if (!ctx.bodyRead && (method === "POST" || method === "PUT" || method === "DELETE")) {
      // Drain an unread body so keep-alive connections stay usable (and huge ones are refused).
      await readBody(req, SERVER_LIMITS.bodyLimitBytes).catch(() => undefined);
    }
    const extra: AnswerHeaders = cookies.length ? { ...cors, "set-cookie": cookies } : cors;
    if (result instanceof TextAnswer) return textResponse(result, extra);
    if (result instanceof PassThroughJson) {
      status = result.status;
      return jsonResponse(result.status, result.text, extra);
    }
    return jsonResponse(200, JSON.stringify(result ?? { ok: true }), extra);
  } catch (error) {
    const apiError = error instanceof ApiError ? error : undefined;
    if (!apiError) hooks.logger.error("unexpected failure", { path: pathname, method, error: String(error) });
    const failure = apiError ?? taskFailed("Task failed to execute...", 500);
    status = failure.status;
    code = failure.code;
    const headers: AnswerHeaders = { ...cors };
    if (cookies.length) headers["set-cookie"] = cookies;
    if (status === 413) {
      headers.connection = "close";
      req.resume();
    }
    if (res.headersSent) return RESPONSE_ALREADY_SENT;
    return jsonResponse(status, JSON.stringify(failure.toBody()), headers);
  } finally {
    const ms = performance.now() - started;
    hooks.logger.info("request", {
      method,
      path: pathname,
      status,
      ...(code === undefined ? {} : { code }),
      ...(userId ? { user: userId } : {}),
      ms: Math.round(ms * 10) / 10,
    });
    hooks.observe?.({ req, route: route?.path, method, status, code, seconds: ms / 1000 });
  }
}
