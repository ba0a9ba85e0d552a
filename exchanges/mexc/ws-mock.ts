import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { type MockServer, startMockServer } from "../core/testing/http-mock.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";
import { encodePush } from "./proto.js";

/**
 * MEXC spot v3 market socket as documented: {"method":"SUBSCRIPTION","params":[channel]} is
 * acknowledged with {"id":0,"code":0,"msg":channel} in JSON; {"method":"PING"} gets
 * {"id":0,"code":0,"msg":"PONG"}; depth pushes are binary protobuf PushDataV3ApiWrapper messages
 * (encoded with the same types the feed decodes) carrying fromVersion/toVersion; GET /api/v3/depth
 * answers {lastUpdateId, bids, asks}.
 */
export class MexcWsMock {
  readonly ws: MockWsServer;
  readonly http: MockServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  pings = 0;
  version = 10_589_632_359;

  private constructor(ws: MockWsServer, http: MockServer) {
    this.ws = ws;
    this.http = http;
    ws.onMessage((client, text) => this.answer(client, text));
    http.on("GET /api/v3/depth", () => ({
      body: { lastUpdateId: this.version, bids: this.truth.levels("bid", 5000), asks: this.truth.levels("ask", 5000) },
    }));
  }

  static async start(): Promise<MexcWsMock> {
    return new MexcWsMock(await MockWsServer.start(), await startMockServer());
  }

  private answer(client: WebSocket, text: string): void {
    const message = JSON.parse(text) as { method?: string; params?: string[] };
    if (message.method === "PING") {
      this.pings++;
      client.send(JSON.stringify({ id: 0, code: 0, msg: "PONG" }));
    } else if (message.method === "SUBSCRIPTION") {
      for (const channel of message.params ?? []) {
        this.subscriptions.push(channel);
        client.send(JSON.stringify({ id: 0, code: 0, msg: channel }));
      }
    }
  }

  /** Changes the truth and pushes one protobuf update covering `versions` versions. */
  update(
    symbol: string,
    bids: BookLevel[],
    asks: BookLevel[],
    options: { send?: boolean; versions?: number } = {},
  ): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    const fromVersion = this.version + 1;
    this.version += options.versions ?? 2;
    if (options.send === false) return;
    const level = ([price, quantity]: BookLevel) => ({ price, quantity });
    const bytes = encodePush({
      channel: `spot@public.aggre.depth.v3.api.pb@100ms@${symbol}`,
      symbol,
      sendTime: Date.now(),
      publicAggreDepths: {
        asks: asks.map(level),
        bids: bids.map(level),
        eventType: "spot@public.aggre.depth.v3.api.pb@100ms",
        fromVersion: String(fromVersion),
        toVersion: String(this.version),
      },
    });
    this.ws.broadcast(Buffer.from(bytes));
  }

  async close(): Promise<void> {
    await this.ws.close();
    await this.http.close();
  }
}
