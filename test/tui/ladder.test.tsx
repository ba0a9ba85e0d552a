import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPaperExchange } from "../../exchanges/paper/index.js";
import type { BookFeed, FeedState } from "../../exchanges/types.js";
import { OrderBook } from "../../lib/orderbook.js";
import { mouseEvents, mouseStdin } from "../../tui/mouse.js";
import { defaultServices, type TuiServices } from "../../tui/services.js";
import { KEYS, type RenderResult, renderPaperDesk } from "./render.js";

/**
 * The ladder on a book the test moves (docs/tui.md "Book selection"): the real paper account in a
 * temp directory for orders and balances, and a live feed whose book the test writes to, as an
 * exchange's deltas would.
 */
const FROZEN = Date.UTC(2025, 0, 15, 12, 0, 0);
const now = () => FROZEN;

let dataDir: string;
let screen: RenderResult | undefined;
let book: OrderBook;
let services: TuiServices;

function liveFeed(pair: string): BookFeed {
  const state: FeedState = "live";
  return {
    exchange: "paper",
    pair,
    book,
    state,
    start() {},
    stop() {},
    async refresh() {},
    onState: () => () => {},
    onChange: () => () => {},
  };
}

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), "spotdesk-ladder-"));
  book = new OrderBook();
  book.applySnapshot(
    [
      ["63630", "0.5"],
      ["63627", "0.25"],
      ["63625", "1"],
    ],
    [
      ["63640", "0.1"],
      ["63645", "2"],
    ],
  );
  const base = defaultServices({ dataDir, now });
  services = { ...base, openFeed: async (_exchange, pair) => liveFeed(pair) };
});

afterEach(() => {
  screen?.unmount();
  screen = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

function start(columns = 100, rows = 30): RenderResult {
  screen = renderPaperDesk(services, now, { columns, rows }, 20);
  return screen;
}

const selectedLine = (f: string) => f.split("\n").find((l) => l.includes("▸"));
const field = (frame: string, label: string) =>
  new RegExp(`${label}\\s+([^\\s▏]+)▏?\\s+(BTC|ETH|USDT)`).exec(frame)?.[1];

describe("a ladder anchored to prices (issue 21)", () => {
  it("keeps the selection on its price while better levels arrive, and Enter fills the price the row shows", async () => {
    const s = start();
    await s.waitForFrame((f) => f.includes("63,625.00"));
    await s.press(KEYS.down, KEYS.down, KEYS.down);
    await s.waitForFrame((f) => selectedLine(f)?.includes("63,625.00") === true);
    // two better bids: the row moves down the screen, the marker moves with it
    book.applyDelta("bid", "63636", "0.3");
    book.applyDelta("bid", "63633", "0.2");
    const moved = await s.waitForFrame((f) => f.includes("63,636.00") && f.includes("63,633.00"));
    expect(selectedLine(moved)).toContain("63,625.00");
    await s.press(KEYS.enter);
    const filled = await s.waitForFrame((f) => f.includes("panel filled"));
    expect(field(filled, "Price")).toBe("63625");
    // every bid down to the selected one: 0.3 + 0.2 + 0.5 + 0.25 + 1
    expect(field(filled, "Amount")).toBe("2.25");
  });

  it("says the level left the book instead of filling another price, then fills the one it moved to", async () => {
    const s = start();
    await s.waitForFrame((f) => f.includes("63,627.00"));
    await s.press(KEYS.down, KEYS.down);
    await s.waitForFrame((f) => selectedLine(f)?.includes("63,627.00") === true);
    book.applyDelta("bid", "63627", "0");
    await s.waitForFrame((f) => !f.includes("63,627.00"));
    await s.press(KEYS.enter);
    const said = await s.waitForFrame((f) => f.includes("left the book"));
    expect(said).toContain("The level 63627 left the book: now on 63625, Enter to fill it");
    expect(field(said, "Price")).toBeUndefined();
    await s.press(KEYS.enter);
    const filled = await s.waitForFrame((f) => f.includes("panel filled"));
    expect(field(filled, "Price")).toBe("63625");
  });

  it("moves with j/k, a page with PgUp/PgDn and to the ends with Home/End", async () => {
    const s = start();
    await s.waitForFrame((f) => f.includes("63,625.00"));
    await s.press("j");
    await s.waitForFrame((f) => selectedLine(f)?.includes("63,630.00") === true);
    await s.press("k");
    await s.waitForFrame((f) => selectedLine(f)?.includes("63,640.00") === true);
    await s.press("\u001b[6~"); // PgDn
    await s.waitForFrame((f) => selectedLine(f)?.includes("63,625.00") === true);
    await s.press("\u001b[H"); // Home: the top of the asks
    await s.waitForFrame((f) => selectedLine(f)?.includes("63,645.00") === true);
    await s.press("\u001b[F"); // End: the bottom of the bids
    await s.waitForFrame((f) => selectedLine(f)?.includes("63,625.00") === true);
  });

  it("marks the level where your own order rests", async () => {
    // a paper Buy far under the synthetic market rests; the TUI's account is the same paper account
    const paper = createPaperExchange({ api: "", secret: "" }, { account: "default", dataDir, now });
    await paper.createOrder({ pair: "BTC/USDT", side: "Buy", amount: "0.01", price: "63627" });
    const s = start();
    // the pair's lot (6 decimals) is read a moment after the start
    const frame = await s.waitForFrame((f) => /63,627\.00\s+0\.250000\s+15,906\.75◂/.test(f));
    expect(frame.split("\n").filter((l) => l.includes("◂"))).toHaveLength(1);
  });
});

describe("the mouse on the ladder (docs/tui.md Mouse)", () => {
  it("fills from a clicked level, exactly its price, and moves the selection with the wheel", async () => {
    const s = start();
    const frame = await s.waitForFrame((f) => f.includes("63,627.00"));
    const y = frame.split("\n").findIndex((l) => l.includes("63,627.00"));
    mouseEvents.emit("mouse", { kind: "click", x: 12, y });
    const filled = await s.waitForFrame((f) => f.includes("panel filled"));
    expect(field(filled, "Price")).toBe("63627");
    expect(selectedLine(filled)).toContain("63,627.00");
    // the wheel: one row up the screen, toward the middle
    mouseEvents.emit("mouse", { kind: "wheel-up", x: 12, y });
    await s.waitForFrame((f) => selectedLine(f)?.includes("63,630.00") === true);
    // a click on the middle row fills nothing
    const middle = s
      .lastFrame()
      .split("\n")
      .findIndex((l) => /~\d+\.\d+%/.test(l));
    mouseEvents.emit("mouse", { kind: "click", x: 3, y: middle });
    await new Promise((r) => setTimeout(r, 100));
    expect(field(s.lastFrame(), "Price")).toBe("63627");
  });

  it("keeps mouse reports out of the keys: a click never types into a field", () => {
    const read: string[] = ["\u001b[<0;12;9M\u001b[<0;12;9m5", "\u001b[<64;3;4M", "x"];
    const events: unknown[] = [];
    const emitter = {
      emit: (_name: string, e: unknown) => events.push(e),
    } as unknown as import("node:events").EventEmitter;
    const stdin = mouseStdin({ read: () => read.shift() ?? null }, emitter);
    expect(stdin.read()).toBe("5");
    // a chunk of mouse input only is skipped: Ink gets the next keys
    expect(stdin.read()).toBe("x");
    expect(stdin.read()).toBeNull();
    expect(events).toEqual([
      { kind: "click", x: 11, y: 8 },
      { kind: "wheel-up", x: 2, y: 3 },
    ]);
  });
});
