import chalk from "chalk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FeedRuntimeOptions } from "../../exchanges/core/options.js";
import { ladder } from "../../exchanges/core/testing/ws-mock.js";
import { nodeFeedOptions } from "../../exchanges/feed-node.js";
import { createFeed } from "../../exchanges/feeds.js";
import { type OkxMock, startOkxMock } from "../../exchanges/okx/mock.js";
import { OkxMock as OkxWsMock } from "../../exchanges/okx/ws-mock.js";
import { createExchange } from "../../exchanges/registry.js";
import type { BookFeed } from "../../exchanges/types.js";
import { App } from "../../tui/app.js";
import type { TuiServices } from "../../tui/services.js";
import { KEYS, type RenderResult, render, stripAnsi } from "./render.js";

/**
 * docs/tui.md "Stale book" and "Errors are not empty lists", on OKX's real feed and adapter
 * against loopback mocks: the websocket mock's book around 100 USDT and the REST mock's account
 * (1200.25 USDT free). The feed runs with its own stale machinery, its limit shortened to 1 s.
 */
const creds = { api: "okx-test-key", secret: "okx-test-secret", password: "okx-pass-phrase" };

let ws: OkxWsMock;
let rest: OkxMock;
let screen: RenderResult | undefined;
let feeds: BookFeed[];
let ticker: ReturnType<typeof setInterval> | undefined;
const chalkLevel = chalk.level;

beforeEach(async () => {
  chalk.level = 1; // attributes such as dim are written, as on a terminal (the theme has no colours: NO_COLOR)
  ws = await OkxWsMock.start();
  ws.truth.reset(ladder("bid", 30), ladder("ask", 30));
  rest = await startOkxMock(creds);
  feeds = [];
  // a market that moves: one update every 100 ms at a deep level (the best prices stay put),
  // until the exchange stalls
  let n = 0;
  ticker = setInterval(() => {
    if (!ws.server.stalled) ws.update("BTC-USDT", [["80", String(1 + (n++ % 7))]], []);
  }, 100);
});

afterEach(async () => {
  chalk.level = chalkLevel;
  clearInterval(ticker);
  screen?.unmount();
  screen = undefined;
  for (const feed of feeds) feed.stop();
  await ws.close();
  await rest.close();
});

function start(): RenderResult {
  const services: TuiServices = {
    openExchange: async (exchange) => createExchange(exchange, creds, { baseUrl: rest.url }),
    async openFeed(exchange, pair, depth) {
      const options: FeedRuntimeOptions = {
        ...nodeFeedOptions(),
        wsUrl: ws.url,
        keepAliveMs: 200,
        reconnectBaseMs: 20,
        reconnectMaxMs: 100,
        staleAfterMs: 1000,
        ...(depth === undefined ? {} : { depth }),
      };
      const feed = createFeed(exchange, pair, options);
      feeds.push(feed);
      return feed;
    },
  };
  screen = render(
    <App
      services={services}
      exchange="okx"
      account="main"
      pair="BTC/USDT"
      refreshMs={50}
      ordersPollMs={60_000}
      balancesPollMs={60_000}
    />,
    { columns: 100, rows: 30, noColor: true },
  );
  return screen;
}

const live = (f: string) => /Order book BTC\/USDT\s+live/.test(f) && /~\d+\.\d+%/.test(f);
const ready = (f: string) => live(f) && f.includes("Open orders (0)") && /Last update/.test(f);
const BANNER = /⚠ Order book not live: disconnected since \d\d:\d\d:\d\d UTC \(([^)]+)\)/;
/** the best bid's price written dim (ESC[2m), bold runs aside */
const ESC = String.fromCharCode(27);
const DIM_BID = new RegExp(`${ESC}\\[2m(${ESC}\\[[0-9;]*m)*[ *]?99\\.50*\\b`);
const flat = (f: string) => f.replace(/\s+/g, " ");
/** the right column (trade, orders, balances) at 100 columns: the book takes 46, the gap 2 */
const rightColumn = (f: string) =>
  f
    .split("\n")
    .map((l) => [...l].slice(48).join(""))
    .join("\n");
/** the level rows of the book panel: a price then two numbers */
const levelRows = (frame: string) => frame.split("\n").filter((l) => /^\s*[▸*]?\s?\d+(\.\d+)?\s+\d/.test(l));

describe("TUI on a feed that stops (docs/tui.md 'Stale book', issue 20)", () => {
  it("greys the book, says since when and why, refuses to fill from it and asks twice before a send", async () => {
    const s = start();
    const before = await s.waitForFrame(ready);
    expect(before).not.toMatch(BANNER);
    expect(s.lastRawFrame()).not.toMatch(DIM_BID);
    expect(before).toMatch(/BTC\/USDT\s+.*\s99\.75\s+\? help/); // the mid in the header

    // the exchange goes silent: no update, no answer
    ws.server.stalled = true;
    const stale = await s.waitForFrame((f) => BANNER.test(f), 5000);
    // the feed marks it stale and renews the socket (connecting): the reason stays why it stopped
    expect(BANNER.exec(stale)?.[1]).toBe("no book update for too long, reconnecting");
    expect(stale).toContain("— not live, no mid");
    expect(stale).not.toMatch(/~\d+\.\d+%/);
    expect(stale).not.toMatch(/99\.75\s+\? help/);
    // the levels are still drawn, dim: the last book received, marked as not current
    const raw = s.lastRawFrame();
    expect(levelRows(stripAnsi(raw)).length).toBeGreaterThan(0);
    expect(raw).toMatch(DIM_BID);

    // Enter on a level does not fill the panel
    await s.press(KEYS.down, KEYS.enter);
    const refused = await s.waitForFrame((f) => f.includes("Not filled from the book: disconnected since"));
    expect(refused).not.toContain("Sell from bids");

    // an order is asked twice, naming the staleness
    await s.press(KEYS.tab, ..."99", KEYS.enter, ..."1", "b");
    const asked = await s.waitForFrame((f) => f.includes("Send? [y/N] Buy 1 BTC @ 99 USDT"));
    expect(flat(asked)).toMatch(/BOOK NOT LIVE, disconnected since \d\d:\d\d:\d\d UTC/);
    await s.press("y");
    const second = await s.waitForFrame((f) => flat(f).includes("send anyway? Type yes and Enter"));
    expect(flat(second)).toMatch(
      /BOOK NOT LIVE, disconnected since \d\d:\d\d:\d\d UTC \([^)]+\): Buy at 99 USDT not checked: no live BTC\/USDT order book/,
    );
    expect(rest.orders.size).toBe(0);
    await s.press("n");
    await s.waitForFrame((f) => f.includes("Not sent"));
    expect(rest.orders.size).toBe(0);
    await s.press("b", "y", ..."yes", KEYS.enter);
    await s.waitForFrame((f) => f.includes("Open orders (1)"));
    expect([...rest.orders.values()].map((o) => `${o.side} ${o.px} ${o.sz}`)).toEqual(["buy 99 1"]);

    // the exchange comes back: the banner goes, the book is live again
    ws.server.stalled = false;
    ws.server.drop();
    const back = await s.waitForFrame((f) => live(f) && !BANNER.test(f), 5000);
    expect(back).not.toContain("not live");
  });

  it("shows a dropped connection at once, and Enter fills again once live", async () => {
    const s = start();
    await s.waitForFrame(ready);
    ws.server.drop();
    // the feed reconnects at once; the mock answers, so the banner may be short: watch every frame
    await s.waitForFrame(() => s.stdout.frames.some((f) => /connection lost, reconnecting/.test(stripAnsi(f))), 5000);
    await s.waitForFrame((f) => live(f) && !BANNER.test(f), 5000);
    await s.press(KEYS.down, KEYS.enter);
    await s.waitForFrame((f) => f.includes("Sell from bids"));
  });
});

describe("TUI when the orders and balances calls fail (docs/tui.md 'Errors are not empty lists')", () => {
  it("shows each failure as an error with its reason, never 'Open orders (0)', and recovers on retry", async () => {
    rest.server.intercept((req) =>
      req.path === "/api/v5/trade/orders-pending" || req.path === "/api/v5/account/balance"
        ? {
            status: 503,
            body: { code: "50001", msg: "Service temporarily unavailable, please try again later", data: [] },
          }
        : undefined,
    );
    const s = start();
    const failed = await s.waitForFrame(
      (f) => live(f) && f.includes("orders unavailable:") && f.includes("balances unavailable:"),
    );
    expect(failed).not.toMatch(/Open orders \(\d+\)/);
    expect(failed).not.toContain("no open orders");
    expect(failed).not.toMatch(/Token\s+Total\s+Free/);
    // the whole reason, wrapped in the panel
    const right = flat(rightColumn(failed));
    expect(right).toMatch(
      /orders unavailable: ExchangeId: okx, msg: .*Service temporarily unavailable, please try again later\)/,
    );
    expect(right).toMatch(
      /balances unavailable: ExchangeId: okx, msg: .*Service temporarily unavailable, please try again later\)/,
    );

    // with the balances unknown, the question says the funds were not checked
    await s.press(KEYS.tab, ..."99", KEYS.enter, ..."1", "b");
    const asked = await s.waitForFrame((f) => f.includes("Send? [y/N]"));
    expect(flat(asked)).toContain("free balance not checked: balances unavailable: ExchangeId: okx");
    await s.press("n");

    rest.server.intercept(undefined);
    await s.press("R");
    const recovered = await s.waitForFrame((f) => f.includes("Open orders (0)") && /Last update/.test(f));
    expect(recovered).not.toContain("unavailable");
    expect(recovered).toMatch(/USDT\s+1,500\.2500\s+1,200\.2500\s+300\.0000/);
  });
});
