import { deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * BitMart spot socket as documented (docs/feeds.md "bitmart"): the text "ping" gets the text
 * "pong"; {"op":"subscribe","args":[topic]} is acknowledged {"event":"subscribe","topic"} and
 * followed by a `snapshot`; {"op":"request"} answers a snapshot; `update` messages carry version + 1
 * each. The default address (ws-manager-compress) sends every other server frame binary,
 * compressed with raw DEFLATE; `frames = "text"` plays the plain-text form.
 */
export class BitmartMock {
  readonly server: MockWsServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  readonly requests: string[] = [];
  pings = 0;
  version = 27_000;
  /**
   * How server frames travel: raw-DEFLATE binary as on the default address; plain text; or, to
   * show that a venue changing its compression needs no code, zlib, gzip or uncompressed binary.
   */
  frames: "deflate-raw" | "text" | "deflate" | "gzip" | "binary-text" = "deflate-raw";

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
      this.send(client, JSON.stringify({ event: "subscribe", topic }));
      this.sendSnapshot(client, topic);
    } else if (message.op === "request") {
      this.requests.push(topic);
      this.sendSnapshot(client, topic);
    }
  }

  private push(client: WebSocket, symbol: string, type: string, bids: BookLevel[], asks: BookLevel[]): void {
    const entry = { asks, bids, ms_t: Date.now(), symbol, type, version: this.version };
    this.send(client, JSON.stringify({ data: [entry], table: "spot/depth/increase100" }));
  }

  /** One server frame: raw DEFLATE (no zlib header, no gzip magic) on the compressed address. */
  send(client: WebSocket, text: string): void {
    const bytes = Buffer.from(text);
    if (this.frames === "text") client.send(text);
    else if (this.frames === "deflate-raw") client.send(deflateRawSync(bytes));
    else if (this.frames === "deflate") client.send(deflateSync(bytes));
    else if (this.frames === "gzip") client.send(gzipSync(bytes));
    else client.send(bytes, { binary: true });
  }

  private sendSnapshot(client: WebSocket, topic: string): void {
    this.push(
      client,
      topic.split(":")[1] ?? "",
      "snapshot",
      this.truth.levels("bid", 100),
      this.truth.levels("ask", 100),
    );
  }

  /**
   * Changes the truth and pushes one update with the next version; `send: false` loses it, `skip`
   * jumps the version by that much more (a gap without a lost change).
   */
  update(symbol: string, bids: BookLevel[], asks: BookLevel[], options: { send?: boolean; skip?: number } = {}): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    this.version += 1 + (options.skip ?? 0);
    if (options.send === false) return;
    for (const client of this.server.clients) this.push(client, symbol, "update", bids, asks);
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
