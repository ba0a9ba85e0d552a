import { gzipSync } from "node:zlib";
import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { bareLevelNumbers, MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * HTX market socket as documented: gzip frames; {"sub":"market.btcusdt.mbp.20"} acknowledged,
 * then updates with seqNum/prevSeqNum (gaps larger than one, as on HTX); {"req":...} answered
 * with the snapshot on the same connection; the server's {"ping":n} must get {"pong":n} —
 * `strictPing` closes connections that leave a ping unanswered.
 */
export class HtxMock {
  readonly server: MockWsServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  readonly requests: string[] = [];
  pongs = 0;
  seqNum = 9_000;

  private constructor(server: MockWsServer) {
    this.server = server;
    server.onMessage((client, text) => this.answer(client, text));
  }

  static async start(): Promise<HtxMock> {
    return new HtxMock(await MockWsServer.start());
  }

  get url(): string {
    return this.server.url;
  }

  /** gzip, levels as bare JSON numbers written digit for digit (docs/feeds.md "htx") */
  private send(client: WebSocket, value: unknown): void {
    client.send(gzipSync(Buffer.from(typeof value === "string" ? value : bareLevelNumbers(JSON.stringify(value)))));
  }

  private answer(client: WebSocket, text: string): void {
    const message = JSON.parse(text) as { sub?: string; req?: string; id?: string; pong?: number };
    if (message.pong !== undefined) this.pongs++;
    else if (message.sub) {
      this.subscriptions.push(message.sub);
      this.send(client, { id: message.id, status: "ok", subbed: message.sub, ts: Date.now() });
    } else if (message.req) {
      this.requests.push(message.req);
      this.send(client, {
        id: message.id,
        rep: message.req,
        status: "ok",
        data: { seqNum: this.seqNum, bids: this.truth.levels("bid", 150), asks: this.truth.levels("ask", 150) },
      });
    }
  }

  update(channel: string, bids: BookLevel[], asks: BookLevel[], options: { send?: boolean } = {}): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    const prevSeqNum = this.seqNum;
    this.seqNum += 2 + (prevSeqNum % 5);
    if (options.send === false) return;
    const tick = { seqNum: this.seqNum, prevSeqNum, bids, asks };
    for (const client of this.server.clients) this.send(client, { ch: channel, ts: Date.now(), tick });
  }

  ping(): void {
    for (const client of this.server.clients) this.send(client, { ping: Date.now() });
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
