import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BybitMock, startBybitMock } from "../../exchanges/bybit/mock.js";
import { BybitMock as BybitWsMock } from "../../exchanges/bybit/ws-mock.js";
import { MEXC_KEY, MEXC_SECRET, type MexcMock, startMexcMock } from "../../exchanges/mexc/mock.js";
import { type OkxMock, startOkxMock } from "../../exchanges/okx/mock.js";
import { runCli } from "./run-cli.js";

// Issue 20, docs/orders.md "Which account" and "Client order ids", through the built CLI against loopback mocks.

const STORE_KEY = "0123456789abcdef";
const bybitCreds = { api: "bybit-stored-key", secret: "bybit-stored-secret" };
const envKeys = {
  SPOTDESK_API_KEY: "env-key-of-another-account",
  SPOTDESK_API_SECRET: "env-secret-of-another-account",
};

describe("the account you named: flag > environment > default (docs/orders.md)", () => {
  let mock: BybitMock;
  let config: string;
  const run = (args: string[], env: Record<string, string> = {}) =>
    runCli(["--exchange", "bybit", "--base-url", mock.url, ...args], {
      SPOTDESK_CONFIG_DIR: config,
      SPOTDESK_STORE_KEY: STORE_KEY,
      ...env,
    });

  beforeAll(async () => {
    // The mock accepts only the stored account's key: a request signed with the environment's fails.
    mock = await startBybitMock(bybitCreds);
    config = mkdtempSync(join(tmpdir(), "spotdesk-precedence-"));
    const added = await run(["accounts", "add", "acctB", "--far-price-percent", "7", "--json"], {
      SPOTDESK_API_KEY: bybitCreds.api,
      SPOTDESK_API_SECRET: bybitCreds.secret,
    });
    expect(added.code, added.stderr).toBe(0);
    // docs/orders.md "Far-price guard": the account's own limit, stored beside its credentials
    expect(JSON.parse(added.stdout)).toMatchObject({ exchange: "bybit", name: "acctB", farPricePercent: "7" });
  });
  afterAll(async () => {
    await mock.close();
    rmSync(config, { recursive: true, force: true });
  });

  it("an explicit --account uses the stored account even with SPOTDESK_API_* set, and says so without the secret", async () => {
    const result = await run(["--account", "acctB", "balances", "--json"], envKeys);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ exchange: "bybit", account: "acctB" });
    expect(result.stderr).toContain("Using the stored bybit account 'acctB' (--account)");
    for (const secret of [bybitCreds.secret, envKeys.SPOTDESK_API_SECRET, envKeys.SPOTDESK_API_KEY]) {
      expect(result.stderr + result.stdout).not.toContain(secret);
    }
    const order = await run(
      ["--account", "acctB", "buy", "BTC/USDT", "0.01", "30000", "--allow-far-price", "--json"],
      envKeys,
    );
    expect(order.code, order.stderr).toBe(0);
    expect(JSON.parse(order.stdout)).toMatchObject({ exchange: "bybit", account: "acctB", side: "Buy" });
    expect(mock.orders.size).toBe(1);
  });

  it("without --account the environment's keys are used (here: rejected by the exchange)", async () => {
    const result = await run(["balances", "--json"], envKeys);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("API key is invalid");
  });

  it("without --account and without keys in the environment, the stored account 'default' is used", async () => {
    const result = await run(["balances", "--json"]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("no API key for bybit account 'default'");
  });

  it("paper ignores environment credentials with a one-line note", async () => {
    const result = await runCli(["balances", "--json"], envKeys);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toBe("paper needs no credentials: SPOTDESK_API_KEY/SPOTDESK_API_SECRET are ignored\n");
    expect(JSON.parse(result.stdout)).toMatchObject({ exchange: "paper", account: "default" });
  });
});

describe("the same client order id twice places one order (docs/orders.md 'Client order ids')", () => {
  let bybit: BybitMock;
  let okx: OkxMock;
  let mexc: MexcMock;
  const okxCreds = { api: "okx-test-key", secret: "okx-test-secret", password: "okx-pass-phrase" };

  beforeAll(async () => {
    [bybit, okx, mexc] = await Promise.all([startBybitMock(bybitCreds), startOkxMock(okxCreds), startMexcMock()]);
  });
  afterAll(async () => {
    await Promise.all([bybit.close(), okx.close(), mexc.close()]);
  });

  const cases = (): {
    id: string;
    mock: BybitMock | OkxMock | MexcMock;
    env: Record<string, string>;
    clientId: string;
    sent: () => string[];
  }[] => [
    {
      id: "bybit",
      mock: bybit,
      env: { SPOTDESK_API_KEY: bybitCreds.api, SPOTDESK_API_SECRET: bybitCreds.secret },
      clientId: "retry-42",
      sent: () => [...bybit.orders.values()].map((o) => o.orderLinkId),
    },
    {
      id: "okx",
      mock: okx,
      env: {
        SPOTDESK_API_KEY: okxCreds.api,
        SPOTDESK_API_SECRET: okxCreds.secret,
        SPOTDESK_API_PASSWORD: okxCreds.password,
      },
      clientId: "retry42",
      sent: () => [...okx.orders.values()].map((o) => o.clOrdId),
    },
    {
      id: "mexc",
      mock: mexc,
      env: { SPOTDESK_API_KEY: MEXC_KEY, SPOTDESK_API_SECRET: MEXC_SECRET },
      clientId: "retry-42",
      sent: () => [...mexc.orders.values()].map((o) => o.clientOrderId),
    },
  ];

  it("on bybit, okx and mexc: the retry prints the existing order, exit 0, and the exchange holds one order", async () => {
    for (const c of cases()) {
      const args = ["--exchange", c.id, "--base-url", c.mock.url, "--json"];
      const buy = ["buy", "BTC/USDT", "0.01", "30000", "--allow-far-price", "--client-order-id", c.clientId];
      const first = await runCli([...args, ...buy], c.env);
      expect(first.code, `${c.id}: ${first.stderr}`).toBe(0);
      const placed = JSON.parse(first.stdout) as { id: string; clientOrderId: string };
      expect(placed.clientOrderId).toBe(c.clientId);
      // passed in the exchange's own field
      expect(c.sent()).toEqual([c.clientId]);

      const again = await runCli([...args, ...buy], c.env);
      expect(again.code, `${c.id}: ${again.stderr}`).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ id: placed.id, clientOrderId: c.clientId, exchange: c.id });
      expect(again.stderr).toContain(`client order id '${c.clientId}' already exists`);
      expect(c.mock.orders.size, c.id).toBe(1);
    }
  });

  it("refuses an id the exchange would refuse before sending anything", async () => {
    const env = {
      SPOTDESK_API_KEY: okxCreds.api,
      SPOTDESK_API_SECRET: okxCreds.secret,
      SPOTDESK_API_PASSWORD: okxCreds.password,
    };
    const before = okx.server.requests.length;
    const result = await runCli(
      ["--exchange", "okx", "--base-url", okx.url, "buy", "BTC/USDT", "0.01", "30000", "--allow-far-price"].concat([
        "--client-order-id",
        "has-dash",
      ]),
      env,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "Invalid client order id 'has-dash': okx takes 1 to 32 characters, using A-Za-z0-9",
    );
    expect(okx.server.requests.length).toBe(before);
  });

  it("bitteam takes no client order id: refused as unsupported before any request", async () => {
    const result = await runCli(
      ["--exchange", "bitteam", "--base-url", "http://127.0.0.1:9", "buy", "BTC/USDT", "0.01", "30000"].concat([
        "--allow-far-price",
        "--client-order-id",
        "retry-1",
      ]),
      { SPOTDESK_API_KEY: "k".repeat(16), SPOTDESK_API_SECRET: "s".repeat(16) },
    );
    expect(result.code).toBe(9);
    expect(result.stderr).toContain("bitteam takes no client order id");
  });

  it("a repeated cancel on a real exchange's mock exits 0 and says the order is already canceled", async () => {
    const env = { SPOTDESK_API_KEY: bybitCreds.api, SPOTDESK_API_SECRET: bybitCreds.secret };
    const args = ["--exchange", "bybit", "--base-url", bybit.url, "--json"];
    const placed = await runCli([...args, "buy", "BTC/USDT", "0.01", "30000", "--allow-far-price"], env);
    const { id } = JSON.parse(placed.stdout) as { id: string };
    const first = await runCli([...args, "cancel", "BTC/USDT", id], env);
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual([id]);
    const again = await runCli([...args, "cancel", "BTC/USDT", id], env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([]);
    expect(again.stderr).toContain(`Order ${id} is already canceled: nothing to cancel`);
  });

  it("a batch item's clientOrderId is sent in the exchange's field and not placed twice", async () => {
    const env = { SPOTDESK_API_KEY: bybitCreds.api, SPOTDESK_API_SECRET: bybitCreds.secret };
    const items = JSON.stringify([
      { side: "Buy", amount: "0.01", price: "29000", clientOrderId: "grid-1" },
      { side: "Sell", amount: "0.01", price: "33000", clientOrderId: "grid-2" },
    ]);
    const args = [
      "--exchange",
      "bybit",
      "--base-url",
      bybit.url,
      "--json",
      "batch",
      "BTC/USDT",
      "-",
      "--allow-far-price",
    ];
    const before = bybit.orders.size;
    const first = await runCli(args, env, items);
    expect(first.code, first.stderr).toBe(0);
    const orders = JSON.parse(first.stdout) as { id: string; clientOrderId: string }[];
    expect(orders.map((o) => o.clientOrderId)).toEqual(["grid-1", "grid-2"]);
    expect(bybit.orders.size).toBe(before + 2);
    const again = await runCli(args, env, items);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { id: string }[]).map((o) => o.id)).toEqual(orders.map((o) => o.id));
    expect(again.stderr).toContain("Batch item 1: order");
    expect(bybit.orders.size).toBe(before + 2);
  });
});

describe("the far-price guard on a real exchange reads its public book (docs/orders.md 'Far-price guard')", () => {
  let rest: BybitMock;
  let ws: BybitWsMock;
  beforeAll(async () => {
    [rest, ws] = await Promise.all([startBybitMock(bybitCreds), BybitWsMock.start()]);
    ws.truth.reset(
      [
        ["30000", "1"],
        ["29990", "2"],
      ],
      [
        ["30010", "1"],
        ["30020", "2"],
      ],
    );
  });
  afterAll(async () => {
    await Promise.all([rest.close(), ws.close()]);
  });

  it("refuses a buy 50% over the best ask with nothing sent, and places a buy inside the book", async () => {
    const env = { SPOTDESK_API_KEY: bybitCreds.api, SPOTDESK_API_SECRET: bybitCreds.secret };
    const args = ["--exchange", "bybit", "--base-url", rest.url, "--ws-url", ws.url, "--json"];
    const far = await runCli([...args, "buy", "BTC/USDT", "0.01", "45015"], env);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain("Buy price 45015 USDT is 50% above the best ask 30010 USDT (far-price limit 5%)");
    expect(far.stderr).toContain("about 150.1 USDT more than at the mid 30005");
    expect(rest.orders.size).toBe(0);
    const near = await runCli([...args, "buy", "BTC/USDT", "0.01", "30000"], env);
    expect(near.code, near.stderr).toBe(0);
    expect(rest.orders.size).toBe(1);
    expect(ws.subscriptions.length).toBeGreaterThanOrEqual(2);
  });
});
