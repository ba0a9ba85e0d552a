/**
 * The websocket side of the server, on the same port:
 *  - "/" is the live channel of docs/dashboard-rules.md#states/docs/api.md#calls: {purpose:'sub_for_bots', userId, token} →
 *    {purpose, result}; then {type:'snapshot', data: bots} and {type:'delta', data: bot}; 'ping'
 *    and 'pong' texts are ignored. docs/decisions.md#d6: only bots of clients in the user's scope. When the
 *    subscription's access token expires the server sends {purpose, result:false, code:602, reason}
 *    and closes with 4602; the dashboard re-opens with a fresh token (docs/dashboard-rules.md#states).
 *  - "/book?exchange=paper&pair=BTC/USDT[&depth=20]" relays a public order book to browsers
 *    (docs/dashboard-rules.md#screens order book, docs/decisions.md#d14): {type:'book', data: BookAnswer} at most every 500 ms.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import { nodeFeedOptions } from "../exchanges/feed-node.js";
import { createFeed } from "../exchanges/feeds.js";
import type { BookFeed } from "../exchanges/types.js";
import { API_ERROR, apiErrorMessage, type BookAnswer, LIVE_SUBSCRIBE, type LiveMessage } from "../lib/api.js";
import { normalizePair } from "../lib/pair.js";
import { liveSubscribeSchema } from "../lib/schemas.js";
import { type ExchangeId, isExchangeId } from "../lib/types.js";
import { clientAddress } from "./address.js";
import { type App, type BotEvents, RateLimiter, type SessionEvents } from "./app.js";
import { checkAccessTokenFrom, inScope } from "./auth/session.js";
import { botAnswer, botClients, botInScope, latestBot, sortBots } from "./bots.js";
import type { ClusterBus, ClusterEnvelope } from "./cluster/bus.js";
import { ApiError, taskFailed } from "./errors.js";
import { parseTarget } from "./http.js";
import type { BotRecord } from "./storage/types.js";

interface LiveClient {
  ws: WebSocket;
  /** the caller's address (server/address.ts): failed token checks count against it */
  address: string;
  userId?: string;
  /** the session of the subscription's token: logging out closes the socket at once */
  sessionId?: string;
  /** closes a socket that has not subscribed in time (docs/server-limits.md) */
  subscribeTimer?: ReturnType<typeof setTimeout>;
  /** the subscription's access token stops being valid at this time (ms) */
  expires?: number;
  expiryTimer?: ReturnType<typeof setTimeout>;
  /** deltas that arrive while the snapshot is being built go out after it, in order */
  queue?: LiveMessage[];
  /** the socket's messages are handled one at a time, in order: a re-subscription waits for the one before */
  turn: Promise<void>;
  /** when its latest messages came, a minute's worth at most (docs/server-limits.md) */
  messageTimes: number[];
  /** what was left of its snapshot for the process to write, which may wait beside `websocket.maxBufferedBytes` */
  snapshotUnread: number;
}

/** The last word to a subscription whose token expired: the seed's 602 beside the reply shape. */
type ExpiredMessage = { purpose: typeof LIVE_SUBSCRIBE; result: false; code: number; reason: string };

/** Close code of an expired subscription (4000–4999 are the application's; 4602 mirrors 602). */
export const LIVE_CLOSE_TOKEN_EXPIRED = 4602;
/** Close code of a socket whose session was ended by /user/logout (mirrors 607: the token is revoked). */
export const LIVE_CLOSE_SESSION_ENDED = 4607;
/** Close code of a socket that did not subscribe in time (4408 mirrors HTTP 408). */
export const LIVE_CLOSE_NO_SUBSCRIPTION = 4408;
/** Close code of a socket that sent more subscription messages than a minute allows (mirrors HTTP 429). */
export const LIVE_CLOSE_TOO_MANY_MESSAGES = 4429;
/** Close code of a live or /book socket that left more than `websocket.maxBufferedBytes` unread (mirrors HTTP 413). */
export const CLOSE_UNREAD = 4413;
/**
 * Close code of a live socket whose session could not be read while Redis was away (mirrors 503):
 * the dashboard opens a new socket, whose subscription checks the token again (docs/scale-out.md).
 */
export const LIVE_CLOSE_SESSION_UNCONFIRMED = 4503;

/** A socket closed for what it did (too many messages, too much unread) is cut when it does not take the close frame in this time. */
const CUT_AFTER_MS = 1000;

const MAX_MESSAGE_BYTES = 16 * 1024;

/**
 * The expiry timer waits in steps of at most a minute. Node keeps one timer list per distinct
 * duration, and an unref'd timer's list stays after clearTimeout until that duration has passed:
 * a timer for each subscription's exact remaining time left a list per closed socket for up to
 * the token's lifetime (docs/tui-memory.md). Steps share one list.
 */
const EXPIRY_STEP_MS = 60_000;

/**
 * The relay's feed of one pair: the venue's own channel at its default depth, as the CLI, the TUI
 * and the browser open it (docs/exchange-rules.md#feeds). Only paper reads `now` (the server's clock).
 */
export function openRelayFeed(
  exchange: string,
  pair: string,
  options: { now: () => number; proxy?: string | undefined },
): BookFeed {
  return createFeed(exchange, pair, {
    ...nodeFeedOptions(),
    now: options.now,
    ...(options.proxy ? { proxy: options.proxy } : {}),
  });
}

export class LiveHub implements BotEvents, SessionEvents {
  private readonly clients = new Set<LiveClient>();
  private bus: ClusterBus | undefined;
  /** while the bus is down, the sessions of the sockets are checked in the database (docs/scale-out.md) */
  private sessionCheck: ReturnType<typeof setInterval> | undefined;
  private confirming = false;

  constructor(private readonly app: App) {}

  /**
   * docs/scale-out.md "Live channel": with several processes, every delta and every ended session
   * goes to the others through Redis too; what they send is delivered to this process's sockets.
   */
  attachBus(bus: ClusterBus): void {
    this.bus = bus;
    bus.on((event) => this.fromCluster(event));
    // docs/scale-out.md "When Redis goes away": a logout on another process meanwhile was not heard
    bus.onReconnect(() => void this.confirmSessions());
    this.sessionCheck = setInterval(() => {
      if (!bus.connected) void this.confirmSessions();
    }, this.app.config.websocket.sessionCheckMs);
    this.sessionCheck.unref();
  }

  /**
   * Checks the sessions of this process's subscriptions in the shared database: a session that is
   * gone (ended on another process while Redis could not say so) closes its sockets with 4607;
   * when the database cannot be read either, the sockets not yet confirmed close with 4503.
   */
  private async confirmSessions(): Promise<void> {
    if (this.confirming) return;
    this.confirming = true;
    const users = new Map<string, string>();
    for (const c of this.clients) if (c.sessionId && c.userId) users.set(c.sessionId, c.userId);
    const confirmed = new Set<string>();
    try {
      for (const [sessionId, userId] of users) {
        const session = await this.app.storage.getSession(sessionId);
        if (session?.userId === userId) confirmed.add(sessionId);
        else this.endWhere((c) => c.sessionId === sessionId);
      }
    } catch (error) {
      this.app.logger.warn("live sessions not confirmed: closing their sockets", { error: String(error) });
      const unconfirmed = (c: LiveClient) =>
        c.sessionId !== undefined && users.has(c.sessionId) && !confirmed.has(c.sessionId);
      for (const c of [...this.clients])
        if (unconfirmed(c)) this.end(c, LIVE_CLOSE_SESSION_UNCONFIRMED, "session not confirmed");
    } finally {
      this.confirming = false;
    }
  }

  private fromCluster(event: ClusterEnvelope): void {
    if (event.kind === "delta") {
      void this.publish(event.clients, event.message).catch((error: unknown) =>
        this.app.logger.error("live delta failed", { error: String(error) }),
      );
    } else if (event.kind === "session-ended") this.endWhere((c) => c.sessionId === event.sessionId);
    else if (event.kind === "user-removed") this.endWhere((c) => c.userId === event.userId);
  }

  /** delivers here and on every other process; `clients`: every client the bot uses (docs/decisions.md#d26) */
  private broadcast(clients: readonly string[], message: LiveMessage): Promise<void> {
    this.bus?.send({ kind: "delta", clients, message });
    return this.publish(clients, message);
  }

  accept(ws: WebSocket, address: string): void {
    const client: LiveClient = { ws, address, turn: Promise.resolve(), messageTimes: [], snapshotUnread: 0 };
    this.clients.add(client);
    const timeoutMs = this.app.config.websocket.subscribeTimeoutMs;
    client.subscribeTimer = setTimeout(() => {
      // An idle socket holds memory and a slot of its address: without a subscription it goes.
      if (client.userId === undefined)
        this.end(client, LIVE_CLOSE_NO_SUBSCRIPTION, `no subscription within ${timeoutMs} ms`);
    }, timeoutMs);
    client.subscribeTimer.unref();
    const forget = () => this.forget(client);
    ws.on("close", forget);
    ws.on("error", forget);
    ws.on("message", (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      // docs/decisions.md#d37: a 'ping' is answered 'pong', so a client notices a server that stops answering
      if (text === "ping") {
        if (ws.readyState === ws.OPEN) ws.send("pong");
        return;
      }
      if (text === "pong") return; // docs/dashboard-rules.md#states: keep-alive texts are otherwise ignored
      if (!this.admit(client)) return;
      client.turn = client.turn
        .then(() => this.subscribe(client, text))
        .catch((error: unknown) => this.app.logger.error("live subscription failed", { error: String(error) }));
    });
  }

  /**
   * docs/server-limits.md: a socket subscribes once and renews with each fresh token, so a
   * minute holds a few messages; past `websocket.subscribeMessagesPerMinute` it is closed (4429).
   */
  private admit(client: LiveClient): boolean {
    if (!this.clients.has(client)) return false;
    const now = this.app.now();
    const times = client.messageTimes;
    while (times.length > 0 && now - times[0]! >= 60_000) times.shift();
    const limit = this.app.config.websocket.subscribeMessagesPerMinute;
    if (times.length >= limit) {
      this.end(client, LIVE_CLOSE_TOO_MANY_MESSAGES, `more than ${limit} subscription messages in a minute`);
      cutUnlessClosed(client.ws);
      return false;
    }
    times.push(now);
    return true;
  }

  private forget(client: LiveClient): void {
    if (client.expiryTimer) clearTimeout(client.expiryTimer);
    if (client.subscribeTimer) clearTimeout(client.subscribeTimer);
    this.clients.delete(client);
  }

  /** /user/logout (or a replayed refresh token) ended a session: its sockets close at once. */
  ended(sessionId: string): void {
    this.bus?.send({ kind: "session-ended", sessionId });
    this.endWhere((c) => c.sessionId === sessionId);
  }

  userRemoved(userId: string): void {
    this.bus?.send({ kind: "user-removed", userId });
    this.endWhere((c) => c.userId === userId);
  }

  private endWhere(test: (client: LiveClient) => boolean): void {
    const code = API_ERROR.INVALID_TOKEN;
    for (const c of [...this.clients]) {
      if (!test(c)) continue;
      this.end(c, LIVE_CLOSE_SESSION_ENDED, "session ended", {
        purpose: LIVE_SUBSCRIBE,
        result: false,
        code,
        reason: apiErrorMessage(code),
      });
    }
  }

  /** Ends a socket's subscription at once (nothing more is sent to it), with a last word when given, and closes it. */
  private end(client: LiveClient, code: number, reason: string, last?: ExpiredMessage): void {
    this.forget(client);
    client.expiryTimer = undefined;
    client.userId = undefined;
    client.expires = undefined;
    client.queue = undefined;
    if (last && client.ws.readyState === client.ws.OPEN) client.ws.send(JSON.stringify(last));
    client.ws.close(code, reason);
  }

  private send(client: LiveClient, message: LiveMessage | ExpiredMessage): void {
    this.sendText(client, JSON.stringify(message));
  }

  /**
   * docs/server-limits.md: a reader that leaves more than `websocket.maxBufferedBytes` unread
   * beside what was left of its snapshot is closed (4413) instead of being sent more, so the
   * process holds no more than that for a socket that does not read.
   */
  private sendText(client: LiveClient, text: string): void {
    const ws = client.ws;
    if (ws.readyState !== ws.OPEN) return;
    const bound = this.app.config.websocket.maxBufferedBytes;
    // what the reader has taken of its snapshot no longer counts as the snapshot's
    client.snapshotUnread = Math.min(client.snapshotUnread, ws.bufferedAmount);
    if (ws.bufferedAmount > client.snapshotUnread + bound) {
      logUnread(this.app, "live", client.address, ws.bufferedAmount);
      this.end(client, CLOSE_UNREAD, `more than ${bound} bytes unread`);
      cutUnlessClosed(ws);
      return;
    }
    ws.send(text);
  }

  private async subscribe(client: LiveClient, text: string): Promise<void> {
    if (!this.clients.has(client)) return; // closed while its earlier messages were handled
    let purpose = LIVE_SUBSCRIBE;
    try {
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw taskFailed("Invalid JSON");
      }
      if (typeof json === "object" && json !== null && typeof (json as { purpose?: unknown }).purpose === "string") {
        purpose = (json as { purpose: string }).purpose as typeof LIVE_SUBSCRIBE;
      }
      const parsed = liveSubscribeSchema.safeParse(json);
      if (!parsed.success)
        throw taskFailed(`Unknown subscription: expected {purpose:'${LIVE_SUBSCRIBE}', userId, token}`);
      const { user, payload } = await checkAccessTokenFrom(this.app, parsed.data.token, client.address);
      if (user.id !== parsed.data.userId) throw new ApiError(607);
      // one subscription per socket (docs/server-limits.md): another user's token does not take it over
      if (client.userId !== undefined && client.userId !== user.id)
        throw taskFailed("This socket is subscribed for another user: open a new socket");
      if (!this.clients.has(client)) return; // closed (or its session ended) while the token was read
      const renewal = client.userId !== undefined;
      if (client.subscribeTimer) clearTimeout(client.subscribeTimer);
      client.subscribeTimer = undefined;
      client.userId = user.id;
      client.sessionId = payload.sid;
      client.expires = payload.expires;
      this.watchExpiry(client);
      if (client.userId === undefined) return; // expired meanwhile: already told and closed
      // the dashboard renews with each refreshed token: the deadline moves, and as the deltas
      // never stopped, no second snapshot is built
      if (renewal) {
        this.send(client, { purpose: LIVE_SUBSCRIBE, result: true });
        return;
      }
      client.queue = [];
      this.send(client, { purpose: LIVE_SUBSCRIBE, result: true });
      const bots = sortBots(
        (await this.app.storage.listBots())
          .filter((b) => botInScope(user, b))
          .map((b) => botAnswer(latestBot(b, this.app.botRunner))),
      );
      this.send(client, { type: "snapshot", data: bots });
      // a large snapshot may wait for a slow reader: only what comes after it counts
      client.snapshotUnread = client.ws.bufferedAmount;
      const queued = client.queue ?? []; // none when the token expired while the snapshot was read
      client.queue = undefined;
      for (const m of queued) this.send(client, m);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.send(client, { purpose: purpose as typeof LIVE_SUBSCRIBE, result: false, reason });
    }
  }

  /**
   * docs/dashboard-rules.md#states: the channel carries bot state for a valid access token only. A timer ends the
   * subscription when the token expires; `publish` checks too, for a clock that jumps ahead.
   */
  private watchExpiry(client: LiveClient): void {
    if (client.expiryTimer) clearTimeout(client.expiryTimer);
    const remaining = (client.expires ?? 0) - this.app.now();
    if (remaining <= 0) {
      this.expire(client);
      return;
    }
    client.expiryTimer = setTimeout(() => this.watchExpiry(client), Math.min(remaining, EXPIRY_STEP_MS));
    client.expiryTimer.unref();
  }

  private expired(client: LiveClient): boolean {
    return client.expires !== undefined && client.expires <= this.app.now();
  }

  private expire(client: LiveClient): void {
    const code = API_ERROR.ACCESS_EXPIRED;
    this.end(client, LIVE_CLOSE_TOKEN_EXPIRED, "access token expired", {
      purpose: LIVE_SUBSCRIBE,
      result: false,
      code,
      reason: apiErrorMessage(code),
    });
  }

  private async publish(clients: readonly string[], message: LiveMessage): Promise<void> {
    const scopes = new Map<string, boolean>();
    for (const c of [...this.clients]) {
      if (!c.userId) continue;
      if (this.expired(c)) {
        this.expire(c);
        continue;
      }
      let allowed = scopes.get(c.userId);
      if (allowed === undefined) {
        // Scope is read at send time, so a scope change applies to the next delta (docs/decisions.md#d6).
        const user = await this.app.storage.getUser(c.userId);
        allowed = user !== undefined && clients.every((client) => inScope(user, client));
        scopes.set(c.userId, allowed);
      }
      if (!allowed) continue;
      if (c.queue) c.queue.push(message);
      else this.send(c, message);
    }
  }

  changed(botId: string): void {
    void (async () => {
      const bot = await this.app.storage.getBot(botId);
      if (bot) await this.broadcast(botClients(bot), { type: "delta", data: botAnswer(bot) });
    })().catch((error: unknown) => this.app.logger.error("live delta failed", { error: String(error) }));
  }

  /** A bot's state straight from the runner (server/bots/host.ts), without reading it back from storage. */
  publishBot(bot: BotRecord): void {
    void this.broadcast(botClients(bot), { type: "delta", data: botAnswer(bot) }).catch((error: unknown) =>
      this.app.logger.error("live delta failed", { error: String(error) }),
    );
  }

  removed(botId: string, clients: readonly string[]): void {
    void this.broadcast(clients, { type: "delta", data: { botId, removed: true } }).catch((error: unknown) =>
      this.app.logger.error("live delta failed", { error: String(error) }),
    );
  }

  close(): void {
    if (this.sessionCheck) clearInterval(this.sessionCheck);
    for (const c of [...this.clients]) {
      this.forget(c);
      c.ws.close(1001, "server shutting down");
    }
  }
}

/** A socket closed for what it did: the close frame waits behind what its reader has not taken, so it is cut if not closed soon. */
function cutUnlessClosed(ws: WebSocket): void {
  const cut = setTimeout(() => ws.terminate(), CUT_AFTER_MS);
  cut.unref();
  ws.once("close", () => clearTimeout(cut));
}

function logUnread(app: App, channel: "live" | "book", address: string, unread: number): void {
  app.logger.warn("websocket closed: its reader left too much unread", { channel, address, unread });
}

interface RelayEntry {
  feed: BookFeed;
  users: number;
  linger?: ReturnType<typeof setTimeout>;
}

/**
 * Shared public feeds, one per exchange and pair, kept 30 s after the last reader left. At most
 * `websocket.maxFeeds` distinct feeds are open at once (docs/server-limits.md): a new pair first
 * evicts a lingering feed nobody reads, else it is refused (503) — one caller asking for 100
 * pairs must not make the process hold 100 upstream connections.
 */
export class BookRelay {
  private readonly feeds = new Map<string, RelayEntry>();
  constructor(private readonly app: App) {}

  /** true when a reader of this pair can be served now (its feed is open, or a slot is free) */
  canOpen(exchange: ExchangeId, pair: string): boolean {
    if (this.feeds.has(`${exchange}:${pair}`) || this.feeds.size < this.app.config.websocket.maxFeeds) return true;
    for (const entry of this.feeds.values()) if (entry.users <= 0) return true;
    return false;
  }

  private acquire(exchange: ExchangeId, pair: string): RelayEntry {
    const key = `${exchange}:${pair}`;
    let entry = this.feeds.get(key);
    if (!entry) {
      if (this.feeds.size >= this.app.config.websocket.maxFeeds) this.evictIdle();
      if (this.feeds.size >= this.app.config.websocket.maxFeeds) {
        throw taskFailed(
          `Too many order-book feeds open (${this.app.config.websocket.maxFeeds}): try again later`,
          503,
        );
      }
      // only paper's feed reads `now` (its market on the server's clock); live feeds keep the wall clock
      const feed = openRelayFeed(exchange, pair, { now: () => this.app.now(), proxy: this.app.config.proxy });
      entry = { feed, users: 0 };
      this.feeds.set(key, entry);
      feed.start();
    }
    if (entry.linger) clearTimeout(entry.linger);
    entry.linger = undefined;
    entry.users++;
    return entry;
  }

  /** stops the feed that has lingered longest without a reader */
  private evictIdle(): void {
    for (const [key, entry] of this.feeds) {
      if (entry.users > 0) continue;
      if (entry.linger) clearTimeout(entry.linger);
      entry.feed.stop();
      this.feeds.delete(key);
      return;
    }
  }

  /** open upstream feeds (tests and the health of the process) */
  get size(): number {
    return this.feeds.size;
  }

  private release(exchange: ExchangeId, pair: string): void {
    const key = `${exchange}:${pair}`;
    const entry = this.feeds.get(key);
    if (!entry) return;
    entry.users--;
    if (entry.users <= 0) {
      entry.linger = setTimeout(() => {
        entry.feed.stop();
        if (this.feeds.get(key) === entry) this.feeds.delete(key);
      }, 30_000);
      entry.linger.unref();
    }
  }

  static parse(exchange: string, pairText: string): { exchange: ExchangeId; pair: string } {
    if (!isExchangeId(exchange)) throw taskFailed(`Unknown exchange '${exchange}'`);
    try {
      return { exchange, pair: normalizePair(pairText.replace(/[-_]/, "/")) };
    } catch {
      throw taskFailed(`Invalid pair '${pairText}': write it as BASE/QUOTE (URI-encoded) or BASE-QUOTE`);
    }
  }

  private answer(exchange: ExchangeId, pair: string, feed: BookFeed, depth: number): BookAnswer {
    const top = feed.book.top(depth);
    return { exchange, pair, bids: top.bids, asks: top.asks, version: feed.book.version, state: feed.state };
  }

  /** GET /book/{exchange}/{pair}: a snapshot, waiting up to 5 s for the feed's first book. */
  async snapshot(exchange: ExchangeId, pair: string, depth: number): Promise<BookAnswer> {
    const entry = this.acquire(exchange, pair);
    try {
      const deadline = Date.now() + 5000;
      while (entry.feed.book.version === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return this.answer(exchange, pair, entry.feed, depth);
    } finally {
      this.release(exchange, pair);
    }
  }

  stream(ws: WebSocket, exchange: ExchangeId, pair: string, depth: number, address: string): void {
    const entry = this.acquire(exchange, pair);
    let sentVersion = -1;
    let sentState = "";
    const bound = this.app.config.websocket.maxBufferedBytes;
    const tick = () => {
      if (ws.readyState !== ws.OPEN) return;
      // docs/server-limits.md: a reader that does not read is closed, not sent more
      if (ws.bufferedAmount > bound) {
        logUnread(this.app, "book", address, ws.bufferedAmount);
        ws.close(CLOSE_UNREAD, `more than ${bound} bytes unread`);
        cutUnlessClosed(ws);
        return;
      }
      // a change of the upstream feed's state goes out too: the reader must know the book is not live (issue 13)
      if (entry.feed.book.version !== sentVersion || entry.feed.state !== sentState) {
        sentVersion = entry.feed.book.version;
        sentState = entry.feed.state;
        ws.send(JSON.stringify({ type: "book", data: this.answer(exchange, pair, entry.feed, depth) }));
      }
    };
    // docs/dashboard-rules.md#states: the UI refreshes every 500 ms, so the relay sends no faster than that.
    const timer = setInterval(tick, 500);
    tick();
    ws.on("message", () => {}); // 'ping' texts and anything else: ignored
    ws.on("close", () => {
      clearInterval(timer);
      this.release(exchange, pair);
    });
  }

  close(): void {
    for (const entry of this.feeds.values()) {
      if (entry.linger) clearTimeout(entry.linger);
      entry.feed.stop();
    }
    this.feeds.clear();
  }
}

/** Ends an upgrade that is refused before the handshake with a plain HTTP status. */
function refuse(socket: Duplex, status: number, text: string): void {
  if (socket.destroyed) return;
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`, () => socket.destroy());
}

/**
 * Routes websocket upgrades: "/" to the live channel, "/book" to the relay; anything else is
 * refused with a status before the handshake. Limits per address (docs/server-limits.md): open
 * websockets (`websocket.socketsPerAddress`, 429) and /book upgrades a minute
 * (`websocket.bookUpgradesPerMinute`, 429); the relay caps its upstream feeds (503).
 */
export function attachWebsockets(app: App, hub: LiveHub, relay: BookRelay, draining: () => boolean = () => false) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const openByAddress = new Map<string, number>();
  const bookUpgrades = new RateLimiter();
  const limits = app.config.websocket;

  /** counts the socket against its address until it closes; a socket error only closes it */
  const track = (ws: WebSocket, address: string) => {
    openByAddress.set(address, (openByAddress.get(address) ?? 0) + 1);
    ws.on("error", () => ws.terminate());
    ws.once("close", () => {
      const left = (openByAddress.get(address) ?? 1) - 1;
      if (left <= 0) openByAddress.delete(address);
      else openByAddress.set(address, left);
    });
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // A client may reset the connection at any moment: its error must not reach the process.
    socket.on("error", () => socket.destroy());
    try {
      if (draining()) return refuse(socket, 503, "Service Unavailable");
      const url = parseTarget(req.url);
      if (!url) return refuse(socket, 400, "Bad Request");
      if (url.pathname !== "/" && url.pathname !== "/book") return refuse(socket, 404, "Not Found");
      const address = clientAddress(req, app.config.behindTlsProxy);
      if ((openByAddress.get(address) ?? 0) >= limits.socketsPerAddress)
        return refuse(socket, 429, "Too Many Requests");
      if (url.pathname === "/") {
        wss.handleUpgrade(req, socket, head, (ws) => {
          track(ws, address);
          hub.accept(ws, address);
        });
        return;
      }
      let target: { exchange: ExchangeId; pair: string };
      try {
        target = BookRelay.parse(url.searchParams.get("exchange") ?? "", url.searchParams.get("pair") ?? "");
      } catch {
        return refuse(socket, 400, "Bad Request");
      }
      if (!bookUpgrades.take(address, limits.bookUpgradesPerMinute, 60_000, app.now()))
        return refuse(socket, 429, "Too Many Requests");
      if (!relay.canOpen(target.exchange, target.pair)) return refuse(socket, 503, "Service Unavailable");
      const depth = Math.min(Math.max(Number(url.searchParams.get("depth") ?? 20) || 20, 1), 50);
      wss.handleUpgrade(req, socket, head, (ws) => {
        track(ws, address);
        try {
          relay.stream(ws, target.exchange, target.pair, depth, address);
        } catch (error) {
          app.logger.warn("book relay failed", { error: String((error as Error)?.message ?? error) });
          ws.close(1013, "feed unavailable, try again later");
        }
      });
    } catch (error) {
      app.logger.error("upgrade failed", { error: String(error) });
      refuse(socket, 500, "Internal Server Error");
    }
  };
  return { wss, onUpgrade };
}
