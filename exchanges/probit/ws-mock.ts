import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * ProBit as documented: {"type":"subscribe","channel":"marketdata","market_id","interval","filter"}
 * starts pushes {"channel":"marketdata","market_id","status":"ok","lag":0,"order_books":[{side,
 * price, quantity}],"reset":true} with the whole book, then changed levels only (quantity 0
 * removes).
 */
export class ProbitMock {
  readonly server: MockWsServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];

  private constructor(server: MockWsServer) {
    this.server = server;
    server.onMessage((client, text) => this.answer(client, text));
  }

  static async start(): Promise<ProbitMock> {
    return new ProbitMock(await MockWsServer.start());
  }

  private answer(client: WebSocket, text: string): void {
    const message = JSON.parse(text) as { type?: string; channel?: string; market_id?: string; filter?: string[] };
    if (message.type === "subscribe" && message.channel === "marketdata") {
      this.subscriptions.push(`${message.market_id}:${(message.filter ?? []).join(",")}`);
      const rows = [...this.rows("buy", this.truth.levels("bid")), ...this.rows("sell", this.truth.levels("ask"))];
      client.send(
        JSON.stringify({
          channel: "marketdata",
          market_id: message.market_id,
          status: "ok",
          lag: 0,
          order_books: rows,
          reset: true,
        }),
      );
    }
  }

  private rows(side: "buy" | "sell", levels: BookLevel[]) {
    return levels.map(([price, quantity]) => ({ side, price, quantity }));
  }

  /** Changes the truth and pushes the changed levels; `send: false` loses them. */
  update(marketId: string, bids: BookLevel[], asks: BookLevel[], options: { send?: boolean } = {}): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    if (options.send === false) return;
    const rows = [...this.rows("buy", bids), ...this.rows("sell", asks)];
    this.server.broadcast(
      JSON.stringify({ channel: "marketdata", market_id: marketId, status: "ok", lag: 0, order_books: rows }),
    );
  }

  close(): Promise<void> {
    return this.server.close();
  }
}
