/**
 * Raw HTTP over node:net for the robustness and limit suites: request targets no HTTP client
 * would send, upgrades, connections reset mid-request, and a chosen local address (127.0.0.2 vs
 * 127.0.0.1) so the per-address limits see two callers (docs/server-limits.md).
 */
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import type { CallResult } from "./helpers.js";

export interface RawOptions {
  port: number;
  /** bind the client side to this address (any 127.x.y.z works on Linux loopback) */
  localAddress?: string;
  /** reset (RST) the connection this many ms after writing, instead of reading an answer */
  resetAfterMs?: number;
  /** give up reading after this many ms (default 3000) */
  timeoutMs?: number;
}

export interface RawAnswer {
  /** the status of the first line, or 0 when none came */
  status: number;
  text: string;
}

/** Sends `request` as is and returns the answer's status line and text (or 0 after a reset). */
export function rawRequest(request: string | Buffer, options: RawOptions): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket: Socket = connect({
      host: "127.0.0.1",
      port: options.port,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    let text = "";
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: m ? Number(m[1]) : 0, text });
    };
    const timer = setTimeout(() => {
      socket.destroy();
      finish();
    }, options.timeoutMs ?? 3000);
    socket.on("error", finish);
    socket.on("data", (chunk) => {
      text += chunk.toString("latin1");
      // an upgrade answer (101) keeps the socket open: its head is enough
      if (/^HTTP\/1\.1 101 /.test(text) && text.includes("\r\n\r\n")) {
        socket.destroy();
        finish();
      }
    });
    socket.on("close", finish);
    socket.on("connect", () => {
      socket.write(request);
      if (options.resetAfterMs !== undefined) {
        setTimeout(() => {
          socket.resetAndDestroy();
          finish();
        }, options.resetAfterMs);
      }
    });
  });
}

/** The head of a websocket upgrade to `target`. */
export function upgradeRequest(target: string, extra = ""): string {
  return (
    `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
    `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n${extra}\r\n`
  );
}

/** A plain request with Connection: close. */
export function plainRequest(
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): string {
  const lines = [`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"];
  for (const [k, v] of Object.entries(headers)) lines.push(`${k}: ${v}`);
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body)}`);
  return `${lines.join("\r\n")}\r\n\r\n${body ?? ""}`;
}

/**
 * `call` of helpers.ts from a chosen local address (127.0.0.1 vs 127.0.0.2), over node:http: the
 * server sees two callers, as it would two machines.
 */
export function callFrom(
  server: { url: string },
  localAddress: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: unknown; token?: string; cookie?: string } = {},
): Promise<CallResult> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] = "application/json";
  return new Promise((resolve, reject) => {
    const req = httpRequest(server.url + path, { method, headers, localAddress, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => {
        const cookie = res.headers["set-cookie"];
        resolve({
          status: res.statusCode ?? 0,
          body: text ? JSON.parse(text) : undefined,
          setCookie: cookie ? cookie.join(", ") : null,
        });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}
