/**
 * A client order id reused (docs/orders.md "Client order ids"): the same terms are "already done"
 * (exit 0, the order printed); other terms are refused, exit 2, naming both orders' terms, so a
 * script can tell the two apart. The built CLI on a paper account.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Sandbox, sandbox } from "./helpers.js";

let cli: Sandbox;
beforeAll(() => {
  cli = sandbox();
});
afterAll(() => cli.cleanup());

const trade = (args: string[], stdin?: string) =>
  cli.run(["--account", "cid", ...args, "--allow-far-price"], stdin === undefined ? {} : { stdin });

describe("a client order id used again", () => {
  it("same terms: exit 0 and the order already placed, nothing sent", async () => {
    const first = await trade(["buy", "BTC/USDT", "0.01", "60000", "--client-order-id", "abc", "--json"]);
    expect(first.code, first.stderr).toBe(0);
    const placed = JSON.parse(first.stdout) as { id: string };
    const again = await trade(["buy", "BTC/USDT", "0.01", "60000", "--client-order-id", "abc", "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id: placed.id, clientOrderId: "abc" });
    expect(again.stderr).toContain(`Order ${placed.id} with client order id 'abc' already exists (open): nothing sent`);
  });

  it.each([
    ["another amount", ["buy", "BTC/USDT", "0.02", "60000"], "Buy 0.02 BTC/USDT at 60000"],
    ["another price", ["buy", "BTC/USDT", "0.01", "59000"], "Buy 0.01 BTC/USDT at 59000"],
    ["another side", ["sell", "BTC/USDT", "0.01", "60000"], "Sell 0.01 BTC/USDT at 60000"],
  ])("%s: refused, exit 2, both orders' terms named, nothing on stdout", async (_what, args, asked) => {
    const result = await trade([...args, "--client-order-id", "abc"]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(
      `Client order id 'abc' is already used by order 1: Buy 0.01 BTC/USDT at 60000 (open); this order asks ${asked}: nothing sent`,
    );
  });

  it("another pair: refused, exit 2, not 5", async () => {
    const result = await trade(["buy", "ETH/USDT", "0.02", "3000", "--client-order-id", "abc"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Client order id 'abc' is already used by another order, not on ETH/USDT");
    expect(result.stderr).toContain("this order asks Buy 0.02 ETH/USDT at 3000: nothing sent");
  });

  it("a batch item with the id and other terms: refused, exit 2, nothing placed", async () => {
    const result = await trade(
      ["batch", "BTC/USDT", "-"],
      JSON.stringify([
        { side: "buy", amount: "0.01", price: "58000" },
        { side: "buy", amount: "0.03", price: "60000", clientOrderId: "abc" },
      ]),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "Batch item 2: Client order id 'abc' is already used by order 1: Buy 0.01 BTC/USDT at 60000 (open); this order asks Buy 0.03 BTC/USDT at 60000: nothing sent",
    );
    const open = JSON.parse((await cli.run(["--account", "cid", "orders", "BTC/USDT", "--json"])).stdout) as unknown[];
    expect(open).toHaveLength(1);
  });
});
