import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AccountPath, pathHeader } from "../../lib/api.js";
import { call, registerFirstAdmin, type SignedIn, startTestServer, type TestServer } from "./helpers.js";

// docs/orders.md "Post-only": the dashboard's order panel sends `postOnly` in the create body
// (lib/schemas.ts createOrderSchema) and the server passes it to the exchange layer.

const DEMO: AccountPath = ["Demo", "paper", "main"];

let server: TestServer;
let admin: SignedIn;
beforeEach(async () => {
  server = await startTestServer();
  admin = await registerFirstAdmin(server);
});
afterEach(async () => {
  await server.cleanup();
});

const create = (body: Record<string, unknown>) =>
  call(server, "POST", "/token/trade/order/create", {
    token: admin.session.accessToken,
    headers: { path: pathHeader(DEMO) },
    body,
  });

describe('POST /token/trade/order/create with postOnly (docs/orders.md "Post-only")', () => {
  it("a crossing post-only buy is refused by paper and nothing rests; the same buy without it fills", async () => {
    const refused = await create({ price: "1000000", amount: "0.001", side: "Buy", postOnly: true });
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ kind: "invalid-order" });
    expect(refused.body.msg).toContain("Post-only order refused: a buy at 1000000 would take");
    const orders = await call(server, "GET", "/token/trade/orders", {
      token: admin.session.accessToken,
      headers: { path: pathHeader(DEMO) },
    });
    expect(orders.body).toEqual([]);
    const taken = await create({ price: "1000000", amount: "0.001", side: "Buy" });
    expect(taken.status).toBe(200);
    expect(taken.body).toMatchObject({ filled: "0.001" });
  });

  it("a post-only buy far under the book rests as a maker", async () => {
    const resting = await create({ price: "1000", amount: "0.01", side: "Buy", postOnly: true });
    expect(resting.status).toBe(200);
    expect(resting.body).toMatchObject({ status: "open", filled: "0", price: "1000" });
  });

  it("refuses a postOnly that is not a boolean, naming the field", async () => {
    const bad = await create({ price: "1000", amount: "0.01", side: "Buy", postOnly: "yes" });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("postOnly");
  });
});
