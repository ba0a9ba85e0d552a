import { describe, expect, it } from "vitest";
import { collectPages, PAGE_BOUND } from "./pages.js";

// docs/exchange-rules.md#paging
describe("collectPages", () => {
  const numbers = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

  it("follows pages until one says it is the last, and hands the last item of each page to the next call", async () => {
    const asked: (number | undefined)[] = [];
    const all = await collectPages("htx", "open orders", String, async (index, last) => {
      asked.push(last);
      return { items: numbers(index * 3, index < 2 ? 3 : 1), more: index < 2 };
    });
    expect(all).toEqual(numbers(0, 7));
    expect(asked).toEqual([undefined, 2, 5]);
  });

  it("keeps each item once and ends when a page brings nothing new (a venue ignoring its cursor)", async () => {
    let calls = 0;
    const all = await collectPages("bitmart", "open orders", String, async () => {
      calls++;
      return { items: [1, 2, 3], more: true };
    });
    expect(all).toEqual([1, 2, 3]);
    expect(calls).toBe(2);
  });

  it("refuses a list that still names a next page after the bound, naming the venue and the list", async () => {
    let calls = 0;
    const listing = collectPages("bybit", "pairs", String, async (index) => {
      calls++;
      return { items: [index], more: true };
    });
    await expect(listing).rejects.toThrow(`bybit still names a next page of pairs after ${PAGE_BOUND} pages`);
    await expect(listing).rejects.toMatchObject({ kind: "invalid-order" });
    expect(calls).toBe(PAGE_BOUND);
  });
});
