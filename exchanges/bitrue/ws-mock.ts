import { gzipSync } from "node:zlib";
import type { WebSocket } from "ws";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * Bitrue market socket as documented (docs/feeds.md "bitrue"): every frame gzip;
 * {"event":"sub","params":{cb_id, channel}} is acknowledged {"channel","cb_id","event_rep":"subed",
 * "status":"ok","ts"}; depth pushes {"ts","channel","tick":{"buys","asks"}} carry the whole top of
 * the book as decimal strings; the server's {"ping":"<ms>"} (a string) expects {"pong": same}.
 */
export class BitrueMock {
  readonly server: MockWsServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  pongs = 0;
  /** [ping sent, pong received] values, to check the pong echoes the ping */
  readonly pingPongs: { ping: unknown; pong?: unknown }[] = [];

  private constructor(server: MockWsServer) {
    this.server = server;
    server.onMessage((client, text) => this.answer(client, text));
  }

  static async start(): Promise<BitrueMock> {
    return new BitrueMock(await MockWsServer.start());
  }

  private send(client: WebSocket, value: unknown): void {
    client.send(gzipSync(Buffer.from(JSON.stringify(value))));
  }

  private answer(client: WebSocket, text: string): void {
    const message = JSON.parse(text) as { event?: string; params?: { cb_id: string; channel: string }; pong?: number };
    if (message.pong !== undefined) {
      this.pongs++;
      const open = this.pingPongs.find((p) => p.pong === undefined);
      if (open) open.pong = message.pong;
    } else if (message.event === "sub" && message.params) {
      this.subscriptions.push(message.params.channel);
      this.send(client, {
        channel: message.params.channel,
        cb_id: message.params.cb_id,
        event_rep: "subed",
        status: "ok",
        ts: Date.now(),
      });
      this.pushTo(client, message.params.channel);
    }
  }

  private pushTo(client: WebSocket, channel: string): void {
    this.send(client, {
      ts: Date.now(),
      channel,
      tick: { buys: this.truth.levels("bid", 50), asks: this.truth.levels("ask", 50) },
    });
  }

  /** Pushes the current top of the book to every client. */
  push(channel: string): void {
    for (const client of this.server.clients) this.pushTo(client, channel);
  }

  /** The documented ping: a timestamp written as a string; `value` plays another form. */
  ping(value: unknown = String(Date.now())): void {
    this.pingPongs.push({ ping: value });
    for (const client of this.server.clients) this.send(client, { ping: value });
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
