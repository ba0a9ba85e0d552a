/**
 * The websocket side of the server, on the same port:
 *  - "/" is the live channel of seed 000 §4/§7: {purpose:'sub_for_bots', userId, token} →
 *    {purpose, result}; then {type:'snapshot', data: bots} and {type:'delta', data: bot}; 'ping'
 *    and 'pong' texts are ignored. PRODUCT D6: only bots of clients in the user's scope. When the
 *    subscription's access token expires the server sends {purpose, result:false, code:602, reason}
 *    and closes with 4602; the dashboard re-opens with a fresh token (seed 000 §4).
 *  - "/book?exchange=paper&pair=BTC/USDT[&depth=20]" relays a public order book to browsers
 *    (seed 000 §2 order book, PRODUCT D14): {type:'book', data: BookAnswer} at most every 500 ms.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { API_ERROR, LIVE_SUBSCRIBE, apiErrorMessage, type BookAnswer, type LiveMessage } from "../lib/api.js";
import { liveSubscribeSchema } from "../lib/schemas.js";
import { normalizePair } from "../lib/pair.js";
import { isExchangeId, type ExchangeId } from "../lib/types.js";
import { createFeed } from "../exchanges/feeds.js";
import { nodeFeedOptions } from "../exchanges/feed-node.js";
import type { BookFeed } from "../exchanges/types.js";
import type { App, BotEvents } from "./app.js";
import { checkAccessToken, inScope } from "./auth/session.js";
import { botAnswer } from "./bots.js";
import { ApiError, taskFailed } from "./errors.js";

interface LiveClient {
  ws: WebSocket;
  userId?: string;
  /** the subscription's access token stops being valid at this time (ms) */
  expires?: number;
  expiryTimer?: ReturnType<typeof setTimeout>;
  /** deltas that arrive while the snapshot is being built go out after it, in order */
  queue?: LiveMessage[];
}

/** The last word to a subscription whose token expired: the seed's 602 beside the reply shape. */
type ExpiredMessage = { purpose: typeof LIVE_SUBSCRIBE; result: false; code: number; reason: string };

/** Close code of an expired subscription (4000–4999 are the application's; 4602 mirrors 602). */
export const LIVE_CLOSE_TOKEN_EXPIRED = 4602;

const MAX_MESSAGE_BYTES = 16 * 1024;

/**
 * The expiry timer waits in steps of at most a minute. Node keeps one timer list per distinct
 * duration, and an unref'd timer's list stays after clearTimeout until that duration has passed:
 * a timer for each subscription's exact remaining time left a list per closed socket for up to
 * the token's lifetime (docs/tui-memory.md). Steps share one list.
 */
const EXPIRY_STEP_MS = 60_000;

export class LiveHub implements BotEvents {
  private readonly clients = new Set<LiveClient>();

  constructor(private readonly app: App) {}

  accept(ws: WebSocket): void {
    const client: LiveClient = { ws };
    this.clients.add(client);
    const forget = () => {
      if (client.expiryTimer) clearTimeout(client.expiryTimer);
      this.clients.delete(client);
    };
    ws.on("close", forget);
    ws.on("error", forget);
    ws.on("message", (data, isBinary) => {
      if (isBinary) return;
      const text = data.toString();
      if (text === "ping" || text === "pong") return; // seed 000 §4: keep-alive texts are ignored
      void this.subscribe(client, text);
    });
  }

  private send(client: LiveClient, message: LiveMessage | ExpiredMessage): void {
    if (client.ws.readyState === client.ws.OPEN) client.ws.send(JSON.stringify(message));
  }

  private async subscribe(client: LiveClient, text: string): Promise<void> {
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
      if (!parsed.success) throw taskFailed(`Unknown subscription: expected {purpose:'${LIVE_SUBSCRIBE}', userId, token}`);
      const { user, payload } = await checkAccessToken(this.app, parsed.data.token);
      // closed while the token was checked: a timer set now would keep the socket until the expiry
      if (!this.clients.has(client)) return;
      if (user.id !== parsed.data.userId) throw new ApiError(607);
      client.userId = user.id;
      client.expires = payload.expires;
      this.watchExpiry(client);
      if (client.userId === undefined) return; // expired meanwhile: already told and closed
      client.queue = [];
      this.send(client, { purpose: LIVE_SUBSCRIBE, result: true });
      const bots = (await this.app.storage.listBots()).filter((b) => inScope(user, b.path[0])).map(botAnswer);
      this.send(client, { type: "snapshot", data: bots });
      const queued = client.queue ?? []; // none when the token expired while the snapshot was read
      client.queue = undefined;
      for (const m of queued) this.send(client, m);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.send(client, { purpose: purpose as typeof LIVE_SUBSCRIBE, result: false, reason });
    }
  }

  /**
   * Seed 000 §4: the channel carries bot state for a valid access token only. A timer ends the
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
    if (client.expiryTimer) clearTimeout(client.expiryTimer);
    client.expiryTimer = undefined;
    client.userId = undefined;
    client.expires = undefined;
    client.queue = undefined;
    this.clients.delete(client);
    const code = API_ERROR.ACCESS_EXPIRED;
    this.send(client, { purpose: LIVE_SUBSCRIBE, result: false, code, reason: apiErrorMessage(code) });
    client.ws.close(LIVE_CLOSE_TOKEN_EXPIRED, "access token expired");
  }

  private async publish(client: string, message: LiveMessage): Promise<void> {
    const scopes = new Map<string, boolean>();
    for (const c of [...this.clients]) {
      if (!c.userId) continue;
      if (this.expired(c)) {
        this.expire(c);
        continue;
      }
      let allowed = scopes.get(c.userId);
      if (allowed === undefined) {
        // Scope is read at send time, so a scope change applies to the next delta (PRODUCT D6).
        const user = await this.app.storage.getUser(c.userId);
        allowed = user !== undefined && inScope(user, client);
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
      if (bot) await this.publish(bot.path[0], { type: "delta", data: botAnswer(bot) });
    })().catch((error: unknown) => this.app.logger.error("live delta failed", { error: String(error) }));
  }

  removed(botId: string, client: string): void {
    void this.publish(client, { type: "delta", data: { botId, removed: true } }).catch((error: unknown) =>
      this.app.logger.error("live delta failed", { error: String(error) }),
    );
  }

  close(): void {
    for (const c of this.clients) {
      if (c.expiryTimer) clearTimeout(c.expiryTimer);
      c.ws.close(1001, "server shutting down");
    }
    this.clients.clear();
  }
}

interface RelayEntry {
  feed: BookFeed;
  users: number;
  linger?: ReturnType<typeof setTimeout>;
}

/** Shared public feeds, one per exchange and pair, kept 30 s after the last reader left. */
export class BookRelay {
  private readonly feeds = new Map<string, RelayEntry>();
  constructor(private readonly app: App) {}

  private async acquire(exchange: ExchangeId, pair: string): Promise<RelayEntry> {
    const key = `${exchange}:${pair}`;
    let entry = this.feeds.get(key);
    if (!entry) {
      const feed = createFeed(exchange, pair, { ...nodeFeedOptions(), ...(exchange === "paper" ? { now: () => this.app.now() } : {}) });
      entry = { feed, users: 0 };
      this.feeds.set(key, entry);
      feed.start();
    }
    if (entry.linger) clearTimeout(entry.linger);
    entry.linger = undefined;
    entry.users++;
    return entry;
  }

  private release(exchange: ExchangeId, pair: string): void {
    const key = `${exchange}:${pair}`;
    const entry = this.feeds.get(key);
    if (!entry) return;
    entry.users--;
    if (entry.users <= 0) {
      entry.linger = setTimeout(() => {
        entry.feed.stop();
        this.feeds.delete(key);
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
    return { exchange, pair, bids: top.bids, asks: top.asks, version: feed.book.version };
  }

  /** GET /book/{exchange}/{pair}: a snapshot, waiting up to 5 s for the feed's first book. */
  async snapshot(exchange: ExchangeId, pair: string, depth: number): Promise<BookAnswer> {
    const entry = await this.acquire(exchange, pair);
    try {
      const deadline = Date.now() + 5000;
      while (entry.feed.book.version === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return this.answer(exchange, pair, entry.feed, depth);
    } finally {
      this.release(exchange, pair);
    }
  }

  async stream(ws: WebSocket, exchange: ExchangeId, pair: string, depth: number): Promise<void> {
    const entry = await this.acquire(exchange, pair);
    let sentVersion = -1;
    const tick = () => {
      if (entry.feed.book.version !== sentVersion && ws.readyState === ws.OPEN) {
        sentVersion = entry.feed.book.version;
        ws.send(JSON.stringify({ type: "book", data: this.answer(exchange, pair, entry.feed, depth) }));
      }
    };
    // Seed 000 §4: the UI refreshes every 500 ms, so the relay sends no faster than that.
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

/** Routes websocket upgrades: "/" to the live channel, "/book" to the relay; anything else is refused. */
export function attachWebsockets(app: App, hub: LiveHub, relay: BookRelay) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/") {
      wss.handleUpgrade(req, socket, head, (ws) => hub.accept(ws));
      return;
    }
    if (url.pathname === "/book") {
      let target: { exchange: ExchangeId; pair: string };
      try {
        target = BookRelay.parse(url.searchParams.get("exchange") ?? "", url.searchParams.get("pair") ?? "");
      } catch {
        socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        return;
      }
      const depth = Math.min(Math.max(Number(url.searchParams.get("depth") ?? 20) || 20, 1), 50);
      wss.handleUpgrade(req, socket, head, (ws) => {
        relay.stream(ws, target.exchange, target.pair, depth).catch((error: unknown) => {
          app.logger.warn("book relay failed", { error: String((error as Error)?.message ?? error) });
          ws.close(1011, "feed unavailable");
        });
      });
      return;
    }
    socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n");
  };
  return { wss, onUpgrade };
}
