/**
 * Issue 16 "Websockets that can't pile up" (docs/server-limits.md): a live-channel socket that
 * does not subscribe in time is closed, open sockets and /book upgrades are capped per address,
 * the relay's upstream feeds are capped per process, and logging out closes the session's live
 * sockets at once. Issue 31: one subscription per socket, renewed rather than repeated, a
 * minute's budget of subscription messages, and a reader that does not read is closed.
 */

import { randomUUID } from "node:crypto";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  call,
  cookieOf,
  openLive,
  outboxCode,
  PASSWORD,
  permitAndRegister,
  registerFirstAdmin,
  startTestServer,
  type TestServer,
} from "./helpers.js";

let server: TestServer;
afterEach(async () => {
  await server?.cleanup();
});

/** Opens a websocket from `localAddress`: the status of a refused upgrade, or the open socket. */
function connectFrom(url: string, localAddress: string): Promise<{ status: number; ws?: WebSocket }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, { localAddress });
    ws.once("open", () => resolve({ status: 101, ws }));
    ws.once("unexpected-response", (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once("error", () => resolve({ status: 0 }));
  });
}

const closedWith = (ws: WebSocket) =>
  new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );

const subscribe = (ws: WebSocket, uuid: string, token: string) =>
  ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: uuid, token }));

describe("websocket limits (issue 16, docs/server-limits.md)", () => {
  it("closes a live-channel socket that has not subscribed in time (4408); a failed subscription is not one", async () => {
    server = await startTestServer({ websocket: { subscribeTimeoutMs: 400 } });
    const admin = await registerFirstAdmin(server);
    const idle = await openLive(server.wsUrl);
    const wrong = await openLive(server.wsUrl);
    wrong.ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: admin.session.uuid, token: "forged.token" }));
    const subscribed = await openLive(server.wsUrl);
    subscribe(subscribed.ws, admin.session.uuid, admin.session.accessToken);
    expect((await subscribed.next(2))[0]).toEqual({ purpose: "sub_for_bots", result: true });

    expect(await idle.closed).toEqual({ code: 4408, reason: "no subscription within 400 ms" });
    expect((await wrong.closed).code).toBe(4408);
    expect(wrong.messages[0]).toMatchObject({ purpose: "sub_for_bots", result: false });
    // the subscribed socket outlives the time-out and still gets deltas
    await new Promise((r) => setTimeout(r, 200));
    expect(subscribed.ws.readyState).toBe(WebSocket.OPEN);
    const bot = await call(server, "POST", "/token/bot", {
      token: admin.session.accessToken,
      headers: { path: JSON.stringify(["Demo", "paper", "main"]) },
      body: { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4 } },
    });
    expect(bot.status).toBe(200);
    expect((await subscribed.next())[0]).toMatchObject({ type: "delta", data: { botId: bot.body.botId } });
    subscribed.ws.close();
  });

  it("counts forged tokens on the live channel against the address: after 10, the answer is 604", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const opened = await connectFrom(`${server.wsUrl}/`, "127.0.0.2");
    const ws = opened.ws!;
    const replies: { result: boolean; reason: string }[] = [];
    ws.on("message", (data) => replies.push(JSON.parse(data.toString())));
    for (let i = 0; i < 11; i++) subscribe(ws, admin.session.uuid, `forged${i}.AAAA`);
    const deadline = Date.now() + 5000;
    while (replies.length < 11 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(replies.map((r) => r.reason)).toEqual([
      ...Array(10).fill("Your token is invalid, try to relogin!"),
      "Request limit to server exceeded, try later!",
    ]);
    // the owner's valid token from another address subscribes
    const owner = await openLive(server.wsUrl);
    subscribe(owner.ws, admin.session.uuid, admin.session.accessToken);
    expect((await owner.next())[0]).toEqual({ purpose: "sub_for_bots", result: true });
    owner.ws.close();
    ws.close();
  });

  it("caps open websockets per address (429 before the handshake); another address is not affected", async () => {
    server = await startTestServer({ websocket: { socketsPerAddress: 3 } });
    const mine: WebSocket[] = [];
    for (const target of ["/", "/", "/book?exchange=paper&pair=BTC-USDT"]) {
      const opened = await connectFrom(server.wsUrl + target, "127.0.0.2");
      expect(opened.status, target).toBe(101);
      mine.push(opened.ws!);
    }
    expect((await connectFrom(`${server.wsUrl}/`, "127.0.0.2")).status).toBe(429);
    expect((await connectFrom(`${server.wsUrl}/book?exchange=paper&pair=BTC-USDT`, "127.0.0.2")).status).toBe(429);
    const other = await connectFrom(`${server.wsUrl}/`, "127.0.0.1");
    expect(other.status).toBe(101);
    other.ws!.close();
    // a closed socket frees its slot
    const closing = closedWith(mine[0]!);
    mine[0]!.close();
    await closing;
    await new Promise((r) => setTimeout(r, 50));
    const again = await connectFrom(`${server.wsUrl}/`, "127.0.0.2");
    expect(again.status).toBe(101);
    again.ws!.close();
    for (const ws of mine.slice(1)) ws.close();
  });

  it("limits /book upgrades per address per minute", async () => {
    server = await startTestServer({ websocket: { bookUpgradesPerMinute: 2 } });
    const url = `${server.wsUrl}/book?exchange=paper&pair=BTC-USDT`;
    const opened: WebSocket[] = [];
    for (let i = 0; i < 2; i++) {
      const r = await connectFrom(url, "127.0.0.2");
      expect(r.status).toBe(101);
      r.ws!.close(); // closing does not give the upgrade back: it is a rate
    }
    expect((await connectFrom(url, "127.0.0.2")).status).toBe(429);
    const other = await connectFrom(url, "127.0.0.1");
    expect(other.status).toBe(101);
    opened.push(other.ws!);
    server.clock.now += 60_001;
    const later = await connectFrom(url, "127.0.0.2");
    expect(later.status).toBe(101);
    opened.push(later.ws!);
    for (const ws of opened) ws.close();
  });

  it("caps the distinct upstream feeds of the process: 10 kucoin pairs open 3 feeds, an idle feed makes room", async () => {
    server = await startTestServer({ websocket: { maxFeeds: 3, socketsPerAddress: 50, bookUpgradesPerMinute: 100 } });
    const statuses: number[] = [];
    const open: WebSocket[] = [];
    for (let i = 0; i < 10; i++) {
      const r = await connectFrom(`${server.wsUrl}/book?exchange=kucoin&pair=P${i}-USDT`, "127.0.0.1");
      statuses.push(r.status);
      if (r.ws) open.push(r.ws);
    }
    expect(statuses).toEqual([101, 101, 101, 503, 503, 503, 503, 503, 503, 503]);
    // a second reader of an open pair shares its feed
    const shared = await connectFrom(`${server.wsUrl}/book?exchange=kucoin&pair=P0-USDT`, "127.0.0.1");
    expect(shared.status).toBe(101);
    // the snapshot call counts too
    const snapshot = await call(server, "GET", "/book/kucoin/P7-USDT");
    expect(snapshot.status).toBe(503);
    expect(snapshot.body.msg).toBe("Too many order-book feeds open (3): try again later");
    // when the last reader of a pair leaves, its lingering feed gives way to a new pair
    const closing = closedWith(open[2]!);
    open[2]!.close();
    await closing;
    await new Promise((r) => setTimeout(r, 50));
    const next = await connectFrom(`${server.wsUrl}/book?exchange=kucoin&pair=P8-USDT`, "127.0.0.1");
    expect(next.status).toBe(101);
    for (const ws of [...open, shared.ws!, next.ws!]) ws.close();
  });

  it("closes the live-channel sockets of a session at once on /user/logout (4607); other sessions stay", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    // a second session of the same user
    await call(server, "POST", "/code", { headers: { email: admin.email } });
    const login = await call(server, "POST", "/login/password", {
      headers: {
        email: admin.email,
        password: PASSWORD,
        code: outboxCode(server.dataDir, admin.email),
        timestamp: String(server.clock.now),
      },
    });
    expect(login.status).toBe(200);
    const first = await openLive(server.wsUrl);
    const second = await openLive(server.wsUrl);
    const other = await openLive(server.wsUrl);
    subscribe(first.ws, admin.session.uuid, admin.session.accessToken);
    subscribe(second.ws, admin.session.uuid, admin.session.accessToken);
    subscribe(other.ws, admin.session.uuid, login.body.accessToken);
    await first.next(2);
    await second.next(2);
    await other.next(2);
    const out = await call(server, "POST", "/user/logout", { cookie: admin.cookie });
    expect(out.status).toBe(200);
    expect(await first.closed).toEqual({ code: 4607, reason: "session ended" });
    expect(await second.closed).toEqual({ code: 4607, reason: "session ended" });
    expect(first.messages.at(-1)).toEqual({
      purpose: "sub_for_bots",
      result: false,
      code: 607,
      reason: "Your token is invalid, try to relogin!",
    });
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
    // logout with the bearer token alone (scripts) closes that session's socket too
    await call(server, "POST", "/user/logout", { token: login.body.accessToken, cookie: cookieOf(login.setCookie) });
    expect((await other.closed).code).toBe(4607);
  });

  it("closes the live-channel sockets of a user an admin removes (4607)", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const user = await permitAndRegister(server, admin, "trader@example.com", "all");
    const theirs = await openLive(server.wsUrl);
    const mine = await openLive(server.wsUrl);
    subscribe(theirs.ws, user.session.uuid, user.session.accessToken);
    subscribe(mine.ws, admin.session.uuid, admin.session.accessToken);
    await theirs.next(2);
    await mine.next(2);
    const removed = await call(server, "DELETE", `/token/admin/user/${user.session.uuid}`, {
      token: admin.session.accessToken,
    });
    expect(removed.status).toBe(200);
    expect(await theirs.closed).toEqual({ code: 4607, reason: "session ended" });
    expect(mine.ws.readyState).toBe(WebSocket.OPEN);
    mine.ws.close();
  });

  it("renews a subscription instead of repeating it: 20,000 re-subscriptions close the socket after the minute's 20 (4429) with at most 20 answers", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const live = await openLive(server.wsUrl);
    subscribe(live.ws, admin.session.uuid, admin.session.accessToken);
    expect((await live.next(2))[1]).toMatchObject({ type: "snapshot" });
    for (let i = 0; i < 20_000; i++) subscribe(live.ws, admin.session.uuid, admin.session.accessToken);
    expect(await live.closed).toEqual({ code: 4429, reason: "more than 20 subscription messages in a minute" });
    // the renewals were answered, never with a second snapshot, and the rest was refused unanswered
    expect(live.messages.length).toBeLessThanOrEqual(21);
    expect(live.messages.slice(2)).toEqual(
      live.messages.slice(2).map(() => ({ purpose: "sub_for_bots", result: true })),
    );
    expect((await call(server, "GET", "/health")).status).toBe(200);
    // the flood left nothing behind: a new socket subscribes and gets each delta once
    const fresh = await openLive(server.wsUrl);
    subscribe(fresh.ws, admin.session.uuid, admin.session.accessToken);
    await fresh.next(2);
    const bot = await call(server, "POST", "/token/bot", {
      token: admin.session.accessToken,
      headers: { path: JSON.stringify(["Demo", "paper", "main"]) },
      body: { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4 } },
    });
    expect((await fresh.next())[0]).toMatchObject({ type: "delta", data: { botId: bot.body.botId } });
    await new Promise((r) => setTimeout(r, 200));
    expect(fresh.messages).toHaveLength(3);
    fresh.ws.close();
  });

  it("keeps one subscription per socket: another user's token does not take it over", async () => {
    server = await startTestServer();
    const admin = await registerFirstAdmin(server);
    const user = await permitAndRegister(server, admin, "trader@example.com", ["Acme"]);
    const live = await openLive(server.wsUrl);
    subscribe(live.ws, admin.session.uuid, admin.session.accessToken);
    await live.next(2);
    subscribe(live.ws, user.session.uuid, user.session.accessToken);
    expect(await live.next()).toEqual([
      {
        purpose: "sub_for_bots",
        result: false,
        reason: "This socket is subscribed for another user: open a new socket",
      },
    ]);
    // still the admin's: a Demo bot (outside the user's scope) reaches it
    const bot = await call(server, "POST", "/token/bot", {
      token: admin.session.accessToken,
      headers: { path: JSON.stringify(["Demo", "paper", "main"]) },
      body: { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4 } },
    });
    expect((await live.next())[0]).toMatchObject({ type: "delta", data: { botId: bot.body.botId } });
    live.ws.close();
  });

  it("closes a live socket whose reader stopped reading once its unread bytes pass the bound; readers and /health go on", async () => {
    const bound = 64 * 1024;
    server = await startTestServer({
      websocket: { maxBufferedBytes: bound },
      rateLimit: { calls: 10_000, windowMs: 10_000 },
    });
    const admin = await registerFirstAdmin(server);
    // a desk with many running spread-decompression bots: a snapshot of about 16 MB, more than
    // the kernel's socket buffers take, so what follows waits in the process
    const orders = Array.from({ length: 100 }, (_, i) => ({
      id: `order-${i}`.padEnd(36, "0"),
      side: i % 2 ? "Sell" : "Buy",
      price: "65000.12345678",
      amount: "0.00123456",
      filled: "0",
      placedAt: server.clock.now,
    }));
    for (let i = 0; i < 1200; i++)
      await server.storage.createBot({
        id: randomUUID(),
        botType: "spread-decompression-bot",
        path: ["Demo", "paper", "main"],
        paths: [],
        setup: { pair: "BTC/USDT" },
        wrappedCredentials: null,
        state: { status: "running", orders },
        created: server.clock.now + i,
      });
    const reader = await openLive(server.wsUrl);
    const stalled = await openLive(server.wsUrl);
    const socket = (stalled.ws as unknown as { _socket: Socket })._socket;
    socket.pause(); // it never reads again
    subscribe(reader.ws, admin.session.uuid, admin.session.accessToken);
    subscribe(stalled.ws, admin.session.uuid, admin.session.accessToken);
    expect((await reader.next(2))[1].data).toHaveLength(1200);
    const unread = () => server.logs.some((l) => l.includes("websocket closed: its reader left too much unread"));
    let created = 0;
    while (!unread() && created < 2000) {
      const bot = await call(server, "POST", "/token/bot", {
        token: admin.session.accessToken,
        headers: { path: JSON.stringify(["Demo", "paper", "main"]) },
        body: { botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4 } },
      });
      expect(bot.status).toBe(200);
      created++;
    }
    expect(unread()).toBe(true);
    const line = JSON.parse(server.logs.find((l) => l.includes("too much unread"))!);
    expect(line).toMatchObject({ channel: "live", address: "127.0.0.1" });
    expect(line.unread).toBeGreaterThan(bound);
    expect((await call(server, "GET", "/health")).status).toBe(200);
    // the reader got every delta and stays; the stalled socket, read at last, ends before them
    await reader.next(created);
    expect(reader.ws.readyState).toBe(WebSocket.OPEN);
    socket.resume();
    const closed = await stalled.closed;
    expect([4413, 1006]).toContain(closed.code);
    expect(stalled.messages.filter((m) => m.type === "delta").length).toBeLessThan(created);
    reader.ws.close();
  }, 60_000);
});
