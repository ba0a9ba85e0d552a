/**
 * The CLI's contract with scripts (issue 2 item 5, docs/product.md#cli-surface): exit codes per
 * error kind, errors on stderr, nothing but the JSON document on stdout, no request sent when a
 * credential is missing.
 */

import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, type Sandbox, sandbox } from "./helpers.js";

let cli: Sandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

/** A local HTTP server that records every request (and proxy CONNECT): proof of what was sent, and where. */
async function recorder(): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(500).end("{}");
  });
  server.on("connect", (req, socket) => {
    requests.push(`CONNECT ${req.url}`);
    socket.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("spotdesk --version and exchanges", () => {
  it("prints the package version", async () => {
    const { version } = JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")) as { version: string };
    const result = await cli.run(["--version"]);
    expect(result).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("lists every exchange with its limits from the catalogue (docs/exchange-rules.md#limits)", async () => {
    const rows = await cli.json<Array<Record<string, unknown>>>(["exchanges"]);
    expect(rows.map((r) => r.id)).toEqual([
      "paper",
      "bingx",
      "bitget",
      "bitrue",
      "bitmart",
      "bitteam",
      "bybit",
      "coinstore",
      "gate",
      "htx",
      "kucoin",
      "lbank",
      "mexc",
      "okx",
      "probit",
      "xt",
    ]);
    expect(rows.find((r) => r.id === "bybit")).toMatchObject({
      name: "Bybit",
      needsPassphrase: false,
      openOrdersLimit: 50,
      createBatchMax: 10,
      cancelBatchMax: 10,
    });
    expect(rows.find((r) => r.id === "okx")).toMatchObject({ needsPassphrase: true, unsupported: ["cancelAll"] });
    expect(rows.find((r) => r.id === "coinstore")).toMatchObject({ openOrdersLimit: null, feed: "socket" });
    expect(rows.find((r) => r.id === "paper")).toMatchObject({ name: "Paper (simulated)", adapter: true });
  });

  it("prints a readable table without --json", async () => {
    const result = await cli.run(["exchanges"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ID\s+Name\s+Passphrase/);
    expect(result.stdout).toMatch(/bitteam\s+BIT\.TEAM\s+no\s+100/);
    expect(result.stdout).not.toContain("\u001b[");
  });
});

describe("exit codes and stderr (lib/errors.ts EXIT_CODES)", () => {
  it("refuses an unknown exchange with exit 2, naming the known ones", async () => {
    const result = await cli.run(["--exchange", "nasdaq", "balances", "--json"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      "ExchangeId: nasdaq, msg: Unknown exchange 'nasdaq'. Known exchanges: paper, bingx, bitget",
    );
    const errorLine = result.stderr.trim().split("\n").at(-1)!;
    expect(JSON.parse(errorLine)).toMatchObject({ error: { kind: "bad-input", exitCode: 2 } });
  });

  it("gives commander usage errors exit 2", async () => {
    expect((await cli.run(["balances", "--frobnicate"])).code).toBe(2);
    expect((await cli.run(["orders"])).code).toBe(2);
    expect((await cli.run(["teleport"])).code).toBe(2);
  });

  it("prints help with exit 0", async () => {
    const result = await cli.run(["--help"]);
    expect(result.code).toBe(0);
    for (const command of [
      "exchanges",
      "accounts",
      "balances",
      "orders",
      "order",
      "buy",
      "sell",
      "batch",
      "cancel",
      "cancel-batch",
      "cancel-all",
      "book",
      "tui",
      "serve",
    ]) {
      expect(result.stdout).toMatch(new RegExp(`\\n  ${command}\\b`));
    }
  });

  it("refuses a real exchange without credentials: auth, exit 3, and nothing sent", async () => {
    const server = await recorder();
    try {
      const result = await cli.run(["--exchange", "bybit", "--base-url", server.url, "balances"]);
      expect(result.code).toBe(3);
      expect(result.stdout).toBe("");
      expect(result.stderr).toMatch(/^ExchangeId: bybit, msg: Missing credential: .*SPOTDESK_API_KEY/);
      const buy = await cli.run(["--exchange", "bybit", "--base-url", server.url, "buy", "BTC/USDT", "0.01", "30000"]);
      expect(buy.code).toBe(3);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it.each([
    ["--proxy", (url: string) => ({ args: ["--proxy", url], env: {} })],
    ["SPOTDESK_PROXY", (url: string) => ({ args: [], env: { SPOTDESK_PROXY: url } })],
    ["HTTPS_PROXY", (url: string) => ({ args: [], env: { HTTPS_PROXY: url } })],
  ])("sends exchange calls through the proxy given by %s (docs/decisions.md#d12)", async (_name, how) => {
    const proxy = await recorder();
    try {
      const { args, env } = how(proxy.url);
      const result = await cli.run(
        ["--exchange", "bybit", "--base-url", "http://exchange.invalid", ...args, "balances"],
        {
          env: { SPOTDESK_API_KEY: "key-12345678", SPOTDESK_API_SECRET: "secret-12345678", ...env },
        },
      );
      expect(result.code).toBe(8);
      expect(proxy.requests.length).toBeGreaterThan(0);
      expect(proxy.requests[0]).toContain("exchange.invalid");
      expect(result.stderr).not.toContain("secret-12345678");
    } finally {
      await proxy.close();
    }
  });

  it("names the missing passphrase of okx (docs/exchange-rules.md#entities) when only key and secret are set", async () => {
    const result = await cli.run(["--exchange", "okx", "balances"], {
      env: { SPOTDESK_API_KEY: "k-123456789", SPOTDESK_API_SECRET: "s-123456789" },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("passphrase (SPOTDESK_API_PASSWORD)");
    expect(result.stderr).not.toContain("s-123456789");
  });

  it("grants admin on the server's data directory (docs/decisions.md#d5), refusing a bad e-mail or a missing --data", async () => {
    const bad = await cli.run(["users", "grant-admin", "not-an-email", "--data", cli.home]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Invalid e-mail");
    expect((await cli.run(["users", "grant-admin", "a@b.co"])).code).toBe(2);
    const granted = await cli.json<Record<string, unknown>>([
      "users",
      "grant-admin",
      "Boss@Example.com",
      "--data",
      `${cli.home}/server`,
    ]);
    expect(granted).toMatchObject({ email: "boss@example.com", admin: true, created: true });
  });

  it("refuses a bad --port before starting the server", async () => {
    const result = await cli.run(["serve", "--port", "http"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Invalid port 'http'");
  });
});
