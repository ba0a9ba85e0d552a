import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * OKX v5 public socket as documented: {"op":"subscribe","args":[{channel:"books",instId}]} is
 * answered by an event and a snapshot; "ping" gets "pong"; updates link prevSeqId to the last
 * seqId with jumps of more than one; heartbeats repeat the seqId with empty sides.
 */
export class OkxMock {
  readonly server: MockWsServer;
  readonly truth = new TruthBook();
  /**
   * A book per instId ("ETH-BTC"). Once any is set, an instId without one is refused the way OKX
   * refuses an unknown instrument (event error 60018, no snapshot).
   */
  readonly books = new Map<string, TruthBook>();
  readonly subscriptions: string[] = [];
  pings = 0;
  private seqId = 1_000;

  private constructor(server: MockWsServer) {
    this.server = server;
    server.onMessage((client, text) => this.answer(client, text));
  }

  static async start(): Promise<OkxMock> {
    return new OkxMock(await MockWsServer.start());
  }

  get url(): string {
    return this.server.url;
  }

  private answer(client: WebSocket, text: string): void {
    if (text === "ping") {
      this.pings++;
      client.send("pong");
      return;
    }
    const message = JSON.parse(text) as { op: string; args: { channel: string; instId: string }[] };
    const arg = message.args[0]!;
    if (message.op === "subscribe") {
      this.subscriptions.push(`${arg.channel}:${arg.instId}`);
      const book = this.books.size > 0 ? this.books.get(arg.instId) : this.truth;
      if (!book) {
        client.send(
          JSON.stringify({
            event: "error",
            code: "60018",
            msg: `Wrong URL or channel:${arg.channel},instId:${arg.instId} doesn't exist`,
            connId: "mock",
          }),
        );
        return;
      }
      client.send(JSON.stringify({ event: "subscribe", arg, connId: "mock" }));
      this.seqId += 7;
      client.send(
        JSON.stringify({
          arg,
          action: "snapshot",
          data: [
            {
              asks: this.rows("ask", book.levels("ask", 400)),
              bids: this.rows("bid", book.levels("bid", 400)),
              ts: String(Date.now()),
              checksum: 0,
              prevSeqId: -1,
              seqId: this.seqId,
            },
          ],
        }),
      );
    } else if (message.op === "unsubscribe") client.send(JSON.stringify({ event: "unsubscribe", arg, connId: "mock" }));
  }

  /** OKX rows are [price, size, "0" (deprecated), order count]. */
  private rows(side: "bid" | "ask", levels: BookLevel[] = this.truth.levels(side, 400)): string[][] {
    return levels.map(([p, a]) => [p, a, "0", "3"]);
  }

  /** Changes the true book and pushes the update; `send: false` loses it; `brokenLink` lies about prevSeqId. */
  update(instId: string, bids: BookLevel[], asks: BookLevel[], options: { send?: boolean } = {}): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    const prevSeqId = this.seqId;
    this.seqId += 3 + Math.floor(Math.random() * 40); // not consecutive, as on OKX
    if (options.send === false) return;
    this.push(instId, { asks: this.rows("ask", asks), bids: this.rows("bid", bids), prevSeqId, seqId: this.seqId });
  }

  /** No change for a while: OKX repeats the seqId with empty sides. */
  heartbeat(instId: string): void {
    this.push(instId, { asks: [], bids: [], prevSeqId: this.seqId, seqId: this.seqId });
  }

  /** A maintenance reset: the new seqId is smaller than prevSeqId, the link still holds. */
  resetSequence(instId: string, bids: BookLevel[]): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    const prevSeqId = this.seqId;
    this.seqId = 5;
    this.push(instId, { asks: [], bids: this.rows("bid", bids), prevSeqId, seqId: this.seqId });
  }

  private push(instId: string, data: Record<string, unknown>): void {
    this.server.broadcast(
      JSON.stringify({
        arg: { channel: "books", instId },
        action: "update",
        data: [{ ...data, ts: String(Date.now()), checksum: 0 }],
      }),
    );
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
