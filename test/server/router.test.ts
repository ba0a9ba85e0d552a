/**
 * The router on Hono (issue 14, server/README.md "Router"): the path it routes on is the request
 * target's own, as `new URL` reads it (not decoded, dot segments resolved, query and fragment
 * cut), for targets no HTTP client would send; the query of /book and /candles too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTarget } from "../../server/http.js";
import { startTestServer, type TestServer } from "./helpers.js";
import { plainRequest, rawRequest } from "./raw.js";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

const TARGETS = [
  "/nothing",
  "/nothing/",
  "//nothing//here/",
  "/a/./b/../c",
  "/a/%2e%2e/b",
  "/%zz/x",
  "/caf%C3%A9",
  "/a?b=c/d",
  "/a#frag?x",
  "/a?x#y",
  "/a;b,c=d",
  "/~user/'quote'",
  "/%2F%2f",
  "//@evil.example/x",
  "/..",
];

describe("the router's path (issue 14)", () => {
  it("names the path as new URL reads the target in its 404", async () => {
    for (const target of TARGETS) {
      const answer = await rawRequest(plainRequest("GET", target), { port: server.port });
      expect(answer.status, `${target}: ${answer.text}`).toBe(404);
      const body = JSON.parse(answer.text.slice(answer.text.indexOf("\r\n\r\n") + 4)) as { code: number; msg: string };
      const expected = parseTarget(target)!.pathname;
      expect(body, target).toEqual({ code: 600, msg: `Not found: GET ${expected}` });
    }
  });

  it("routes the resolved path and reads the query without the fragment", async () => {
    const health = await rawRequest(plainRequest("GET", "/x/../health#top"), { port: server.port });
    expect(health.status).toBe(200);
    // %2e is a dot to URL: ".%2e" is "..", as before Hono
    expect((await rawRequest(plainRequest("GET", "/.%2e/health"), { port: server.port })).status).toBe(200);
    const depth = await rawRequest(plainRequest("GET", "/book/paper/BTC-USDT?depth=2#x"), { port: server.port });
    expect(depth.status).toBe(200);
    const book = JSON.parse(depth.text.slice(depth.text.indexOf("\r\n\r\n") + 4)) as { bids: unknown[] };
    expect(book.bids.length).toBeLessThanOrEqual(2);
    const candles = await rawRequest(plainRequest("GET", "/candles/paper/BTC-USDT?interval=0#frag"), {
      port: server.port,
    });
    expect(candles.status).toBe(400);
    expect(candles.text).toContain("Invalid interval '0'");
  });

  it("answers what Hono's adapter cannot read as a request with 400 and the JSON failure, and goes on", async () => {
    const cases: [string, string][] = [
      [
        "GET * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        "Invalid request target: expected a path such as /health",
      ],
      // server/README.md "Router": the old router read a backslash as "/"; the adapter refuses it
      [
        "GET /token\\me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n",
        "Invalid request: Backslash in request path",
      ],
      ["GET /health HTTP/1.1\r\nHost: a/b\r\nConnection: close\r\n\r\n", "Invalid request: Invalid host header"],
    ];
    for (const [request, msg] of cases) {
      const answer = await rawRequest(request, { port: server.port });
      expect(answer.status, request).toBe(400);
      expect(answer.text, request).toContain("content-type: application/json; charset=utf-8");
      expect(answer.text, request).toContain("x-frame-options: DENY");
      expect(JSON.parse(answer.text.slice(answer.text.indexOf("\r\n\r\n") + 4))).toEqual({ code: 600, msg });
    }
    expect((await rawRequest(plainRequest("GET", "/health"), { port: server.port })).status).toBe(200);
  });
});
