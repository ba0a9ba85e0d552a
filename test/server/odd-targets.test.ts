/**
 * Issue 16 "No request kills the process": a corpus of odd request targets, upgrades and
 * connections reset mid-request, sent with raw sockets to the built `spotdesk serve` as a child
 * process. Every answered request gets a status (400, 404, 405, 429 …) and the process is alive
 * and answers afterwards.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../cli/helpers.js";
import { plainRequest, rawRequest, upgradeRequest } from "./raw.js";

let child: ChildProcess;
let port: number;
let dataDir: string;
let stderr = "";

beforeAll(async () => {
  const bin = buildCli();
  dataDir = mkdtempSync(join(tmpdir(), "spotdesk-odd-"));
  child = spawn(process.execPath, [bin, "serve", "--port", "0", "--data", dataDir], {
    env: { PATH: process.env.PATH ?? "", HOME: dataDir, SPOTDESK_LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 15_000);
    child.stderr!.on("data", () => {
      const m = /spotdesk server on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
  rmSync(dataDir, { recursive: true, force: true });
});

const ODD_TARGETS = [
  "//",
  "//@",
  "//[::1",
  "//%zz",
  "///",
  "//@/health",
  "//user:pass@evil.example/health",
  "/%zz",
  "/%",
  "/book/%zz/%E0%A4%A",
  "/book/paper/%FF",
  "/token/admin/user/%zz",
  "/..%2f..%2fetc%2fpasswd",
  `/nothing?${"a".repeat(4000)}`,
  "*",
  "http://127.0.0.1/health",
  "health",
];

/** Every route of server/README.md, so each one also sees a connection reset mid-request. */
const ROUTES: [string, string][] = [
  ["GET", "/health"],
  ["GET", "/credentials"],
  ["POST", "/code"],
  ["POST", "/register"],
  ["POST", "/login/password"],
  ["POST", "/login/signature"],
  ["POST", "/user/refresh"],
  ["POST", "/user/logout"],
  ["GET", "/book/paper/BTC-USDT"],
  ["GET", "/api/bitteam/trade/api/orderbooks/DEL_USDT"],
  ["POST", "/api/kucoin/api/v1/bullet-public"],
  ["GET", "/token/me"],
  ["GET", "/token/clients"],
  ["GET", "/token/exchanges"],
  ["GET", "/token/pair"],
  ["POST", "/token/pair"],
  ["GET", "/token/trade/balances"],
  ["GET", "/token/trade/orders"],
  ["POST", "/token/trade/order/create"],
  ["POST", "/token/trade/order/cancel"],
  ["POST", "/token/trade/order/cancel-all"],
  ["GET", "/token/bots"],
  ["POST", "/token/bot"],
  ["DELETE", "/token/bot"],
  ["POST", "/token/admin/apikeys"],
  ["DELETE", "/token/admin/apikeys"],
  ["POST", "/token/admin/user"],
  ["GET", "/token/admin/users"],
];

const WS_TARGETS = [
  "/",
  "/nowhere",
  "/book",
  "/book?exchange=nope&pair=BTC-USDT",
  "/book?exchange=paper&pair=%zz",
  "/book?exchange=paper&pair=",
  "/book?exchange=paper&pair=BTC-USDT",
  ...ODD_TARGETS,
];

const alive = () => expect(child.exitCode, `serve exited: ${stderr}`).toBeNull();

describe("no request kills the process (issue 16)", () => {
  it("answers odd request targets with a status, for every method", async () => {
    for (const target of ODD_TARGETS) {
      for (const method of ["GET", "POST", "PUT", "DELETE", "HEAD"]) {
        const answer = await rawRequest(plainRequest(method, target, {}, method === "POST" ? "{}" : undefined), {
          port,
        });
        expect(answer.status, `${method} ${target}: ${answer.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${method} ${target}`).toBeLessThan(500);
      }
    }
    for (const target of ["//", "//@", "//[::1", "//%zz"]) {
      const answer = await rawRequest(plainRequest("GET", target), { port });
      expect([400, 404], target).toContain(answer.status);
    }
    alive();
  });

  it("answers odd or unknown websocket upgrades with a status before the handshake", async () => {
    const expected: Record<string, number[]> = {
      "/": [101],
      "/book?exchange=paper&pair=BTC-USDT": [101],
      "/nowhere": [404],
      "/book": [400],
      "/book?exchange=nope&pair=BTC-USDT": [400],
      "/book?exchange=paper&pair=%zz": [400],
      "/book?exchange=paper&pair=": [400],
    };
    for (const target of WS_TARGETS) {
      const answer = await rawRequest(upgradeRequest(target), { port });
      const allowed = expected[target] ?? [400, 404];
      expect(allowed, `${target}: ${answer.text.slice(0, 200)}`).toContain(answer.status);
    }
    alive();
  });

  it("survives connections reset at every moment: on upgrades, odd targets and every route", async () => {
    const resets: Promise<unknown>[] = [];
    for (const delay of [0, 5, 50]) {
      for (const target of WS_TARGETS) resets.push(rawRequest(upgradeRequest(target), { port, resetAfterMs: delay }));
      for (const target of ODD_TARGETS)
        resets.push(rawRequest(plainRequest("GET", target), { port, resetAfterMs: delay }));
      for (const [method, path] of ROUTES) {
        // headers only, a half-sent body, and a complete request reset before the answer is read
        resets.push(
          rawRequest(`${method} ${path} HTTP/1.1\r\nHost: x\r\nauthorization: Bearer x.y\r\n`, {
            port,
            resetAfterMs: delay,
          }),
        );
        resets.push(
          rawRequest(`${method} ${path} HTTP/1.1\r\nHost: x\r\ncontent-length: 1000\r\n\r\n{"a":`, {
            port,
            resetAfterMs: delay,
          }),
        );
        resets.push(
          rawRequest(plainRequest(method, path, { email: "a@example.com" }, method === "GET" ? undefined : "{}"), {
            port,
            resetAfterMs: delay,
          }),
        );
      }
      await Promise.all(resets.splice(0));
      alive();
    }
    // garbage that is not HTTP at all, and a huge header
    await rawRequest("\u0000\u0001\u0002 not http\r\n\r\n", { port });
    await rawRequest(`GET / HTTP/1.1\r\nHost: x\r\nx-big: ${"b".repeat(70_000)}\r\n\r\n`, { port });
    alive();
    const health = await rawRequest(plainRequest("GET", "/health"), { port });
    expect(health.status).toBe(200);
    expect(health.text).toContain('"status":"ok"');
  }, 60_000);
});
