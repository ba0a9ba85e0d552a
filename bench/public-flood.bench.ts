/**
 * One stranger cannot slow the server for everyone (issue 31 Checks, docs/server-limits.md
 * "Bounded work"): `/health` p99 while one client floods each public route at full speed stays
 * under 50 ms.
 *
 * A real server on 127.0.0.1 (startServer, a temp data dir, its relays pointed at a mock upstream on
 * 127.0.0.1, so no traffic leaves loopback). For each public route of lib/api.ts ROUTES, one child
 * process floods it from 127.0.0.1 with autocannon (FLOOD_CONNECTIONS connections, no pause) while
 * another child probes GET /health every PROBE_EVERY_MS from PROBE_ADDRESSES other addresses in
 * turn (127.0.1.1, 127.0.1.2 …: everyone else, so neither the flood's per-address public limit nor
 * the probes' own touches them; server/address.ts keys on the TCP peer). A probe that is not
 * answered 200 is a miss whatever the latency: a refusal is fast, and it is no answer.
 * Each probe is timed from when it was due, not when it left, so a stall counts once for every
 * probe it held back. The baseline is the same prober with no flood, its windows alternated with the
 * floods. Requests carry what the route reads (a registered e-mail, wrong codes and passwords,
 * a paper pair): most answers are refusals (4xx, or 604 once the public limit applies), which is
 * what a stranger's flood gets; the figures hold on either side of that limit's fix, they just measure.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, get, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HEADER, ROUTES, type RouteName } from "../lib/api.js";
import { type RunningServer, startServer } from "../server/index.js";
import { createJsonLogger } from "../server/log.js";
import type { BenchOutcome, BenchResult } from "./index.js";
import { percentileOf, registerBenchAdmin } from "./server.bench.js";

/** seconds of each measured flood (after FLOOD_WARMUP_MS), and of each baseline window */
const FLOOD_SECONDS = Number(process.env.BENCH_FLOOD_SECONDS ?? 2.5);
const BASELINE_SECONDS = 1;
/** the flood's connections are open and answering before the probes count */
const FLOOD_WARMUP_MS = 700;
const FLOOD_CONNECTIONS = 10;
const PROBE_EVERY_MS = 10;
/** a probe not answered by then counts with the time it waited */
const PROBE_TIMEOUT_MS = 10_000;
const TARGET_P99_MS = 50;
const FLOOD_ADDRESS = "127.0.0.1";
/** the probes' source addresses, in turn: 64 × 60 calls per 10 s window (lib/api.ts SERVER_LIMITS) is far above 100 probes a second */
const PROBE_ADDRESSES = 64;
const probeAddress = (i: number): string => `127.0.1.${1 + (i % PROBE_ADDRESSES)}`;
const EMAIL = "bench@example.com";

/** The path each public route is flooded on (a paper pair for the book and the candles, the relays' own pair). */
const FLOOD_PATHS: Partial<Record<RouteName, string>> = {
  health: "/health",
  ready: "/health/ready",
  metrics: "/metrics",
  openapi: "/openapi.json",
  credentials: "/credentials",
  code: "/code",
  register: "/register",
  loginPassword: "/login/password",
  loginSignature: "/login/signature",
  refresh: "/user/refresh",
  logout: "/user/logout",
  book: "/book/paper/BTC-USDT",
  candles: "/candles/paper/BTC-USDT?interval=86400&limit=500",
  relayBitteamBook: "/api/bitteam/trade/api/orderbooks/BTC_USDT",
  relayKucoinBullet: "/api/kucoin/api/v1/bullet-public",
};

/** What the flood sends in each header a route needs: a registered e-mail, everything else wrong. */
function headerValue(header: string): string {
  if (header === HEADER.email) return EMAIL;
  if (header === HEADER.timestamp) return String(Date.now());
  if (header === HEADER.code) return "WRONG123";
  if (header === HEADER.userId) return "1";
  return "AAAA";
}

interface Flood {
  route: RouteName;
  path: string;
  label: string;
  /** a new interval per request, so that the candle cache never answers */
  varyInterval?: boolean;
}

interface FloodAnswer {
  rate: number;
  statuses: Record<string, number>;
  errors: number;
}

interface Probed {
  latencies: number[];
  failures: number;
}

const AUTOCANNON = createRequire(import.meta.url).resolve("autocannon");

/** Runs an ES module script in a child process (so its load is not this process's); resolves with its JSON output. */
function child<T>(script: string, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script],
      { timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return reject(error);
        resolve(JSON.parse(stdout) as T);
      },
    );
  });
}

/** One client flooding `flood` at full speed for `seconds`, from FLOOD_ADDRESS. */
function runFlood(url: string, flood: Flood, seconds: number): Promise<FloodAnswer> {
  const { method, headers } = ROUTES[flood.route];
  const { path } = flood;
  const options = {
    url: `${url}${path}`,
    method,
    headers: Object.fromEntries(headers.map((header) => [header, headerValue(header)])),
    connections: FLOOD_CONNECTIONS,
    duration: seconds,
  };
  const script = `
    const autocannon = (await import(${JSON.stringify(AUTOCANNON)})).default;
    const options = ${JSON.stringify(options)};
    let n = 0;
    if (${flood.varyInterval === true})
      options.requests = [{ setupRequest: (req) => ({ ...req, path: "${path.split("?")[0]}?limit=500&interval=" + (86400 - (n++ % 80000)) }) }];
    const r = await autocannon(options);
    const statuses = Object.fromEntries(Object.entries(r.statusCodeStats).map(([code, s]) => [code, s.count]));
    process.stdout.write(JSON.stringify({ rate: r.requests.average, statuses, errors: r.errors + r.timeouts }));`;
  return child<FloodAnswer>(script, (seconds + 30) * 1000);
}

/** GET /health from the probe addresses in turn every PROBE_EVERY_MS for `seconds` after `delayMs`, each timed from when it was due. */
function runProbe(url: string, delayMs: number, seconds: number): Promise<Probed> {
  const config = {
    url: `${url}/health`,
    localAddresses: Array.from({ length: PROBE_ADDRESSES }, (_, i) => probeAddress(i)),
    delayMs,
    count: Math.round((seconds * 1000) / PROBE_EVERY_MS),
    everyMs: PROBE_EVERY_MS,
    timeoutMs: PROBE_TIMEOUT_MS,
  };
  const script = `
    import { Agent, get } from "node:http";
    const c = ${JSON.stringify(config)};
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
    await sleep(c.delayMs);
    const latencies = [];
    let failures = 0;
    const probes = [];
    const start = performance.now();
    for (let i = 0; i < c.count; i++) {
      const due = start + i * c.everyMs;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      probes.push(new Promise((resolve) => {
        const req = get(c.url, { agent, localAddress: c.localAddresses[i % c.localAddresses.length] }, (res) => {
          res.resume();
          res.on("end", () => {
            if (res.statusCode !== 200) failures++;
            latencies.push(performance.now() - due);
            resolve();
          });
        });
        req.setTimeout(c.timeoutMs, () => req.destroy(new Error("timed out")));
        req.on("error", () => {
          failures++;
          latencies.push(performance.now() - due);
          resolve();
        });
      }));
    }
    await Promise.all(probes);
    agent.destroy();
    process.stdout.write(JSON.stringify({ latencies, failures }));`;
  return child<Probed>(script, delayMs + seconds * 1000 + PROBE_TIMEOUT_MS + 30_000);
}

/** A mock upstream for the two gateway relays: a small JSON answer to anything. */
async function startUpstream(): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true,"data":{"bids":[],"asks":[]}}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Whether this machine routes 127.0.1.x → 127.0.0.1 (every 127/8 address is loopback on Linux). */
function probeAddressWorks(url: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = get(`${url}/health`, { localAddress: probeAddress(0) }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on("error", () => resolve(false));
  });
}

const ms = (value: number): string => value.toFixed(1);

export async function run(): Promise<BenchOutcome[]> {
  const name = "public flood: /health p99 while one client floods each public route";
  // POST /code sends an e-mail: with an SMTP server configured it would leave loopback
  if (process.env.SPOTDESK_SMTP_URL) return [{ name, skipped: "SPOTDESK_SMTP_URL is set: the /code flood would mail" }];
  const upstream = await startUpstream();
  const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-bench-flood-"));
  let server: RunningServer | undefined;
  try {
    server = await startServer({
      port: 0,
      host: FLOOD_ADDRESS,
      dataDir,
      relay: { bitteam: upstream.url, kucoin: upstream.url },
      logger: createJsonLogger({ level: "info", write: () => {} }),
    });
    if (!(await probeAddressWorks(server.url)))
      return [{ name, skipped: `no route from ${probeAddress(0)} to ${FLOOD_ADDRESS} on this machine` }];
    await registerBenchAdmin(server);
    // every public route of the table; one added without a flood path is reported, not left out silently
    const publicRoutes = (Object.keys(ROUTES) as RouteName[]).filter((route) => ROUTES[route].auth === "public");
    const unflooded = publicRoutes.filter((route) => FLOOD_PATHS[route] === undefined);
    const floods: Flood[] = publicRoutes.flatMap((route) => {
      const path = FLOOD_PATHS[route];
      return path === undefined ? [] : [{ route, path, label: `${ROUTES[route].method} ${path}` }];
    });
    floods.push({
      route: "candles",
      path: FLOOD_PATHS.candles!,
      label: "GET /candles/paper/BTC-USDT?limit=500, a new interval each call (the cache never answers)",
      varyInterval: true,
    });
    const baseline: number[] = [];
    const measured: { flood: Flood; answer: FloodAnswer; probed: Probed }[] = [];
    for (const flood of floods) {
      const quiet = await runProbe(server.url, 0, BASELINE_SECONDS);
      baseline.push(...quiet.latencies);
      const seconds = FLOOD_WARMUP_MS / 1000 + FLOOD_SECONDS;
      const [answer, probed] = await Promise.all([
        runFlood(server.url, flood, seconds + 0.3),
        runProbe(server.url, FLOOD_WARMUP_MS, FLOOD_SECONDS),
      ]);
      measured.push({ flood, answer, probed });
    }
    baseline.sort((a, b) => a - b);
    const baseP50 = percentileOf(baseline, 0.5);
    const baseP99 = percentileOf(baseline, 0.99);
    const skipped = unflooded.map((route) => ({
      name: `public flood: ${route}`,
      skipped: "no flood path written for this public route",
    }));
    return [
      ...skipped,
      ...measured.map(({ flood, answer, probed }): BenchResult => {
        const sorted = [...probed.latencies].sort((a, b) => a - b);
        const p50 = percentileOf(sorted, 0.5);
        const p99 = percentileOf(sorted, 0.99);
        const statuses = Object.entries(answer.statuses)
          .map(([code, count]) => `${code}×${count}`)
          .join(" ");
        return {
          name: `public flood: /health p99 while flooding ${flood.label}`,
          unit: "ms",
          better: "lower",
          // a refused or failed probe is a miss: the p99 of answers nobody got counts as the timeout
          value: probed.failures === 0 ? p99 : PROBE_TIMEOUT_MS,
          baseline: { name: "/health p99 with no flood", value: baseP99 },
          target: TARGET_P99_MS,
          detail:
            `/health p50 ${ms(p50)} ms (${(p50 / baseP50).toFixed(2)}x the quiet ${ms(baseP50)} ms), p99 < ${TARGET_P99_MS} ms: ${p99 < TARGET_P99_MS ? "yes" : "NO"}; ` +
            `${sorted.length} probes from ${PROBE_ADDRESSES} addresses, ${probed.failures} not answered 200 (must be 0); flood from ${FLOOD_ADDRESS} ` +
            `${Math.round(answer.rate)} req/s on ${FLOOD_CONNECTIONS} connections, answers ${statuses || "none"}, ${answer.errors} errors`,
        };
      }),
    ];
  } finally {
    await server?.close();
    upstream.server.closeAllConnections();
    await new Promise<void>((resolve) => upstream.server.close(() => resolve()));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// `tsx bench/public-flood.bench.ts` runs it alone
if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  void run().then((results) => console.log(JSON.stringify(results, null, 2)));
}
