/**
 * The dashboard's backend client (docs/api.md#calls, #errors; docs/decisions.md#d2, #d18): every call goes through
 * `request`, which adds the headers, a 10 s time-out, credentials (the refresh cookie, docs/decisions.md#d7) and
 * no caching on GET, and turns any answer but 200 into an error result with the seed's message.
 * It never throws: a failed call resolves to `{ ok: false, code }` and "the result has no data"
 * (docs/api.md#errors). Isomorphic: only `fetch` and `AbortController`.
 */
import {
  type AccountPath,
  API_ERROR,
  apiErrorMessage,
  HEADER,
  isApiErrorBody,
  pathHeader,
  ROUTES,
  type RouteName,
} from "./api.js";

/** docs/dashboard-rules.md#constants: request time-out 10 s. */
export const REQUEST_TIMEOUT_MS = 10_000;

export type ApiResult<T> = { ok: true; data: T } | { ok: false; code: number; msg: string };

/** What the UI shows for a failure: a title and an optional description (docs/api.md#errors). */
export interface ApiFailure {
  code: number;
  title: string;
  description?: string;
  method: string;
  path: string;
}

/**
 * docs/api.md#errors as toast text: the catalogue message is the title; 608 shows the exchange layer's
 * message instead (docs/decisions.md#d2); a 600 from the server carries its reason as the description.
 */
export function describeFailure(code: number, msg: string | undefined, method: string, path: string): ApiFailure {
  if (code === API_ERROR.EXCHANGE_FAILED) return { code, title: msg || apiErrorMessage(code), method, path };
  const failure: ApiFailure = { code, title: apiErrorMessage(code), method, path };
  if (code === API_ERROR.TASK_FAILED && msg && msg !== failure.title) failure.description = msg;
  return failure;
}

/** docs/api.md#errors: a network or other request failure is titled with the request path, code 600. */
export function networkFailure(method: string, path: string): ApiFailure {
  return {
    code: API_ERROR.TASK_FAILED,
    title: path,
    description: apiErrorMessage(API_ERROR.TASK_FAILED),
    method,
    path,
  };
}

export interface ClientOptions {
  /** '' for the same origin */
  baseUrl?: string;
  fetch?: typeof fetch;
  now?: () => number;
  timeoutMs?: number;
  accessToken?: () => string | undefined;
  userId?: () => string | undefined;
  /** after every request: false when no answer came at all (the server may be down), true on any answer */
  onReachable?: (reachable: boolean) => void;
  /** every failure (for toasts and redirects: one central place) */
  onFailure?: (failure: ApiFailure) => void;
  /** docs/api.md#calls: successful non-GET calls show a success toast (the route names it in words) */
  onSuccess?: (method: string, path: string, route: RouteName, data: unknown) => void;
  /**
   * Asked before a failure is reported: resolve true once the cause is repaired (a 602 after a
   * token refresh) and the call is sent once more; only the second outcome is reported.
   */
  recover?: (failure: ApiFailure, route: RouteName) => Promise<boolean> | boolean;
}

export interface CallOptions {
  /** `:id` parameters of the route */
  params?: Record<string, string>;
  headers?: Record<string, string | undefined>;
  body?: unknown;
  /** trade and bot calls: the account path header (docs/decisions.md#d18) */
  path?: AccountPath;
  /** trade and bot calls: the encryption key header */
  key?: string;
  /** no success/failure callbacks (background calls such as the token refresh) */
  quiet?: boolean;
}

export interface ApiClient {
  call<T>(route: RouteName, options?: CallOptions): Promise<ApiResult<T>>;
}

export function createApiClient(options: ClientOptions = {}): ApiClient {
  const base = (options.baseUrl ?? "").replace(/\/$/, "");
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => globalThis.fetch(...args));
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;

  type Sent<T> = { ok: true; data: T } | { ok: false; failure: ApiFailure };

  async function call<T>(name: RouteName, call: CallOptions = {}): Promise<ApiResult<T>> {
    let sent = await send<T>(name, call);
    // one retry at most: a second failure is reported whatever it is
    if (!sent.ok && options.recover && (await options.recover(sent.failure, name))) sent = await send<T>(name, call);
    if (sent.ok) return sent;
    if (!call.quiet) options.onFailure?.(sent.failure);
    return { ok: false, code: sent.failure.code, msg: sent.failure.description ?? sent.failure.title };
  }

  async function send<T>(name: RouteName, call: CallOptions): Promise<Sent<T>> {
    const spec = ROUTES[name];
    const path = spec.path.replace(/:(\w+)/g, (_, p: string) => encodeURIComponent(call.params?.[p] ?? ""));
    const method = spec.method;
    const headers: Record<string, string> = {};
    if (spec.headers.includes(HEADER.timestamp)) headers[HEADER.timestamp] = String(now());
    const userId = options.userId?.();
    if (userId && spec.headers.includes(HEADER.userId)) headers[HEADER.userId] = userId;
    if (spec.auth !== "public") {
      const token = options.accessToken?.();
      if (token) headers[HEADER.authorization] = `Bearer ${token}`;
    }
    if (call.path) headers[HEADER.path] = pathHeader(call.path);
    if (call.key !== undefined) headers[HEADER.key] = call.key;
    for (const [k, v] of Object.entries(call.headers ?? {})) if (v !== undefined) headers[k] = v;
    if (call.body !== undefined) headers["content-type"] = "application/json";
    if (method === "GET") headers["cache-control"] = "no-cache";

    const fail = (failure: ApiFailure): Sent<T> => ({ ok: false, failure });

    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers,
        credentials: "include",
        // docs/api.md#calls: GET calls ask for no caching.
        ...(method === "GET" ? { cache: "no-store" as RequestCache } : {}),
        ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
        signal: controller.signal,
      });
      text = await response.text();
    } catch {
      options.onReachable?.(false);
      return fail(networkFailure(method, path));
    } finally {
      clearTimeout(timer);
    }
    options.onReachable?.(true);
    let json: unknown;
    try {
      // Stryker disable next-line StringLiteral: a shortcut; JSON.parse("") throws and is caught as undefined
      json = text === "" ? undefined : JSON.parse(text);
    } /* Stryker disable next-line BlockStatement: emptied, json stays undefined */ catch {
      json = undefined;
    }
    // docs/api.md#errors / docs/decisions.md#d2: only 200 is success.
    if (response.status !== 200) {
      if (isApiErrorBody(json)) return fail(describeFailure(json.code, json.msg, method, path));
      return fail(networkFailure(method, path));
    }
    if (method !== "GET" && !call.quiet) options.onSuccess?.(method, path, name, json);
    return { ok: true, data: json as T };
  }

  return { call };
}
