import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * Bybit v5 public spot socket as documented: {"op":"subscribe","args":[topic]} is acknowledged
 * and followed by a snapshot; {"op":"ping"} gets a pong; deltas carry the update id `u`.
 */
export class BybitMock {
  readonly server: MockWsServer;
  readonly truth = new TruthBook();
  /**
   * A book per topic ("orderbook.50.ETHBTC"). Once any is set, a topic without one is refused the
   * way bybit refuses an unknown symbol (success false, no snapshot).
   */
  readonly books = new Map<string, TruthBook>();
  /** topics subscribed per connection order */
  readonly subscriptions: string[] = [];
  pings = 0;
  private u = 1000;
  private seq = 50_000;

  private constructor(server: MockWsServer) {
    this.server = server;
    server.onMessage((client, text) => this.answer(client, text));
  }

  static async start(): Promise<BybitMock> {
    return new BybitMock(await MockWsServer.start());
  }

  /** A fresh server on a known port: the exchange coming back after an outage. */
  static async restartOn(port: number): Promise<BybitMock> {
    return new BybitMock(await MockWsServer.start(port));
  }

  get url(): string {
    return this.server.url;
  }

  private answer(client: WebSocket, text: string): void {
    const message = JSON.parse(text) as { op: string; args?: string[]; req_id?: string };
    if (message.op === "ping") {
      this.pings++;
      client.send(JSON.stringify({ success: true, ret_msg: "pong", conn_id: "mock", op: "ping" }));
      return;
    }
    if (message.op === "subscribe") {
      const topic = message.args?.[0] ?? "";
      this.subscriptions.push(topic);
      if (this.books.size > 0 && !this.books.has(topic)) {
        client.send(
          JSON.stringify({
            success: false,
            ret_msg: `error:handler not found,topic:${topic}`,
            conn_id: "mock",
            op: "subscribe",
          }),
        );
        return;
      }
      client.send(JSON.stringify({ success: true, ret_msg: "", conn_id: "mock", op: "subscribe" }));
      client.send(this.snapshotText(topic));
      return;
    }
    if (message.op === "unsubscribe") client.send(JSON.stringify({ success: true, ret_msg: "", op: "unsubscribe" }));
  }

  private snapshotText(topic: string, u = ++this.u): string {
    return JSON.stringify({
      topic,
      type: "snapshot",
      ts: Date.now(),
      data: {
        s: topic.split(".")[2],
        b: this.bookOf(topic).levels("bid", 50),
        a: this.bookOf(topic).levels("ask", 50),
        u,
        seq: ++this.seq,
      },
      cts: Date.now(),
    });
  }

  private bookOf(topic: string): TruthBook {
    return this.books.get(topic) ?? this.truth;
  }

  /** Changes the true book and pushes the delta; `send: false` loses it on the way (a gap). */
  delta(topic: string, bids: BookLevel[], asks: BookLevel[], options: { send?: boolean } = {}): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    this.u++;
    if (options.send === false) return;
    this.server.broadcast(
      JSON.stringify({
        topic,
        type: "delta",
        ts: Date.now(),
        data: { s: topic.split(".")[2], b: bids, a: asks, u: this.u, seq: ++this.seq },
        cts: Date.now(),
      }),
    );
  }

  /** A service restart: bybit sends the whole book again with u = 1. */
  restart(topic: string): void {
    this.u = 1;
    this.server.broadcast(this.snapshotText(topic, 1));
  }

  garbage(text = "{not json"): void {
    this.server.broadcast(text);
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
