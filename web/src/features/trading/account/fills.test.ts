/** Fills in the trading view (docs/web-trading.md "Fills"). */
import { describe, expect, it } from "vitest";
import type { Order } from "../../../../../lib/types.js";
import { fillsOf, placedToast, recordOpenOrders, recordPlaced } from "./fills";

const order = (over: Partial<Order>): Order => ({
  pair: "BTC/USDT",
  id: "7",
  clientOrderId: "",
  price: "64100",
  amount: "0.001",
  filled: "0",
  type: "limit",
  side: "Buy",
  status: "open",
  timestamp: 1,
  ...over,
});

describe("fills (docs/web-trading.md 'Fills')", () => {
  it("says in the toast what filled at once: all, part, or nothing", () => {
    expect(
      placedToast(
        order({ filled: "0.001", status: "closed", average: "64050.5", fee: { amount: "0.000001", currency: "BTC" } }),
      ),
    ).toEqual({
      title: "Order filled at once",
      description: "Buy 0.001 BTC @ 64100: filled 0.001 @ 64050.5, fee 0.000001 BTC",
    });
    expect(placedToast(order({ filled: "0.0004", average: "64000" })).title).toBe("Order placed, part filled at once");
    expect(placedToast(order({}))).toEqual({ title: "Order placed", description: "Buy 0.001 BTC @ 64100: resting" });
  });

  it("tells a fill at placement, a growing filled amount between two reads, and an order that left the list filled", async () => {
    const path = ["Demo", "paper", "fills-test"] as const;
    expect(
      recordPlaced([...path], order({ id: "a", filled: "0.001", status: "closed", average: "64000" }), 1)?.amount,
    ).toBe("0.001");
    const looked: string[] = [];
    const lookUp = async (id: string) => {
      looked.push(id);
      return order({ id, filled: "0.002", amount: "0.002", status: "closed", average: "63000" });
    };
    // the first read only sets what was seen
    recordOpenOrders([...path], [order({ id: "b", amount: "0.01" }), order({ id: "c", amount: "0.002" })], 2, lookUp);
    recordOpenOrders([...path], [order({ id: "b", amount: "0.01", filled: "0.004", average: "64100" })], 3, lookUp);
    await new Promise((r) => setTimeout(r, 0));
    expect(looked).toEqual(["c"]);
    expect(fillsOf([...path]).map((f) => [f.orderId, f.amount, f.price])).toEqual([
      ["c", "0.002", "63000"],
      ["b", "0.004", "64100"],
      ["a", "0.001", "64000"],
    ]);
  });
});
