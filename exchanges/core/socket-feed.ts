import type { Logger } from "../../lib/log.js";
import { silentLogger } from "../../lib/log.js";
import { OrderBook } from "../../lib/orderbook.js";
import type { ExchangeId } from "../../lib/types.js";
import { CATALOGUE } from "../catalogue.js";
import type { BookFeed, FeedState, WebSocketFactory, WebSocketLike } from "../types.js";
import { browserInflate, type Compression, compressionOf, type Inflate, plainText } from "./inflate.js";
import { FeedParseError } from "./levels.js";
import { backoffDelay, FEED_DEFAULTS, type FeedRuntimeOptions, type FetchJson, feedFetchJson } from "./options.js";

const OPEN = 1;
const CONNECTING = 0;

/** What one frame decodes to: text (JSON feeds) or bytes (mexc protobuf). */
export type Frame = string | Uint8Array;

type Timer = ReturnType<typeof setTimeout>;

function browserWebSocket(): WebSocketFactory | undefined {
  const Ctor = (globalThis as { WebSocket?: new (url: string) => WebSocketLike }).WebSocket;
  return Ctor ? (url) => new Ctor(url) : undefined;
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === "object" && error !== null && "message" in error)
    return String((error as { message: unknown }).message);
  return String(error);
}

/** Listeners are the caller's code: one that throws must not break the feed (docs/exchange-rules.md#errors). */
function notify<T>(listeners: Set<(value: T) => void>, value: T, log: Logger, exchange: string): void {
  for (const listener of listeners) {
    try {
      listener(value);
    } catch (error) {
      log.error("feed listener threw", { exchange, error: errorText(error) });
    }
  }
}

/**
 * The socket machinery every websocket feed shares (docs/exchange-rules.md#states, docs/decisions.md#d14): a subscription on
 * every open, a keep-alive every 15 s that also opens a new socket when the old one is gone,
 * server pings answered by the exchange module, an immediate reconnect with capped exponential
 * backoff and jitter, resync on integrity failures, stale marking, and every error logged —
 * never thrown at the user (docs/exchange-rules.md#errors).
 *
 * An exchange module supplies the address, the subscription, the keep-alive text, the message
 * handler and, when it can do better than a new socket, how to fetch a fresh snapshot.
 */
export abstract class SocketFeed implements BookFeed {
  readonly exchange: ExchangeId;
  readonly pair: string;
  readonly book = new OrderBook();
  /** levels the reader shows: the exchange's default (20 or 50) unless `depth` was given */
  readonly depth: number;
  /** counters for diagnostics and tests */
  readonly stats = { sockets: 0, opens: 0, messages: 0, parseFailures: 0, resyncs: 0, keepAlives: 0 };

  protected readonly options: FeedRuntimeOptions;
  protected readonly log: Logger;
  protected readonly fetchJson: FetchJson;
  protected readonly inflate: Inflate | undefined;
  /**
   * Binary frames that are neither gzip nor zlib are the venue's own bytes (mexc protobuf), not
   * raw deflate: such a module sets this and overrides binaryFrame.
   */
  protected readonly binaryPayload: boolean = false;

  private currentState: FeedState = "closed";
  private readonly stateListeners = new Set<(state: FeedState) => void>();
  private readonly changeListeners = new Set<() => void>();
  private running = false;
  private socket: WebSocketLike | undefined;
  /** each socket gets a generation; events from a replaced socket are ignored */
  private generation = 0;
  private opening = false;
  private attempts = 0;
  private keepAliveTimer: Timer | undefined;
  private staleTimer: Timer | undefined;
  private reconnectTimer: Timer | undefined;
  private lastChangeAt = 0;
  /** the book version the change listeners were last told about */
  private announcedVersion = this.book.version;
  /** the socket generation whose unreadable frame was last logged at warn level */
  private warnedGeneration = -1;
  /** frames waiting behind an asynchronous inflate */
  private pendingDecodes = 0;
  /** keeps frames in order while an asynchronous inflate runs */
  private decodeChain: Promise<void> = Promise.resolve();
  private readonly keepAliveMs: number;
  private readonly staleAfterMs: number;

  constructor(exchange: ExchangeId, pair: string, options: FeedRuntimeOptions) {
    this.exchange = exchange;
    this.pair = pair;
    this.options = options;
    this.depth = options.depth && options.depth > 0 ? Math.floor(options.depth) : CATALOGUE[exchange].depth;
    this.log = options.logger ?? silentLogger;
    this.fetchJson = feedFetchJson(exchange, options);
    this.inflate = options.inflate ?? browserInflate();
    this.keepAliveMs = options.keepAliveMs ?? FEED_DEFAULTS.keepAliveMs;
    this.staleAfterMs = options.staleAfterMs ?? FEED_DEFAULTS.staleAfterMs;
  }

  get state(): FeedState {
    return this.currentState;
  }

  // ---- what each exchange module provides -------------------------------------------------

  /** The websocket address; `--ws-url` (options.wsUrl) replaces the exchange's own. */
  protected abstract socketUrl(): string | Promise<string>;
  /** Called on every open, first and after reconnects: send the subscription (docs/decisions.md#d14). */
  protected abstract subscribe(): void;
  /** The exchange's keep-alive text, or undefined when the server pings and we only answer. */
  protected abstract keepAliveMessage(): string | undefined;
  /** Handles one decoded frame; throw FeedParseError (or anything) for a message it cannot read. */
  protected abstract handleFrame(frame: Frame): void;

  /**
   * Gets a fresh snapshot after the book was thrown away. The default opens a new socket, whose
   * subscription brings a snapshot; modules resubscribe or refetch where the exchange allows.
   */
  protected requestSnapshot(): void {
    this.renewSocket();
  }

  /** Resets per-connection sequence state; called before each subscription. */
  protected resetSequence(): void {}

  /**
   * The one frame decoder of every feed (docs/feeds.md "Frames"): text as is; binary by its first
   * bytes — gzip, zlib, otherwise raw deflate — and, when that does not inflate, plain text sent
   * as binary. A module reads no compression of its own.
   */
  protected decode(data: unknown): Frame | Promise<Frame> {
    if (typeof data === "string") return data;
    const bytes = toBytes(data);
    if (!bytes) throw new FeedParseError(`unexpected frame type ${Object.prototype.toString.call(data)}`);
    const format = compressionOf(bytes);
    if (format === "deflate-raw" && this.binaryPayload) return this.binaryFrame(bytes);
    if (!this.inflate)
      return this.uncompressed(bytes, format, new Error("no inflate available (pass nodeFeedOptions() in Node)"));
    let out: Uint8Array | Promise<Uint8Array>;
    try {
      out = this.inflate(bytes, format);
    } catch (error) {
      return this.uncompressed(bytes, format, error);
    }
    if (out instanceof Promise) {
      return out.then(
        (b) => this.binaryFrame(b),
        (error: unknown) => this.uncompressed(bytes, format, error),
      );
    }
    return this.binaryFrame(out);
  }

  /** A binary frame that did not inflate: plain text sent as binary, or a frame nobody can read. */
  private uncompressed(bytes: Uint8Array, format: Compression, error: unknown): Frame {
    if (format === "deflate-raw") {
      const text = plainText(bytes);
      if (text !== undefined) return text;
    }
    throw new FeedParseError(`${format} frame does not inflate: ${errorText(error)}`);
  }

  /** Binary after decompression: text unless the module reads bytes (mexc overrides). */
  protected binaryFrame(bytes: Uint8Array): Frame {
    return new TextDecoder().decode(bytes);
  }

  // ---- helpers for modules -----------------------------------------------------------------

  protected send(message: string | Uint8Array): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return;
    try {
      socket.send(message);
    } catch (error) {
      this.log.warn("feed send failed", { exchange: this.exchange, error: errorText(error) });
    }
  }

  protected sendJson(message: unknown): void {
    this.send(JSON.stringify(message));
  }

  /**
   * A fresh snapshot is in the book: the feed is live and the backoff starts over. A snapshot that
   * came by REST lands outside any frame, so its change is announced here (a reader waiting for
   * the first book would otherwise wait for the first delta).
   */
  protected markLive(): void {
    this.attempts = 0;
    this.lastChangeAt = Date.now();
    this.setState("live");
    this.announceChange();
  }

  /**
   * Integrity failed (a sequence gap, a checksum mismatch): the local book is thrown away and a
   * fresh snapshot requested, so a trader never watches a silently drifted book.
   */
  protected resync(reason: string, fields: Record<string, unknown> = {}): void {
    if (!this.running) return;
    this.stats.resyncs++;
    this.log.warn("feed resync", { exchange: this.exchange, pair: this.pair, reason, ...fields });
    this.book.clear();
    this.setState("resyncing");
    this.announceChange();
    this.resetSequence();
    try {
      this.requestSnapshot();
    } catch (error) {
      this.log.error("feed snapshot request failed", { exchange: this.exchange, error: errorText(error) });
      this.renewSocket();
    }
  }

  /** Closes the current socket and opens another at once (which resubscribes). */
  protected renewSocket(): void {
    this.dropSocket();
    if (this.running) void this.openSocket();
  }

  protected isOpen(): boolean {
    return this.socket?.readyState === OPEN;
  }

  protected get isRunning(): boolean {
    return this.running;
  }

  // ---- BookFeed ------------------------------------------------------------------------------

  start(): void {
    if (this.running) return;
    this.running = true;
    this.book.clear();
    this.setState("connecting");
    void this.openSocket();
    this.keepAliveTimer = setInterval(() => this.keepAlive(), this.keepAliveMs);
    if (this.staleAfterMs > 0)
      this.staleTimer = setInterval(() => this.checkStale(), Math.max(10, Math.floor(this.staleAfterMs / 4)));
  }

  stop(): void {
    if (!this.running && this.currentState === "closed") return;
    this.running = false;
    clearInterval(this.keepAliveTimer);
    clearInterval(this.staleTimer);
    clearTimeout(this.reconnectTimer);
    this.keepAliveTimer = this.staleTimer = this.reconnectTimer = undefined;
    this.dropSocket();
    this.setState("closed");
  }

  /** The manual refresh of docs/exchange-rules.md#states: throw the book away and take a fresh snapshot now. */
  async refresh(): Promise<void> {
    if (!this.running) return;
    this.resync("manual refresh");
  }

  onState(listener: (state: FeedState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  onChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  // ---- internals -----------------------------------------------------------------------------

  protected setState(state: FeedState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.log.debug("feed state", { exchange: this.exchange, pair: this.pair, state });
    notify(this.stateListeners, state, this.log, this.exchange);
  }

  private connectFactory(): WebSocketFactory {
    const factory = this.options.connect ?? browserWebSocket();
    if (!factory) throw new Error("no websocket available: pass options.connect (nodeFeedOptions() in Node)");
    return factory;
  }

  private async openSocket(): Promise<void> {
    if (!this.running || this.opening) return;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.opening = true;
    const generation = ++this.generation;
    // a resync or a stale book keeps its state while the new socket opens: it returns to live
    // with the snapshot (docs/feeds.md)
    if (this.currentState !== "resyncing" && this.currentState !== "stale") this.setState("connecting");
    let socket: WebSocketLike;
    try {
      const url = await this.socketUrl();
      if (!this.running || generation !== this.generation) return;
      socket = this.connectFactory()(url);
    } catch (error) {
      this.log.warn("feed connect failed", { exchange: this.exchange, error: errorText(error) });
      if (generation === this.generation) this.scheduleReconnect();
      return;
    } finally {
      this.opening = false;
    }
    this.socket = socket;
    this.stats.sockets++;
    try {
      socket.binaryType = "arraybuffer";
    } catch {
      // some socket implementations fix the binary type; decode() accepts every form
    }
    socket.onopen = () => {
      if (generation !== this.generation) return;
      this.stats.opens++;
      this.log.info("feed socket open", { exchange: this.exchange, pair: this.pair });
      this.resetSequence();
      try {
        this.subscribe();
      } catch (error) {
        this.log.error("feed subscribe failed", { exchange: this.exchange, error: errorText(error) });
      }
    };
    socket.onmessage = (event) => {
      if (generation !== this.generation) return;
      this.receive(event.data);
    };
    socket.onerror = (event) => {
      if (generation !== this.generation) return;
      this.log.warn("feed socket error", { exchange: this.exchange, error: errorText(event) });
    };
    socket.onclose = (event) => {
      if (generation !== this.generation) return;
      this.socket = undefined;
      this.log.warn("feed socket closed", { exchange: this.exchange, code: event.code, reason: event.reason ?? "" });
      if (!this.running) return;
      if (this.currentState === "live" || this.currentState === "stale") this.setState("connecting");
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (!this.running || this.reconnectTimer) return;
    const delay = backoffDelay(
      this.attempts++,
      this.options.reconnectBaseMs ?? FEED_DEFAULTS.reconnectBaseMs,
      this.options.reconnectMaxMs ?? FEED_DEFAULTS.reconnectMaxMs,
      this.options.random ?? Math.random,
    );
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.openSocket();
    }, delay);
  }

  private dropSocket(): void {
    const socket = this.socket;
    this.socket = undefined;
    this.generation++;
    this.opening = false;
    if (!socket) return;
    socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
    try {
      if (socket.readyState === OPEN || socket.readyState === CONNECTING) socket.close();
    } catch (error) {
      this.log.debug("feed close failed", { exchange: this.exchange, error: errorText(error) });
    }
  }

  /** docs/exchange-rules.md#states: a keep-alive every 15 s; a socket that is not open then is replaced. */
  private keepAlive(): void {
    if (!this.running) return;
    const socket = this.socket;
    if (socket?.readyState === OPEN) {
      const message = this.keepAliveMessage();
      if (message !== undefined) {
        this.stats.keepAlives++;
        this.send(message);
      }
      return;
    }
    if (socket?.readyState === CONNECTING || this.opening) return;
    this.log.info("feed keep-alive found no open socket; opening a new one", { exchange: this.exchange });
    this.renewSocket();
  }

  private checkStale(): void {
    if (!this.running || this.currentState !== "live") return;
    if (Date.now() - this.lastChangeAt < this.staleAfterMs) return;
    this.log.warn("feed stale: book unchanged", {
      exchange: this.exchange,
      pair: this.pair,
      ms: Date.now() - this.lastChangeAt,
    });
    this.setState("stale");
    // a new socket brings a fresh snapshot; the state returns to live when it lands
    this.renewSocket();
  }

  /**
   * Decodes and handles one frame. While an asynchronous inflate (the browser's) is pending, every
   * later frame, text included, waits its turn, so frames are handled in the order they came; a
   * decode result is settled at once so no rejection is ever left unhandled.
   */
  private receive(data: unknown): void {
    this.stats.messages++;
    let decoded: Frame | Promise<Frame>;
    try {
      decoded = this.decode(data);
    } catch (error) {
      if (this.pendingDecodes === 0) {
        this.parseFailure(error, data);
        return;
      }
      decoded = Promise.reject(error);
      decoded.catch(() => {});
    }
    if (!(decoded instanceof Promise) && this.pendingDecodes === 0) {
      this.process(decoded);
      return;
    }
    const generation = this.generation;
    const settled: Promise<{ frame: Frame } | { error: unknown }> = Promise.resolve(decoded).then(
      (frame) => ({ frame }),
      (error: unknown) => ({ error }),
    );
    this.pendingDecodes++;
    this.decodeChain = this.decodeChain
      .then(() => settled)
      .then((result) => {
        this.pendingDecodes--;
        if (generation !== this.generation) return;
        if ("frame" in result) this.process(result.frame);
        else this.parseFailure(result.error, data);
      })
      .catch((error: unknown) =>
        this.log.error("feed frame handling failed", { exchange: this.exchange, error: errorText(error) }),
      );
  }

  private process(frame: Frame): void {
    try {
      this.handleFrame(frame);
    } catch (error) {
      this.parseFailure(error, frame);
    }
    this.announceChange();
  }

  /** Tells the change listeners once for every book version they have not seen yet. */
  private announceChange(): void {
    if (this.book.version === this.announcedVersion) return;
    this.announcedVersion = this.book.version;
    this.lastChangeAt = Date.now();
    if (this.currentState === "stale") this.setState("live");
    notify(this.changeListeners, undefined, this.log, this.exchange);
  }

  /**
   * A frame that cannot be decoded or read (docs/feeds.md "Frames nobody can read"): logged once
   * per connection with the venue and the reason (the rest at debug level, so a venue that
   * changed its format does not flood the log), and the book is thrown away and taken again,
   * since the lost frame may have changed it. The process carries on.
   */
  private parseFailure(error: unknown, data: unknown): void {
    this.stats.parseFailures++;
    const reason = errorText(error);
    const sample = typeof data === "string" ? data.slice(0, 200) : `<${toBytes(data)?.length ?? 0} bytes>`;
    const fields = { exchange: this.exchange, pair: this.pair, reason, sample };
    if (this.warnedGeneration !== this.generation) {
      this.warnedGeneration = this.generation;
      this.log.warn("feed message not understood", fields);
    } else {
      this.log.debug("feed message not understood", fields);
    }
    if (this.currentState === "live" || this.currentState === "stale")
      this.resync("message not understood", { reason });
  }
}

export function toBytes(data: unknown): Uint8Array | undefined {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (Array.isArray(data) && data.every((d) => d instanceof Uint8Array)) {
    const total = data.reduce((n: number, d: Uint8Array) => n + d.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const d of data as Uint8Array[]) {
      out.set(d, at);
      at += d.length;
    }
    return out;
  }
  return undefined;
}
