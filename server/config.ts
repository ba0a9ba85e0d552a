/**
 * Server configuration: defaults < config file (JSON, `config.json` in the data directory or
 * `--config FILE`) < environment < explicit options (the CLI's flags).
 */

import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { defaultDataDir as paperDataDir } from "../exchanges/paper/store.js";
import { SERVER_LIMITS } from "../lib/api.js";
import type { Logger } from "../lib/log.js";
import { type BotLimits, botLimitsSchema, formatIssues } from "../lib/schemas.js";
import { EXCHANGE_IDS, isExchangeId } from "../lib/types.js";

export interface ServerOptions {
  /** 0 picks a free port (tests); default 8787 */
  port?: number;
  /** default 127.0.0.1 (docs/decisions.md#d7) */
  host?: string;
  /** default $SPOTDESK_DATA_DIR or the user data directory */
  dataDir?: string;
  configFile?: string;
  tlsCert?: string;
  tlsKey?: string;
  /** docs/decisions.md#d7: a TLS-terminating proxy in front; cookies get Secure */
  behindTlsProxy?: boolean;
  /** WebAuthn relying party id (default: localhost) */
  rpId?: string;
  /** WebAuthn origins accepted (default: http(s)://localhost|127.0.0.1 on the server port and on the Vite port 5173) */
  origins?: string[];
  /** access token lifetime, default 15 min */
  accessTtlMs?: number;
  /** refresh token lifetime, default 7 days */
  refreshTtlMs?: number;
  /**
   * docs/server-limits.md "Refresh": refreshes with the same cookie within this long of its
   * rotation all get the same new token (tabs opened together); later it is a replay (20 s)
   */
  refreshGraceMs?: number;
  /** docs/decisions.md#d8: 60 calls per 10 s per user */
  rateLimit?: { calls: number; windowMs: number };
  codeRequestsPerHour?: number;
  /** scrypt cost (N); default 2^15 (32 MiB with r=8) */
  scryptCost?: number;
  /** the data key of docs/decisions.md#d4 as 64 hex characters (else the `data-key` file) */
  dataKey?: string;
  /** clock, for tests */
  now?: () => number;
  logger?: Logger;
  logLevel?: "debug" | "info" | "warn" | "error";
  /** print the setup code on stdout (serve does; tests read the file) */
  printSetupCode?: boolean;
  /** run the stored runnable bots (docs/bots.md); default true */
  runBots?: boolean;
  /** docs/bots.md#safety-net: seconds without a live book before a bot cancels its orders (default 10) */
  botPullAfter?: number;
  /** docs/bots.md#safety-net: the exchange-side countdown a bot arms where the venue has one, in seconds (default 60; 0: none) */
  botCountdown?: number;
  /**
   * REST and feed URLs of the exchanges the bots trade on (a testnet, a proxy, a mock), by exchange
   * id: `{"bybit": {"baseUrl": "https://api-testnet.bybit.com", "wsUrl": "wss://…"}}` (server/README.md)
   */
  botEndpoints?: BotEndpoints;
  /**
   * docs/bots.md#safety-net: a clean stop leaves the bots' orders resting (and their countdowns
   * armed) for a quick restart, instead of cancelling them (`serve --keep-orders`)
   */
  keepOrders?: boolean;
  /** create the "Demo" client with a paper account on a fresh database (default true) */
  seedDemo?: boolean;
  /**
   * docs/operations.md#metrics: GET /metrics (on by default) answers loopback callers, and others
   * that send `Authorization: Bearer <token>` (SPOTDESK_METRICS_TOKEN; 32 characters or more)
   */
  metrics?: MetricsOptions;
  /** docs/decisions.md#d18: e-mail codes go out by SMTP when this is set (else to `outbox.jsonl`) */
  smtp?: SmtpOptions;
  /** docs/decisions.md#d14: upstream hosts of the gateway relays (/api/bitteam/…, /api/kucoin/…) */
  relay?: RelayOptions;
  /** docs/decisions.md#d12: an HTTP(S) proxy for the server's exchange calls (SPOTDESK_PROXY, else HTTPS_PROXY) */
  proxy?: string;
  /** sign-in limits per address and per e-mail (docs/server-limits.md) */
  signIn?: SignInLimitOptions;
  /** websocket limits (docs/server-limits.md) */
  websocket?: WebsocketLimitOptions;
  /** connection limits (docs/server-limits.md "Connections") */
  http?: HttpLimitOptions;
  /**
   * docs/scale-out.md: `postgres://user:pass@host:5432/db` stores everything in PostgreSQL, so
   * several server processes share it; unset (the default) is the embedded SQLite file.
   */
  database?: string;
  /**
   * docs/scale-out.md: `redis://host:6379` carries live-channel deltas and session ends between
   * processes, the shared rate limits, and the bots' leases; unset, all of it stays in the process.
   */
  redis?: string;
  /** the access-token signing secret (64 hex characters) shared by every process; else `token-secret` */
  tokenSecret?: string;
  /** docs/scale-out.md: a bot's lease lasts this long unless renewed (ms, default 10 s) */
  botLeaseMs?: number;
  /**
   * docs/decisions.md#d30: risk limits per account, over all its bots, keyed "Client/exchange/account"
   * (docs/bots.md "Risk limits and the kill switch"); config file or options only
   */
  accountLimits?: Record<string, unknown>;
}

/**
 * Sign-in limits (docs/server-limits.md). `codeRequestsPerHour` (top level, 5) counts the code
 * requests for one e-mail from one address; these cap the rest.
 */
export interface SignInLimitOptions {
  /** code requests from one address, whatever the e-mail, per hour (20) */
  codeRequestsPerAddress?: number;
  /** code requests for one e-mail, whatever the address, per hour (30) */
  codeRequestsPerEmail?: number;
  /** failed sign-in or token checks from one address in `failureWindowMs` before 604 (10) */
  failuresPerAddress?: number;
  /** failed code or password checks for one e-mail from one address in `failureWindowMs` before 604 (5) */
  failuresPerEmailAndAddress?: number;
  /**
   * failed code or password checks for one e-mail, from any address, in `failureWindowMs` at
   * which a warning is logged (50); nothing is refused for them (docs/server-limits.md "Sign-in")
   */
  failuresPerEmail?: number;
  /** 15 minutes */
  failureWindowMs?: number;
}

export interface WebsocketLimitOptions {
  /** a live-channel socket without a subscription is closed after this (10 s) */
  subscribeTimeoutMs?: number;
  /** open websockets (live channel and book relay) per address (20) */
  socketsPerAddress?: number;
  /** /book relay upgrades per address per minute (30) */
  bookUpgradesPerMinute?: number;
  /** distinct upstream order-book feeds the process keeps open (50) */
  maxFeeds?: number;
  /** live-channel messages other than ping/pong a socket may send in a minute before it is closed (20) */
  subscribeMessagesPerMinute?: number;
  /** bytes a socket may leave unread (beyond its snapshot) before it is closed (1 MiB) */
  maxBufferedBytes?: number;
  /** with --redis, while the bus is down: how often the live sockets' sessions are checked in the database (5 s) */
  sessionCheckMs?: number;
}

export interface HttpLimitOptions {
  /** open TCP connections (HTTP, idle keep-alive and websockets) per peer address (256); not behind a TLS proxy */
  connectionsPerAddress?: number;
}

export interface SmtpOptions {
  host?: string;
  /** default 465 when secure, else 587 */
  port?: number;
  /** TLS from the first byte (smtps); otherwise STARTTLS when the server offers it */
  secure?: boolean;
  user?: string;
  pass?: string;
  /** the sender, e.g. `spotdesk <noreply@example.com>`; default: `user` when it is an address */
  from?: string;
  /** do not upgrade with STARTTLS even when offered (a plain local relay) */
  ignoreTLS?: boolean;
  /** refuse to send unless STARTTLS succeeds */
  requireTLS?: boolean;
  /** connection, greeting and socket time-out; default 10 s */
  timeoutMs?: number;
}

export interface RelayOptions {
  /** default https://bit.team */
  bitteam?: string;
  /** default https://api.kucoin.com */
  kucoin?: string;
  /** docs/dashboard-rules.md#constants: 10 s */
  timeoutMs?: number;
  /** the largest upstream answer relayed; default 1 MiB */
  maxBytes?: number;
}

/** Per exchange id, where its bots' adapter (REST) and feed (websocket) connect. */
export type BotEndpoints = Partial<Record<string, { baseUrl?: string; wsUrl?: string }>>;

export interface ResolvedConfig {
  port: number;
  host: string;
  dataDir: string;
  tlsCert?: string;
  tlsKey?: string;
  behindTlsProxy: boolean;
  rpId: string;
  origins?: string[];
  accessTtlMs: number;
  refreshTtlMs: number;
  refreshGraceMs: number;
  rateLimit: { calls: number; windowMs: number };
  codeRequestsPerHour: number;
  scryptCost: number;
  dataKey?: string;
  logLevel: "debug" | "info" | "warn" | "error";
  printSetupCode: boolean;
  seedDemo: boolean;
  smtp?: ResolvedSmtp;
  relay: Required<RelayOptions>;
  proxy?: string;
  signIn: Required<SignInLimitOptions>;
  websocket: Required<WebsocketLimitOptions>;
  http: Required<HttpLimitOptions>;
  database?: string;
  redis?: string;
  tokenSecret?: string;
  botLeaseMs: number;
  /** docs/bots.md "Hosts": checked URLs per exchange id ({} when none) */
  botEndpoints: BotEndpoints;
  /** run the stored runnable bots (docs/bots.md); from options, config.json or the default true */
  runBots: boolean;
  /** docs/bots.md#safety-net: in ms */
  botPullAfterMs: number;
  /** docs/bots.md#safety-net: in seconds, 0 for none */
  botCountdownSeconds: number;
  /** docs/bots.md#safety-net: a clean stop keeps the bots' orders; from options, config.json or the default false */
  keepOrders: boolean;
  /** docs/decisions.md#d30: by "Client/exchange/account" */
  accountLimits: Record<string, BotLimits>;
  metrics: { enabled: boolean; token?: string };
}

export interface MetricsOptions {
  /** false: GET /metrics answers 404 (default true) */
  enabled?: boolean;
  /** the bearer token of callers that are not on loopback; without one only loopback may read */
  token?: string;
}

/** docs/operations.md#metrics: the metrics settings of config.json, the environment and the options, checked. */
function resolveMetrics(layers: (MetricsOptions | undefined)[]): ResolvedConfig["metrics"] {
  const merged = Object.assign({}, ...layers.map((layer) => defined(layer ?? {}))) as MetricsOptions;
  if (merged.enabled !== undefined && typeof merged.enabled !== "boolean")
    throw new Error("metrics.enabled must be true or false");
  if (merged.token !== undefined && (typeof merged.token !== "string" || merged.token.trim().length < 32))
    throw new Error("metrics.token (SPOTDESK_METRICS_TOKEN) must be 32 characters or more");
  return { enabled: merged.enabled ?? true, ...(merged.token ? { token: merged.token.trim() } : {}) };
}

export interface ResolvedSmtp {
  host: string;
  port: number;
  secure: boolean;
  user?: string;
  pass?: string;
  from: string;
  ignoreTLS: boolean;
  requireTLS: boolean;
  timeoutMs: number;
}

export const RELAY_DEFAULTS: Required<RelayOptions> = {
  bitteam: "https://bit.team",
  kucoin: "https://api.kucoin.com",
  timeoutMs: 10_000,
  maxBytes: 1024 * 1024,
};

export const SIGN_IN_DEFAULTS: Required<SignInLimitOptions> = {
  codeRequestsPerAddress: 20,
  codeRequestsPerEmail: 30,
  failuresPerAddress: 10,
  failuresPerEmailAndAddress: 5,
  failuresPerEmail: 50,
  failureWindowMs: 15 * 60_000,
};

export const WEBSOCKET_DEFAULTS: Required<WebsocketLimitOptions> = {
  subscribeTimeoutMs: 10_000,
  socketsPerAddress: 20,
  bookUpgradesPerMinute: 30,
  maxFeeds: 50,
  subscribeMessagesPerMinute: 20,
  maxBufferedBytes: 1024 * 1024,
  sessionCheckMs: 5000,
};

export const HTTP_LIMIT_DEFAULTS: Required<HttpLimitOptions> = {
  connectionsPerAddress: 256,
};

/** Every limit a positive integer (a time-out: a positive number of ms). */
function resolveLimits<T extends object>(group: string, defaults: Required<T>, layers: (T | undefined)[]): Required<T> {
  const out = Object.assign({}, defaults, ...layers.map((l) => defined(l ?? ({} as T)))) as Required<T>;
  for (const [key, value] of Object.entries(out)) {
    if (!Number.isInteger(value) || (value as number) < 1)
      throw new Error(`Invalid ${group}.${key} ${String(value)}: a positive whole number`);
  }
  return out;
}

export const DEFAULT_PORT = 8787;

/** A whole number of seconds from `min` to a day, or the default when absent; else an error naming the key. */
function wholeSeconds(value: unknown, key: string, min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > 86_400)
    throw new Error(`${key} must be a whole number of seconds from ${min} to 86400`);
  return value;
}

/**
 * $SPOTDESK_DATA_DIR itself when set; otherwise `server` in the CLI's data directory
 * ($XDG_DATA_HOME/spotdesk/server, or the platform's equivalent). One rule for both, so a variable
 * set but empty means its default here too, as the XDG rule says, never the current directory.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.SPOTDESK_DATA_DIR) return resolve(env.SPOTDESK_DATA_DIR);
  return join(paperDataDir(env, platform), "server");
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith("127.");
}

function readConfigFile(file: string): Partial<ServerOptions> {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as unknown;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error(`Config file ${file} must hold a JSON object`);
  }
  return parsed as Partial<ServerOptions>;
}

function fromEnv(env: NodeJS.ProcessEnv): Partial<ServerOptions> {
  const out: Partial<ServerOptions> = {};
  if (env.SPOTDESK_PORT) out.port = Number(env.SPOTDESK_PORT);
  if (env.SPOTDESK_HOST) out.host = env.SPOTDESK_HOST;
  if (env.SPOTDESK_TLS_CERT) out.tlsCert = env.SPOTDESK_TLS_CERT;
  if (env.SPOTDESK_TLS_KEY) out.tlsKey = env.SPOTDESK_TLS_KEY;
  if (env.SPOTDESK_BEHIND_TLS_PROXY)
    out.behindTlsProxy = env.SPOTDESK_BEHIND_TLS_PROXY === "1" || env.SPOTDESK_BEHIND_TLS_PROXY === "true";
  if (env.SPOTDESK_RP_ID) out.rpId = env.SPOTDESK_RP_ID;
  if (env.SPOTDESK_ORIGINS)
    out.origins = env.SPOTDESK_ORIGINS.split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  if (env.SPOTDESK_DATA_KEY) out.dataKey = env.SPOTDESK_DATA_KEY;
  if (env.SPOTDESK_METRICS_TOKEN) out.metrics = { token: env.SPOTDESK_METRICS_TOKEN };
  if (env.SPOTDESK_LOG_LEVEL) out.logLevel = env.SPOTDESK_LOG_LEVEL as ServerOptions["logLevel"];
  if (env.SPOTDESK_SMTP_URL) out.smtp = parseSmtpUrl(env.SPOTDESK_SMTP_URL);
  if (env.SPOTDESK_SMTP_FROM) out.smtp = { ...out.smtp, from: env.SPOTDESK_SMTP_FROM };
  const relay: RelayOptions = {};
  if (env.SPOTDESK_RELAY_BITTEAM) relay.bitteam = env.SPOTDESK_RELAY_BITTEAM;
  if (env.SPOTDESK_RELAY_KUCOIN) relay.kucoin = env.SPOTDESK_RELAY_KUCOIN;
  if (Object.keys(relay).length > 0) out.relay = relay;
  // docs/decisions.md#d12, as the CLI reads it: SPOTDESK_PROXY, else the standard HTTPS_PROXY
  const proxy = [env.SPOTDESK_PROXY, env.HTTPS_PROXY, env.https_proxy].find((v) => v !== undefined && v !== "");
  if (proxy) out.proxy = proxy;
  if (env.SPOTDESK_DATABASE_URL) out.database = env.SPOTDESK_DATABASE_URL;
  if (env.SPOTDESK_REDIS_URL) out.redis = env.SPOTDESK_REDIS_URL;
  if (env.SPOTDESK_TOKEN_SECRET) out.tokenSecret = env.SPOTDESK_TOKEN_SECRET;
  return out;
}

/**
 * `smtp://user:pass@host:port` or `smtps://…` (user and password URI-encoded), with optional
 * `?from=…&ignoreTLS=true&requireTLS=true`. The error never repeats the URL: it holds a password.
 */
export function parseSmtpUrl(text: string): SmtpOptions {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error("SPOTDESK_SMTP_URL is not a URL: write it as smtp://user:pass@host:port");
  }
  if (url.protocol !== "smtp:" && url.protocol !== "smtps:")
    throw new Error("SPOTDESK_SMTP_URL must start with smtp:// or smtps://");
  const flag = (name: string) => {
    const v = url.searchParams.get(name);
    return v === null ? undefined : v === "true" || v === "1";
  };
  const out: SmtpOptions = { host: url.hostname.replace(/^\[(.*)\]$/, "$1"), secure: url.protocol === "smtps:" };
  if (url.port) out.port = Number(url.port);
  if (url.username) out.user = decodeURIComponent(url.username);
  if (url.password) out.pass = decodeURIComponent(url.password);
  const from = url.searchParams.get("from");
  if (from) out.from = from;
  const ignoreTLS = flag("ignoreTLS");
  if (ignoreTLS !== undefined) out.ignoreTLS = ignoreTLS;
  const requireTLS = flag("requireTLS");
  if (requireTLS !== undefined) out.requireTLS = requireTLS;
  return out;
}

function resolveSmtp(smtp: SmtpOptions | undefined): ResolvedSmtp | undefined {
  if (!smtp || Object.keys(defined(smtp)).length === 0) return undefined;
  if (!smtp.host) throw new Error("smtp.host is required when smtp is configured");
  const secure = smtp.secure ?? false;
  const port = smtp.port ?? (secure ? 465 : 587);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`Invalid smtp.port ${String(smtp.port)}`);
  if ((smtp.user === undefined) !== (smtp.pass === undefined)) throw new Error("smtp.user and smtp.pass go together");
  const from = smtp.from ?? (smtp.user?.includes("@") ? smtp.user : undefined);
  if (!from?.includes("@"))
    throw new Error("smtp.from (the sender address) is required when smtp.user is not an e-mail address");
  const timeoutMs = smtp.timeoutMs ?? 10_000;
  if (!(timeoutMs > 0)) throw new Error(`Invalid smtp.timeoutMs ${String(smtp.timeoutMs)}`);
  return {
    host: smtp.host,
    port,
    secure,
    ...(smtp.user !== undefined ? { user: smtp.user, pass: smtp.pass! } : {}),
    from,
    ignoreTLS: smtp.ignoreTLS ?? false,
    requireTLS: smtp.requireTLS ?? false,
    timeoutMs,
  };
}

function resolveRelay(relay: RelayOptions): Required<RelayOptions> {
  const out = { ...RELAY_DEFAULTS, ...defined(relay) };
  for (const name of ["bitteam", "kucoin"] as const) {
    let url: URL;
    try {
      url = new URL(out[name]);
    } catch {
      throw new Error(`relay.${name} must be an http(s) URL, got '${out[name]}'`);
    }
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error(`relay.${name} must be an http(s) URL`);
    if (url.username || url.password || url.search || url.hash)
      throw new Error(`relay.${name} must be a plain base URL (no credentials, query or fragment)`);
    out[name] = url.href.replace(/\/+$/, "");
  }
  if (!(out.timeoutMs > 0)) throw new Error(`Invalid relay.timeoutMs ${String(out.timeoutMs)}`);
  if (!(out.maxBytes > 0)) throw new Error(`Invalid relay.maxBytes ${String(out.maxBytes)}`);
  return out;
}

/**
 * `botEndpoints` as config.json or the options give it: known exchange ids, each with an http(s)
 * `baseUrl` and a ws(s) `wsUrl` (either may be absent). An error names the key and the rule, never
 * the URL (it may hold a password).
 */
export function resolveBotEndpoints(value: unknown): BotEndpoints {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error(
      'botEndpoints must be an object by exchange id: {"bybit": {"baseUrl": "https://…", "wsUrl": "wss://…"}}',
    );
  const out: BotEndpoints = {};
  for (const [id, entry] of Object.entries(value)) {
    if (!isExchangeId(id)) throw new Error(`botEndpoints.${id}: not an exchange id (${EXCHANGE_IDS.join(", ")})`);
    if (typeof entry !== "object" || entry === null || Array.isArray(entry))
      throw new Error(`botEndpoints.${id} must be an object {baseUrl, wsUrl}`);
    const endpoint: { baseUrl?: string; wsUrl?: string } = {};
    for (const [key, url] of Object.entries(entry as Record<string, unknown>)) {
      const schemes = key === "baseUrl" ? ["http:", "https:"] : key === "wsUrl" ? ["ws:", "wss:"] : undefined;
      if (!schemes) throw new Error(`botEndpoints.${id}.${key}: unknown key (baseUrl, wsUrl)`);
      if (url === undefined) continue;
      let parsed: URL | undefined;
      try {
        parsed = typeof url === "string" ? new URL(url) : undefined;
      } catch {
        parsed = undefined;
      }
      if (!parsed || !schemes.includes(parsed.protocol))
        throw new Error(`botEndpoints.${id}.${key} must be a ${schemes.map((s) => `${s}//`).join(" or ")} URL`);
      endpoint[key as "baseUrl" | "wsUrl"] = url as string;
    }
    out[id] = endpoint;
  }
  return out;
}

const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

export function resolveConfig(options: ServerOptions = {}, env: NodeJS.ProcessEnv = process.env): ResolvedConfig {
  const dataDir = resolve(options.dataDir ?? defaultDataDir(env));
  const configFile = options.configFile ?? env.SPOTDESK_CONFIG ?? join(dataDir, "config.json");
  const file = existsSync(configFile) ? readConfigFile(configFile) : {};
  const fromEnvironment = fromEnv(env);
  const merged: ServerOptions = { ...defined(file), ...defined(fromEnvironment), ...defined(options), dataDir };
  // The nested groups merge key by key: a file's smtp.from survives SPOTDESK_SMTP_URL.
  const smtpLayers = [file.smtp, fromEnvironment.smtp, options.smtp].filter((s): s is SmtpOptions => s !== undefined);
  const smtp = smtpLayers.length > 0 ? (Object.assign({}, ...smtpLayers.map(defined)) as SmtpOptions) : undefined;
  const resolvedSmtp = resolveSmtp(smtp);
  const relay = Object.assign(
    {},
    ...[file.relay, fromEnvironment.relay, options.relay].map((r) => defined(r ?? {})),
  ) as RelayOptions;
  const port = merged.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`Invalid port ${String(merged.port)}`);
  const host = merged.host ?? "127.0.0.1";
  if ((merged.tlsCert === undefined) !== (merged.tlsKey === undefined)) {
    throw new Error("--tls-cert and --tls-key go together");
  }
  // docs/decisions.md#d7: plain HTTP only on loopback, unless a TLS proxy is declared in front.
  if (!isLoopback(host) && !merged.tlsCert && !merged.behindTlsProxy) {
    throw new Error(
      `Refusing to serve plain HTTP on ${host}: give --tls-cert and --tls-key, or --behind-tls-proxy when a TLS proxy terminates HTTPS`,
    );
  }
  // the URLs may hold a password: the errors name the scheme, never the text
  if (merged.database !== undefined && !/^postgres(ql)?:\/\/./i.test(merged.database))
    throw new Error("--database must be a PostgreSQL URL (postgres://user:pass@host:5432/db); omit it for SQLite");
  if (merged.redis !== undefined && !/^rediss?:\/\/./i.test(merged.redis))
    throw new Error("--redis must be a Redis URL (redis://host:6379 or rediss://…)");
  if (merged.tokenSecret !== undefined && !/^[0-9a-f]{64}$/i.test(merged.tokenSecret))
    throw new Error("SPOTDESK_TOKEN_SECRET must be 64 hex characters (32 bytes)");
  const refreshTtlMs = merged.refreshTtlMs ?? 7 * 24 * 3600_000;
  // a refresh lifetime under 40 s (tests) gets half of it as its grace
  const refreshGraceMs = merged.refreshGraceMs ?? Math.min(20_000, Math.floor(refreshTtlMs / 2));
  if (!Number.isInteger(refreshGraceMs) || refreshGraceMs < 0 || refreshGraceMs >= refreshTtlMs)
    throw new Error(
      `Invalid refreshGraceMs ${String(merged.refreshGraceMs)}: whole milliseconds, 0 or more and less than refreshTtlMs`,
    );
  const botLeaseMs = merged.botLeaseMs ?? 10_000;
  if (!Number.isInteger(botLeaseMs) || botLeaseMs < 1000)
    throw new Error(`Invalid botLeaseMs ${String(merged.botLeaseMs)}: whole milliseconds, at least 1000`);
  return {
    port,
    host,
    dataDir,
    ...(merged.tlsCert ? { tlsCert: merged.tlsCert } : {}),
    ...(merged.tlsKey ? { tlsKey: merged.tlsKey } : {}),
    behindTlsProxy: merged.behindTlsProxy ?? false,
    rpId: merged.rpId ?? "localhost",
    ...(merged.origins ? { origins: merged.origins } : {}),
    accessTtlMs: merged.accessTtlMs ?? 15 * 60_000,
    refreshTtlMs,
    refreshGraceMs,
    rateLimit: merged.rateLimit ?? { calls: SERVER_LIMITS.callsPerWindow, windowMs: SERVER_LIMITS.windowMs },
    codeRequestsPerHour: merged.codeRequestsPerHour ?? SERVER_LIMITS.codeRequestsPerHour,
    scryptCost: merged.scryptCost ?? 2 ** 15,
    ...(merged.dataKey ? { dataKey: merged.dataKey } : {}),
    logLevel: merged.logLevel ?? "info",
    printSetupCode: merged.printSetupCode ?? false,
    seedDemo: merged.seedDemo ?? true,
    ...(resolvedSmtp ? { smtp: resolvedSmtp } : {}),
    relay: resolveRelay(relay),
    ...(merged.proxy ? { proxy: merged.proxy } : {}),
    signIn: resolveLimits("signIn", SIGN_IN_DEFAULTS, [file.signIn, options.signIn]),
    websocket: resolveLimits("websocket", WEBSOCKET_DEFAULTS, [file.websocket, options.websocket]),
    http: resolveLimits("http", HTTP_LIMIT_DEFAULTS, [file.http, options.http]),
    ...(merged.database ? { database: merged.database } : {}),
    ...(merged.redis ? { redis: merged.redis } : {}),
    ...(merged.tokenSecret ? { tokenSecret: merged.tokenSecret.toLowerCase() } : {}),
    botLeaseMs,
    botEndpoints: resolveBotEndpoints(merged.botEndpoints),
    runBots: merged.runBots ?? true,
    botPullAfterMs: wholeSeconds(merged.botPullAfter, "botPullAfter", 1, 10) * 1000,
    botCountdownSeconds: wholeSeconds(merged.botCountdown, "botCountdown", 0, 60),
    keepOrders: merged.keepOrders === true,
    accountLimits: resolveAccountLimits(merged.accountLimits),
    metrics: resolveMetrics([file.metrics, fromEnvironment.metrics, options.metrics]),
  };
}

/** docs/decisions.md#d30: each account's limits checked with the bots' schema; an error names the account and the field. */
export function resolveAccountLimits(value: unknown): Record<string, BotLimits> {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error('accountLimits must be an object such as {"Acme/paper/main": {"maxLoss": 100}}');
  const out: Record<string, BotLimits> = {};
  for (const [account, limits] of Object.entries(value)) {
    if (!/^[^/]+\/[^/]+\/[^/]+$/.test(account))
      throw new Error(`accountLimits: '${account}' is not an account written Client/exchange/account`);
    const parsed = botLimitsSchema.safeParse(limits);
    if (!parsed.success) throw new Error(`accountLimits of ${account}: ${formatIssues(parsed.error).join("; ")}`);
    out[account] = parsed.data;
  }
  return out;
}
