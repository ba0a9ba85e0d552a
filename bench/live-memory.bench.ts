/**
 * What a live-channel socket costs the server (issue 31, docs/server-limits.md "Websockets"):
 * the resident memory (VmRSS of /proc/<pid>/status, sampled every 20 ms) of a built
 * `spotdesk serve` child process, a fresh one for each figure, with its clients in this process.
 *
 * - an idle subscribed live socket, against an idle keep-alive HTTP connection: the growth of 200
 *   of each, from 10 loopback addresses, divided by 200;
 * - 20,000 re-subscriptions on one socket, against 20,000 ignored 'ping' texts on one socket: the
 *   highest growth while they are handled (the socket is closed after the minute's 20);
 * - three sockets that never read, each subscribing to a desk of about 16 MB and re-subscribing
 *   19 times (the minute's budget; the 3 such sockets took the server from 350 MB to
 *   1.33 GB with a snapshot per re-subscription) while 300 bots are created (a delta each),
 *   against three that never read and subscribe once: the highest growth per socket.
 *
 * Skipped without the built CLI (`npm run bench` builds it).
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { request } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import WebSocket from "ws";
import { type AccountPath, pathHeader } from "../lib/api.js";
import { WEBSOCKET_DEFAULTS } from "../server/config.js";
import { openSqliteStorage } from "../server/storage/sqlite.js";
import { type Cluster, type ServerProcess, startCluster } from "../test/server/cluster.js";
import type { BenchOutcome } from "./index.js";

const DEMO: AccountPath = ["Demo", "paper", "main"];
const SOCKETS = 200;
const ADDRESSES = Array.from({ length: 10 }, (_, i) => `127.0.0.${i + 1}`);
const FLOOD = 20_000;
const DESK_BOTS = 1200;
const STALLED = 3;
const DELTAS = 300;
/** within the minute's budget of subscription messages (server/config.ts WEBSOCKET_DEFAULTS) */
const RESUBSCRIPTIONS = WEBSOCKET_DEFAULTS.subscribeMessagesPerMinute - 1;
const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Served {
  cluster: Cluster;
  server: ServerProcess;
  token: string;
  uuid: string;
}

/** A fresh `spotdesk serve` with its first admin and a desk of 20 grid bots. */
async function serve(): Promise<Served> {
  let token = "";
  let uuid = "";
  const cluster = await startCluster(1, {
    config: { rateLimit: { calls: 1e9, windowMs: 10_000 }, seedDemo: true },
    async first(p, setupCode) {
      const reg = await fetch(`${p.url}/register`, {
        method: "POST",
        headers: { email: "bench@example.com", password: "bench-password", code: setupCode },
      });
      ({ accessToken: token, uuid } = (await reg.json()) as { accessToken: string; uuid: string });
    },
  });
  const served = { cluster, server: cluster.processes[0]!, token, uuid };
  for (let i = 0; i < 20; i++) await createBot(served);
  return served;
}

function createBot(s: Served): Promise<Response> {
  return fetch(`${s.server.url}/token/bot`, {
    method: "POST",
    headers: { authorization: `Bearer ${s.token}`, path: pathHeader(DEMO), "content-type": "application/json" },
    body: JSON.stringify({ botType: "grid-bot", setup: { pair: "BTC/USDT", quote: 100, size: 4 } }),
  });
}

/** VmRSS of the server process, bytes. */
function rss(s: Served): number {
  const status = readFileSync(`/proc/${s.server.child.pid}/status`, "utf8");
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]) * 1024;
}

/** Samples the server's RSS every 20 ms while `work` runs; the highest growth over the start. */
async function peakGrowth(s: Served, work: () => Promise<void>): Promise<number> {
  const start = rss(s);
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, rss(s));
  }, 20);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  return Math.max(peak, rss(s)) - start;
}

/** A subscribed live socket from `localAddress`; resolves once its snapshot arrived. */
function subscribed(s: Served, localAddress: string, onMessage?: () => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${s.server.wsUrl}/`, { localAddress });
    let seen = 0;
    ws.on("message", () => {
      onMessage?.();
      if (++seen === 2) resolve(ws);
    });
    ws.once("open", () => ws.send(JSON.stringify({ purpose: "sub_for_bots", userId: s.uuid, token: s.token })));
    ws.once("error", reject);
  });
}

/** An idle keep-alive HTTP connection from `localAddress`, after one GET /health. */
function keptAlive(s: Served, localAddress: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.server.url}/health`, { localAddress, headers: { connection: "keep-alive" } }, (res) => {
      res.resume();
      res.on("end", () => resolve(req.socket!));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Memory per connection: 200 of them opened, then held a second. */
async function perConnection(open: (s: Served, address: string) => Promise<{ destroy(): void }>): Promise<number> {
  const s = await serve();
  try {
    await sleep(500);
    const held: { destroy(): void }[] = [];
    const growth = await peakGrowth(s, async () => {
      for (let i = 0; i < SOCKETS; i++) held.push(await open(s, ADDRESSES[i % ADDRESSES.length]!));
      await sleep(1000);
    });
    for (const h of held) h.destroy();
    return growth / SOCKETS;
  } finally {
    await s.cluster.close();
  }
}

/** The highest growth while one subscribed socket sends `text` 20,000 times (it reads what comes). */
async function flood(text: (s: Served) => string): Promise<number> {
  const s = await serve();
  try {
    const ws = await subscribed(s, "127.0.0.1");
    const closed = new Promise<void>((r) => ws.once("close", () => r()));
    return await peakGrowth(s, async () => {
      for (let i = 0; i < FLOOD; i++) ws.send(text(s));
      // handled when closed (4429) or when /health is answered after them all
      await Promise.race([closed, sleep(2000)]);
      await fetch(`${s.server.url}/health`);
    });
  } finally {
    await s.cluster.close();
  }
}

/** A desk of about 16 MB in the database: running spread-decompression bots with 100 orders each. */
async function seedDesk(s: Served): Promise<void> {
  const storage = openSqliteStorage(join(s.cluster.dataDir, "spotdesk.sqlite"));
  const orders = Array.from({ length: 100 }, (_, i) => ({
    id: `order-${i}`.padEnd(36, "0"),
    side: i % 2 ? "Sell" : "Buy",
    price: "65000.12345678",
    amount: "0.00123456",
    filled: "0",
    placedAt: Date.now(),
  }));
  try {
    for (let i = 0; i < DESK_BOTS; i++)
      await storage.createBot({
        id: randomUUID(),
        botType: "spread-decompression-bot",
        path: DEMO,
        paths: [],
        setup: { pair: "BTC/USDT" },
        wrappedCredentials: null,
        state: { status: "running", orders },
        created: Date.now() + i,
      });
  } finally {
    await storage.close();
  }
}

/**
 * The highest growth per socket of 3 sockets that never read the 16 MB desk, each sending
 * `resubscriptions` after its subscription, while 300 bots are created.
 */
async function stalledOnDesk(resubscriptions: number): Promise<number> {
  const s = await serve();
  try {
    await seedDesk(s);
    await sleep(500);
    const subscription = JSON.stringify({ purpose: "sub_for_bots", userId: s.uuid, token: s.token });
    const growth = await peakGrowth(s, async () => {
      const sockets: WebSocket[] = [];
      for (let i = 0; i < STALLED; i++) {
        const ws = new WebSocket(`${s.server.wsUrl}/`, { localAddress: ADDRESSES[i]! });
        await new Promise((r, j) => ws.once("open", r).once("error", j));
        (ws as unknown as { _socket: Socket })._socket.pause();
        for (let n = 0; n <= resubscriptions; n++) ws.send(subscription);
        sockets.push(ws);
      }
      await sleep(1000);
      for (let i = 0; i < DELTAS; i++) await createBot(s);
      await sleep(1000);
      for (const ws of sockets) ws.terminate();
    });
    return growth / STALLED;
  } finally {
    await s.cluster.close();
  }
}

export async function run(): Promise<BenchOutcome[]> {
  const name = "live channel: memory per idle subscribed socket";
  if (!existsSync(fileURLToPath(new URL("../dist/cli.js", import.meta.url))))
    return [{ name, skipped: "the CLI is not built (npm run build)" }];
  if (!existsSync("/proc/self/status")) return [{ name, skipped: "no /proc to read the server's memory from" }];
  const http = await perConnection(async (s, address) => keptAlive(s, address));
  const live = await perConnection(async (s, address) => {
    const ws = await subscribed(s, address);
    return { destroy: () => ws.terminate() };
  });
  const resubscribed = await flood((s) => JSON.stringify({ purpose: "sub_for_bots", userId: s.uuid, token: s.token }));
  const pinged = await flood(() => "ping");
  const resubscribing = await stalledOnDesk(RESUBSCRIPTIONS);
  const once = await stalledOnDesk(0);
  const bound = WEBSOCKET_DEFAULTS.maxBufferedBytes;
  return [
    {
      name,
      unit: "kB",
      better: "lower",
      value: Math.round(live / 1024),
      baseline: { name: "an idle keep-alive HTTP connection", value: Math.max(1, Math.round(http / 1024)) },
      detail: `server RSS growth over ${SOCKETS} of each from ${ADDRESSES.length} loopback addresses, a desk of 20 grid bots`,
    },
    {
      name: "live channel: highest growth while one socket sends 20,000 re-subscriptions",
      unit: "MB",
      better: "lower",
      value: Number((resubscribed / MB).toFixed(1)),
      baseline: { name: "20,000 ignored 'ping' texts on one socket", value: Number((pinged / MB).toFixed(1)) },
      targetRatio: 3,
      detail:
        "the socket is closed (4429) after the minute's 20 subscription messages; the issue measured 273 MB before",
    },
    {
      name: "live channel: highest growth per socket that never reads and re-subscribes (16 MB desk)",
      unit: "MB",
      better: "lower",
      value: Number((resubscribing / MB).toFixed(1)),
      baseline: { name: "per socket that never reads and subscribes once", value: Number((once / MB).toFixed(1)) },
      targetRatio: 1.5,
      detail: `${STALLED} sockets, ${DESK_BOTS} bots, ${RESUBSCRIPTIONS} re-subscriptions each, ${DELTAS} deltas; a stalled socket holds at most what is left of its one snapshot plus ${bound / MB} MiB`,
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(JSON.stringify(r));
}
