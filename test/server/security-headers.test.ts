/**
 * The security headers of every kind of answer `spotdesk serve` gives (issue 23 "Checks";
 * docs/security-headers.md), the page's policy lists, and the static handler's 503 while web/dist
 * is being rebuilt (issue 16: that navigation used to kill the server).
 */

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../exchanges/catalogue.js";
import { createFeed } from "../../exchanges/feeds.js";
import type { WebSocketLike } from "../../exchanges/types.js";
import {
  CHART_PROVIDER,
  feedOrigins,
  HSTS,
  NON_PAGE_POLICY,
  pagePolicy,
  STYLE_HASHES,
} from "../../server/security-headers.js";
import { NONCE_PLACEHOLDER } from "../../server/static.js";
import { startTestServer, type TestServer } from "./helpers.js";

const ROOT = new URL("../..", import.meta.url).pathname;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw request (node:http, so the target goes as written and self-signed TLS is accepted). */
function send(url: string, method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = url.startsWith("https:") ? httpsRequest : httpRequest;
    const req = request(`${url}${path}`, { method, headers, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const HTML = { accept: "text/html,application/xhtml+xml" };

/** A web/dist of real files: the page template as web/index.html has it, a script and a boot file. */
function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), "spotdesk-dist-"));
  mkdirSync(join(dir, "assets"));
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html><html><head><meta property="csp-nonce" nonce="${NONCE_PLACEHOLDER}" /><script src="/boot.js"></script></head><body><div id="root"></div></body></html>`,
  );
  writeFileSync(join(dir, "boot.js"), "window.booted = true;\n");
  writeFileSync(join(dir, "assets", "app-abc123.js"), "console.log('app');\n");
  return dir;
}

/** Every answer carries these (issue 23 "The other headers"). */
function expectCommon(a: Answer, what: string, hsts = false): void {
  expect(a.headers["x-frame-options"], what).toBe("DENY");
  expect(a.headers["referrer-policy"], what).toBe("no-referrer");
  expect(a.headers["permissions-policy"], what).toBe("camera=(), microphone=(), geolocation=(), payment=()");
  expect(a.headers["cross-origin-opener-policy"], what).toBe("same-origin");
  expect(a.headers["cross-origin-resource-policy"], what).toBe("same-origin");
  expect(a.headers["x-content-type-options"], what).toBe("nosniff");
  expect(a.headers["content-security-policy"], what).toBeDefined();
  if (hsts) expect(a.headers["strict-transport-security"], what).toBe(HSTS);
  else expect(a.headers["strict-transport-security"], what).toBeUndefined();
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name!, values];
    }),
  );
}

let server: TestServer | undefined;
let dist: string;
const savedDist = process.env.SPOTDESK_WEB_DIST;

beforeAll(() => {
  dist = fakeDist();
  process.env.SPOTDESK_WEB_DIST = dist;
});
afterEach(async () => {
  await server?.cleanup();
  server = undefined;
});
afterAll(() => {
  rmSync(dist, { recursive: true, force: true });
  if (savedDist === undefined) delete process.env.SPOTDESK_WEB_DIST;
  else process.env.SPOTDESK_WEB_DIST = savedDist;
});

describe("security headers on every kind of answer (issue 23)", () => {
  it("gives the app's page the strict policy with a fresh style nonce written into its meta", async () => {
    server = await startTestServer();
    const first = await send(server.url, "GET", "/login/password", HTML);
    const second = await send(server.url, "GET", "/c/%5BAcme%5D%5Bpaper%5D%5Bmain%5D", HTML);
    for (const a of [first, second]) {
      expect(a.status).toBe(200);
      expect(a.headers["content-type"]).toBe("text/html; charset=utf-8");
      expectCommon(a, "page");
      const csp = directives(a.headers["content-security-policy"] as string);
      expect(csp.get("default-src")).toEqual(["'self'"]);
      // docs/exchange-rules.md#chart: the chart provider's script and frame by exact origin, nothing wider (issue 13)
      expect(csp.get("script-src")).toEqual(["'self'", CHART_PROVIDER.script]);
      expect(csp.get("frame-src")).toEqual([CHART_PROVIDER.frame]);
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("base-uri")).toEqual(["'none'"]);
      expect(csp.get("form-action")).toEqual(["'self'"]);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(csp.get("img-src")).toEqual(["'self'", "data:"]);
      expect(csp.get("connect-src")).toEqual(["'self'", ...feedOrigins()]);
      const nonce = /nonce="([^"]+)"/.exec(a.body)?.[1];
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{24}$/);
      expect(csp.get("style-src")).toEqual(["'self'", ...STYLE_HASHES, `'nonce-${nonce}'`]);
      expect(a.body).not.toContain(NONCE_PLACEHOLDER);
      expect(a.headers["content-length"]).toBe(String(Buffer.byteLength(a.body)));
    }
    expect(/nonce="([^"]+)"/.exec(first.body)?.[1]).not.toBe(/nonce="([^"]+)"/.exec(second.body)?.[1]);
    const head = await send(server.url, "HEAD", "/", HTML);
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  it("gives assets, API JSON, API errors, 404s and preflights the common headers and a policy that loads and frames nothing", async () => {
    server = await startTestServer();
    const answers: [string, Answer, number][] = [
      ["asset", await send(server.url, "GET", "/assets/app-abc123.js"), 200],
      ["root file", await send(server.url, "GET", "/boot.js"), 200],
      ["API JSON", await send(server.url, "GET", "/health"), 200],
      ["API error (601 without a token)", await send(server.url, "GET", "/token/clients"), 400],
      ["404", await send(server.url, "GET", "/no/such/call"), 404],
      ["405", await send(server.url, "DELETE", "/health"), 405],
      ["directory", await send(server.url, "GET", "/assets"), 404],
      [
        "preflight",
        await send(server.url, "OPTIONS", "/token/clients", {
          origin: "http://localhost:5173",
          "access-control-request-method": "GET",
        }),
        204,
      ],
    ];
    for (const [what, a, status] of answers) {
      expect(a.status, what).toBe(status);
      expectCommon(a, what);
      expect(a.headers["content-security-policy"], what).toBe(NON_PAGE_POLICY);
    }
    expect(answers[0]![1].body).toBe("console.log('app');\n");
    expect(answers[0]![1].headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  });

  it("adds Strict-Transport-Security behind a TLS proxy and under TLS only (docs/decisions.md#d7)", async () => {
    server = await startTestServer({ behindTlsProxy: true });
    expectCommon(await send(server.url, "GET", "/", HTML), "page behind a TLS proxy", true);
    expectCommon(await send(server.url, "GET", "/health"), "JSON behind a TLS proxy", true);
    await server.cleanup();

    const dir = mkdtempSync(join(tmpdir(), "spotdesk-tls-"));
    try {
      execFileSync(
        "openssl",
        [
          "req",
          "-x509",
          "-newkey",
          "rsa:2048",
          "-nodes",
          "-subj",
          "/CN=localhost",
          "-days",
          "1",
          "-keyout",
          join(dir, "key.pem"),
          "-out",
          join(dir, "cert.pem"),
        ],
        { stdio: "ignore" },
      );
      server = await startTestServer({ tlsCert: join(dir, "cert.pem"), tlsKey: join(dir, "key.pem") });
      expect(server.url).toMatch(/^https:/);
      expectCommon(await send(server.url, "GET", "/login/password", HTML), "page over TLS", true);
      expectCommon(await send(server.url, "GET", "/token/clients"), "API error over TLS", true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the page while web/dist is being rebuilt (issue 16: a missing index.html killed the server)", () => {
  it("answers a navigation with 503 and Retry-After, keeps running, and serves the page again once it is back", async () => {
    server = await startTestServer();
    const page = readFileSync(join(dist, "index.html"));
    rmSync(join(dist, "index.html"));
    rmSync(join(dist, "assets", "app-abc123.js"));
    try {
      const navigation = await send(server.url, "GET", "/login/password", HTML);
      expect(navigation.status).toBe(503);
      expect(navigation.headers["retry-after"]).toBe("2");
      expect(navigation.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(navigation.body).toContain("The dashboard is being rebuilt");
      expect(navigation.body).not.toContain("<script");
      expectCommon(navigation, "503 page");
      expect(navigation.headers["content-security-policy"]).toBe(NON_PAGE_POLICY);
      expect((await send(server.url, "HEAD", "/", HTML)).status).toBe(503);
      // a removed asset is no longer a file: the API's 404, not a crash
      expect((await send(server.url, "GET", "/assets/app-abc123.js")).status).toBe(404);
      const health = await send(server.url, "GET", "/health");
      expect(health.status).toBe(200);
      expect(JSON.parse(health.body).status).toBe("ok");
    } finally {
      writeFileSync(join(dist, "index.html"), page);
      writeFileSync(join(dist, "assets", "app-abc123.js"), "console.log('app');\n");
    }
    expect((await send(server.url, "GET", "/login/password", HTML)).status).toBe(200);
  });
});

describe("the page policy's lists (issue 23)", () => {
  it("allows exactly the origins the browser's feeds open by default: sockets, snapshots, symbol ids (docs/decisions.md#d14)", async () => {
    const allowed = feedOrigins();
    for (const origin of allowed) expect(origin).toMatch(/^(wss|https):\/\/[a-z0-9.-]+(:\d+)?$/);
    const opened = new Set<string>();
    for (const [id, info] of Object.entries(CATALOGUE)) {
      if (id === "paper") continue;
      const urls: string[] = [];
      // docs/exchange-rules.md#calls: the browser reaches kucoin's token and bitteam's book through the server's relays
      const relay = id === "kucoin" || id === "bitteam" ? `http://localhost:1/api/${id}` : undefined;
      // an open socket that never answers: enough for each feed to subscribe and ask its snapshot
      const socket: WebSocketLike = {
        readyState: 1,
        binaryType: "",
        send() {},
        close() {},
        onopen: null,
        onmessage: null,
        onclose: null,
        onerror: null,
      };
      const feed = createFeed(id, "BTC/USDT", {
        ...(relay ? { baseUrl: relay } : {}),
        connect: (url: string) => {
          urls.push(url);
          return socket;
        },
        fetchJson: async (url: string) => {
          urls.push(url);
          // coinstore looks its symbol id up before it opens the socket
          if (url.endsWith("/api/v2/public/config/spot/symbols")) return { code: 0, data: [{ symbolId: 1 }] };
          throw new Error("offline");
        },
        logger: { debug() {}, info() {}, warn() {}, error() {} },
      } as Parameters<typeof createFeed>[2]);
      feed.start();
      await new Promise((r) => setTimeout(r, 50));
      socket.onopen?.({});
      // the manual refresh of docs/exchange-rules.md#states: the REST snapshot where the feed has one
      await feed.refresh().catch(() => undefined);
      feed.stop();
      const outside = urls.filter((u) => !u.startsWith("http://localhost:1/"));
      if (info.feed === "socket") expect(outside.length, `${id} opened nothing`).toBeGreaterThan(0);
      else expect(outside, `${id} goes through the relay only`).toEqual([]);
      for (const u of outside) {
        expect(allowed, `${id}: ${u} is not in connect-src`).toContain(new URL(u).origin);
        opened.add(new URL(u).origin);
      }
    }
    // nothing wider: every allowed origin is one a feed opened
    expect([...opened].sort()).toEqual(allowed);
  });

  it("hashes exactly the <style> texts sonner, Radix Select and lightweight-charts insert (recomputed from node_modules)", () => {
    const sha = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
    const sonner = readFileSync(join(ROOT, "node_modules/sonner/dist/index.mjs"), "utf8");
    const sonnerCss = JSON.parse(/__insertCSS\(("(?:[^"\\]|\\.)*")\)/.exec(sonner)![1]!) as string;
    const select = readFileSync(join(ROOT, "node_modules/@radix-ui/react-select/dist/index.mjs"), "utf8");
    const selectCss = /__html: `([^`]*radix-select-viewport[^`]*)`/.exec(select)![1]!;
    const charts = readFileSync(
      join(ROOT, "node_modules/lightweight-charts/dist/lightweight-charts.production.mjs"),
      "utf8",
    );
    const logoCss = JSON.parse(
      /createElement\("style"\),[\w.]+\.innerText=("(?:[^"\\]|\\.)*")/.exec(charts)![1]!,
    ) as string;
    expect([...STYLE_HASHES].sort()).toEqual([sha(""), sha(sonnerCss), sha(selectCss), sha(logoCss)].sort());
  });

  it("relaxes the dev server's policy only where asked: script hashes and connect sources, never 'unsafe-*' or a wildcard", () => {
    const dev = directives(
      pagePolicy({ styleNonce: "abc", connect: ["ws://127.0.0.1:8787"], script: ["'sha256-abc='"] }),
    );
    expect(dev.get("script-src")).toEqual(["'self'", CHART_PROVIDER.script, "'sha256-abc='"]);
    expect(dev.get("style-src")).toEqual(["'self'", ...STYLE_HASHES, "'nonce-abc'"]);
    expect(dev.get("connect-src")).toEqual(["'self'", ...feedOrigins(), "ws://127.0.0.1:8787"]);
    expect(pagePolicy()).not.toMatch(/unsafe|\*/);
  });
});
