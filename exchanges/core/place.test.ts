/**
 * "A create is never sent twice blindly" (docs/exchange-rules.md#contract): placeOnce looks a
 * create that may have reached the exchange up by its client order id before it sends it again,
 * and sends it again only when the exchange does not know it. First the rule on its own, then on a
 * real loopback server through the RestClient's own time-out.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ExchangeError } from "../../lib/errors.js";
import type { Order } from "../../lib/types.js";
import { anyRejection as rejection } from "../../test/rejection.js";
import { placeOnce } from "./place.js";
import { mayHaveReachedExchange, RestClient } from "./rest.js";
import { type MockServer, startMockServer } from "./testing/http-mock.js";

const ORDER: Order = {
  pair: "BTC/USDT",
  id: "42",
  clientOrderId: "c0ffee00",
  price: "100",
  amount: "1",
  filled: "0",
  type: "limit",
  side: "Buy",
  status: "open",
  timestamp: 1,
};

function network(code?: string): ExchangeError {
  return new ExchangeError("bybit", "no answer", { kind: "network", ...(code === undefined ? {} : { code }) });
}

/** A create and a look-up that count their calls and answer from the lists given. */
function venue(creates: (Order | Error)[], lookups: (Order | undefined | Error)[] = []) {
  const calls = { place: 0, lookup: 0 };
  return {
    calls,
    place: async (): Promise<Order> => {
      const next = creates[calls.place++];
      if (next === undefined) throw new Error("create sent more often than the test allows");
      if (next instanceof Error) throw next;
      return next;
    },
    lookup: async (): Promise<Order | undefined> => {
      const next = lookups[calls.lookup++];
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

describe("placeOnce: no order is sent twice after a time-out (docs/exchange-rules.md#contract)", () => {
  it("sends a create that succeeds once and looks nothing up", async () => {
    const v = venue([ORDER]);
    await expect(placeOnce(v.place, v.lookup)).resolves.toBe(ORDER);
    expect(v.calls).toEqual({ place: 1, lookup: 0 });
  });

  it("returns the order the look-up finds after a time-out, without sending the create again", async () => {
    const found = { ...ORDER, id: "found", filled: "0.5" };
    const v = venue([network("ETIMEDOUT")], [found]);
    await expect(placeOnce(v.place, v.lookup)).resolves.toBe(found);
    expect(v.calls).toEqual({ place: 1, lookup: 1 });
  });

  it("sends the create once more only when the look-up says the exchange does not know it", async () => {
    const second = { ...ORDER, id: "second" };
    const v = venue([network("ECONNRESET"), second], [undefined]);
    await expect(placeOnce(v.place, v.lookup)).resolves.toBe(second);
    expect(v.calls).toEqual({ place: 2, lookup: 1 });
  });

  it("a second failure of the resent create is the caller's, with no third create", async () => {
    const again = network("ETIMEDOUT");
    const v = venue([network("ETIMEDOUT"), again], [undefined]);
    expect(await rejection(placeOnce(v.place, v.lookup))).toBe(again);
    expect(v.calls).toEqual({ place: 2, lookup: 1 });
  });

  it("when the look-up fails too, throws the create's own error and never resends", async () => {
    const timeout = network("ETIMEDOUT");
    const v = venue([timeout, ORDER], [new ExchangeError("bybit", "down", { kind: "network", code: "ETIMEDOUT" })]);
    expect(await rejection(placeOnce(v.place, v.lookup))).toBe(timeout);
    expect(v.calls).toEqual({ place: 1, lookup: 1 });
  });

  it("a network error without a code may have reached the exchange: it is looked up", async () => {
    const v = venue([network()], [ORDER]);
    await expect(placeOnce(v.place, v.lookup)).resolves.toBe(ORDER);
    expect(v.calls).toEqual({ place: 1, lookup: 1 });
  });

  it("a failure that proves nothing was sent, or that the exchange refused, is thrown without look-up or resend", async () => {
    const failures: Error[] = [
      ...["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ERR_INVALID_URL", "EPROTO_NOT_SENT"].map((code) => network(code)),
      new ExchangeError("bybit", "Insufficient balance", { kind: "insufficient-funds", code: "ETIMEDOUT" }),
      new ExchangeError("bybit", "refused", { kind: "invalid-order" }),
      Object.assign(new Error("plain"), { kind: "network", code: "ETIMEDOUT" }),
    ];
    for (const failure of failures) {
      expect(mayHaveReachedExchange(failure), failure.message).toBe(false);
      const v = venue([failure, ORDER], [ORDER]);
      expect(await rejection(placeOnce(v.place, v.lookup))).toBe(failure);
      expect(v.calls, failure.message).toEqual({ place: 1, lookup: 0 });
    }
    for (const code of ["ETIMEDOUT", "ECONNRESET", "EPIPE", "ENETWORK"])
      expect(mayHaveReachedExchange(network(code))).toBe(true);
  });
});

describe("placeOnce on a real loopback server: the RestClient's time-out, then the look-up", () => {
  let server: MockServer;
  beforeEach(async () => {
    server = await startMockServer();
  });
  afterEach(async () => {
    await server.close();
  });

  /** the create times out after 300 ms; the look-up has the default 10 s, so a loaded machine does not fail it */
  function clients(): { creating: RestClient; looking: RestClient } {
    return {
      creating: new RestClient("bybit", { baseUrl: server.url, timeoutMs: 300 }),
      looking: new RestClient("bybit", { baseUrl: server.url }),
    };
  }
  const create = (rest: RestClient) => async (): Promise<Order> => {
    const response = await rest.send({
      method: "POST",
      path: "/create",
      query: "",
      body: '{"c":"c0ffee00"}',
      headers: {},
    });
    return { ...ORDER, id: (JSON.parse(response.text) as { id: string }).id };
  };
  const lookup = (rest: RestClient) => async (): Promise<Order | undefined> => {
    const response = await rest.send({ method: "GET", path: "/lookup", query: "c=c0ffee00", body: "", headers: {} });
    const found = JSON.parse(response.text) as { id?: string };
    return found.id ? { ...ORDER, id: found.id } : undefined;
  };

  it("a create the server took but answered too late is found by its client order id and sent once", async () => {
    server.on("POST /create", () => ({ body: { id: "7" }, delayMs: 2000 }));
    server.on("GET /lookup", () => ({ body: { id: "7" } }));
    const rest = clients();
    const order = await placeOnce(create(rest.creating), lookup(rest.looking));
    expect(order.id).toBe("7");
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /create", "GET /lookup"]);
  });

  it("a create the server does not know after the time-out is sent once more, with the same body", async () => {
    let creates = 0;
    server.on("POST /create", () =>
      ++creates === 1 ? { body: { id: "late" }, delayMs: 2000 } : { body: { id: "8" } },
    );
    server.on("GET /lookup", () => ({ body: {} }));
    const rest = clients();
    const order = await placeOnce(create(rest.creating), lookup(rest.looking));
    expect(order.id).toBe("8");
    const sent = server.requests.map((r) => `${r.method} ${r.path} ${r.body}`);
    expect(sent).toEqual(['POST /create {"c":"c0ffee00"}', "GET /lookup ", 'POST /create {"c":"c0ffee00"}']);
  });
});
