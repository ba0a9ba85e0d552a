import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ExchangeError } from "../../../lib/errors.js";
import type { Credentials } from "../../../lib/types.js";
import { createExchange } from "../../registry.js";
import type { ExchangeAdapter } from "../../types.js";
import { parseQuery, type ReceivedRequest, startMockServer } from "./http-mock.js";

/**
 * Recorded request/answer fixtures, replayed by one runner (issue 14). Each `exchanges/<id>/fixtures.json`
 * holds cases: an adapter call, the requests it sent (method, path, parameters without the ones that
 * change per call: timestamps, signatures) with the exchange's answers as raw text, and what the call
 * returned or the error it threw. The runner answers each request with its recorded text on a plain
 * loopback server (no signature check) and checks the adapter asks the same and reads the same: a
 * change to an adapter's request building or answer reading shows up here as a diff.
 *
 * `SPOTDESK_RECORD_FIXTURES=1 npx vitest run exchanges/core/testing/fixtures.test.ts` records them
 * again from the fake exchange of each adapter (exchanges/<id>/mock.ts), through a recording proxy
 * (what is recorded: fixture-recordings.ts); then `npx biome check --write` on the fixtures.json files.
 * A new exchange adds its line to fixture-recordings.ts.
 */

interface RecordedRequest {
  method: string;
  path: string;
  params: unknown;
}
interface Exchange {
  request: RecordedRequest;
  answer: { status: number; body: string };
}
interface Case {
  name: string;
  call: "fetchOrder" | "fetchOpenOrders" | "fetchBalances" | "cancelOrder" | "cancelAll" | "cancelBatch";
  args: unknown[];
  exchange: Exchange[];
  result?: unknown;
  error?: { kind: string; detail: string };
}
interface Fixtures {
  exchange: string;
  credentials: Credentials;
  cases: Case[];
}

const ROOT = join(import.meta.dirname, "..", "..");
/** Parameters that change on every call: left out of the recording and the comparison. */
const VOLATILE = new Set(["timestamp", "signature", "recvWindow"]);

function paramsOf(req: ReceivedRequest): unknown {
  if (req.body) return JSON.parse(req.body);
  return Object.fromEntries(Object.entries(parseQuery(req.query)).filter(([key]) => !VOLATILE.has(key)));
}

async function run(adapter: ExchangeAdapter, c: Pick<Case, "call" | "args">): Promise<Pick<Case, "result" | "error">> {
  try {
    const call = adapter[c.call] as (...args: unknown[]) => Promise<unknown>;
    return { result: await call.apply(adapter, c.args) };
  } catch (error) {
    if (!(error instanceof ExchangeError)) throw error;
    return { error: { kind: error.kind, detail: error.detail } };
  }
}

const ids = readdirSync(ROOT).filter((id) => {
  try {
    readFileSync(join(ROOT, id, "fixtures.json"));
    return true;
  } catch {
    return false;
  }
});

describe.skipIf(process.env.SPOTDESK_RECORD_FIXTURES)("recorded fixtures replayed against each adapter", () => {
  it("finds the fixtures of group A at least", () => {
    expect(ids).toEqual(expect.arrayContaining(["bingx", "bitget", "bybit", "gate", "kucoin", "mexc", "okx"]));
  });

  for (const id of ids) {
    const fixtures = JSON.parse(readFileSync(join(ROOT, id, "fixtures.json"), "utf8")) as Fixtures;
    describe(id, () => {
      for (const c of fixtures.cases) {
        it(c.name, async () => {
          const server = await startMockServer();
          const queue = [...c.exchange];
          server.intercept((req) => {
            const next = queue.shift();
            if (!next) return { status: 599, body: { fixture: "no more answers recorded", route: req.path } };
            return { status: next.answer.status, body: next.answer.body };
          });
          try {
            const adapter = createExchange(id, fixtures.credentials, { baseUrl: server.url, timeoutMs: 2000 });
            const outcome = await run(adapter, c);
            const sent = server.requests.map((r) => ({ method: r.method, path: r.path, params: paramsOf(r) }));
            expect(sent).toEqual(c.exchange.map((e) => e.request));
            expect(outcome).toEqual(c.error ? { error: c.error } : { result: c.result });
          } finally {
            await server.close();
          }
        });
      }
    });
  }
});

// ---- Recording (on demand) ----

/** A proxy in front of a fake exchange that keeps each request and the answer's raw text. */
async function recordingProxy(target: string) {
  const log: Exchange[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k !== "host" && k !== "content-length") as [string, string][],
      );
      const answer = await fetch(target + (req.url ?? "/"), {
        method: req.method,
        headers,
        ...(body ? { body } : {}),
      });
      const text = await answer.text();
      const raw = req.url ?? "/";
      const q = raw.indexOf("?");
      const received: ReceivedRequest = {
        method: req.method ?? "GET",
        path: q === -1 ? raw : raw.slice(0, q),
        query: q === -1 ? "" : raw.slice(q + 1),
        body,
        headers: req.headers,
      };
      log.push({
        request: { method: received.method, path: received.path, params: paramsOf(received) },
        answer: { status: answer.status, body: text },
      });
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.runIf(process.env.SPOTDESK_RECORD_FIXTURES)("recording fixtures from the fake exchanges", () => {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("records group A", async () => {
    const { RECORDINGS } = await import("./fixture-recordings.js");
    for (const [id, r] of Object.entries(RECORDINGS)) {
      const fake = await r.start();
      const proxy = await recordingProxy(fake.url);
      closers.push(fake.close, proxy.close);
      const adapter = createExchange(id, r.credentials, { baseUrl: proxy.url, timeoutMs: 2000 });
      const [a, b] = [
        await adapter.createOrder({
          pair: r.pair,
          side: "Buy",
          amount: "0.01",
          price: "30000",
          clientOrderId: r.ids[0],
        }),
        await adapter.createOrder({
          pair: r.pair,
          side: "Sell",
          amount: "0.02",
          price: "40000",
          clientOrderId: r.ids[1],
        }),
      ];
      const plan: Pick<Case, "name" | "call" | "args">[] = [
        { name: "fetchOrder reads one open order", call: "fetchOrder", args: [r.pair, a.id] },
        { name: "fetchOpenOrders reads both open orders", call: "fetchOpenOrders", args: [r.pair] },
        { name: "cancelOrder cancels one", call: "cancelOrder", args: [r.pair, a.id] },
        { name: "fetchOrder reads the cancelled order", call: "fetchOrder", args: [r.pair, a.id] },
        { name: "fetchOrder of an unknown id is order-not-found", call: "fetchOrder", args: [r.pair, r.unknown] },
        { name: "fetchBalances reads the balances", call: "fetchBalances", args: [] },
        ...r.more(b.id),
      ];
      const cases: Case[] = [];
      for (const step of plan) {
        proxy.log.length = 0;
        const outcome = await run(adapter, step);
        cases.push({ ...step, exchange: [...proxy.log], ...JSON.parse(JSON.stringify(outcome)) });
      }
      const fixtures: Fixtures = { exchange: id, credentials: r.credentials, cases };
      writeFileSync(join(ROOT, id, "fixtures.json"), `${JSON.stringify(fixtures, null, 2)}\n`);
    }
  });
});
