import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isExchangeError } from "../lib/errors.js";
import { DryRun } from "./core/rest.js";
import { openAccount, openFeed } from "./open.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "spotdesk-open-"));
  dirs.push(dir);
  return dir;
}

async function refusal(work: () => unknown): Promise<{ kind: string; detail: string }> {
  try {
    await work();
  } catch (error) {
    if (isExchangeError(error)) return { kind: error.kind, detail: error.detail };
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("openAccount (docs/exchanges.md 'Opening an account or a feed')", () => {
  it("opens paper like any exchange: its account and data directory come in the options", async () => {
    const dir = dataDir();
    const adapter = openAccount("paper", { dataDir: dir, account: "desk-1", credentials: { api: "x", secret: "y" } });
    try {
      expect(adapter.id).toBe("paper");
      const balances = await adapter.fetchBalances();
      expect(Object.keys(balances).length).toBeGreaterThan(0);
      expect(existsSync(join(dir, "paper", "desk-1.json"))).toBe(true);
    } finally {
      await adapter.close();
    }
  });

  it("runs a simulated market on marketNow, so two clocks give two books", async () => {
    const dir = dataDir();
    const early = openAccount("paper", { dataDir: dir, account: "a", marketNow: () => Date.UTC(2026, 0, 1) });
    const late = openAccount("paper", { dataDir: dir, account: "b", marketNow: () => Date.UTC(2026, 0, 1, 6) });
    try {
      const [one] = await early.createBatch("BTC/USDT", [{ side: "Buy", amount: "0.001", price: "1" }]);
      const [two] = await late.createBatch("BTC/USDT", [{ side: "Buy", amount: "0.001", price: "1" }]);
      expect(one?.timestamp).toBe(Date.UTC(2026, 0, 1));
      expect(two?.timestamp).toBe(Date.UTC(2026, 0, 1, 6));
    } finally {
      await early.close();
      await late.close();
    }
  });

  it("under dryRun catches paper's order operations as pseudo-requests and stores nothing", async () => {
    const dir = dataDir();
    const adapter = openAccount("paper", { dataDir: dir, account: "dry", dryRun: true });
    try {
      const caught = await adapter.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.001", price: "1" }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(caught).toBeInstanceOf(DryRun);
      expect((caught as DryRun).request.path).toBe("paper:createOrder");
      expect(JSON.parse((caught as DryRun).request.body)).toMatchObject({ pair: "BTC/USDT", amount: "0.001" });
      // reads still run
      expect(await adapter.fetchOpenOrders("BTC/USDT")).toEqual([]);
    } finally {
      await adapter.close();
    }
  });

  it("refuses an unknown exchange naming the known ones, and a real one without keys, before any request", async () => {
    const unknown = await refusal(() => openAccount("nasdaq"));
    expect(unknown.kind).toBe("bad-input");
    expect(unknown.detail).toContain("Unknown exchange 'nasdaq'. Known exchanges: paper, bingx");
    const keyless = await refusal(() => openAccount("okx", { credentials: { api: "k", secret: "s" } }));
    expect(keyless).toEqual({
      kind: "auth",
      detail: "Missing credential: passphrase (needed on bitmart, bitget, kucoin and okx)",
    });
    expect((await refusal(() => openAccount("gate"))).detail).toBe("Missing credential: API key");
  });
});

describe("openFeed", () => {
  it("builds paper's feed from its own module at the depth asked, not started", async () => {
    const feed = await openFeed("paper", "eth/usdt", { depth: 5, now: () => Date.UTC(2026, 0, 1) });
    expect(feed.exchange).toBe("paper");
    expect(feed.pair).toBe("ETH/USDT");
    expect(feed.state).toBe("connecting");
    feed.start();
    try {
      expect(feed.state).toBe("live");
      expect(feed.book.bidCount).toBe(5);
      expect(feed.book.askCount).toBe(5);
    } finally {
      feed.stop();
    }
  });

  it("builds a live exchange's feed from the feed index, not started", async () => {
    const feed = await openFeed("bybit", "BTC/USDT", { wsUrl: "ws://127.0.0.1:9" });
    expect(feed.exchange).toBe("bybit");
    expect(feed.pair).toBe("BTC/USDT");
    expect(feed.state).toBe("closed");
    feed.stop();
  });
});
