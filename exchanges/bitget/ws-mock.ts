import { crc32 } from "node:zlib";
import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

type Arg = { instType: string; channel: string; instId: string };

/**
 * Bitget v2 public socket as documented: subscribe with {instType, channel, instId}; "ping" gets
 * "pong"; books15 pushes a 15-level snapshot each time; books pushes a snapshot, then updates, each
 * with a CRC32 of the top 25 levels interleaved bid:ask (computed here with Node's own zlib.crc32).
 */
export class BitgetMock {
  readonly server: MockWsServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  pings = 0;
  private seq = 100;

  private constructor(server: MockWsServer) {
    this.server = server;
    server.onMessage((client, text) => this.answer(client, text));
  }

  static async start(): Promise<BitgetMock> {
    return new BitgetMock(await MockWsServer.start());
  }

  get url(): string {
    return this.server.url;
  }

  checksum(): number {
    const bids = this.truth.levels("bid", 25);
    const asks = this.truth.levels("ask", 25);
    const parts: string[] = [];
    for (let i = 0; i < 25; i++) {
      if (bids[i]) parts.push(`${bids[i]![0]}:${bids[i]![1]}`);
      if (asks[i]) parts.push(`${asks[i]![0]}:${asks[i]![1]}`);
    }
    return crc32(parts.join(":")) | 0;
  }

  private answer(client: WebSocket, text: string): void {
    if (text === "ping") {
      this.pings++;
      client.send("pong");
      return;
    }
    const message = JSON.parse(text) as { op: string; args: Arg[] };
    const arg = message.args[0]!;
    client.send(JSON.stringify({ event: message.op, arg }));
    if (message.op !== "subscribe") return;
    this.subscriptions.push(`${arg.channel}:${arg.instId}`);
    const n = arg.channel === "books15" ? 15 : 400;
    client.send(
      this.message(arg, "snapshot", this.truth.levels("bid", n), this.truth.levels("ask", n), this.checksum()),
    );
  }

  private message(arg: Arg, action: string, bids: BookLevel[], asks: BookLevel[], checksum: number): string {
    return JSON.stringify({
      action,
      arg,
      data: [{ asks, bids, checksum, seq: ++this.seq, ts: String(Date.now()) }],
      ts: Date.now(),
    });
  }

  /** books: change the truth and push an update; `badChecksum` sends a wrong one, `send: false` loses it. */
  update(
    instId: string,
    bids: BookLevel[],
    asks: BookLevel[],
    options: { send?: boolean; badChecksum?: boolean } = {},
  ): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    if (options.send === false) return;
    const checksum = options.badChecksum ? this.checksum() ^ 0x5a5a : this.checksum();
    this.server.broadcast(this.message({ instType: "SPOT", channel: "books", instId }, "update", bids, asks, checksum));
  }

  /** books15: change the truth and push the 15-level snapshot. */
  snapshot15(instId: string, bids: BookLevel[] = [], asks: BookLevel[] = []): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    this.server.broadcast(
      this.message(
        { instType: "SPOT", channel: "books15", instId },
        "snapshot",
        this.truth.levels("bid", 15),
        this.truth.levels("ask", 15),
        0,
      ),
    );
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
