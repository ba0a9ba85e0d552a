/**
 * `spotdesk book` on a real exchange's feed, end to end: the built CLI against the bybit websocket
 * mock (--ws-url), and --watch ending on Ctrl-C with a final line and exit 130.
 */
import { spawn } from "node:child_process";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BybitMock } from "../../exchanges/bybit/ws-mock.js";
import { ladder } from "../../exchanges/core/testing/ws-mock.js";
import { buildCli, type Sandbox, sandbox } from "./helpers.js";

let cli: Sandbox;
let mock: BybitMock;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());
beforeEach(async () => {
  mock = await BybitMock.start();
  mock.truth.reset(ladder("bid", 30), ladder("ask", 30));
});
afterEach(async () => {
  await mock.close();
});

describe("book on a live feed (no credentials needed: public data)", () => {
  it("prints the bybit snapshot best first as decimal strings", async () => {
    const book = await cli.json<{ exchange: string; pair: string; bids: [string, string][]; asks: [string, string][] }>(
      ["--exchange", "bybit", "--ws-url", mock.url, "book", "BTC/USDT", "--depth", "3"],
    );
    expect(book).toMatchObject({ exchange: "bybit", pair: "BTC/USDT" });
    expect(book.bids).toEqual(mock.truth.levels("bid", 3));
    expect(book.asks).toEqual(mock.truth.levels("ask", 3));
    expect(mock.subscriptions).toEqual(["orderbook.50.BTCUSDT"]);
  });

  it("streams --watch lines until Ctrl-C, then ends with a final 'closed' line and exit 130 (docs/cli.md)", async () => {
    const bin = buildCli();
    const child = spawn(
      process.execPath,
      [bin, "--exchange", "bybit", "--ws-url", mock.url, "book", "BTC/USDT", "--watch", "--json", "--depth", "1"],
      {
        env: cli.env,
      },
    );
    let stdout = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no watch line: ${stdout}`)), 8000);
      child.stdout.on("data", () => {
        if (stdout.includes("\n")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    mock.delta("orderbook.50.BTCUSDT", [["1000", "2"]], []);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(130);
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { state: string; bids: [string, string][] });
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines[0]!.state).toBe("live");
    expect(lines.at(-2)!.bids[0]).toEqual(["1000", "2"]);
    expect(lines.at(-1)!.state).toBe("closed");
  });
});
