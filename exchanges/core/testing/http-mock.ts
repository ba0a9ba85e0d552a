import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as the mock received it: the raw query and body, exactly the bytes on the wire. */
export interface ReceivedRequest {
  method: string;
  path: string;
  /** raw query string without '?' ('' when none) */
  query: string;
  /** raw body text ('' when none) */
  body: string;
  headers: IncomingMessage["headers"];
}

export interface MockReply {
  status?: number;
  headers?: Record<string, string>;
  /** serialized with JSON.stringify unless it is already a string */
  body?: unknown;
  /** wait this long before answering (to provoke client time-outs) */
  delayMs?: number;
}

export type MockHandler = (request: ReceivedRequest) => MockReply | Promise<MockReply>;

export interface MockServer {
  url: string;
  port: number;
  /** every request received, in order */
  requests: ReceivedRequest[];
  /** route by "METHOD /path" (exact) */
  on(route: string, handler: MockHandler): void;
  /** answers every request before routing; return undefined to fall through */
  intercept(
    handler: ((request: ReceivedRequest) => MockReply | undefined | Promise<MockReply | undefined>) | undefined,
  ): void;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 for exchange mocks. Routes are "METHOD /path"; unknown routes
 * answer 404 with a JSON body so a wrong path shows up in the test's failure.
 */
export async function startMockServer(): Promise<MockServer> {
  const routes = new Map<string, MockHandler>();
  const requests: ReceivedRequest[] = [];
  let interceptor: ((request: ReceivedRequest) => MockReply | undefined | Promise<MockReply | undefined>) | undefined;
  const sockets = new Set<import("node:net").Socket>();

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const raw = req.url ?? "/";
      const q = raw.indexOf("?");
      const received: ReceivedRequest = {
        method: req.method ?? "GET",
        path: q === -1 ? raw : raw.slice(0, q),
        query: q === -1 ? "" : raw.slice(q + 1),
        body: Buffer.concat(chunks).toString("utf8"),
        headers: req.headers,
      };
      requests.push(received);
      try {
        let reply = interceptor ? await interceptor(received) : undefined;
        if (!reply) {
          const handler = routes.get(`${received.method} ${received.path}`);
          reply = handler
            ? await handler(received)
            : { status: 404, body: { mock: "no route", route: `${received.method} ${received.path}` } };
        }
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (res.destroyed) return;
        const body = typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {});
        res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
        res.end(body);
      } catch (error) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ mock: "handler threw", message: (error as Error).message }));
      }
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    on(route, handler) {
      routes.set(route, handler);
    },
    intercept(handler) {
      interceptor = handler;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Parses a raw query string into a plain object (last value wins). */
export function parseQuery(query: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(query));
}
