import type { WebSocket } from "ws";
import type { BookLevel } from "../../lib/types.js";
import { type MockServer, startMockServer } from "../core/testing/http-mock.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * XT v4 spot as documented: the text "ping" gets "pong"; {"method":"subscribe","params":[...],"id"}
 * is answered {"id","code":0,"msg":""}; depth_update@{symbol} pushes {s, fi, i, a, b};
 * GET /v4/public/depth answers {rc:0, result:{lastUpdateId, bids, asks}}. Ids start beyond 2^53,
 * as XT's do, and are written as raw JSON numbers.
 */
export class XtMock {
  readonly ws: MockWsServer;
  readonly http: MockServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  pings = 0;
  /** the last update id; far beyond Number.MAX_SAFE_INTEGER */
  id = 137_333_589_606_963_580n;
  snapshotDelayMs = 0;
  /** runs after a snapshot was taken, before it is answered (to push updates it misses) */
  afterSnapshotTaken: (() => void) | undefined;

  private constructor(ws: MockWsServer, http: MockServer) {
    this.ws = ws;
    this.http = http;
    ws.onMessage((client, text) => this.answer(client, text));
    http.on("GET /v4/public/depth", () => {
      const result = `{"timestamp":${Date.now()},"lastUpdateId":${this.id},"bids":${JSON.stringify(this.truth.levels("bid", 500))},"asks":${JSON.stringify(this.truth.levels("ask", 500))}}`;
      this.afterSnapshotTaken?.();
      return { body: `{"rc":0,"mc":"SUCCESS","ma":[],"result":${result}}`, delayMs: this.snapshotDelayMs };
    });
  }

  static async start(): Promise<XtMock> {
    return new XtMock(await MockWsServer.start(), await startMockServer());
  }

  private answer(client: WebSocket, text: string): void {
    if (text === "ping") {
      this.pings++;
      client.send("pong");
      return;
    }
    const message = JSON.parse(text) as { method?: string; params?: string[]; id?: string };
    if (message.method === "subscribe") {
      this.subscriptions.push(...(message.params ?? []));
      client.send(JSON.stringify({ id: message.id, code: 0, msg: "" }));
    }
  }

  /** Changes the truth and pushes one update covering `ids` update ids; `send: false` loses it. */
  update(symbol: string, bids: BookLevel[], asks: BookLevel[], options: { send?: boolean; ids?: number } = {}): void {
    for (const [p, a] of bids) this.truth.set("bid", p, a);
    for (const [p, a] of asks) this.truth.set("ask", p, a);
    const fi = this.id + 1n;
    this.id += BigInt(options.ids ?? 2);
    if (options.send === false) return;
    this.ws.broadcast(
      `{"topic":"depth_update","event":"depth_update@${symbol}","data":{"s":"${symbol}","fi":${fi},"i":${this.id},"a":${JSON.stringify(asks)},"b":${JSON.stringify(bids)}}}`,
    );
  }

  async close(): Promise<void> {
    await this.ws.close();
    await this.http.close();
  }
}
