import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { type MockServer, startMockServer } from "../core/testing/http-mock.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * KuCoin as documented: POST /api/v1/bullet-public gives a token and the socket endpoint; the
 * socket says welcome, acknowledges {"type":"subscribe"}, answers {"type":"ping"} with pong, and
 * pushes trade.l2update deltas whose changes carry their own sequence; GET
 * /api/v1/market/orderbook/level2_100 gives the snapshot with its sequence.
 */
export class KucoinMock {
  readonly ws: MockWsServer;
  readonly http: MockServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  pings = 0;
  seq = 5_000;
  /** the token the next bullet call hands out; undefined makes the call fail */
  token: string | undefined = "tok-1";
  snapshotDelayMs = 0;
  /** runs when a snapshot request arrives, after the snapshot was taken (to push deltas it misses) */
  afterSnapshotTaken: (() => void) | undefined;

  private constructor(ws: MockWsServer, http: MockServer) {
    this.ws = ws;
    this.http = http;
    ws.onConnect((client) => client.send(JSON.stringify({ id: "welcome-1", type: "welcome" })));
    ws.onMessage((client, text) => this.answer(client, text));
    http.on("POST /api/v1/bullet-public", () =>
      this.token === undefined
        ? { status: 500, body: { code: "500000", msg: "down" } }
        : {
            body: {
              code: "200000",
              data: {
                token: this.token,
                instanceServers: [
                  {
                    endpoint: this.ws.url,
                    encrypt: false,
                    protocol: "websocket",
                    pingInterval: 18000,
                    pingTimeout: 10000,
                  },
                ],
              },
            },
          },
    );
    http.on("GET /api/v1/market/orderbook/level2_100", () => {
      const body = {
        code: "200000",
        data: {
          time: Date.now(),
          sequence: String(this.seq),
          bids: this.truth.levels("bid", 100),
          asks: this.truth.levels("ask", 100),
        },
      };
      this.afterSnapshotTaken?.();
      return { body, delayMs: this.snapshotDelayMs };
    });
  }

  static async start(): Promise<KucoinMock> {
    return new KucoinMock(await MockWsServer.start(), await startMockServer());
  }

  private answer(client: WebSocket, text: string): void {
    const message = JSON.parse(text) as { id: string; type: string; topic?: string };
    if (message.type === "ping") {
      this.pings++;
      client.send(JSON.stringify({ id: message.id, type: "pong" }));
    } else if (message.type === "subscribe") {
      this.subscriptions.push(message.topic ?? "");
      client.send(JSON.stringify({ id: message.id, type: "ack" }));
    }
  }

  /** Changes the truth and pushes one l2update; each change takes the next sequence. */
  delta(symbol: string, bids: BookLevel[], asks: BookLevel[], options: { send?: boolean } = {}): void {
    const start = this.seq + 1;
    const rows = (side: "bid" | "ask", levels: BookLevel[]) =>
      levels.map(([p, a]) => {
        this.truth.set(side, p, a);
        return [p, a, String(++this.seq)];
      });
    const changes = { bids: rows("bid", bids), asks: rows("ask", asks) };
    if (options.send === false) return;
    this.ws.broadcast(
      JSON.stringify({
        type: "message",
        topic: `/market/level2:${symbol}`,
        subject: "trade.l2update",
        data: { changes, sequenceEnd: this.seq, sequenceStart: start, symbol, time: Date.now() },
      }),
    );
  }

  async close(): Promise<void> {
    await this.ws.close();
    await this.http.close();
  }
}
