/**
 * `--dry-run` (docs/cli.md "Dry run"): the built CLI builds and signs the request, prints it with
 * the key, the signature and the passphrase masked, and sends nothing: the recorder behind
 * --base-url sees zero requests.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../lib/types.js";
import { type Sandbox, sandbox } from "./helpers.js";

const KEY = "dryrunkey0123456789";
const SECRET = "dryrunsecret0123456789";
const PASSPHRASE = "dryrunpassphrase";
const env = { SPOTDESK_API_KEY: KEY, SPOTDESK_API_SECRET: SECRET, SPOTDESK_API_PASSWORD: PASSPHRASE };

let cli: Sandbox;
let server: Server;
let baseUrl: string;
const requests: string[] = [];
beforeAll(async () => {
  cli = sandbox();
  server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    res.writeHead(500).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  cli.cleanup();
  await new Promise((resolve) => server.close(resolve));
});

interface DryRunJson {
  dryRun: true;
  exchange: string;
  method: string;
  url: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: string;
}

const noSecretIn = (text: string) => {
  for (const secret of [KEY, SECRET, PASSPHRASE]) expect(text).not.toContain(secret);
};

describe("--dry-run on real exchanges: signed, masked, not sent", () => {
  it.each([
    ["bybit", "/v5/order/create", "X-BAPI-SIGN"],
    ["okx", "/api/v5/trade/order", "OK-ACCESS-SIGN"],
    ["gate", "/api/v4/spot/orders", "SIGN"],
    ["kucoin", "/api/v1/orders", "KC-API-SIGN"],
  ])("%s buy prints %s with %s masked", async (exchange, path, signHeader) => {
    const result = await cli.run(
      ["-e", exchange, "--base-url", baseUrl, "buy", "BTC/USDT", "0.01", "60000", "--dry-run", "--json"],
      { env },
    );
    expect(result.code, result.stderr).toBe(0);
    const request = JSON.parse(result.stdout) as DryRunJson;
    expect(request).toMatchObject({ dryRun: true, exchange, method: "POST", path });
    expect(request.url.startsWith(`${baseUrl}${path}`)).toBe(true);
    expect(request.headers[signHeader]).toBe("***");
    expect(request.body).toContain("60000");
    noSecretIn(result.stdout + result.stderr);
    expect(requests).toEqual([]);
  });

  it("masks a signature carried in the query (mexc) and prints a readable listing without --json", async () => {
    const result = await cli.run(
      ["-e", "mexc", "--base-url", baseUrl, "sell", "BTC/USDT", "0.01", "70000", "--dry-run"],
      {
        env,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Dry run on mexc, nothing sent: POST http:\/\/127\.0\.0\.1:\d+\/api\/v3\/order\?/);
    expect(result.stdout).toContain("signature=***");
    expect(result.stdout).toContain("X-MEXC-APIKEY: ***");
    expect(result.stdout).toContain("price=70000");
    noSecretIn(result.stdout + result.stderr);
    expect(requests).toEqual([]);
  });

  it("cancel-batch and cancel-all take --dry-run too", async () => {
    const batch = await cli.run(
      ["-e", "okx", "--base-url", baseUrl, "cancel-batch", "BTC/USDT", "11", "12", "--dry-run", "--json"],
      { env },
    );
    expect(batch.code, batch.stderr).toBe(0);
    const request = JSON.parse(batch.stdout) as DryRunJson;
    expect(request.path).toBe("/api/v5/trade/cancel-batch-orders");
    expect(JSON.parse(request.body)).toEqual([
      { instId: "BTC-USDT", ordId: "11" },
      { instId: "BTC-USDT", ordId: "12" },
    ]);
    const all = await cli.run(["-e", "bybit", "--base-url", baseUrl, "cancel-all", "BTC/USDT", "--dry-run", "--json"], {
      env,
    });
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout)).toMatchObject({ exchange: "bybit", path: "/v5/order/cancel-all" });
    noSecretIn(batch.stdout + all.stdout);
    expect(requests).toEqual([]);
  });
});

describe("--dry-run on paper", () => {
  it("prints the checked order and leaves the account untouched", async () => {
    const result = await cli.run(["-a", "dry", "buy", "BTC/USDT", "0.01", "1000", "--dry-run", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const request = JSON.parse(result.stdout) as DryRunJson;
    expect(request).toMatchObject({ dryRun: true, exchange: "paper", path: "paper:createOrder" });
    expect(JSON.parse(request.body)).toEqual({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "1000" });
    expect(await cli.json<Order[]>(["-a", "dry", "orders", "BTC/USDT"])).toEqual([]);
  });

  it("still refuses bad input before anything", async () => {
    const result = await cli.run(["buy", "BTC/USDT", "0", "1000", "--dry-run"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
  });
});
