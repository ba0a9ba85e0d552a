import type { WebSocket } from "ws";
import { bareLevelNumbers, MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * LBank v2 socket as documented (docs/feeds.md "lbank"): {"action":"subscribe","subscribe":"depth",
 * "depth":"100","pair"} gets no acknowledgement, only depth pushes {"depth":{"asks","bids"},"count",
 * "type":"depth","pair","SERVER":"V2","TS"} carrying the whole top N with prices and amounts as
 * JSON numbers (`numbers = false` writes them as strings, the form of LBank's REST answers);
 * {"action":"ping","ping":id} is answered {"action":"pong","pong":id} both ways.
 */
export class LbankMock {
  readonly server: MockWsServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  pings = 0;
  pongs = 0;
  /** levels as JSON numbers, as the documented example shows */
  numbers = true;

  private constructor(server: MockWsServer) {
    this.server = server;
    server.onMessage((client, text) => this.answer(client, text));
  }

  static async start(): Promise<LbankMock> {
    return new LbankMock(await MockWsServer.start());
  }

  private answer(client: WebSocket, text: string): void {
    const message = JSON.parse(text) as {
      action?: string;
      subscribe?: string;
      depth?: string;
      pair?: string;
      ping?: string;
    };
    if (message.action === "ping") {
      this.pings++;
      client.send(JSON.stringify({ action: "pong", pong: message.ping }));
    } else if (message.action === "pong") {
      this.pongs++;
    } else if (message.action === "subscribe" && message.subscribe === "depth") {
      this.subscriptions.push(`${message.pair}@${message.depth}`);
      this.pushTo(client, message.pair ?? "", Number(message.depth));
    }
  }

  private pushTo(client: WebSocket, pair: string, count = 50): void {
    const depth = { asks: this.truth.levels("ask", count), bids: this.truth.levels("bid", count) };
    const text = JSON.stringify({
      depth,
      count,
      type: "depth",
      pair,
      SERVER: "V2",
      TS: new Date().toISOString().slice(0, 23),
    });
    client.send(this.numbers ? bareLevelNumbers(text) : text);
  }

  push(pair: string): void {
    for (const client of this.server.clients) this.pushTo(client, pair);
  }

  ping(): void {
    for (const client of this.server.clients)
      client.send(JSON.stringify({ action: "ping", ping: "0ca8f854-7ba7-4341-9d86-d3327e52804e" }));
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
