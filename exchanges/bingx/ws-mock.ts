import { gzipSync } from "node:zlib";
import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * BingX spot market socket as documented: every server frame is gzip; {"reqType":"sub","dataType":
 * "BTC-USDT@depth20"} is acknowledged and followed by full top-N books; the server sends "Ping"
 * and expects "Pong".
 */
export class BingxMock {
  readonly server: MockWsServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  pongs = 0;
  readonly jsonPongs: { pong: string; time?: string }[] = [];

  private constructor(server: MockWsServer) {
    this.server = server;
    server.onMessage((client, text) => this.answer(client, text));
  }

  static async start(): Promise<BingxMock> {
    return new BingxMock(await MockWsServer.start());
  }

  get url(): string {
    return this.server.url;
  }

  private zipped(text: string): Buffer {
    return gzipSync(Buffer.from(text));
  }

  private answer(client: WebSocket, text: string): void {
    if (text === "Pong") {
      this.pongs++;
      return;
    }
    const message = JSON.parse(text) as { id: string; reqType: string; dataType: string; pong?: string; time?: string };
    if (message.pong !== undefined) {
      this.jsonPongs.push({ pong: message.pong, time: message.time });
      return;
    }
    if (message.reqType !== "sub") return;
    this.subscriptions.push(message.dataType);
    client.send(this.zipped(JSON.stringify({ id: message.id, code: 0, msg: "", dataType: "", data: null })));
    client.send(this.zipped(this.book(message.dataType)));
  }

  private book(dataType: string): string {
    const n = Number(dataType.split("@depth")[1]);
    // bingx lists asks from the highest down; the order must not matter to the feed
    return JSON.stringify({
      code: 0,
      dataType,
      ts: Date.now(),
      data: { bids: this.truth.levels("bid", n), asks: this.truth.levels("ask", n).reverse() },
    });
  }

  push(dataType: string, bids: BookLevel[] = [], asks: BookLevel[] = []): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    this.server.broadcast(this.zipped(this.book(dataType)));
  }

  /** BingX's other documented ping form: {"ping":"<id>","time":"<iso time>"}, answered {"pong","time"}. */
  pingJson(id: string, time: string): void {
    this.server.broadcast(this.zipped(JSON.stringify({ ping: id, time })));
  }

  ping(): void {
    this.server.broadcast(this.zipped("Ping"));
  }

  garbage(): void {
    this.server.broadcast(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x01]));
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
