/** The isomorphic pieces the dashboard is built on: client, panel_state, duration, blockies (docs/dashboard-rules.md#entities, #validation, docs/api.md#calls, #errors). */
import { describe, expect, it, vi } from "vitest";
import { blockie } from "../../lib/blockies.js";
import {
  type ApiFailure,
  createApiClient,
  describeFailure,
  networkFailure,
  REQUEST_TIMEOUT_MS,
} from "../../lib/client.js";
import { DURATION_UNITS, INVALID_DURATION, parseDuration } from "../../lib/duration.js";
import { decodePanelState, encodePanelState, HEX_LENGTH_ERROR, splitPieces, xorHex } from "../../lib/panel-state.js";

function fakeFetch(status: number, body: unknown) {
  return vi.fn(
    async (_url: string | URL | Request, _init?: RequestInit) => new Response(JSON.stringify(body), { status }),
  );
}

describe("backend client (docs/api.md#calls, #errors; docs/decisions.md#d2, #d18)", () => {
  it("has a 10 s request time-out (docs/dashboard-rules.md#constants)", () => {
    expect(REQUEST_TIMEOUT_MS).toBe(10_000);
  });

  it("sends credentials, asks for no caching on GET and carries the access token (docs/api.md#calls)", async () => {
    const f = fakeFetch(200, ["Demo"]);
    const client = createApiClient({ fetch: f as never, accessToken: () => "tok" });
    const r = await client.call<string[]>("clients");
    expect(r).toEqual({ ok: true, data: ["Demo"] });
    const [url, init] = f.mock.calls[0] as [string, RequestInit];
    expect(url).toBe("/token/clients");
    expect(init.credentials).toBe("include");
    expect(init.cache).toBe("no-store");
    expect((init.headers as Record<string, string>).authorization).toBe("Bearer tok");
  });

  it("adds timestamp and user id headers where the route needs them, and the path and key of trade calls (docs/decisions.md#d18)", async () => {
    const f = fakeFetch(200, {});
    const client = createApiClient({ fetch: f as never, userId: () => "u1", now: () => 1234, accessToken: () => "t" });
    await client.call("refresh");
    expect(((f.mock.calls[0]?.[1]?.headers ?? {}) as Record<string, string>)["user-id"]).toBe("u1");
    expect(((f.mock.calls[0]?.[1]?.headers ?? {}) as Record<string, string>).timestamp).toBe("1234");
    await client.call("balances", { path: ["Acme", "paper", "main"], key: "k" });
    const h = f.mock.calls[1]?.[1]?.headers as Record<string, string>;
    expect(h.path).toBe('["Acme","paper","main"]');
    expect(h.key).toBe("k");
  });

  it("shows a success toast on a non-GET call only (docs/api.md#calls 'Successful non-GET calls show a success toast')", async () => {
    const onSuccess = vi.fn();
    const client = createApiClient({ fetch: fakeFetch(200, {}) as never, onSuccess });
    await client.call("clients");
    expect(onSuccess).not.toHaveBeenCalled();
    await client.call("setApiKeys", { body: {} });
    // with the answer, for toasts that say what happened (a placed order that filled at once)
    expect(onSuccess).toHaveBeenCalledWith("POST", "/token/admin/apikeys", "setApiKeys", {});
  });

  it.each([
    [601, "Some header were not passed, please contact developers!"],
    [602, "Need to refresh your Access Token, try to update page!"],
    [603, "Need to relogin, all tokens are expired!"],
    [604, "Request limit to server exceeded, try later!"],
    [605, "Time window between you and server is too large..."],
    [606, "No such user..."],
    [607, "Your token is invalid, try to relogin!"],
    [
      609,
      "Failed to create exchange object for your task, make sure APIs were handled in right way and contact developers!",
    ],
    [611, "Undefined msg for 611..."],
  ])("turns code %i into the error toast '%s' and a result without data (docs/api.md#errors)", async (code, text) => {
    const failures: ApiFailure[] = [];
    const client = createApiClient({
      fetch: fakeFetch(400, { code, msg: "server text" }) as never,
      onFailure: (f) => failures.push(f),
    });
    const r = await client.call("clients");
    expect(r.ok).toBe(false);
    expect("data" in r).toBe(false);
    expect(failures[0]?.title).toBe(text);
    expect(failures[0]?.code).toBe(code);
  });

  it("shows the exchange's message for 608 instead of 'Undefined msg for 608...' (docs/decisions.md#d2)", () => {
    expect(describeFailure(608, "ExchangeId: okx, msg: Insufficient balance", "POST", "/x").title).toBe(
      "ExchangeId: okx, msg: Insufficient balance",
    );
  });

  it("titles 600 'Task failed to execute...' with the server's reason beside it (docs/api.md#errors)", () => {
    const f = describeFailure(600, "pair: Write the pair as BASE/QUOTE", "POST", "/token/pair");
    expect(f.title).toBe("Task failed to execute...");
    expect(f.description).toBe("pair: Write the pair as BASE/QUOTE");
  });

  it("titles a network failure with the request path and returns code 600 (docs/api.md#errors)", async () => {
    const failures: ApiFailure[] = [];
    const client = createApiClient({
      fetch: (async () => {
        throw new TypeError("Failed to fetch");
      }) as never,
      onFailure: (f) => failures.push(f),
    });
    const r = await client.call("users");
    expect(r).toMatchObject({ ok: false, code: 600 });
    expect(failures[0]).toEqual(networkFailure("GET", "/token/admin/users"));
    expect(failures[0]?.title).toBe("/token/admin/users");
  });

  it("sends a call once more when recover repairs the failure, reporting only the second outcome (docs/api.md#errors 602)", async () => {
    let token = "old";
    const answers = [
      new Response(JSON.stringify({ code: 602, msg: "expired" }), { status: 401 }),
      new Response(JSON.stringify(["Demo"]), { status: 200 }),
    ];
    const f = vi.fn(async (_u: string, _init?: RequestInit) => answers.shift() as Response);
    const failures: ApiFailure[] = [];
    const recover = vi.fn(async (failure: ApiFailure) => {
      token = "new";
      return failure.code === 602;
    });
    const client = createApiClient({
      fetch: f as never,
      accessToken: () => token,
      recover,
      onFailure: (x) => failures.push(x),
    });
    expect(await client.call<string[]>("clients")).toEqual({ ok: true, data: ["Demo"] });
    expect(recover).toHaveBeenCalledWith(expect.objectContaining({ code: 602 }), "clients");
    expect(f).toHaveBeenCalledTimes(2);
    expect(((f.mock.calls[1]?.[1]?.headers ?? {}) as Record<string, string>).authorization).toBe("Bearer new");
    expect(failures).toEqual([]);
  });

  it("retries at most once and reports the second failure; no retry when recover declines", async () => {
    const failures: ApiFailure[] = [];
    const f = fakeFetch(401, { code: 602, msg: "expired" });
    const recover = vi.fn(async () => true);
    const r = await createApiClient({ fetch: f as never, recover, onFailure: (x) => failures.push(x) }).call("clients");
    expect(r).toMatchObject({ ok: false, code: 602 });
    expect(f).toHaveBeenCalledTimes(2);
    expect(recover).toHaveBeenCalledTimes(1);
    expect(failures.map((x) => x.code)).toEqual([602]);
    const g = fakeFetch(401, { code: 602, msg: "expired" });
    await createApiClient({ fetch: g as never, recover: async () => false }).call("clients");
    expect(g).toHaveBeenCalledTimes(1);
  });

  it("treats any status but 200 as a failure, even without a body (docs/api.md#errors 'Only status 200 counts as success')", async () => {
    const client = createApiClient({ fetch: (async () => new Response("", { status: 204 })) as never });
    expect((await client.call("clients")).ok).toBe(false);
  });

  it("aborts a call after the time-out and reports 600", async () => {
    const client = createApiClient({
      timeoutMs: 20,
      fetch: ((_u: string, init: RequestInit) =>
        new Promise((_, reject) =>
          init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        )) as never,
    });
    expect(await client.call("clients")).toMatchObject({ ok: false, code: 600 });
  });

  it("fills route parameters URI-encoded", async () => {
    const f = fakeFetch(200, {});
    await createApiClient({ fetch: f as never }).call("user", { params: { id: "a/b" } });
    expect(f.mock.calls[0]?.[0]).toBe("/token/admin/user/a%2Fb");
  });
});

describe("panel_state (docs/dashboard-rules.md#entities)", () => {
  it("XORs hex strings of equal length", () => {
    expect(xorHex("ff00", "0f0f")).toBe("f00f");
  });

  it("refuses hex strings of different length with 'Hex strings must be the same length'", () => {
    expect(() => xorHex("ab", "abc")).toThrow(HEX_LENGTH_ERROR);
    expect(HEX_LENGTH_ERROR).toBe("Hex strings must be the same length");
  });

  it("splits a 64-hex-character secret into 32+16+16 pieces", () => {
    expect(splitPieces("a".repeat(64)).map((p) => p.length)).toEqual([32, 16, 16]);
  });

  it("stores a generated key as pieces that do not contain it and reads it back", () => {
    const key = "0123456789abcdef".repeat(4);
    const text = encodePanelState(key);
    expect(text).not.toContain(key);
    expect(JSON.parse(text).k.map((p: string) => p.length)).toEqual([32, 16, 16]);
    expect(decodePanelState(text)).toBe(key);
  });

  it.each([16, 24, 32])("round-trips an entered key of %i characters", (n) => {
    const key = `${"k".repeat(n - 2)}Z9`;
    expect(decodePanelState(encodePanelState(key))).toBe(key);
  });

  it("reads nothing from an absent or malformed panel_state", () => {
    expect(decodePanelState(null)).toBeUndefined();
    expect(decodePanelState("{bad")).toBeUndefined();
    expect(decodePanelState(JSON.stringify({ k: ["ab", "c", "d"], m: ["a", "b", "c"], t: "g" }))).toBeUndefined();
  });
});

describe("duration input (docs/dashboard-rules.md#validation, #constants)", () => {
  it("accepts a bare number of seconds", () => {
    expect(parseDuration("90")).toEqual({ ok: true, seconds: 90 });
  });

  it.each([
    ["5s", 5],
    ["5 sec", 5],
    ["5second", 5],
    ["2m", 120],
    ["2 min", 120],
    ["2 minute", 120],
    ["1h", 3600],
    ["1hr", 3600],
    ["1 hour", 3600],
    ["1d", 86_400],
    ["1 day", 86_400],
    ["1w", 604_800],
    ["1 week", 604_800],
    ["1y", 31_536_000],
    ["1 year", 31_536_000],
    ["1.5h", 5400],
  ])("reads '%s' as %i seconds", (text, seconds) => {
    expect(parseDuration(text)).toEqual({ ok: true, seconds });
  });

  it("knows exactly the seed's fifteen units", () => {
    expect(Object.keys(DURATION_UNITS).sort()).toEqual(
      ["d", "day", "h", "hour", "hr", "m", "min", "minute", "s", "sec", "second", "w", "week", "y", "year"].sort(),
    );
  });

  it.each(["", "abc", "5 months", "5ms", "-5", "1h30m", "h"])("answers 'Invalid format' for '%s'", (text) => {
    expect(parseDuration(text)).toEqual({ ok: false, error: INVALID_DURATION });
    expect(INVALID_DURATION).toBe("Invalid format");
  });
});

describe("blockies avatar (docs/dashboard-rules.md#screens 'grid of 8 cells, scale 4')", () => {
  it("is an 8×8 grid mirrored left to right, at scale 4", () => {
    const b = blockie("Acme");
    expect(b.size).toBe(8);
    expect(b.scale).toBe(4);
    expect(b.cells).toHaveLength(64);
    for (let y = 0; y < 8; y++) {
      const row = b.cells.slice(y * 8, y * 8 + 8);
      expect(row).toEqual([...row].reverse());
    }
  });

  it("is the same for the same name and differs between names", () => {
    expect(blockie("Acme")).toEqual(blockie("Acme"));
    expect(blockie("Acme").cells).not.toEqual(blockie("Demo").cells);
  });
});
