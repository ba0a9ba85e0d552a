/**
 * What the server's router costs a request (issue 14, docs/server-speed.md "The router on Hono"):
 * CPU time of this process per answered request for a public JSON route served by
 * `createRouter` (Hono on @hono/node-server: target parsing, dispatch, context, limiter hook,
 * log line, JSON answer), against a bare `node:http` handler writing the same JSON with the same
 * headers. autocannon runs in a child process, so this process's CPU time (`process.cpuUsage()`)
 * is the server's alone; the two servers' runs alternate. CPU time per request is also what a
 * loaded machine distorts least: the rates of both swing with the load, their ratio much less.
 */
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { createRouter } from "../server/http.js";
import { createJsonLogger } from "../server/log.js";
import { type BenchOutcome, median } from "./index.js";

const CONNECTIONS = 100;
const SECONDS = Number(process.env.BENCH_SERVER_SECONDS ?? 3);
const RUNS = 3;
const BODY = JSON.stringify({ status: "ok" });

/** autocannon against `url` in a child process; resolves with the number of 2xx answers. */
function loadFromChild(url: string, seconds: number): Promise<number> {
  const autocannon = createRequire(import.meta.url).resolve("autocannon");
  const script = `
    const autocannon = (await import(${JSON.stringify(autocannon)})).default;
    const r = await autocannon({ url: ${JSON.stringify(url)}, connections: ${CONNECTIONS}, duration: ${seconds} });
    process.stdout.write(JSON.stringify({ ok: r["2xx"], bad: r.non2xx + r.errors }));`;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--input-type=module", "-e", script], (error, stdout) => {
      if (error) return reject(error);
      const { ok, bad } = JSON.parse(stdout) as { ok: number; bad: number };
      if (bad > 0) return reject(new Error(`${bad} failed requests against ${url}`));
      resolve(ok);
    });
  });
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
}

/** CPU microseconds of this process per answered request during one child run. */
async function cpuPerRequest(url: string): Promise<number> {
  const before = process.cpuUsage();
  const answered = await loadFromChild(url, SECONDS);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / answered;
}

export async function run(): Promise<BenchOutcome[]> {
  const name = "server router: CPU per request, GET /health through createRouter (Hono)";
  const bare = createServer((_req, res) => {
    res.writeHead(200, {
      "content-type": "application/json; charset=utf-8",
      "content-length": String(Buffer.byteLength(BODY)),
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    });
    res.end(BODY);
  });
  const handle = createRouter(
    [{ method: "GET", path: "/health", auth: "public", handler: async () => ({ status: "ok" }) }],
    {
      authenticate: async () => {},
      limitPublic: async () => {},
      logger: createJsonLogger({ level: "info", write: () => {} }),
      corsOrigins: new Set(),
      draining: () => false,
      clientAddress: (req) => req.socket.remoteAddress ?? "",
    },
  );
  const routed = createServer((req, res) => void handle(req, res));
  try {
    const bareUrl = await listen(bare);
    const routedUrl = await listen(routed);
    await loadFromChild(bareUrl, 1); // warm-up of both (JIT, connections)
    await loadFromChild(routedUrl, 1);
    const bareCost: number[] = [];
    const routedCost: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      bareCost.push(await cpuPerRequest(bareUrl));
      routedCost.push(await cpuPerRequest(routedUrl));
    }
    const round = (us: number) => Math.round(us * 10) / 10;
    return [
      {
        name,
        unit: "us/request",
        better: "lower",
        value: round(median(routedCost)),
        baseline: { name: "bare node:http handler, same JSON", value: round(median(bareCost)) },
        detail: `${CONNECTIONS} connections from autocannon in a child process, median of ${RUNS} alternated runs of ${SECONDS} s; runs: router ${routedCost.map(round).join(", ")}, bare ${bareCost.map(round).join(", ")}`,
      },
    ];
  } catch (error) {
    return [{ name, skipped: `the load did not run: ${(error as Error).message}` }];
  } finally {
    await Promise.all([bare, routed].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(JSON.stringify(r));
}
