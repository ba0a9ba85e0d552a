/**
 * The backend API contract shared by the server (`server/`) and the web dashboard (`web/`):
 * error codes and their messages (docs/api.md#errors, docs/decisions.md#d2), header names (docs/decisions.md#d18), the route
 * table (docs/api.md#calls) and the answer types. Isomorphic: no Node-only imports.
 */
import type { Balances, ExchangeId, Order } from "./types.js";

// ---------------------------------------------------------------------------------------------
// Error codes (docs/api.md#errors, docs/decisions.md#d2)
// ---------------------------------------------------------------------------------------------

export const API_ERROR = {
  TASK_FAILED: 600,
  MISSING_HEADER: 601,
  ACCESS_EXPIRED: 602,
  ALL_EXPIRED: 603,
  RATE_LIMIT: 604,
  CLOCK_SKEW: 605,
  NO_SUCH_USER: 606,
  INVALID_TOKEN: 607,
  /** docs/decisions.md#d2: the exchange refused or failed the request */
  EXCHANGE_FAILED: 608,
  EXCHANGE_OBJECT: 609,
} as const;
export type ApiErrorCode = (typeof API_ERROR)[keyof typeof API_ERROR];

/** docs/api.md#errors, word for word. 608 has none: its `msg` is the exchange layer's message (docs/decisions.md#d2). */
export const API_ERROR_MESSAGES: Readonly<Record<number, string>> = {
  600: "Task failed to execute...",
  601: "Some header were not passed, please contact developers!",
  602: "Need to refresh your Access Token, try to update page!",
  603: "Need to relogin, all tokens are expired!",
  604: "Request limit to server exceeded, try later!",
  605: "Time window between you and server is too large...",
  606: "No such user...",
  607: "Your token is invalid, try to relogin!",
  609: "Failed to create exchange object for your task, make sure APIs were handled in right way and contact developers!",
};

/** docs/api.md#errors: the message of a code, 'Undefined msg for {code}...' for any other. */
export function apiErrorMessage(code: number): string {
  return API_ERROR_MESSAGES[code] ?? `Undefined msg for ${code}...`;
}

/**
 * The message a client shows for an error body: the seed's text for 601–607 and 609; for 600
 * and 608 the server's own `msg` (a validation message, or `ExchangeId: {id}, msg: {message}`).
 */
export function messageForError(body: { code: number; msg?: string }): string {
  if ((body.code === 600 || body.code === 608) && body.msg) return body.msg;
  return apiErrorMessage(body.code);
}

/** docs/decisions.md#d2: codes travel in the body with a conventional HTTP status (browsers refuse > 599). */
export const HTTP_STATUS_OF_CODE: Readonly<Record<number, number>> = {
  600: 400,
  601: 400,
  602: 401,
  603: 401,
  604: 429,
  605: 400,
  606: 403,
  607: 401,
  608: 502,
  609: 422,
};

/** Every failure answers this body. Validation failures (600) also carry `issues`. */
export interface ApiErrorBody {
  code: number;
  msg: string;
  /** 608: the exchange layer's error kind (docs/decisions.md#d2) */
  kind?: string;
  /** 600 from a schema: one line per problem, "field: message" */
  issues?: string[];
}

export function isApiErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { code?: unknown }).code === "number" &&
    typeof (value as { msg?: unknown }).msg === "string"
  );
}

// ---------------------------------------------------------------------------------------------
// Headers (docs/decisions.md#d18; lower-case on the wire)
// ---------------------------------------------------------------------------------------------

export const HEADER = {
  email: "email",
  password: "password",
  code: "code",
  /** milliseconds since the epoch; more than 30 s from the server clock is 605 (docs/decisions.md#d8) */
  timestamp: "timestamp",
  /** base64url of the WebAuthn attestationObject (registration of a key) */
  publicKey: "public-key",
  /** base64url credential id */
  credentialsId: "credentials-id",
  userId: "user-id",
  /** base64url of the WebAuthn clientDataJSON */
  clientData: "client-data",
  /** base64url of the WebAuthn authenticatorData */
  authenticatorData: "authenticator-data",
  /** base64url of the WebAuthn assertion signature */
  signature: "signature",
  /** the account path as a JSON array ["client","exchange","account"] */
  path: "path",
  /** the encryption key of the account's envelope (trade and bot calls) */
  key: "key",
  authorization: "authorization",
} as const;

/** docs/decisions.md#d7: the refresh token's cookie (HttpOnly, SameSite=Strict, Secure under TLS). */
export const REFRESH_COOKIE = "spotdesk_refresh";

/** docs/decisions.md#d8 limits and docs/dashboard-rules.md#constants constants the server enforces. */
export const SERVER_LIMITS = {
  callsPerWindow: 60,
  windowMs: 10_000,
  codeRequestsPerHour: 5,
  clockSkewMs: 30_000,
  codeLength: 8,
  codeValidityMs: 10 * 60_000,
  codeAttempts: 5,
  passwordMinimum: 8,
  bodyLimitBytes: 64 * 1024,
} as const;

/** docs/decisions.md#d8: 8 characters from an upper-case alphabet without 0/O, 1/I/L look-alikes. */
export const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/**
 * The WebAuthn challenge of a key login: docs/api.md#calls "signs over the timestamp, method and path".
 * challenge = base64url(SHA-256(UTF-8 "{timestamp}\n{METHOD}\n{path}")), e.g.
 * "1718000000000\nPOST\n/login/signature". The server accepts it once per credential and only
 * within 30 s of its clock.
 */
export function loginChallengeText(timestamp: number | string, method: string, path: string): string {
  return `${timestamp}\n${method.toUpperCase()}\n${path}`;
}

/**
 * The WebAuthn challenge of a key created during registration or a password login:
 * base64url(SHA-256(UTF-8 "spotdesk-enroll\n{email}\n{code}")): the one-time e-mail code binds
 * the new key to this sign-in.
 */
export function enrollChallengeText(email: string, code: string): string {
  return `spotdesk-enroll\n${email.trim().toLowerCase()}\n${code}`;
}

// ---------------------------------------------------------------------------------------------
// Answers (docs/dashboard-rules.md#entities)
// ---------------------------------------------------------------------------------------------

/** Answer of /register, /login/password and /login/signature (docs/dashboard-rules.md#entities "Session/auth response"). */
export interface SessionAnswer {
  uuid: string;
  /** ms since the epoch */
  refreshTokenExpiry: number;
  accessToken: string;
  credentialsId?: string;
  /** docs/decisions.md#d5: the web hides admin navigation from others */
  admin: boolean;
}

/** Answer of /user/refresh (docs/decisions.md#d7). */
export interface RefreshAnswer {
  accessToken: string;
  refreshTokenExpiry: number;
}

/** The JSON inside an access token (docs/dashboard-rules.md#entities: "encoded JSON with an expires field"). */
export interface AccessTokenPayload {
  /** user uuid */
  uid: string;
  /** ms since the epoch */
  expires: number;
  /** session id (the refresh token family) */
  sid: string;
}

/**
 * Reads the payload of an access token without checking its signature (the browser needs only
 * `expires`, docs/dashboard-rules.md#states). Tokens are base64url(JSON) "." base64url(HMAC).
 */
export function readAccessToken(token: string): AccessTokenPayload | undefined {
  const dot = token.indexOf(".");
  if (dot <= 0) return undefined;
  try {
    const b64 = token.slice(0, dot).replace(/-/g, "+").replace(/_/g, "/");
    const padded = b64 + "=".repeat((4 - (b64.length % 4)) % 4);
    const text = new TextDecoder().decode(Uint8Array.from(atob(padded), (c) => c.charCodeAt(0)));
    const parsed = JSON.parse(text) as AccessTokenPayload;
    if (typeof parsed.expires !== "number" || typeof parsed.uid !== "string") return undefined;
    return parsed;
  } /* Stryker disable next-line BlockStatement: emptied, it returns undefined all the same */ catch {
    return undefined;
  }
}

export type Scope = "all" | string[];

/** A user as the admin calls answer it (docs/dashboard-rules.md#entities "User"). */
export interface UserAnswer {
  uuid: string;
  email: string;
  /** ms since the epoch, null before the first sign-in */
  lastActive: number | null;
  scope: Scope;
  admin: boolean;
  /** false until the permitted e-mail registered */
  registered: boolean;
}

/** The account path of docs/dashboard-rules.md#entities / docs/decisions.md#d13: client name, exchange id, sub account. */
export type AccountPath = [client: string, exchange: string, account: string];

/** One account of GET /token/exchanges. */
export interface AccountAnswer {
  path: AccountPath;
  client: string;
  exchange: string;
  account: string;
  /** docs/decisions.md#d1: the record's pair */
  pair: string;
  active: boolean;
  /** the bots on this account (for the status letters on the home cards) */
  bots: { botId: string; botType: string }[];
}

export interface TokenPairAnswer {
  exchangeId: string;
  pair: string;
  decimals: { price: number; amount: number };
}

/** Bot state published on the live channel and answered by POST /token/bot (docs/dashboard-rules.md#entities). */
export interface BotAnswer {
  botId: string;
  botType: string;
  path: AccountPath;
  paths: AccountPath[];
  setup: unknown;
  /** "not run" for volume, heavy-volume and candle-closer (docs/product.md#bots, docs/decisions.md#d16); the runner's otherwise (docs/bots.md) */
  status: "running" | "paused" | "backing-off" | "stopped" | "not run";
  reason?: string;
  /** why something the setup asks for is not placed now (bounds, limits, funds) */
  note?: string;
  /** the last exchange error (docs/decisions.md#d25), kept after recovery, with its time (ms) */
  lastError?: string;
  lastErrorAt?: number;
  /** sides paused by insufficient funds */
  pausedSides?: ("Buy" | "Sell")[];
  /** docs/bots.md#safety-net: when its quotes were pulled because the book was not live (ms; gone once it is) */
  pulledAt?: number;
  /** when the runner last changed this state (ms) */
  updatedAt?: number;
  /** spread-decompression bot: its open orders and the daily quote left per side */
  orders?: { id: string; side: "Buy" | "Sell"; price: string; amount: string; filled: string; placedAt: number }[];
  dailyQuoteLeft?: { Buy: string; Sell: string };
  /** floating bot */
  order?: Order | null;
  /** grid bot */
  onBuy?: number;
  onSell?: number;
  /** volume / heavy volume: timestamp of the last trade; never set for bots that are not run */
  lastTrade?: number;
  /** docs/bots.md "What each bot did": its fills' totals, valued at the mid (absent before its first fill) */
  pnl?: BotPnl;
  /** docs/bots.md "Risk limits and the kill switch": stopped until a person resumes it, and why */
  halted?: { reason: string; at: number; by: "limit" | "account" | "person" };
  created: number;
}

/** A bot's money from its fills (docs/bots.md "What each bot did"); amounts are decimal strings. */
export interface BotPnl {
  fills: number;
  /** base away from the start (negative: sold more than it bought) */
  inventory: string;
  /** the quote paid for the inventory (average cost) */
  cost: string;
  realized: string;
  /** Σ price × amount, in the quote */
  volume: string;
  /** fees per currency */
  fees: Record<string, string>;
  /** the base and quote fees in the quote */
  feesInQuote: string;
  /** the mid it was valued at, the inventory's value there, unrealized, and realized + unrealized */
  mid: string;
  value: string;
  unrealized: string;
  pnl: string;
}

/** One fill of a bot's order (GET /token/bot/{id}/fills). */
export interface BotFillAnswer {
  seq: number;
  /** when the runner saw it (ms) */
  at: number;
  orderId: string;
  side: "Buy" | "Sell";
  price: string;
  amount: string;
  fee: string;
  feeCurrency: string;
  liquidity: "maker" | "taker";
}

/** GET /token/bot/{id}/fills: newest first; `next` is the `before` of the next page. */
export interface BotFillsAnswer {
  botId: string;
  pnl?: BotPnl;
  fills: BotFillAnswer[];
  next?: number;
}

/** DELETE /token/bot: what the removed bot leaves on its account (docs/bots.md "What each bot did"). */
export interface RemoveBotAnswer {
  removed: true;
  botId: string;
  /** its inventory (base away from the start) and what it cost; absent when it never filled */
  left?: { inventory: string; base: string; cost: string; quote: string; realized: string; fills: number };
}

/** Live channel messages (docs/dashboard-rules.md#states): either purpose and result, or type and data. */
export type LiveMessage =
  | { purpose: "sub_for_bots"; result: boolean; reason?: string }
  | { type: "snapshot"; data: BotAnswer[] }
  | { type: "delta"; data: BotAnswer | { botId: string; removed: true } };

export const LIVE_SUBSCRIBE = "sub_for_bots";

/** Answer of the public book relay (GET /book/{exchange}/{pair} and the /book websocket). */
export interface BookAnswer {
  exchange: ExchangeId;
  pair: string;
  bids: [string, string][];
  asks: [string, string][];
  version: number;
  /** the upstream feed's state (exchanges/types.ts FeedState): only "live" is a book to trade on */
  state?: "connecting" | "live" | "resyncing" | "stale" | "closed";
}

export type { Balances, Order };

// ---------------------------------------------------------------------------------------------
// Route table (docs/api.md#calls plus docs/decisions.md#d7/#d18 additions)
// ---------------------------------------------------------------------------------------------

export type HttpMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface RouteSpec {
  method: HttpMethod;
  path: string;
  /** "public": no token; "user": access token; "admin": access token of an admin (docs/decisions.md#d5) */
  auth: "public" | "user" | "admin";
  /** headers the call needs (601 when one is missing) */
  headers: readonly string[];
  /** client-bound: the `path` header's client must be in the caller's scope */
  scoped?: boolean;
}

const r = (
  method: HttpMethod,
  path: string,
  auth: RouteSpec["auth"],
  headers: readonly string[] = [],
  scoped = false,
): RouteSpec => ({ method, path, auth, headers, scoped });

export const ROUTES = {
  health: r("GET", "/health", "public"),
  /** docs/operations.md#readiness: 200 when storage (and Redis in cluster mode) answers, else 503 */
  ready: r("GET", "/health/ready", "public"),
  /** docs/operations.md#metrics: Prometheus' text format, to loopback callers or with the metrics token */
  metrics: r("GET", "/metrics", "public"),
  /** docs/operations.md#api-description: this table and the body schemas as OpenAPI 3.1 */
  openapi: r("GET", "/openapi.json", "public"),
  credentials: r("GET", "/credentials", "public", [HEADER.email]),
  code: r("POST", "/code", "public", [HEADER.email]),
  register: r("POST", "/register", "public", [HEADER.email, HEADER.password, HEADER.code]),
  loginPassword: r("POST", "/login/password", "public", [HEADER.email, HEADER.password, HEADER.code, HEADER.timestamp]),
  loginSignature: r("POST", "/login/signature", "public", [
    HEADER.email,
    HEADER.clientData,
    HEADER.authenticatorData,
    HEADER.credentialsId,
    HEADER.signature,
    HEADER.timestamp,
  ]),
  refresh: r("POST", "/user/refresh", "public", [HEADER.userId, HEADER.timestamp]),
  logout: r("POST", "/user/logout", "public"),
  me: r("GET", "/token/me", "user"),
  setApiKeys: r("POST", "/token/admin/apikeys", "admin"),
  removeApiKeys: r("DELETE", "/token/admin/apikeys", "admin"),
  tokenPairs: r("GET", "/token/pair", "user"),
  setTokenPair: r("POST", "/token/pair", "admin"),
  removeTokenPair: r("DELETE", "/token/pair", "admin"),
  createOrder: r("POST", "/token/trade/order/create", "user", [HEADER.path], true),
  cancelOrder: r("POST", "/token/trade/order/cancel", "user", [HEADER.path], true),
  cancelAll: r("POST", "/token/trade/order/cancel-all", "user", [HEADER.path], true),
  balances: r("GET", "/token/trade/balances", "user", [HEADER.path], true),
  orders: r("GET", "/token/trade/orders", "user", [HEADER.path], true),
  /** one order of the account's pair by id: how an order that left the open list ended (docs/web-trading.md "Fills") */
  order: r("GET", "/token/trade/order/:id", "user", [HEADER.path], true),
  /** the venue's number rules of the account's pair (exchanges/types.ts PairSpec), null when it does not list it */
  pairRules: r("GET", "/token/trade/pair", "user", [HEADER.path], true),
  setUser: r("POST", "/token/admin/user", "admin"),
  removeUser: r("DELETE", "/token/admin/user/:id", "admin"),
  users: r("GET", "/token/admin/users", "admin"),
  user: r("GET", "/token/admin/user/:id", "admin"),
  changeScope: r("PUT", "/token/admin/user/:id/scope", "admin"),
  setupBot: r("POST", "/token/bot", "user", [HEADER.path], true),
  removeBot: r("DELETE", "/token/bot", "user"),
  /** docs/bots.md "Create, edit, pause": a new setup for the same bot id */
  editBot: r("PUT", "/token/bot", "user"),
  pauseBot: r("POST", "/token/bot/:id/pause", "user"),
  resumeBot: r("POST", "/token/bot/:id/resume", "user"),
  bots: r("GET", "/token/bots", "user"),
  /** docs/bots.md "Risk limits and the kill switch": every bot in the caller's scope */
  stopAllBots: r("POST", "/token/bot/stop-all", "user"),
  stopBot: r("POST", "/token/bot/:id/stop", "user"),
  /** docs/bots.md "What each bot did" */
  botFills: r("GET", "/token/bot/:id/fills", "user"),
  clients: r("GET", "/token/clients", "user"),
  exchanges: r("GET", "/token/exchanges", "user"),
  book: r("GET", "/book/:exchange/:pair", "public"),
  candles: r("GET", "/candles/:exchange/:pair", "public"),
  /** docs/decisions.md#d14: the gateway relays of two public exchange calls (server/routes/gateway.ts) */
  relayBitteamBook: r("GET", "/api/bitteam/trade/api/orderbooks/:pair", "public"),
  relayKucoinBullet: r("POST", "/api/kucoin/api/v1/bullet-public", "public"),
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;

/**
 * The path prefixes of every route, for a proxy in front of the server (the dashboard's dev
 * server, web/vite.config.ts): each route's path up to its first `:param`, without the prefixes
 * another one already covers ("/token/admin/user" covers "/token/admin/users").
 */
export function routePrefixes(): string[] {
  const prefixes = [...new Set(Object.values(ROUTES).map((route) => route.path.split("/:")[0]!))].sort();
  return prefixes.filter((p) => !prefixes.some((other) => other !== p && p.startsWith(other)));
}

/** Encodes the `path` header (docs/decisions.md#d18). */
export function pathHeader(path: AccountPath): string {
  return JSON.stringify(path);
}
