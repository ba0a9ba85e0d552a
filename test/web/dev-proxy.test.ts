/**
 * `npm run web`: Vite's dev server proxies every API route to a running `spotdesk serve`, from the
 * one route table (lib/api.ts ROUTES, issue 14): each call of the table sent to Vite is answered
 * by the server (its JSON: an answer or a `{code, msg}` failure), never by Vite's page fallback
 * or its 404. Page navigations stay Vite's.
 */
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createServer, type ViteDevServer } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isApiErrorBody, ROUTES } from "../../lib/api.js";
import { ROOT, type Served, startServe } from "./harness.js";

/** A request path for a route: its params filled with plausible values. */
const concrete = (path: string): string =>
  path
    .replace(":exchange", "paper")
    .replace(":pair", path.includes("bitteam") ? "BTC_USDT" : "BTC-USDT")
    .replace(":id", "someone");

describe("the dev server's API proxy (issue 14: one route table)", () => {
  let served: Served;
  let vite: ViteDevServer;
  let url: string;
  const saved = {
    api: process.env.SPOTDESK_API,
    relay: process.env.SPOTDESK_RELAY_BITTEAM,
    kucoin: process.env.SPOTDESK_RELAY_KUCOIN,
  };

  beforeAll(async () => {
    // the gateway relays answer at once (nothing listens there) instead of waiting on the internet
    process.env.SPOTDESK_RELAY_BITTEAM = "http://127.0.0.1:9";
    process.env.SPOTDESK_RELAY_KUCOIN = "http://127.0.0.1:9";
    served = await startServe();
    process.env.SPOTDESK_API = served.url;
    vite = await createServer({
      configFile: join(ROOT, "web/vite.config.ts"),
      logLevel: "warn",
      server: { port: 0, host: "localhost", strictPort: false },
    });
    await vite.listen();
    url = `http://localhost:${(vite.httpServer!.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await vite?.close();
    await served?.stop();
    for (const [name, value] of [
      ["SPOTDESK_API", saved.api],
      ["SPOTDESK_RELAY_BITTEAM", saved.relay],
      ["SPOTDESK_RELAY_KUCOIN", saved.kucoin],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("sends every route of lib/api.ts to the server", async () => {
    for (const [name, route] of Object.entries(ROUTES)) {
      const res = await fetch(url + concrete(route.path), {
        method: route.method,
        headers: { accept: "application/json" },
      });
      const type = res.headers.get("content-type") ?? "";
      const text = await res.text();
      // GET /metrics is Prometheus' text format (docs/operations.md#metrics); every other answer is JSON
      if (name === "metrics" && res.status === 200) {
        expect(type).toContain("text/plain");
        continue;
      }
      expect(type, `${name}: ${route.method} ${route.path} answered ${res.status} ${text.slice(0, 120)}`).toContain(
        "application/json",
      );
      const body = JSON.parse(text) as unknown;
      if (res.status !== 200) expect(isApiErrorBody(body), `${name}: ${text.slice(0, 120)}`).toBe(true);
    }
  });

  it("keeps page navigations on Vite, also where a page and a call share a path", async () => {
    const page = await fetch(`${url}/login/password`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const call = await fetch(`${url}/login/password`, { method: "POST", headers: { accept: "application/json" } });
    expect(isApiErrorBody(await call.json())).toBe(true);
  });
});
