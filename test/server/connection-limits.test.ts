/**
 * Issue 31, docs/server-limits.md "Connections": the open TCP connections of one address are
 * capped (`http.connectionsPerAddress`), idle ones included; the extra ones are closed at once,
 * another address is still answered, and a closed connection frees its place.
 */
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestServer, type TestServer } from "./helpers.js";
import { callFrom, plainRequest, rawRequest } from "./raw.js";

let server: TestServer;
afterEach(async () => {
  await server?.cleanup();
});

interface Idle {
  socket: Socket;
  /** set when the server (or anyone) closed it */
  closed: boolean;
}

/** A connection from `localAddress` that sends nothing, once connected. */
function idleConnection(port: number, localAddress: string): Promise<Idle> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress });
    const idle: Idle = { socket, closed: false };
    socket.on("error", () => {}); // a refused one may be reset
    socket.on("close", () => {
      idle.closed = true;
    });
    socket.once("connect", () => resolve(idle));
    socket.once("error", reject);
  });
}

/** Polls `probe` every 50 ms for up to 5 s (a bounded wait, no timing asserted). */
async function until(probe: () => boolean | Promise<boolean>): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    if (await probe()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return probe();
}

const health = (localAddress: string) =>
  rawRequest(plainRequest("GET", "/health"), { port: server.port, localAddress }).then((a) => a.status);

describe("connections per address (issue 31, docs/server-limits.md)", () => {
  it("closes the connections of an address past its cap at once; another address is answered; a closed one frees a place", async () => {
    server = await startTestServer({ http: { connectionsPerAddress: 5 } });
    const idle: Idle[] = [];
    for (let i = 0; i < 8; i++) idle.push(await idleConnection(server.port, "127.0.0.3"));
    // the 3 over the cap are closed by the server; the 5 within it stay open and idle
    expect(await until(() => idle.filter((c) => c.closed).length >= 3)).toBe(true);
    expect(idle.filter((c) => c.closed)).toHaveLength(3);
    // one more from the same address is refused before its request is read
    expect(await health("127.0.0.3")).toBe(0);
    // other addresses are answered, over a fresh connection and over fetch's
    expect(await health("127.0.0.2")).toBe(200);
    expect((await callFrom(server, "127.0.0.1", "GET", "/health")).status).toBe(200);
    // a websocket counts against the same cap: the address has no place left for one
    const refused = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`${server.wsUrl}/`, { localAddress: "127.0.0.3" });
      ws.once("open", () => resolve("open"));
      ws.once("error", () => resolve("refused"));
    });
    expect(refused).toBe("refused");
    // closing two of the open ones gives the address its places back
    for (const c of idle.filter((c) => !c.closed).slice(0, 2)) c.socket.destroy();
    expect(await until(async () => (await health("127.0.0.3")) === 200)).toBe(true);
    for (const c of idle) c.socket.destroy();
  });

  it("does not cap by the TCP peer behind a TLS proxy, where every connection is the proxy's", async () => {
    server = await startTestServer({ behindTlsProxy: true, http: { connectionsPerAddress: 2 } });
    const idle: Idle[] = [];
    for (let i = 0; i < 4; i++) idle.push(await idleConnection(server.port, "127.0.0.3"));
    expect(await health("127.0.0.3")).toBe(200);
    expect(idle.filter((c) => c.closed)).toHaveLength(0);
    for (const c of idle) c.socket.destroy();
  });
});
