import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { MockWsServer, TruthBook } from "./ws-base.js";

/**
 * BitMart spot socket as documented: the text "ping" gets "pong"; {"op":"subscribe","args":[topic]}
 * is acknowledged {"event":"subscribe","topic"} and followed by a `snapshot`; {"op":"request"}
 * answers a snapshot; `update` messages carry version + 1 each.
 */
export class BitmartMock {
  readonly server: MockWsServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  readonly requests: string[] = [];
  pings = 0;
  version = 27_000;

  private constructor(server: MockWsServer) {
    this.server = server;
    server.onMessage((client, text) => this.answer(client, text));
  }

  static async start(): Promise<BitmartMock> {
    return new BitmartMock(await MockWsServer.start());
  }

  private answer(client: WebSocket, text: string): void {
    if (text === "ping") {
      this.pings++;
      client.send("pong");
      return;
    }
    const message = JSON.parse(text) as { op?: string; args?: string[] };
    const topic = message.args?.[0] ?? "";
    if (message.op === "subscribe") {
      this.subscriptions.push(topic);
      client.send(JSON.stringify({ event: "subscribe", topic }));
      this.sendSnapshot(client, topic);
    } else if (message.op === "request") {
      this.requests.push(topic);
      this.sendSnapshot(client, topic);
    }
  }

  private push(client: WebSocket, symbol: string, type: string, bids: BookLevel[], asks: BookLevel[]): void {
    const entry = { asks, bids, ms_t: Date.now(), symbol, type, version: this.version };
    client.send(JSON.stringify({ data: [entry], table: "spot/depth/increase100" }));
  }

  private sendSnapshot(client: WebSocket, topic: string): void {
    this.push(client, topic.split(":")[1] ?? "", "snapshot", this.truth.levels("bid", 100), this.truth.levels("ask", 100));
  }

  /** Changes the truth and pushes one update with the next version; `send: false` loses it. */
  update(symbol: string, bids: BookLevel[], asks: BookLevel[], options: { send?: boolean } = {}): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    this.version++;
    if (options.send === false) return;
    for (const client of this.server.clients) this.push(client, symbol, "update", bids, asks);
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
