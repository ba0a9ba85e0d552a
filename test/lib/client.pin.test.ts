/**
 * Pins of lib/client.ts against a real HTTP server on 127.0.0.1 and Node's own fetch (the default
 * the client falls back to): what goes on the wire and how each answer is read
 * (docs/api.md#calls, #errors; docs/decisions.md#d2, #d18; docs/mutation.md).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type ApiFailure, createApiClient, describeFailure, networkFailure } from "../../lib/client.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the next request gets: status and raw body text; "hang" never answers. */
let answer: { status: number; body: string } | "hang" = { status: 200, body: "{}" };
const seen: Seen[] = [];
let server: Server;
let base = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
      if (answer === "hang") return;
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function next(status: number, body: unknown) {
  answer = { status, body: typeof body === "string" ? body : JSON.stringify(body) };
  seen.length = 0;
}

describe("requests on the wire", () => {
  it("sends a GET with no body, no content type, no caching and the bearer token, to the base without its last slash", async () => {
    next(200, ["Acme"]);
    const client = createApiClient({ baseUrl: `${base}/`, accessToken: () => "tok", now: () => 5 });
    expect(await client.call("clients")).toEqual({ ok: true, data: ["Acme"] });
    const [req] = seen;
    expect(req).toMatchObject({ method: "GET", url: "/token/clients", body: "" });
    expect(req!.headers.authorization).toBe("Bearer tok");
    expect(req!.headers["cache-control"]).toBe("no-cache");
    expect(req!.headers["content-type"]).toBeUndefined();
    // clients needs neither: no timestamp, user id, path or key
    for (const name of ["timestamp", "user-id", "path", "key"]) expect(req!.headers[name], name).toBeUndefined();
  });

  it("sends a JSON body with its content type, the account path and the key, and no cache header on POST", async () => {
    next(200, { id: "1" });
    const client = createApiClient({ baseUrl: base, accessToken: () => "tok" });
    const r = await client.call("createOrder", {
      path: ["Acme", "paper", "main"],
      key: "k".repeat(16),
      body: { price: "1.5", amount: "2", side: "Buy" },
      headers: { "x-extra": "yes", "x-unset": undefined },
    });
    expect(r).toEqual({ ok: true, data: { id: "1" } });
    const [req] = seen;
    expect(req).toMatchObject({ method: "POST", url: "/token/trade/order/create" });
    expect(JSON.parse(req!.body)).toEqual({ price: "1.5", amount: "2", side: "Buy" });
    expect(req!.headers["content-type"]).toBe("application/json");
    expect(req!.headers.path).toBe('["Acme","paper","main"]');
    expect(req!.headers.key).toBe("k".repeat(16));
    expect(req!.headers["x-extra"]).toBe("yes");
    expect("x-unset" in req!.headers).toBe(false);
    expect(req!.headers["cache-control"]).toBeUndefined();
  });

  it("sends an empty key as an empty header, but no header for a key not given", async () => {
    next(200, {});
    const client = createApiClient({ baseUrl: base });
    await client.call("balances", { path: ["A", "paper", "main"], key: "" });
    await client.call("balances", { path: ["A", "paper", "main"] });
    expect(seen[0]!.headers.key).toBe("");
    expect("key" in seen[1]!.headers).toBe(false);
  });

  it("sends no token to a public route, nor when there is none; the user id and timestamp only where listed", async () => {
    next(200, {});
    const client = createApiClient({ baseUrl: base, accessToken: () => "tok", userId: () => "u-1", now: () => 1234 });
    await client.call("book", { params: { exchange: "paper", pair: "BTC/USDT" } });
    await client.call("refresh");
    await client.call("loginPassword", { headers: { email: "a@b.co", password: "p".repeat(8), code: "ABCD2345" } });
    await createApiClient({ baseUrl: base, accessToken: () => undefined }).call("me");
    await createApiClient({ baseUrl: base, userId: () => "" }).call("refresh");
    const [book, refresh, login, me, noUser] = seen;
    expect(book!.url).toBe("/book/paper/BTC%2FUSDT");
    expect(book!.headers.authorization).toBeUndefined();
    expect(book!.headers["user-id"]).toBeUndefined();
    expect(refresh!.headers["user-id"]).toBe("u-1");
    expect(refresh!.headers.timestamp).toBe("1234");
    expect(login!.headers.timestamp).toBe("1234");
    expect(login!.headers["user-id"]).toBeUndefined();
    expect(login!.headers.email).toBe("a@b.co");
    expect(me!.headers.authorization).toBeUndefined();
    expect(noUser!.headers["user-id"]).toBeUndefined();
    expect(Number(noUser!.headers.timestamp)).toBeGreaterThan(1_600_000_000_000);
  });

  it("fills a missing route parameter with nothing", async () => {
    next(200, {});
    await createApiClient({ baseUrl: base }).call("user");
    expect(seen[0]!.url).toBe("/token/admin/user/");
  });
});

describe("answers", () => {
  it("reads an empty 200 as no data and an unreadable 200 as no data", async () => {
    const client = createApiClient({ baseUrl: base });
    next(200, "");
    expect(await client.call("logout")).toEqual({ ok: true, data: undefined });
    next(200, "not json");
    expect(await client.call("clients")).toEqual({ ok: true, data: undefined });
  });

  it("reports a failure once, as the catalogue's title, with the server's reason as msg for 600", async () => {
    const failures: ApiFailure[] = [];
    const onSuccess = vi.fn();
    const reachable: boolean[] = [];
    const client = createApiClient({
      baseUrl: base,
      onFailure: (f) => failures.push(f),
      onSuccess,
      onReachable: (r) => reachable.push(r),
    });
    next(400, { code: 600, msg: "pair: Write the pair as BASE/QUOTE" });
    expect(await client.call("setTokenPair", { body: {} })).toEqual({
      ok: false,
      code: 600,
      msg: "pair: Write the pair as BASE/QUOTE",
    });
    next(401, { code: 602, msg: "expired" });
    expect(await client.call("clients")).toEqual({
      ok: false,
      code: 602,
      msg: "Need to refresh your Access Token, try to update page!",
    });
    expect(failures).toEqual([
      {
        code: 600,
        title: "Task failed to execute...",
        description: "pair: Write the pair as BASE/QUOTE",
        method: "POST",
        path: "/token/pair",
      },
      {
        code: 602,
        title: "Need to refresh your Access Token, try to update page!",
        method: "GET",
        path: "/token/clients",
      },
    ]);
    expect(onSuccess).not.toHaveBeenCalled();
    expect(reachable).toEqual([true, true]);
  });

  it("reads a failure without an error body as a request failure titled with the path", async () => {
    const failures: ApiFailure[] = [];
    const client = createApiClient({ baseUrl: base, onFailure: (f) => failures.push(f) });
    next(502, "<html>Bad gateway</html>");
    expect(await client.call("cancelAll", { body: {} })).toEqual({
      ok: false,
      code: 600,
      msg: "Task failed to execute...",
    });
    expect(failures).toEqual([networkFailure("POST", "/token/trade/order/cancel-all")]);
    expect(networkFailure("POST", "/x")).toEqual({
      code: 600,
      title: "/x",
      description: "Task failed to execute...",
      method: "POST",
      path: "/x",
    });
  });

  it("calls nothing back for a quiet call, success or failure", async () => {
    const onFailure = vi.fn();
    const onSuccess = vi.fn();
    const client = createApiClient({ baseUrl: base, onFailure, onSuccess });
    next(200, {});
    expect(await client.call("refresh", { quiet: true })).toEqual({ ok: true, data: {} });
    next(401, { code: 603, msg: "" });
    expect(await client.call("refresh", { quiet: true })).toEqual({
      ok: false,
      code: 603,
      msg: "Need to relogin, all tokens are expired!",
    });
    expect(onFailure).not.toHaveBeenCalled();
    expect(onSuccess).not.toHaveBeenCalled();
    await client.call("refresh");
    expect(onFailure).toHaveBeenCalledTimes(1);
  });

  it("reports an unreachable server and a time-out as unreachable, code 600", async () => {
    const reachable: boolean[] = [];
    const failures: ApiFailure[] = [];
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const down = createApiClient({
      baseUrl: `http://127.0.0.1:${port}`,
      onReachable: (r) => reachable.push(r),
      onFailure: (f) => failures.push(f),
    });
    expect(await down.call("health")).toEqual({ ok: false, code: 600, msg: "Task failed to execute..." });
    answer = "hang";
    const slow = createApiClient({ baseUrl: base, timeoutMs: 150, onReachable: (r) => reachable.push(r) });
    expect(await slow.call("health")).toMatchObject({ ok: false, code: 600 });
    expect(reachable).toEqual([false, false]);
    expect(failures).toEqual([networkFailure("GET", "/health")]);
  });

  it("passes the failure and the route to recover, and reports nothing when the retry succeeds", async () => {
    // recover repairs the cause: the server answers 200 from now on
    const recover = vi.fn(async () => {
      next(200, ["bot"]);
      return true;
    });
    const onFailure = vi.fn();
    const client = createApiClient({ baseUrl: base, recover, onFailure });
    next(401, { code: 602, msg: "expired" });
    expect(await client.call("bots")).toEqual({ ok: true, data: ["bot"] });
    expect(recover).toHaveBeenCalledWith(
      {
        code: 602,
        title: "Need to refresh your Access Token, try to update page!",
        method: "GET",
        path: "/token/bots",
      },
      "bots",
    );
    expect(seen).toHaveLength(1);
    expect(onFailure).not.toHaveBeenCalled();
  });
});

describe("describeFailure", () => {
  it("falls back to the catalogue for a 608 without a message, and adds no description a title already says", () => {
    expect(describeFailure(608, "", "POST", "/p")).toEqual({
      code: 608,
      title: "Undefined msg for 608...",
      method: "POST",
      path: "/p",
    });
    expect(describeFailure(600, "Task failed to execute...", "GET", "/p")).toEqual({
      code: 600,
      title: "Task failed to execute...",
      method: "GET",
      path: "/p",
    });
    expect(describeFailure(600, undefined, "GET", "/p")).not.toHaveProperty("description");
    expect(describeFailure(604, "slow down", "GET", "/p")).not.toHaveProperty("description");
  });
});

describe("the time-out timer", () => {
  it("is cleared once the answer came, so no timer keeps a process (the CLI, a test) alive", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const client = createApiClient({ fetch: (async () => new Response("{}", { status: 200 })) as never });
      expect(await client.call("health")).toEqual({ ok: true, data: {} });
      const failing = createApiClient({
        fetch: (async () => {
          throw new TypeError("fetch failed");
        }) as never,
      });
      expect(await failing.call("health")).toMatchObject({ ok: false, code: 600 });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("asks for no caching on GET only", async () => {
    const inits: RequestInit[] = [];
    const client = createApiClient({
      fetch: (async (_url: string, init: RequestInit) => {
        inits.push(init);
        return new Response("{}", { status: 200 });
      }) as never,
    });
    await client.call("clients");
    await client.call("logout");
    expect(inits.map((init) => init.cache)).toEqual(["no-store", undefined]);
    // asked in words too, for a fetch that does not add it for "no-store" itself
    expect(inits.map((init) => (init.headers as Record<string, string>)["cache-control"])).toEqual([
      "no-cache",
      undefined,
    ]);
    expect(inits.map((init) => init.credentials)).toEqual(["include", "include"]);
  });
});
