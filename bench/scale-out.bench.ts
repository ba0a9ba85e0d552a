/**
 * Issue 15 (docs/scale-out.md): authenticated trading calls on paper (place + cancel of a resting
 * Buy) through 3 `spotdesk serve` processes against the same load through 1, all on one
 * PostgreSQL and one Redis started here on loopback ports (test/server/services.ts). Throughput
 * and p99 as ratios: 3 processes over 1.
 *
 * Three paper accounts take the load, one autocannon instance each (200 connections in all): with
 * one process all three instances call it, with three each calls its own. paper serializes the
 * calls of one account with a lock file shared by the processes (docs/paper-store.md), so one
 * account would measure that lock, not the servers. The runs alternate, 1 then 3 processes.
 * Skipped without the PostgreSQL or Redis binaries, or without the built CLI.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type AccountPath, pathHeader } from "../lib/api.js";
import { type Cluster, startCluster } from "../test/server/cluster.js";
import {
  type PostgresService,
  postgresBin,
  redisServerBin,
  type Service,
  startPostgres,
  startRedis,
} from "../test/server/services.js";
import type { BenchOutcome } from "./index.js";
import { median } from "./index.js";
import { CONNECTIONS, loadAutocannon, RUN_SECONDS } from "./server.bench.js";

const RUNS = 3;
const ACCOUNTS: AccountPath[] = [
  ["Demo", "paper", "desk-a"],
  ["Demo", "paper", "desk-b"],
  ["Demo", "paper", "desk-c"],
];

export async function run(): Promise<BenchOutcome[]> {
  const name = "scale-out: place+cancel on paper, 3 processes vs 1 (PostgreSQL + Redis)";
  if (!postgresBin()) return [{ name, skipped: "PostgreSQL is not installed (apt-get install postgresql)" }];
  if (!redisServerBin()) return [{ name, skipped: "redis-server is not installed (apt-get install redis-server)" }];
  if (!existsSync(fileURLToPath(new URL("../dist/cli.js", import.meta.url))))
    return [{ name, skipped: "the CLI is not built (npm run build)" }];
  let postgres: PostgresService | undefined;
  let redis: Service | undefined;
  let cluster: Cluster | undefined;
  try {
    [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    let token = "";
    cluster = await startCluster(3, {
      database: await postgres.createDatabase(),
      redis: redis.url,
      config: { rateLimit: { calls: 1e9, windowMs: 10_000 } },
      async first(p, setupCode) {
        const reg = await fetch(`${p.url}/register`, {
          method: "POST",
          headers: { email: "bench@example.com", password: "bench-password", code: setupCode },
        });
        token = ((await reg.json()) as { accessToken: string }).accessToken;
        for (const path of ACCOUNTS) {
          const res = await fetch(`${p.url}/token/admin/apikeys`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
            body: JSON.stringify({ path, apis: { data: "", pair: "BTC/USDT", active: true } }),
          });
          if (res.status !== 200) throw new Error(`apikeys answered ${res.status}: ${await res.text()}`);
        }
      },
    });
    const urls = cluster.processes.map((p) => p.url);
    const autocannon = await loadAutocannon();
    const order = JSON.stringify({ side: "Buy", price: "1000", amount: "0.001" });
    const headersOf = (path: AccountPath) => ({
      authorization: `Bearer ${token}`,
      path: pathHeader(path),
      "content-type": "application/json",
    });
    const placeCancel = (url: string, path: AccountPath, seconds: number) =>
      autocannon({
        url,
        connections: Math.floor(CONNECTIONS / ACCOUNTS.length),
        duration: seconds,
        timeout: 60,
        headers: headersOf(path),
        requests: [
          {
            method: "POST",
            path: "/token/trade/order/create",
            body: order,
            onResponse: (status: number, body: string, context: Record<string, unknown>) => {
              context.id = status === 200 ? (JSON.parse(body) as { id: string }).id : undefined;
            },
          },
          {
            method: "POST",
            path: "/token/trade/order/cancel",
            setupRequest: (request: Record<string, unknown>, context: Record<string, unknown>) =>
              context.id === undefined ? null : { ...request, body: JSON.stringify({ id: context.id }) },
          },
        ],
      });
    /** one autocannon per account, on `processes` of the cluster's URLs (round robin) */
    const load = async (processes: number, seconds: number) => {
      const results = await Promise.all(ACCOUNTS.map((path, i) => placeCancel(urls[i % processes]!, path, seconds)));
      for (const path of ACCOUNTS)
        await fetch(`${urls[0]}/token/trade/order/cancel-all`, {
          method: "POST",
          headers: headersOf(path),
          body: "{}",
        });
      return {
        rate: results.reduce((n, r) => n + r.requests.average, 0),
        p99: Math.max(...results.map((r) => r.latency.p99)),
        failures: results.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0),
        total: results.reduce((n, r) => n + r.requests.total, 0),
      };
    };
    const check = await fetch(`${urls[1]}/token/trade/order/create`, {
      method: "POST",
      headers: headersOf(ACCOUNTS[0]!),
      body: order,
    });
    if (check.status !== 200)
      return [{ name, skipped: `order/create answered ${check.status}: ${await check.text()}` }];
    await load(3, 1); // warm-up of every process
    await load(1, 1);
    const one: Awaited<ReturnType<typeof load>>[] = [];
    const three: Awaited<ReturnType<typeof load>>[] = [];
    for (let i = 0; i < RUNS; i++) {
      one.push(await load(1, RUN_SECONDS));
      three.push(await load(3, RUN_SECONDS));
    }
    const failures = [...one, ...three].reduce((n, r) => n + r.failures, 0);
    const total = [...one, ...three].reduce((n, r) => n + r.total, 0);
    const detail = `${CONNECTIONS} connections over ${ACCOUNTS.length} paper accounts, median of ${RUNS} alternated runs of ${RUN_SECONDS} s, ${total} requests, ${failures} failures; autocannon in the bench process, all on one machine`;
    return [
      {
        name,
        unit: "req/s",
        better: "higher",
        value: Math.round(median(three.map((r) => r.rate))),
        baseline: { name: "1 process", value: Math.round(median(one.map((r) => r.rate))) },
        detail,
      },
      {
        name: "scale-out: place+cancel p99, 3 processes vs 1",
        unit: "ms",
        better: "lower",
        value: median(three.map((r) => r.p99)),
        baseline: { name: "1 process p99", value: median(one.map((r) => r.p99)) },
        detail,
      },
    ];
  } catch (error) {
    return [{ name, skipped: `the cluster did not run: ${(error as Error).message}` }];
  } finally {
    await cluster?.close();
    await Promise.allSettled([postgres?.stop(), redis?.stop()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(JSON.stringify(r));
}
