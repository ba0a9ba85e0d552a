import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rejection } from "../../test/exchanges/cli-scenario.js";
import { BITTEAM_KEY, BITTEAM_SECRET, type BitteamMock, startBitteamMock } from "../bitteam/mock.js";
import { BitteamAdapter } from "../bitteam/rest.js";
import { GATE_KEY, GATE_SECRET, type GateMock, startGateMock } from "../gate/mock.js";
import { GateAdapter } from "../gate/rest.js";
import { type OkxMock, startOkxMock } from "../okx/mock.js";
import { OkxAdapter } from "../okx/rest.js";

// docs/exchange-rules.md#contract "A create is never sent twice blindly": an answer that cannot be
// read (a gateway's 5xx page, an empty or unknown body) does not say the order failed. The order the
// exchange placed is returned as placed; when it has none, the error stands and nothing is resent.

const GATEWAY_PAGE = { status: 502, headers: { "content-type": "text/html" }, body: "<html>502 Bad Gateway</html>" };
const EMPTY_OK = { status: 200, body: "" };

describe("okx: a create answered with a gateway page or an empty body", () => {
  const creds = { api: "okx-test-key", secret: "okx-test-secret", password: "okx-pass-phrase" };
  let mock: OkxMock;
  let okx: OkxAdapter;
  beforeAll(async () => {
    mock = await startOkxMock(creds);
    okx = new OkxAdapter(creds, { baseUrl: mock.url, timeoutMs: 2000 });
  });
  afterEach(() => mock.orders.clear());
  afterAll(() => mock.close());

  for (const [what, reply] of [
    ["a 502 page", GATEWAY_PAGE],
    ["an empty 200", EMPTY_OK],
  ] as const) {
    it(`${what} after the order was placed: the placed order, found by its client order id, sent once`, async () => {
      mock.fake.createThenReply(reply);
      const creates = mock.server.requests.filter(
        (r) => r.method === "POST" && r.path === "/api/v5/trade/order",
      ).length;
      const order = await okx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.5", price: "100" });
      expect(mock.orders.size).toBe(1);
      expect(order).toMatchObject({ id: [...mock.orders.keys()][0], side: "Buy", price: "100", amount: "0.5" });
      expect(mock.server.requests.filter((r) => r.method === "POST" && r.path === "/api/v5/trade/order").length).toBe(
        creates + 1,
      );
    });
  }

  it("a 502 page before anything was placed: the error stands, the look-up found nothing, nothing is resent", async () => {
    mock.fake.replyNext(GATEWAY_PAGE);
    const creates = mock.server.requests.filter((r) => r.method === "POST").length;
    const error = await rejection(okx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.5", price: "100" }));
    expect(error.unclear).toBe(true);
    expect(error.detail).toContain("502 Bad Gateway");
    expect(mock.orders.size).toBe(0);
    expect(mock.server.requests.filter((r) => r.method === "POST").length).toBe(creates + 1);
    // the look-up by client order id was made
    expect(mock.server.requests.at(-1)).toMatchObject({ method: "GET", path: "/api/v5/trade/order" });
  });

  it("a refusal with the exchange's own code is no unclear answer: no look-up", async () => {
    mock.fake.failNext({ code: "51008", msg: "Order failed. Insufficient USDT balance in account." });
    const before = mock.server.requests.length;
    const error = await rejection(okx.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.5", price: "100" }));
    expect([error.kind, error.unclear]).toEqual(["insufficient-funds", undefined]);
    expect(mock.server.requests.length).toBe(before + 1);
  });
});

describe("gate: a create answered in a shape it does not know", () => {
  let mock: GateMock;
  let gate: GateAdapter;
  beforeAll(async () => {
    mock = await startGateMock();
    gate = new GateAdapter({ api: GATE_KEY, secret: GATE_SECRET }, { baseUrl: mock.url, timeoutMs: 2000 });
  });
  afterAll(() => mock.close());

  it("returns the order the exchange placed instead of 'Unexpected answer'", async () => {
    mock.fake.createThenReply({ status: 201, body: { id: null, text: "garbled" } });
    const order = await gate.createOrder({ pair: "BTC/USDT", side: "Sell", amount: "0.25", price: "30000" });
    expect(mock.orders.size).toBe(1);
    expect(order).toMatchObject({ id: [...mock.orders.keys()][0], side: "Sell", amount: "0.25" });
  });
});

describe("bitteam (no client order ids): a 502 page after the order was placed", () => {
  let mock: BitteamMock;
  let bitteam: BitteamAdapter;
  beforeAll(async () => {
    mock = await startBitteamMock();
    bitteam = new BitteamAdapter({ api: BITTEAM_KEY, secret: BITTEAM_SECRET }, { baseUrl: mock.url, timeoutMs: 2000 });
  });
  afterAll(() => mock.close());

  it("finds the one matching open order and returns it", async () => {
    mock.fake.createThenReply(GATEWAY_PAGE);
    const order = await bitteam.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "25000" });
    expect(mock.orders.size).toBe(1);
    expect(order).toMatchObject({ id: [...mock.orders.keys()][0], side: "Buy", price: "25000" });
  });
});
