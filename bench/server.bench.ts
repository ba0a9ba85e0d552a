/**
 * The backend under load (issue 6 Checks): requests per second and p99 latency of an
 * authenticated GET /token/trade/balances on the demo paper account, 200 concurrent connections
 * (autocannon), against a real server on an ephemeral port with a real SQLite file.
 *
 * Every request runs the whole path: bearer token check (HMAC), session lookup, user lookup,
 * limiter, scope check, API-key record, a paper adapter built for the call, balances read from
 * the paper account file, JSON answer, a structured log line (formatted, then discarded). The
 * per-user limit of PRODUCT D8 (60 calls / 10 s) is raised for the run: it would otherwise answer
 * 604 to almost every request, which measures the limiter, not the server.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathHeader } from "../lib/api.js";
import { startServer } from "../server/index.js";
import { createJsonLogger } from "../server/log.js";
import type { BenchResult } from "./index.js";

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
/** autocannon ships no types; a non-literal specifier keeps the compiler from looking for them. */
async function loadAutocannon(): Promise<Autocannon> {
  const specifier: string = "autocannon";
  const mod = (await import(specifier)) as { default: Autocannon };
  return mod.default;
}

export const CONNECTIONS = 200;
export const DURATION_S = Number(process.env.BENCH_SERVER_SECONDS ?? 10);

export async function run(): Promise<BenchResult[]> {
  const dataDir = mkdtempSync(join(tmpdir(), "spotdesk-bench-server-"));
  const server = await startServer({
    port: 0,
    dataDir,
    rateLimit: { calls: 1e9, windowMs: 10_000 },
    logger: createJsonLogger({ level: "info", write: () => {} }),
  });
  try {
    const reg = await fetch(`${server.url}/register`, {
      method: "POST",
      headers: { email: "bench@example.com", password: "bench-password", code: server.setupCode! },
    });
    const { accessToken } = (await reg.json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}`, path: pathHeader(["Demo", "paper", "main"]) };
    const check = await fetch(`${server.url}/token/trade/balances`, { headers });
    if (check.status !== 200) throw new Error(`balances answered ${check.status}: ${await check.text()}`);
    const autocannon = await loadAutocannon();
    const result = await autocannon({
      url: `${server.url}/token/trade/balances`,
      connections: CONNECTIONS,
      duration: DURATION_S,
      headers,
    });
    const detail = `${CONNECTIONS} connections, ${DURATION_S} s, ${result.requests.total} requests, non-2xx ${result.non2xx}, errors ${result.errors}, timeouts ${result.timeouts}`;
    return [
      { name: "server: GET /token/trade/balances (paper, authenticated)", unit: "req/s", better: "higher", value: Math.round(result.requests.average), detail },
      { name: "server: GET /token/trade/balances p99 latency", unit: "ms", better: "lower", value: result.latency.p99, detail },
    ];
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.name}: ${r.value} ${r.unit} (${r.detail ?? ""})`);
}
