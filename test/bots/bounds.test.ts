/**
 * Bounded bots under `spotdesk serve` (docs/bots.md "Bounds", docs/server-limits.md "Bounded work"): a grid
 * of 1e308 or 10,000,000 orders is refused with 600 naming `size`, and a stored setup that fails
 * today's validation (a row written before the cap, or by hand) stops its bot with the reason at
 * start instead of running it. The server is a real `spotdesk serve` child on a real SQLite file,
 * so a bot that froze its event loop would show as /health not answering, not as a stuck test.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { INVALID_SETUP_REASON } from "../../server/bots/strategies/index.js";
import { type Cluster, type ServerProcess, startCluster } from "../server/cluster.js";
import { call, openLive, PASSWORD } from "../server/helpers.js";
import { waitFor } from "./helpers.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
const GRID = { pair: "BTC/USDT", quote: 100, percent: 5, profit: 0.2, RF: 0.5, size: 4 };
const FIVE_THOUSAND_DIGITS = "9".repeat(5000);

let cluster: Cluster | undefined;
afterEach(async () => {
  // kill -9 first: a frozen server never handles SIGTERM (the failure these tests look for)
  await Promise.all(cluster?.processes.map((p) => p.kill()) ?? []);
  await cluster?.close();
  cluster = undefined;
});

/** One `spotdesk serve` on a fresh SQLite data directory, its first admin signed in. */
async function serve(
  config: Record<string, unknown>,
): Promise<{ server: ServerProcess; token: string; userId: string }> {
  let token = "";
  let userId = "";
  cluster = await startCluster(1, {
    config,
    // a stop leaves the orders resting for the next start (docs/bots.md#safety-net)
    keepOrders: true,
    first: async (server, setupCode) => {
      const res = await call(server, "POST", "/register", {
        headers: { email: "admin@example.com", password: PASSWORD, code: setupCode },
      });
      expect(res.status).toBe(200);
      token = res.body.accessToken;
      userId = res.body.uuid;
    },
  });
  return { server: cluster.processes[0]!, token, userId };
}

/** POST /token/bot with the body as raw JSON text, so a 5,000-digit number reaches the server as JSON reads it. */
const createGrid = (server: ServerProcess, token: string, setupJson: string) =>
  call(server, "POST", "/token/bot", {
    token,
    headers: { path: pathHeader(DEMO) },
    raw: `{"botType":"grid-bot","setup":${setupJson}}`,
  });

const health = async (server: ServerProcess) => (await call(server, "GET", "/health")).status;

describe("bounded bots under serve (docs/bots.md 'Bounds', docs/server-limits.md 'Bounded work')", () => {
  it("refuses a grid of 1e308 or 10,000,000 orders with 600 naming size, and 5,000-digit quotes; /health answers throughout", async () => {
    const { server, token } = await serve({});
    const grid = (fields: string) => `{"pair":"BTC/USDT","quote":100,${fields}}`;
    for (const [setup, field, bound] of [
      [grid(`"size":1e308`), "setup.size", "at most 500"],
      [grid(`"size":10000000`), "setup.size", "at most 500"],
      [grid(`"size":"10000000"`), "setup.size", "at most 500"],
      [grid(`"size":502`), "setup.size", "at most 500"],
      [`{"pair":"BTC/USDT","size":4,"quote":${FIVE_THOUSAND_DIGITS}}`, "setup.quote", "finite"],
      [`{"pair":"BTC/USDT","size":4,"quote":"${FIVE_THOUSAND_DIGITS}"}`, "setup.quote", "at most 40 characters"],
    ] as const) {
      const res = await createGrid(server, token, setup);
      expect(res.status, setup.slice(0, 80)).toBe(400);
      expect(res.body.code).toBe(600);
      expect(res.body.issues, setup.slice(0, 80)).toEqual([expect.stringMatching(new RegExp(`^${field}: .*${bound}`))]);
      expect(await health(server)).toBe(200);
    }
    expect((await call(server, "GET", "/token/bots", { token })).body).toEqual([]);
    // the cap itself is a grid that runs
    const ok = await createGrid(server, token, JSON.stringify(GRID));
    expect(ok.status).toBe(200);
    expect(await health(server)).toBe(200);
  });

  it("stops a resumed bot whose stored setup fails validation, with the reason in GET /token/bots and on the live channel, and never runs it", async () => {
    const { server, token, userId } = await serve({});
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await createGrid(server, token, JSON.stringify(GRID))).body.botId);
    const orderIds = async (s: ServerProcess) =>
      (
        (await call(s, "GET", "/token/trade/orders", { token, headers: { path: pathHeader(DEMO) } })).body as {
          id: string;
        }[]
      )
        .map((o) => o.id)
        .sort();
    await waitFor(async () => (await orderIds(server)).length === 12, "the three grids' orders");
    const placed = await orderIds(server);
    await server.stop(); // serve --keep-orders: stopping leaves the orders resting (docs/bots.md#safety-net)
    // rows as a hand edit or an older version left them, straight into the SQLite file
    const db = new Database(join(cluster!.dataDir, "spotdesk.sqlite"));
    const write = db.prepare("UPDATE bots SET setup = ? WHERE id = ?");
    write.run(`{"pair":"BTC/USDT","quote":100,"percent":5,"profit":0.2,"RF":0.5,"size":1e308}`, ids[0]);
    write.run(`{"pair":"BTC/USDT","quote":${FIVE_THOUSAND_DIGITS},"size":4}`, ids[1]);
    write.run(`{"pair":"BTC/USDT","quote":"${FIVE_THOUSAND_DIGITS}","size":4}`, ids[2]);
    db.close();

    const restarted = await cluster!.add();
    expect(await health(restarted)).toBe(200);
    const expected = [
      `${INVALID_SETUP_REASON}: setup.size: Order count must be at most 500`,
      `${INVALID_SETUP_REASON}: setup.quote: Expected a finite number`,
      `${INVALID_SETUP_REASON}: setup.quote: Expected a number such as 12.5 (at most 40 characters)`,
    ];
    const reasons = async () => {
      const bots = (await call(restarted, "GET", "/token/bots", { token })).body as {
        botId: string;
        reason?: string;
      }[];
      return ids.map((id) => bots.find((b) => b.botId === id)?.reason);
    };
    await waitFor(async () => (await reasons()).every((r) => r?.startsWith(INVALID_SETUP_REASON)), "the stop reasons");
    expect(await reasons()).toEqual(expected);
    const bots = (await call(restarted, "GET", "/token/bots", { token })).body as { status: string }[];
    expect(bots.map((b) => b.status)).toEqual(["stopped", "stopped", "stopped"]);
    expect(await health(restarted)).toBe(200);

    const live = await openLive(restarted.wsUrl);
    live.ws.send(JSON.stringify({ purpose: "sub_for_bots", userId, token }));
    const [reply, snapshot] = await live.next(2);
    expect(reply).toEqual({ purpose: "sub_for_bots", result: true });
    expect(
      ids.map((id) => snapshot.data.find((b: { botId: string; reason?: string }) => b.botId === id)?.reason),
    ).toEqual(expected);
    live.ws.close();
    // never run: their orders rest as the last run left them, none adopted, cancelled or added
    expect(await orderIds(restarted)).toEqual(placed);
  });
});
