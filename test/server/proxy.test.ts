/**
 * docs/decisions.md#d12 on the server: with a proxy configured (SPOTDESK_PROXY, else HTTPS_PROXY, or the
 * `proxy` config key), a trade call's exchange requests go through it (issue 13 "Server-side
 * exchange calls honour docs/decisions.md#d12's proxy"). The proxy here is a loopback recorder that refuses every
 * CONNECT, so nothing leaves the machine and the call fails as a network error.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { sealCredentials } from "../../lib/envelope.js";
import { resolveConfig } from "../../server/config.js";
import { call, registerFirstAdmin, startTestServer, type TestServer } from "./helpers.js";

const ACCOUNT: AccountPath = ["Acme", "bybit", "main"];
const KEY = "0123456789abcdef0123456789abcdef";

describe("the server's exchange calls go through the configured proxy (docs/decisions.md#d12)", () => {
  let proxy: Server;
  let proxyUrl: string;
  const seen: string[] = [];
  let server: TestServer;

  beforeAll(async () => {
    proxy = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(502).end();
    });
    proxy.on("connect", (req, socket) => {
      seen.push(`CONNECT ${req.url}`);
      socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    server = await startTestServer({ proxy: proxyUrl });
  });
  afterAll(async () => {
    await server?.cleanup();
    await new Promise((r) => proxy.close(r));
  });

  it("reads the proxy from SPOTDESK_PROXY, else HTTPS_PROXY; a flag or config key wins", () => {
    const base = { dataDir: server.dataDir, configFile: "/nonexistent/config.json" };
    expect(resolveConfig(base, { SPOTDESK_PROXY: "http://a:1", HTTPS_PROXY: "http://b:2" }).proxy).toBe("http://a:1");
    expect(resolveConfig(base, { HTTPS_PROXY: "http://b:2" }).proxy).toBe("http://b:2");
    expect(resolveConfig({ ...base, proxy: "http://c:3" }, { SPOTDESK_PROXY: "http://a:1" }).proxy).toBe("http://c:3");
    expect(resolveConfig(base, {}).proxy).toBeUndefined();
  });

  it("sends a bybit balances call through the proxy: CONNECT api.bybit.com:443, answered 608 network", async () => {
    const admin = await registerFirstAdmin(server);
    const envelope = await sealCredentials({ api: "proxy-test-key", secret: "proxy-test-secret" }, "BTC/USDT", KEY);
    const stored = await call(server, "POST", "/token/admin/apikeys", {
      token: admin.session.accessToken,
      body: { path: ACCOUNT, apis: envelope },
    });
    expect(stored.status).toBe(200);
    const r = await call(server, "GET", "/token/trade/balances", {
      token: admin.session.accessToken,
      headers: { path: pathHeader(ACCOUNT), key: KEY },
    });
    expect(seen).toContain("CONNECT api.bybit.com:443");
    expect(r.status).toBe(502);
    expect(r.body).toMatchObject({ code: 608, kind: "network" });
    // the proxy saw the host only: the key and the secret travel inside the (refused) tunnel
    expect(seen.join("\n")).not.toContain("proxy-test");
  });
});
