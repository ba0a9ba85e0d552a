import { afterEach, describe, expect, it } from "vitest";
import { type AccountPath, API_ERROR_MESSAGES, pathHeader } from "../../lib/api.js";
import { call, openLive, registerFirstAdmin, type SignedIn, startTestServer, type TestServer } from "./helpers.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
const grid = { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4 } };
const EXPIRED = { purpose: "sub_for_bots", result: false, code: 602, reason: API_ERROR_MESSAGES[602] };

let server: TestServer | undefined;
afterEach(async () => {
  await server?.cleanup();
  server = undefined;
});

async function refreshed(s: TestServer, admin: SignedIn): Promise<string> {
  const r = await call(s, "POST", "/user/refresh", {
    headers: { "user-id": admin.session.uuid, timestamp: String(s.clock.now) },
    cookie: admin.cookie,
  });
  expect(r.status).toBe(200);
  return r.body.accessToken;
}

const subscribe = (admin: SignedIn, token: string) =>
  JSON.stringify({ purpose: "sub_for_bots", userId: admin.session.uuid, token });

describe("live channel and access-token expiry (docs/dashboard-rules.md#states, docs/api.md#errors 602)", () => {
  it("ends a subscription when its access token expires: a 602 message, then close 4602; a fresh token subscribes again", async () => {
    server = await startTestServer({ accessTtlMs: 800 });
    const admin = await registerFirstAdmin(server);
    const live = await openLive(server.wsUrl);
    live.ws.send(subscribe(admin, admin.session.accessToken));
    const [reply, snapshot] = await live.next(2);
    expect(reply).toEqual({ purpose: "sub_for_bots", result: true });
    expect(snapshot).toEqual({ type: "snapshot", data: [] });

    server.clock.now += 1000; // the token's 800 ms are over; the server's timer notices on its own
    const started = Date.now();
    const closed = await live.closed;
    expect(Date.now() - started).toBeLessThan(3000);
    expect(closed).toEqual({ code: 4602, reason: "access token expired" });
    expect(live.messages.slice(2)).toEqual([EXPIRED]);

    // The client re-opens with a valid token (docs/dashboard-rules.md#states) and gets the current state.
    const token = await refreshed(server, admin);
    const bot = await call(server, "POST", "/token/bot", { token, headers: { path: pathHeader(DEMO) }, body: grid });
    expect(bot.status).toBe(200);
    const again = await openLive(server.wsUrl);
    again.ws.send(subscribe(admin, token));
    const [, fresh] = await again.next(2);
    expect(fresh.data.map((b: { botId: string }) => b.botId)).toEqual([bot.body.botId]);
    expect(live.messages).toHaveLength(3); // nothing more reached the expired socket
    again.ws.close();
  });

  it("sends no bot delta to an expired subscription even before its timer runs (a clock that jumps ahead)", async () => {
    server = await startTestServer({ accessTtlMs: 60_000 });
    const admin = await registerFirstAdmin(server);
    const expiring = await openLive(server.wsUrl);
    expiring.ws.send(subscribe(admin, admin.session.accessToken));
    await expiring.next(2);

    server.clock.now += 61_000; // the timer is a real minute away; the delta below comes first
    const token = await refreshed(server, admin);
    const valid = await openLive(server.wsUrl);
    valid.ws.send(subscribe(admin, token));
    await valid.next(2);

    const bot = await call(server, "POST", "/token/bot", { token, headers: { path: pathHeader(DEMO) }, body: grid });
    expect(bot.status).toBe(200);
    const [delta] = await valid.next();
    expect(delta).toMatchObject({ type: "delta", data: { botId: bot.body.botId } });
    expect(await expiring.closed).toEqual({ code: 4602, reason: "access token expired" });
    expect(expiring.messages.slice(2)).toEqual([EXPIRED]);
    valid.ws.close();
  });

  it("keeps a subscription whose token is still valid: re-subscribing with a fresh token moves the deadline, without a second snapshot", async () => {
    server = await startTestServer({ accessTtlMs: 60_000 });
    const admin = await registerFirstAdmin(server);
    const live = await openLive(server.wsUrl);
    live.ws.send(subscribe(admin, admin.session.accessToken));
    await live.next(2);
    server.clock.now += 30_000;
    const token = await refreshed(server, admin); // valid until +90 s
    live.ws.send(subscribe(admin, token));
    // a renewal (docs/server-limits.md "Websockets"): the answer only, the deltas never stopped
    expect(await live.next()).toEqual([{ purpose: "sub_for_bots", result: true }]);
    server.clock.now += 45_000; // past the first token's expiry, within the second's
    const bot = await call(server, "POST", "/token/bot", { token, headers: { path: pathHeader(DEMO) }, body: grid });
    const [delta] = await live.next();
    expect(delta).toMatchObject({ type: "delta", data: { botId: bot.body.botId } });
    expect(live.ws.readyState).toBe(live.ws.OPEN);
    live.ws.close();
  });
});
