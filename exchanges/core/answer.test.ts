/**
 * An answer in a shape the adapter does not know (docs/exchange-rules.md "Unexpected answers"):
 * an ExchangeError naming the exchange and the field, kind invalid-order, never a schema
 * library's dump under "Unexpected error". One test per form of surprise, then the same through
 * a real adapter on a loopback server and through the built CLI.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ExchangeError } from "../../lib/errors.js";
import type { Balances, Credentials, Order } from "../../lib/types.js";
import { runCli } from "../../test/exchanges/run-cli.js";
import { createExchange } from "../registry.js";
import type { PairSpec } from "../types.js";
import { type JsonResponse, RestAdapter } from "./adapter.js";
import {
  answerPath,
  batchFailureMessage,
  id,
  isSchemaError,
  notPlacedMessage,
  num,
  parseAnswer,
  partlyPlaced,
  unexpectedAnswer,
} from "./answer.js";
import { type MockServer, startMockServer } from "./testing/http-mock.js";

const OrderShape = z.object({ id, side: z.enum(["buy", "sell"]), amount: num, text: z.string().optional() });
const Orders = z.array(OrderShape);

function refusal(run: () => unknown): ExchangeError {
  try {
    run();
  } catch (error) {
    if (error instanceof ExchangeError) return error;
    throw new Error(`not an ExchangeError: ${String(error)}`);
  }
  throw new Error("did not throw");
}

describe("parseAnswer: one message per kind of surprise", () => {
  it("names the exchange and the field of a value of the wrong type: orders[1].id", () => {
    const error = refusal(() =>
      parseAnswer(
        "gate",
        Orders,
        [
          { id: 1, side: "buy", amount: "1" },
          { id: null, side: "buy", amount: "1" },
        ],
        "orders",
      ),
    );
    expect(error.message).toBe(
      "ExchangeId: gate, msg: Unexpected answer from gate: orders[1].id expected text or a number, got null",
    );
    expect([error.exchange, error.kind, error.code]).toEqual(["gate", "invalid-order", undefined]);
  });

  it("says a required field is missing", () => {
    expect(refusal(() => parseAnswer("mexc", OrderShape, { id: "7", side: "buy" })).detail).toBe(
      "Unexpected answer from mexc: amount expected text or a number, got nothing",
    );
  });

  it("names the values it knows when a word is not one of them", () => {
    expect(refusal(() => parseAnswer("kucoin", OrderShape, { id: "7", side: "hold", amount: "1" })).detail).toBe(
      'Unexpected answer from kucoin: side expected one of "buy", "sell", got "hold"',
    );
  });

  it("says what came where a list or an object was expected, at the root of the answer", () => {
    expect(refusal(() => parseAnswer("htx", Orders, { orders: [] }, "data")).detail).toBe(
      "Unexpected answer from htx: data expected array, got an object",
    );
    expect(refusal(() => parseAnswer("htx", OrderShape, [], "")).detail).toBe(
      "Unexpected answer from htx: expected object, got a list",
    );
  });

  it("does not repeat a long text the exchange sent (it may be a page of HTML)", () => {
    const error = refusal(() => parseAnswer("xt", OrderShape, { id: 1, side: "<html>".padEnd(500, "x"), amount: 1 }));
    expect(error.detail).toBe('Unexpected answer from xt: side expected one of "buy", "sell", got a long text');
  });

  it("reads id and num as text and numbers, ids as text", () => {
    expect(parseAnswer("gate", OrderShape, { id: 123456789012, side: "sell", amount: 2.5 })).toEqual({
      id: "123456789012",
      side: "sell",
      amount: 2.5,
    });
  });

  it("writes zod paths the way a reader does", () => {
    expect(answerPath([0, "id"], "orders")).toBe("orders[0].id");
    expect(answerPath(["data", "list", 3])).toBe("data.list[3]");
    expect(answerPath([2, "price"])).toBe("[2].price");
    expect(answerPath([], "result")).toBe("result");
  });
});

describe("what was found, and what was expected, in a few words", () => {
  const Value = z.object({ v: z.string() });
  const detail = (answer: unknown, schema: z.ZodType = Value) =>
    refusal(() => parseAnswer("okx", schema, answer)).detail;

  it("writes a number or a boolean as itself, a text of 40 characters in full and a longer one as 'a long text'", () => {
    expect(detail({ v: 12.5 })).toBe("Unexpected answer from okx: v expected string, got 12.5");
    expect(detail({ v: false })).toBe("Unexpected answer from okx: v expected string, got false");
    expect(detail({ v: { a: 1 } })).toBe("Unexpected answer from okx: v expected string, got an object");
    expect(detail({ v: [1] })).toBe("Unexpected answer from okx: v expected string, got a list");
    expect(detail({ v: null })).toBe("Unexpected answer from okx: v expected string, got null");
    const Word = z.object({ v: z.enum(["a"]) });
    expect(detail({ v: "x".repeat(40) }, Word)).toBe(
      `Unexpected answer from okx: v expected one of "a", got "${"x".repeat(40)}"`,
    );
    expect(detail({ v: "x".repeat(41) }, Word)).toBe(
      'Unexpected answer from okx: v expected one of "a", got a long text',
    );
  });

  it("finds nothing under a value that is not an object, and names bounds and the schema's own words", () => {
    const Deep = z.object({ a: z.object({ b: z.string() }) });
    expect(detail({ a: "text" }, Deep)).toBe('Unexpected answer from okx: a expected object, got "text"');
    expect(detail({ a: null }, Deep)).toBe("Unexpected answer from okx: a expected object, got null");
    expect(detail("abc", z.string().min(4))).toBe('Unexpected answer from okx: expected at least 4, got "abc"');
    expect(detail([1, 2, 3], z.array(z.number()).max(2))).toBe(
      "Unexpected answer from okx: expected at most 2, got a list",
    );
    expect(detail({ v: "abc" }, z.object({ v: z.string().regex(/^\d+$/, "expected digits") }))).toBe(
      'Unexpected answer from okx: v expected digits, got "abc"',
    );
  });

  it("finds nothing under a text or null on the way to the field (a schema that reshaped the answer first)", () => {
    const Reshaped = z.preprocess(() => ({ a: { length: "x" } }), z.object({ a: z.object({ length: z.number() }) }));
    expect(detail({ a: "text" }, Reshaped)).toBe("Unexpected answer from okx: a.length expected number, got nothing");
    expect(detail({ a: null }, Reshaped)).toBe("Unexpected answer from okx: a.length expected number, got nothing");
  });

  it("without the answer, says what was expected, and what zod kept of the input when it kept it", () => {
    const plain = Value.safeParse({ v: 1 });
    if (plain.success) throw new Error("parsed");
    expect(unexpectedAnswer("mexc", plain.error, "data").detail).toBe(
      "Unexpected answer from mexc: data.v expected string",
    );
    const kept = Value.safeParse({ v: 1 }, { reportInput: true });
    if (kept.success) throw new Error("parsed");
    expect(unexpectedAnswer("mexc", kept.error).detail).toBe("Unexpected answer from mexc: v expected string, got 1");
    const empty = new z.ZodError([]);
    const none = unexpectedAnswer("mexc", empty, "data");
    expect([none.detail, none.kind, none.cause]).toEqual([
      "Unexpected answer from mexc: data unreadable",
      "invalid-order",
      empty,
    ]);
    expect(unexpectedAnswer("mexc", empty).detail).toBe("Unexpected answer from mexc: unreadable");
  });

  it("knows a schema refusal by its name and its list of issues, from any copy of zod", () => {
    const refusal = Value.safeParse({});
    expect(isSchemaError(refusal.success ? undefined : refusal.error)).toBe(true);
    expect(isSchemaError(Object.assign(new Error("x"), { name: "ZodError", issues: [] }))).toBe(true);
    expect(isSchemaError(Object.assign(new Error("x"), { name: "ZodError" }))).toBe(false);
    expect(isSchemaError(Object.assign(new Error("x"), { issues: [] }))).toBe(false);
    expect(isSchemaError({ name: "ZodError", issues: [] })).toBe(false);
  });
});

describe('batch failures (docs/exchange-rules.md#validation, docs/orders.md "Partly placed batches")', () => {
  it("names every cause, an unknown one as empty, and the count placed when known", () => {
    expect(batchFailureMessage([170131, "Insufficient balance"])).toBe(
      "One of orders threw an error (170131, Insufficient balance)",
    );
    expect(batchFailureMessage([undefined, "x"], { placed: 1, total: 3 })).toBe(
      "One of orders threw an error (, x); 1 of 3 placed",
    );
    expect(notPlacedMessage()).toBe("One of orders was not placed");
    expect(notPlacedMessage({ placed: 2, total: 3 })).toBe("One of orders was not placed (2 of 3 placed)");
  });

  it("partlyPlaced carries a copy of the placed orders on the same error", () => {
    const error = new ExchangeError("okx", "One of orders threw an error (51008)", { kind: "insufficient-funds" });
    const placed = [{ id: "1" }] as Order[];
    const marked = partlyPlaced(error, placed);
    expect(marked).toBe(error);
    const details = (marked as ExchangeError & { details: { placed: Order[] } }).details;
    expect(details).toEqual({ placed: [{ id: "1" }] });
    expect(details.placed).not.toBe(placed);
  });
});

/** A minimal adapter that reads its balances with a bare zod parse, as a careless adapter might. */
class CarelessAdapter extends RestAdapter {
  constructor(baseUrl: string) {
    super("bitrue", { api: "k", secret: "s" } as Credentials, { baseUrl }, { baseUrl });
  }
  protected unwrap(response: JsonResponse): unknown {
    return response.json;
  }
  async fetchBalances(): Promise<Balances> {
    const answer = this.unwrap(
      await this.sendJson({ method: "GET", path: "/balances", query: "", body: "", headers: {} }),
    );
    const rows = z.array(z.object({ asset: z.string(), free: z.string() })).parse(answer);
    return Object.fromEntries(rows.map((r) => [r.asset, { f: r.free, l: "0" }]));
  }
  protected submitOrder(): Promise<Order> {
    throw new Error("unused");
  }
  protected findByClientOrderId(): Promise<Order | undefined> {
    throw new Error("unused");
  }
  protected submitBatch(): Promise<Order[]> {
    throw new Error("unused");
  }
  protected submitCancel(): Promise<string> {
    throw new Error("unused");
  }
  protected submitCancelBatch(): Promise<string[]> {
    throw new Error("unused");
  }
  protected submitCancelAll(): Promise<string[]> {
    throw new Error("unused");
  }
  fetchOrder(): Promise<Order> {
    throw new Error("unused");
  }
  fetchOpenOrders(): Promise<Order[]> {
    throw new Error("unused");
  }
  fetchPairs(): Promise<PairSpec[]> {
    throw new Error("unused");
  }
}

describe("adapters on a loopback exchange", () => {
  let http: MockServer;
  beforeEach(async () => {
    http = await startMockServer();
  });
  afterEach(() => http.close());

  it("turns a bare schema refusal inside an operation into the exchange's Unexpected answer (the base's guard)", async () => {
    http.on("GET /balances", () => ({ body: [{ asset: "BTC", free: 1 }] }));
    const error = await new CarelessAdapter(http.url).fetchBalances().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExchangeError);
    expect((error as ExchangeError).detail).toBe("Unexpected answer from bitrue: [0].free expected string");
    expect((error as ExchangeError).kind).toBe("invalid-order");
  });

  it("gate's open orders with an id of null name orders[0].id", async () => {
    http.on("GET /api/v4/spot/orders", () => ({
      body: [{ id: null, currency_pair: "BTC_USDT", side: "buy", amount: "1", status: "open" }],
    }));
    const gate = createExchange("gate", { api: "k", secret: "s" }, { baseUrl: http.url });
    const error = await gate.fetchOpenOrders("BTC/USDT").catch((e: unknown) => e);
    expect((error as ExchangeError).message).toBe(
      "ExchangeId: gate, msg: Unexpected answer from gate: orders[0].id expected text or a number, got null",
    );
  });

  it("the CLI prints it under the exchange and exits 5, never 'Unexpected error' (exit 1)", async () => {
    http.on("GET /api/v4/spot/orders", () => ({
      body: [{ id: "1", currency_pair: "BTC_USDT", side: 7, amount: "1", status: "open" }],
    }));
    const result = await runCli(["--exchange", "gate", "--base-url", http.url, "orders", "BTC/USDT"], {
      SPOTDESK_API_KEY: "key-12345678",
      SPOTDESK_API_SECRET: "secret-12345678",
    });
    expect(result.stderr).toBe(
      "ExchangeId: gate, msg: Unexpected answer from gate: orders[0].side expected string, got 7\n",
    );
    expect(result.code).toBe(5);
  });
});
