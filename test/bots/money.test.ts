/**
 * What each bot did, and its risk limits, under `spotdesk serve` on paper (docs/bots.md "What each
 * bot did", "Risk limits and the kill switch", docs/decisions.md#d30). The server's clock is moved to
 * the first second the synthetic market reaches a bot's order, so its fills are real paper fills.
 * Each limit breached: the bot stopped with the reason (state, live channel, log), its orders
 * cancelled, still stopped after a restart until a person resumes it. The kill switch stops every bot
 * in the caller's scope.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BUCKET_MS, resolveSeed, syntheticMarket } from "../../exchanges/paper/market.js";
import { paperPair } from "../../exchanges/paper/pairs.js";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { Decimal } from "../../lib/decimal.js";
import { askLotsAtOrBelow, bidLotsAtOrAbove } from "../paper/helpers.js";
import {
  call,
  openLive,
  permitAndRegister,
  registerFirstAdmin,
  type SignedIn,
  startTestServer,
  type TestServer,
} from "../server/helpers.js";
import { waitFor } from "./helpers.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
const ACME: AccountPath = ["Acme", "paper", "desk"];
const PAIR = "BTC/USDT";
const market = syntheticMarket(paperPair(PAIR), resolveSeed());
/** the clock jumps by hours of market time: tokens outlive them; the tests poll faster than docs/decisions.md#d8 allows */
const OPTIONS = {
  runBots: true,
  accessTtlMs: 30 * 86_400_000,
  rateLimit: { calls: 1_000_000, windowMs: 10_000 },
  // the test moves the server's clock hours ahead to the first fill; paper's countdown runs on
  // that clock and would cancel the orders first (docs/bots.md#safety-net)
  botCountdown: 0,
} as const;

let server: TestServer;
let admin: SignedIn;
let token: string;
beforeEach(async () => {
  server = await startTestServer(OPTIONS);
  admin = await registerFirstAdmin(server);
  token = admin.session.accessToken;
});
afterEach(async () => {
  await server.cleanup();
});

interface OpenOrder {
  id: string;
  side: "Buy" | "Sell";
  price: string;
  amount: string;
}
const openOrders = async (path: AccountPath = DEMO) =>
  (await call(server, "GET", "/token/trade/orders", { token, headers: { path: pathHeader(path) } }))
    .body as OpenOrder[];
// biome-ignore lint/suspicious/noExplicitAny: test answers are read loosely, each test asserts the fields it needs
type Loose = Record<string, any>;
const botState = async (botId: string): Promise<Loose | undefined> =>
  ((await call(server, "GET", "/token/bots", { token })).body as Loose[]).find((b) => b.botId === botId);

/** Buys a tick or two under the best bid (a liquidity arranger quotes what it is told, post-only). */
function buyLadder(limits?: Record<string, number>, ordersAmount = 2) {
  const bucket = Math.floor(server.clock.now / BUCKET_MS);
  const bid = new Decimal(market.price(market.bestBidTicks(bucket)));
  return {
    botType: "liquidity-arranger-bot",
    setup: {
      pair: PAIR,
      side: "Buy",
      ordersAmount,
      P0: bid.minus("0.02").toNumber(),
      P1: bid.minus("0.05").toNumber(),
      Q0: 60,
      Q1: 60,
      ...(limits ? { limits } : {}),
    },
  };
}

async function createBot(body: object, path: AccountPath = DEMO): Promise<string> {
  const created = await call(server, "POST", "/token/bot", { token, headers: { path: pathHeader(path) }, body });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body.botId as string;
}

/**
 * Moves the server's clock past the first second the market fills one of these orders, and past the
 * runner's next look at its orders (every 5 s): the paper replay passes every second on the way.
 */
function toFirstFill(orders: OpenOrder[]): void {
  const from = Math.floor(server.clock.now / BUCKET_MS);
  for (let b = from + 1; b < from + 86_400 * 3; b++) {
    for (const o of orders) {
      const ticks = market.ticksOf(o.price);
      const lots = o.side === "Buy" ? askLotsAtOrBelow(market, ticks, b) : bidLotsAtOrAbove(market, ticks, b);
      if (lots > 0) {
        server.clock.now = Math.max(b, from + 6) * BUCKET_MS + 1;
        return;
      }
    }
  }
  throw new Error("the synthetic market never reached the orders within three days");
}

describe('what each bot did (docs/bots.md "What each bot did")', () => {
  it("records every fill with its fee and maker side, carries the PnL in its state and on the live channel, and says what a removed bot leaves", async () => {
    const live = await openLive(server.wsUrl);
    live.ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: admin.session.uuid, token }));
    await live.next(2);
    const botId = await createBot(buyLadder());
    const orders = await waitFor(async () => {
      const o = await openOrders();
      return o.length === 2 && o;
    }, "the two buys");
    toFirstFill(orders);
    const page = await waitFor(async () => {
      const answer = (await call(server, "GET", `/token/bot/${botId}/fills`, { token })).body;
      return answer.fills?.length > 0 && answer;
    }, "a fill");
    const fill = page.fills[0];
    const order = orders.find((o) => o.id === fill.orderId)!;
    expect(fill).toMatchObject({ side: "Buy", price: order.price, feeCurrency: "BTC", liquidity: "maker" });
    // paper's default maker fee, 0.1% of the amount, in the base the buy received
    expect(fill.fee).toBe(new Decimal(fill.amount).times("0.001").toFixed());
    expect(typeof fill.at).toBe("number");
    expect(typeof fill.seq).toBe("number");
    // the state's PnL is the ledger of those fills (inventory: bought less the base fee)
    const state = await waitFor(async () => {
      const s = await botState(botId);
      return s?.pnl?.fills === page.fills.length && s;
    }, "the PnL in the state");
    const bought = page.fills.reduce(
      (sum: Decimal, f: { amount: string; fee: string }) => sum.plus(f.amount).minus(f.fee),
      new Decimal(0),
    );
    expect(state.pnl.inventory).toBe(bought.toFixed());
    expect(new Decimal(state.pnl.value).eq(new Decimal(state.pnl.inventory).times(state.pnl.mid))).toBe(true);
    expect(state.pnl.pnl).toBe(new Decimal(state.pnl.realized).plus(state.pnl.unrealized).toFixed());
    expect(live.messages.some((m) => m.type === "delta" && m.data.botId === botId && m.data.pnl?.fills > 0)).toBe(true);
    // bounded pages
    const bad = await call(server, "GET", `/token/bot/${botId}/fills?limit=501`, { token });
    expect(bad.body.code).toBe(600);
    expect(bad.body.msg).toContain("Invalid limit '501': 1 to 500 fills");
    // removing it says what inventory it leaves
    const removed = await call(server, "DELETE", "/token/bot", { token, body: { botId } });
    expect(removed.body).toMatchObject({
      removed: true,
      botId,
      left: { inventory: expect.any(String), base: "BTC", quote: "USDT" },
    });
    expect(new Decimal(removed.body.left.inventory).gte(bought)).toBe(true);
    expect(await openOrders()).toEqual([]);
    live.ws.close();
  });

  it("shows a bot's fills only to users whose scope holds its client (docs/decisions.md#d26)", async () => {
    await call(server, "POST", "/token/admin/apikeys", {
      token,
      body: { path: ACME, apis: { data: "", pair: PAIR, active: true } },
    });
    const botId = await createBot(buyLadder(), ACME);
    const demoUser = await permitAndRegister(server, admin, "demo@example.com", ["Demo"]);
    const answer = await call(server, "GET", `/token/bot/${botId}/fills`, { token: demoUser.session.accessToken });
    expect(answer.status).toBe(404);
    expect(answer.body.msg).toContain(`no bot ${botId}`);
    const stop = await call(server, "POST", `/token/bot/${botId}/stop`, { token: demoUser.session.accessToken });
    expect(stop.status).toBe(404);
  });
});

describe('risk limits and the kill switch (docs/bots.md "Risk limits and the kill switch")', () => {
  /** Stopped by `limit`, its orders cancelled, the reason in its state, on the live channel and in the log. */
  async function expectHalted(botId: string, words: string, live: Awaited<ReturnType<typeof openLive>>) {
    const state = await waitFor(async () => {
      const s = await botState(botId);
      return s?.halted && s;
    }, "the bot stopped");
    expect(state.status).toBe("stopped");
    expect(state.halted.by).toBe("limit");
    expect(state.reason).toContain(words);
    await waitFor(async () => (await openOrders()).length === 0, "its orders cancelled");
    await waitFor(
      () => live.messages.some((m) => m.type === "delta" && m.data.botId === botId && m.data.halted),
      "the stop on the live channel",
    );
    expect(server.logs.some((line) => line.includes('"bot stopped"') && line.includes(words))).toBe(true);
  }

  /** After a restart the bot stays stopped with its reason and places nothing; a resume starts it again. */
  async function expectStoppedAcrossRestart(botId: string, words: string, tradesOn = true) {
    server = await server.restart(OPTIONS);
    await new Promise((r) => setTimeout(r, 700)); // a started bot would have placed by now
    const state = await botState(botId);
    expect(state).toMatchObject({ status: "stopped", halted: { by: "limit" } });
    expect(state!.reason).toContain(words);
    expect(server.bots!.runnerOf(botId)).toBeUndefined();
    expect(await openOrders()).toEqual([]);
    // a person resumes it: the limits count from here, so it trades again
    const resumed = await call(server, "POST", `/token/bot/${botId}/resume`, { token });
    expect(resumed.status).toBe(200);
    expect(resumed.body.halted).toBeUndefined();
    if (tradesOn) {
      // running again (its buys wait while the market is below them: it asks for them every tick)
      await waitFor(() => server.bots!.runnerOf(botId)?.status === "running", "the resumed bot running");
      await new Promise((r) => setTimeout(r, 300));
      expect((await botState(botId))!.halted).toBeUndefined();
    } else {
      // it wants 3 orders a minute and may place 2: it places them and stops again at the third
      // (a halted bot is not started at a restart: a runner exists only since the resume)
      const again = await waitFor(() => server.bots!.runnerOf(botId)?.halt, "the second stop");
      expect(again.reason).toContain(words);
      await waitFor(async () => (await openOrders()).length === 0, "its orders cancelled again");
    }
  }

  it("maxOrdersPerMinute: the order past the limit stops the bot", async () => {
    const live = await openLive(server.wsUrl);
    live.ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: admin.session.uuid, token }));
    await live.next(2);
    const botId = await createBot(buyLadder({ maxOrdersPerMinute: 2 }, 3));
    await expectHalted(botId, "maxOrdersPerMinute 2 reached", live);
    live.ws.close();
    await expectStoppedAcrossRestart(botId, "maxOrdersPerMinute 2 reached", false);
  });

  for (const [limit, words] of [
    ["maxInventory", "maxInventory 0.000001 BTC reached"],
    ["maxLoss", "maxLoss 0.000001 USDT reached"],
  ] as const) {
    it(`${limit}: a fill past it stops the bot`, async () => {
      const live = await openLive(server.wsUrl);
      live.ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: admin.session.uuid, token }));
      await live.next(2);
      const botId = await createBot(buyLadder({ [limit]: 0.000001 }));
      const orders = await waitFor(async () => {
        const o = await openOrders();
        return o.length === 2 && o;
      }, "the two buys");
      toFirstFill(orders);
      await expectHalted(botId, words, live);
      live.ws.close();
      // its fills are kept, and its last ones booked when it stopped
      const fills = (await call(server, "GET", `/token/bot/${botId}/fills`, { token })).body.fills;
      expect(fills.length).toBeGreaterThan(0);
      await expectStoppedAcrossRestart(botId, words);
    });
  }

  it("an account's limit (docs/decisions.md#d30) stops every bot of the account", async () => {
    server = await server.restart({ ...OPTIONS, accountLimits: { "Demo/paper/main": { maxOrdersPerMinute: 3 } } });
    const first = await createBot(buyLadder(undefined, 2));
    await waitFor(async () => (await openOrders()).length === 2, "the first bot's orders");
    const second = await createBot(buyLadder(undefined, 2));
    for (const botId of [first, second]) {
      const state = await waitFor(async () => {
        const s = await botState(botId);
        return s?.halted && s;
      }, "the bot stopped");
      expect(state.halted.by).toBe("account");
      expect(state.reason).toContain("the account Demo/paper/main's maxOrdersPerMinute 3 reached");
    }
    await waitFor(async () => (await openOrders()).length === 0, "every order cancelled");
  });

  it("POST /token/bot/stop-all stops every bot in the caller's scope, cancels their orders, and they stay stopped after a restart", async () => {
    await call(server, "POST", "/token/admin/apikeys", {
      token,
      body: { path: ACME, apis: { data: "", pair: PAIR, active: true } },
    });
    const demoBots = [await createBot(buyLadder()), await createBot(buyLadder())];
    const acmeBot = await createBot(buyLadder(), ACME);
    await waitFor(async () => (await openOrders()).length === 4, "the Demo bots' orders");
    await waitFor(async () => (await openOrders(ACME)).length === 2, "the Acme bot's orders");
    const demoUser = await permitAndRegister(server, admin, "demo@example.com", ["Demo"]);
    const stopped = await call(server, "POST", "/token/bot/stop-all", { token: demoUser.session.accessToken });
    expect(stopped.status).toBe(200);
    expect(stopped.body).toEqual({ stopped: expect.arrayContaining(demoBots), failed: [] });
    expect(stopped.body.stopped).toHaveLength(2);
    // every order cancelled when the answer arrives; the other client's bot untouched
    expect(await openOrders()).toEqual([]);
    expect(await openOrders(ACME)).toHaveLength(2);
    for (const botId of demoBots)
      expect(await botState(botId)).toMatchObject({
        status: "stopped",
        reason: "Stopped by demo@example.com (stop all)",
        halted: { by: "person" },
      });
    server = await server.restart(OPTIONS);
    await waitFor(async () => (await openOrders(ACME)).length === 2, "the Acme bot resumed");
    await new Promise((r) => setTimeout(r, 500));
    expect(await openOrders()).toEqual([]);
    expect((await botState(acmeBot))!.halted).toBeUndefined();
  });
});
