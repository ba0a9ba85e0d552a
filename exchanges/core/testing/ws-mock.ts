import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import type { Logger } from "../../../lib/log.js";
import type { BookLevel } from "../../../lib/types.js";

/**
 * A real websocket server on 127.0.0.1 for the feed mocks. Each exchange mock (ws-<id>.ts) adds
 * the exchange's own protocol on top: what it answers to a subscription and a ping, and how it
 * writes snapshots and deltas.
 */
export class MockWsServer {
  readonly wss: WebSocketServer;
  readonly clients = new Set<WebSocket>();
  /** every text message received from any client, in order */
  readonly received: string[] = [];
  /** connections accepted so far */
  connections = 0;
  /** the path and query of each connection's request (kucoin's token travels there) */
  readonly requestUrls: string[] = [];
  /** when true, incoming messages are read but never answered (to provoke staleness) */
  stalled = false;
  private handler: ((client: WebSocket, text: string) => void) | undefined;
  private connectHandler: ((client: WebSocket) => void) | undefined;

  private constructor(wss: WebSocketServer) {
    this.wss = wss;
    wss.on("connection", (client, request) => {
      this.connections++;
      this.requestUrls.push(request.url ?? "/");
      this.clients.add(client);
      client.on("close", () => this.clients.delete(client));
      client.on("message", (data, isBinary) => {
        const text = isBinary ? `<binary ${(data as Buffer).length}>` : data.toString();
        this.received.push(text);
        if (!this.stalled) this.handler?.(client, text);
      });
      this.connectHandler?.(client);
    });
  }

  /** Listens on a free port, or on `port` to come back where a feed expects the server. */
  static async start(port = 0): Promise<MockWsServer> {
    const wss = await new Promise<WebSocketServer>((resolve) => {
      const server: WebSocketServer = new WebSocketServer({ host: "127.0.0.1", port }, () => resolve(server));
    });
    return new MockWsServer(wss);
  }

  get url(): string {
    return `ws://127.0.0.1:${(this.wss.address() as AddressInfo).port}`;
  }

  onMessage(handler: (client: WebSocket, text: string) => void): void {
    this.handler = handler;
  }

  onConnect(handler: (client: WebSocket) => void): void {
    this.connectHandler = handler;
  }

  broadcast(data: string | Buffer): void {
    for (const client of this.clients) if (client.readyState === 1) client.send(data);
  }

  /** Drops every connection abruptly, as a network failure would. */
  drop(): void {
    for (const client of this.clients) client.terminate();
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }
}

/** The exchange's true book, kept by a mock so a test can compare the feed's book level by level. */
export class TruthBook {
  readonly bids = new Map<string, string>();
  readonly asks = new Map<string, string>();

  set(side: "bid" | "ask", price: string, amount: string): void {
    const map = side === "bid" ? this.bids : this.asks;
    if (Number(amount) === 0) map.delete(price);
    else map.set(price, amount);
  }

  reset(bids: readonly BookLevel[], asks: readonly BookLevel[]): void {
    this.bids.clear();
    this.asks.clear();
    for (const [p, a] of bids) this.set("bid", p, a);
    for (const [p, a] of asks) this.set("ask", p, a);
  }

  levels(side: "bid" | "ask", n = Number.POSITIVE_INFINITY): BookLevel[] {
    const map = side === "bid" ? this.bids : this.asks;
    return [...map.entries()]
      .sort((x, y) => (side === "bid" ? Number(y[0]) - Number(x[0]) : Number(x[0]) - Number(y[0])))
      .slice(0, n);
  }

  top(n: number): { bids: BookLevel[]; asks: BookLevel[] } {
    return { bids: this.levels("bid", n), asks: this.levels("ask", n) };
  }
}

/** Waits until a condition holds, polling every 5 ms; fails with the description on time-out. */
export async function waitFor(condition: () => boolean, what: string, timeoutMs = 4000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export interface LogRecord {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields?: Record<string, unknown>;
}

/** A logger that records, so tests can assert that failures were logged and not thrown. */
export function recordingLogger(): Logger & { records: LogRecord[]; has(text: string): boolean } {
  const records: LogRecord[] = [];
  const at = (level: LogRecord["level"]) => (message: string, fields?: Record<string, unknown>) => {
    records.push({ level, message, ...(fields ? { fields } : {}) });
  };
  return {
    records,
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    has: (text) => records.some((r) => r.message.includes(text)),
  };
}

/** Synthetic levels around a mid price, with prices written the exchange's way. */
export function ladder(side: "bid" | "ask", count: number, mid = 100, step = 0.5, decimals = 2): BookLevel[] {
  return Array.from({ length: count }, (_, i) => {
    const price = side === "bid" ? mid - step * (i + 1) : mid + step * i;
    return [price.toFixed(decimals), (1 + i / 10).toFixed(3)] as BookLevel;
  });
}

/**
 * Writes the decimal strings that are array elements of a JSON text as bare JSON numbers, digit for
 * digit, the way lbank and htx write their levels (`[[0.0252,0.5833]]`): no float rounding on the
 * mock's side either, so a test can show the feed keeps every digit.
 */
export function bareLevelNumbers(json: string): string {
  return json.replace(/([[,]\s*)"(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"(?=\s*[,\]])/g, "$1$2");
}
