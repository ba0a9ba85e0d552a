import type { WebSocket } from "ws";
import { type MockServer, startMockServer } from "../core/testing/http-mock.js";
import { MockWsServer, TruthBook } from "../core/testing/ws-mock.js";

/**
 * Coinstore as documented (docs/feeds.md "coinstore"): POST /api/v2/public/config/spot/symbols
 * with {symbolCodes} answers {"code":"0", data:[{symbolId, symbolCode, ...}]} (`code` plays the
 * number 0 too); the socket greets with {"T":"resp","M":"established"},
 * echoes and acknowledges {"op":"SUB","channel":[...]}, then pushes {"T":"depth","channel":
 * "{id}@depth@{levels}","b","a",...} with the whole top of the book. Every server message carries
 * the session sequence S. {"op":"pong"} messages are counted.
 */
export class CoinstoreMock {
  readonly ws: MockWsServer;
  readonly http: MockServer;
  readonly truth = new TruthBook();
  readonly subscriptions: string[] = [];
  pongs = 0;
  symbolId: number | undefined = 4;
  /**
   * The depth push as the message schema shows it ({"S","T":"depth","channel",...}), or as the
   * depth example shows it: {"level","instrumentId","symbol","b","a"} and nothing else.
   */
  depthForm: "schema" | "example" = "schema";
  /** the success code of the symbols answer: the documented string "0", or the number 0 */
  successCode: number | string = "0";
  private seq = 0;

  private constructor(ws: MockWsServer, http: MockServer) {
    this.ws = ws;
    this.http = http;
    ws.onConnect((client) => this.send(client, { T: "resp", sid: "mock-session", C: 200, M: "established" }));
    ws.onMessage((client, text) => this.answer(client, text));
    http.on("POST /api/v2/public/config/spot/symbols", (request) => {
      const codes = (JSON.parse(request.body || "{}") as { symbolCodes?: string[] }).symbolCodes ?? [];
      if (this.symbolId === undefined) return { status: 500, body: { code: 500, message: "down" } };
      return {
        body: {
          code: this.successCode,
          message: "Success",
          data: codes.map((symbolCode) => ({
            symbolId: this.symbolId,
            symbolCode,
            tradeCurrencyCode: "btc",
            quoteCurrencyCode: "usdt",
          })),
        },
      };
    });
  }

  static async start(): Promise<CoinstoreMock> {
    return new CoinstoreMock(await MockWsServer.start(), await startMockServer());
  }

  private send(client: WebSocket, value: Record<string, unknown>): void {
    client.send(JSON.stringify({ S: ++this.seq, ...value }));
  }

  private answer(client: WebSocket, text: string): void {
    const message = JSON.parse(text) as { op?: string; channel?: string[]; id?: number };
    if (message.op === "pong") this.pongs++;
    else if (message.op === "SUB") {
      this.send(client, { T: "echo", C: 200, M: "command.received", echo: message });
      this.send(client, { T: "resp", C: 200, M: "sub.channel.success" });
      for (const channel of message.channel ?? []) {
        this.subscriptions.push(channel);
        this.pushTo(client, channel);
      }
    }
  }

  private pushTo(client: WebSocket, channel: string): void {
    const level = Number(channel.split("@")[2] ?? 20);
    const book = {
      level,
      instrumentId: this.symbolId,
      symbol: "BTCUSDT",
      b: this.truth.levels("bid", level),
      a: this.truth.levels("ask", level),
    };
    if (this.depthForm === "example") client.send(JSON.stringify(book));
    else this.send(client, { T: "depth", channel, ...book });
  }

  push(channel: string): void {
    for (const client of this.ws.clients) this.pushTo(client, channel);
  }

  async close(): Promise<void> {
    await this.ws.close();
    await this.http.close();
  }
}
