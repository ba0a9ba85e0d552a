import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { type MockServer, startMockServer } from "../core/testing/http-mock.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * Gate v4 as documented: {"channel":"spot.order_book_update","event":"subscribe","payload":[pair,"100ms"]}
 * is acknowledged; spot.ping gets spot.pong; updates carry U..u; GET /api/v4/spot/order_book
 * with with_id=true answers the snapshot and its id.
 */
export class GateMock {
  readonly ws: MockWsServer;
  readonly http: MockServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  pings = 0;
  id = 48_000;

  private constructor(ws: MockWsServer, http: MockServer) {
    this.ws = ws;
    this.http = http;
    ws.onMessage((client, text) => this.answer(client, text));
    http.on("GET /api/v4/spot/order_book", () => ({
      body: {
        id: this.id,
        current: Date.now(),
        update: Date.now(),
        bids: this.truth.levels("bid", 100),
        asks: this.truth.levels("ask", 100),
      },
    }));
  }

  static async start(): Promise<GateMock> {
    return new GateMock(await MockWsServer.start(), await startMockServer());
  }

  private answer(client: WebSocket, text: string): void {
    const message = JSON.parse(text) as { time: number; channel: string; event?: string; payload?: string[] };
    if (message.channel === "spot.ping") {
      this.pings++;
      client.send(JSON.stringify({ time: message.time, channel: "spot.pong", event: "", result: null }));
    } else if (message.channel === "spot.order_book_update" && message.event === "subscribe") {
      this.subscriptions.push((message.payload ?? []).join(","));
      client.send(
        JSON.stringify({
          time: message.time,
          channel: message.channel,
          event: "subscribe",
          result: { status: "success" },
        }),
      );
    }
  }

  /** Changes the truth and pushes one update covering `ids` update ids; `send: false` loses it. */
  update(symbol: string, bids: BookLevel[], asks: BookLevel[], options: { send?: boolean; ids?: number } = {}): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    const U = this.id + 1;
    this.id += options.ids ?? 3;
    if (options.send === false) return;
    this.ws.broadcast(
      JSON.stringify({
        time: Math.floor(Date.now() / 1000),
        time_ms: Date.now(),
        channel: "spot.order_book_update",
        event: "update",
        result: {
          t: Date.now(),
          e: "depthUpdate",
          E: Math.floor(Date.now() / 1000),
          s: symbol,
          U,
          u: this.id,
          b: bids,
          a: asks,
        },
      }),
    );
  }

  async close(): Promise<void> {
    await this.ws.close();
    await this.http.close();
  }
}
