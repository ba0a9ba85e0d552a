/**
 * Account paths and adapters for trade and bot calls: the `path` header (docs/decisions.md#d18), the scope
 * check (docs/dashboard-rules.md#roles), and the adapter built for one call from the stored envelope opened in
 * memory with the `key` header (never logged, never stored in clear).
 */
import { createHash } from "node:crypto";
import { needsApiKey } from "../exchanges/catalogue.js";
import { openAccount } from "../exchanges/open.js";
import type { ExchangeAdapter } from "../exchanges/types.js";
import { type AccountPath, API_ERROR, HEADER } from "../lib/api.js";
import { openCredentials, type StoredCredentials } from "../lib/envelope.js";
import { isExchangeError } from "../lib/errors.js";
import { accountPathSchema } from "../lib/schemas.js";
import type { App } from "./app.js";
import { inScope } from "./auth/session.js";
import { ApiError, forbidden, notFound, taskFailed } from "./errors.js";
import type { RequestContext } from "./http.js";
import type { ApiKeyRecord, UserRecord } from "./storage/types.js";
import { pathKey } from "./storage/types.js";

/** header texts already read into a valid path (docs/server-speed.md); the oldest goes first */
const parsedPaths = new Map<string, AccountPath>();
const PARSED_PATHS = 1024;

/** Reads the `path` header: a JSON array, raw or URI-encoded (headers are Latin-1 on the wire). */
export function parsePath(text: string): AccountPath {
  const known = parsedPaths.get(text);
  if (known) return [...known] as AccountPath;
  const path = readPath(text);
  if (parsedPaths.size >= PARSED_PATHS) parsedPaths.delete(parsedPaths.keys().next().value!);
  parsedPaths.set(text, [...path] as AccountPath);
  return path;
}

function readPath(text: string): AccountPath {
  let json: unknown;
  try {
    json = JSON.parse(text.startsWith("[") ? text : decodeURIComponent(text));
  } catch {
    throw taskFailed('Header path must be a JSON array ["client","exchange","account"]');
  }
  const parsed = accountPathSchema.safeParse(json);
  if (!parsed.success) throw taskFailed('Header path must be a JSON array ["client","exchange","account"]');
  return parsed.data as AccountPath;
}

export function requireScope(user: UserRecord, path: AccountPath): void {
  if (!inScope(user, path[0])) throw forbidden(`client '${path[0]}' is not in your scope`);
}

/** The path header's account, checked against the caller's scope (every client-bound call). */
export async function accountOf(app: App, ctx: RequestContext): Promise<{ path: AccountPath; record: ApiKeyRecord }> {
  const path = parsePath(ctx.requireHeader(HEADER.path));
  requireScope(ctx.user!, path);
  const record = await app.storage.getApiKey(path);
  if (!record) throw notFound(`no account at ${JSON.stringify(path)}`);
  return { path, record };
}

const paperNames = new Map<string, string>();

/** paper's account file name for a server account path (letters, digits, '-' only). */
export function paperAccountName(path: AccountPath): string {
  const key = pathKey(path);
  let name = paperNames.get(key);
  if (name === undefined) {
    name = `srv-${createHash("sha256").update(key).digest("hex").slice(0, 24)}`;
    if (paperNames.size >= PARSED_PATHS) paperNames.delete(paperNames.keys().next().value!);
    paperNames.set(key, name);
  }
  return name;
}

/**
 * One paper adapter per server and paper account, kept across calls (docs/server-speed.md):
 * paper needs no credentials, and its adapter holds nothing but its options (the account's
 * state and queue live in paper's store, shared by every adapter of the account in the process).
 */
const paperAdapters = new WeakMap<App, Map<string, ExchangeAdapter>>();
function paperAdapter(app: App, path: AccountPath): ExchangeAdapter {
  let adapters = paperAdapters.get(app);
  if (!adapters) {
    adapters = new Map();
    paperAdapters.set(app, adapters);
  }
  const name = paperAccountName(path);
  let adapter = adapters.get(name);
  if (!adapter) {
    adapter = buildAdapter(app, path, undefined);
    if (adapters.size >= PARSED_PATHS) adapters.delete(adapters.keys().next().value!);
    adapters.set(name, adapter);
  }
  return adapter;
}

/** Opens the envelope with the key (609 when the key or the envelope does not fit). */
export async function openEnvelope(record: ApiKeyRecord, key: string | undefined): Promise<StoredCredentials> {
  if (key === undefined) throw new ApiError(API_ERROR.MISSING_HEADER);
  try {
    return await openCredentials(record.envelope, key);
  } catch {
    throw new ApiError(API_ERROR.EXCHANGE_OBJECT);
  }
}

/** Builds the adapter of one call; the clear credentials live only in this call's closure. */
export function buildAdapter(app: App, path: AccountPath, credentials: StoredCredentials | undefined): ExchangeAdapter {
  const exchange = path[1];
  try {
    if (!credentials && needsApiKey(exchange)) throw new ApiError(API_ERROR.EXCHANGE_OBJECT);
    // docs/decisions.md#d12: the server's proxy carries its exchange calls
    const proxy = app.config.proxy;
    return openAccount(exchange, {
      logger: app.logger,
      ...(credentials
        ? { credentials: proxy ? { ...credentials, httpAgent: proxy } : credentials }
        : // an exchange without keys (paper): one simulated account per server account, on the server's clock
          { dataDir: app.paperDir, account: paperAccountName(path), marketNow: () => app.now() }),
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    app.logger.warn("exchange object refused", {
      exchange,
      error: isExchangeError(error) ? error.detail : "unexpected",
    });
    throw new ApiError(API_ERROR.EXCHANGE_OBJECT);
  }
}

/** Maps a failure of the exchange layer to 608 with its message and kind (docs/decisions.md#d2). */
export function exchangeFailure(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isExchangeError(error)) {
    if (error.exchange === "spotdesk") return taskFailed(error.detail);
    return new ApiError(API_ERROR.EXCHANGE_FAILED, { msg: error.message, kind: error.kind });
  }
  return new ApiError(API_ERROR.EXCHANGE_FAILED, {
    msg: `ExchangeId: unknown, msg: ${String((error as Error)?.message ?? error)}`,
    kind: "network",
  });
}

/**
 * Concurrent identical reads of one paper account share one call (paper needs no key, so no
 * caller can borrow another's credentials this way). Never used for real exchanges.
 */
const paperReads = new Map<string, Promise<unknown>>();
function sharedPaperRead<T>(path: AccountPath, what: string | undefined, read: () => Promise<T>): Promise<T> {
  if (needsApiKey(path[1]) || what === undefined) return read();
  const key = `${pathKey(path)}:${what}`;
  const inFlight = paperReads.get(key) as Promise<T> | undefined;
  if (inFlight !== undefined) return inFlight;
  const started = read().finally(() => paperReads.delete(key));
  paperReads.set(key, started);
  return started;
}

/** Runs one exchange call with an adapter built for it, closing it after. */
export async function withAdapter<T>(
  app: App,
  ctx: RequestContext,
  work: (adapter: ExchangeAdapter, account: { path: AccountPath; record: ApiKeyRecord }) => Promise<T>,
  /** a read that concurrent callers of the same paper account may share ("balances", …) */
  sharedRead?: string,
): Promise<T> {
  const account = await accountOf(app, ctx);
  return sharedPaperRead(
    account.path,
    sharedRead === undefined ? undefined : `${sharedRead}:${account.record.envelope.pair}`,
    () => runWithAdapter(app, ctx, account, work),
  );
}

async function runWithAdapter<T>(
  app: App,
  ctx: RequestContext,
  account: { path: AccountPath; record: ApiKeyRecord },
  work: (adapter: ExchangeAdapter, account: { path: AccountPath; record: ApiKeyRecord }) => Promise<T>,
): Promise<T> {
  if (!needsApiKey(account.path[1])) {
    try {
      // paper's calls on one account queue and run in groups inside its store (docs/paper-store.md)
      return await work(paperAdapter(app, account.path), account);
    } catch (error) {
      throw exchangeFailure(error);
    }
  }
  const adapter = buildAdapter(app, account.path, await openEnvelope(account.record, ctx.header(HEADER.key)));
  try {
    return await work(adapter, account);
  } catch (error) {
    throw exchangeFailure(error);
  } finally {
    await adapter.close().catch(() => undefined);
  }
}
