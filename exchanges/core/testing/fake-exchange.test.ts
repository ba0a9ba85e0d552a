import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeExchange,
  missingParameter,
  OrderStore,
  pageAfterId,
  pageByCursor,
  pageByNumber,
  raw,
  refuse,
  startFakeExchange,
} from "./fake-exchange.js";

const size = { name: "limit", default: 2, max: 3, invalid: { code: 9, msg: "bad limit" } };

describe("the fake exchange's required parameters", () => {
  it("names the first missing one, an alternative pair, and a batch item's field", () => {
    expect(missingParameter({ a: "1", b: 0 }, ["a", "b"])).toBeUndefined();
    expect(missingParameter({ a: "" }, ["a"])).toBe("a");
    expect(missingParameter({ y: "1" }, [["x", "y"]])).toBeUndefined();
    expect(missingParameter({}, [["x", "y"]])).toBe("x or y");
    expect(missingParameter({ list: [{ s: "1" }, {}] }, ["list[].s"])).toBe("list[].s");
    expect(missingParameter({ list: [] }, ["list[].s"])).toBe("list[].s");
    expect(missingParameter([{ id: "1" }, { cid: "2" }], [["[].id", "[].cid"]])).toBeUndefined();
    expect(missingParameter([{ id: "1" }, { other: "2" }], [["[].id", "[].cid"]])).toBe("[].id or [].cid");
  });
});

describe("the fake exchange's paging forms", () => {
  const list = ["50", "40", "30", "20", "10"];
  it("pages by cursor, refusing a cursor it never sent and a size past the maximum", () => {
    const form = {
      cursor: "c",
      size,
      encode: (o: number) => `at${o}`,
      decode: (c: string) => (/^at\d+$/.test(c) ? Number(c.slice(2)) : undefined),
      invalidCursor: { code: 8, msg: "bad cursor" },
    };
    expect(pageByCursor(list, {}, form)).toMatchObject({ page: ["50", "40"], next: "at2" });
    expect(pageByCursor(list, { c: "at4", limit: "3" }, form)).toMatchObject({ page: ["10"], next: undefined });
    expect(() => pageByCursor(list, { c: "zz" }, form)).toThrow("bad cursor");
    expect(() => pageByCursor(list, { limit: "4" }, form)).toThrow("bad limit");
  });
  it("pages by number from page 1, with the count of pages", () => {
    const form = { page: "p", size, invalidPage: { code: 7, msg: "bad page" } };
    expect(pageByNumber(list, { p: "3" }, form)).toEqual({ page: ["10"], number: 3, size: 2, totalPages: 3 });
    expect(() => pageByNumber(list, { p: "0" }, form)).toThrow("bad page");
  });
  it("pages after the last id seen, newest first", () => {
    const form = { after: "after", size, idOf: (s: string) => s };
    expect(pageAfterId(list, {}, form)).toEqual(["50", "40"]);
    expect(pageAfterId(list, { after: "40" }, form)).toEqual(["30", "20"]);
    expect(pageAfterId(list, { after: "35", limit: "3" }, form)).toEqual(["30", "20", "10"]);
  });
});

describe("the fake exchange on loopback", () => {
  let fake: FakeExchange;
  const orders = new OrderStore<{ id: string }>(7n, (o) => o.id);
  beforeAll(async () => {
    fake = await startFakeExchange({
      name: "acme",
      verify: (req) => (req.headers["x-key"] === "k" ? undefined : { status: 401, body: { code: 1, msg: "no key" } }),
      isPublic: (req) => req.path.startsWith("/public"),
      envelope: {
        ok: (data) => ({ body: { code: 0, data } }),
        error: (e) => ({ status: e.status ?? 200, body: { code: e.code, msg: e.msg } }),
      },
      rateLimited: () => ({ status: 429, body: { code: 429, msg: "slow down" } }),
      missing: (name) => ({ code: 2, msg: `${name} required`, status: 400 }),
      routes: {
        "POST /order": { required: ["symbol"], create: true, handle: () => orders.add({ id: orders.nextId() }) },
        "GET /public/time": { handle: () => 1 },
        "GET /refuse": { handle: () => Promise.reject(refuse(3, "nope", 404)) },
        "GET /raw": { handle: () => raw({ status: 202, body: "plain" }) },
      },
    });
  });
  afterAll(() => fake.close());

  const call = async (path: string, init: RequestInit = {}, key = "k") => {
    const res = await fetch(fake.url + path, { ...init, headers: { "x-key": key } });
    return [res.status, await res.text()] as const;
  };

  it("checks the signature on private routes only, and the required parameters on every call", async () => {
    expect(await call("/public/time", {}, "")).toEqual([200, '{"code":0,"data":1}']);
    expect(await call("/order", { method: "POST", body: "{}" }, "")).toEqual([401, '{"code":1,"msg":"no key"}']);
    expect(await call("/order", { method: "POST", body: "{}" })).toEqual([400, '{"code":2,"msg":"symbol required"}']);
    expect(await call("/order?symbol=X", { method: "POST" })).toEqual([200, '{"code":0,"data":{"id":"7"}}']);
    expect(await call("/refuse")).toEqual([404, '{"code":3,"msg":"nope"}']);
    expect(await call("/raw")).toEqual([202, "plain"]);
    expect(fake.accepted).toEqual(["POST /order", "POST /order", "GET /refuse", "GET /raw"]);
  });

  it("injects each fault once: rate limit, failure, a reply, a delayed create that is still stored", async () => {
    fake.rateLimitNext();
    fake.failNext({ code: 5, msg: "down", status: 503 });
    expect(await call("/raw")).toEqual([429, '{"code":429,"msg":"slow down"}']);
    expect(await call("/raw")).toEqual([503, '{"code":5,"msg":"down"}']);
    fake.replyNext({ status: 418, body: "tea" });
    expect(await call("/raw")).toEqual([418, "tea"]);
    expect(await call("/raw")).toEqual([202, "plain"]);
    fake.delayNextCreate(300);
    const slow = call("/order?symbol=X", { method: "POST", signal: AbortSignal.timeout(100) });
    await expect(slow).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 300));
    expect(orders.has("8")).toBe(true);
    fake.refuseNextBatchItem(1, { code: 6, msg: "no" });
    fake.dropNextBatchItem(2);
    expect([fake.takeBatchFault(0), fake.takeBatchFault(1), fake.takeBatchFault(2)]).toEqual([
      undefined,
      { refuse: { code: 6, msg: "no" } },
      { drop: true },
    ]);
    fake.endBatch();
    expect(fake.takeBatchFault(1)).toBeUndefined();
  });

  it("lets a test's own interceptor answer first, and falls back to the fake once it is removed", async () => {
    fake.server.intercept(() => ({ status: 503, body: "down" }));
    expect(await call("/raw")).toEqual([503, "down"]);
    fake.server.intercept(undefined);
    expect(await call("/raw")).toEqual([202, "plain"]);
  });
});
