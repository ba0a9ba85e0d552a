import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FeedRuntimeOptions } from "../../exchanges/core/options.js";
import { tunnellingProxy } from "../../exchanges/core/testing/proxy.js";
import { ladder } from "../../exchanges/core/testing/ws-mock.js";
import { nodeFeedOptions } from "../../exchanges/feed-node.js";
import { createFeed } from "../../exchanges/feeds.js";
import { type OkxMock, startOkxMock } from "../../exchanges/okx/mock.js";
import { OkxMock as OkxWsMock } from "../../exchanges/okx/ws-mock.js";
import type { BookFeed } from "../../exchanges/types.js";
import { App } from "../../tui/app.js";
import { COMMON_PAIRS, defaultServices, type TuiServices } from "../../tui/services.js";
import { KEYS, type RenderResult, render } from "./render.js";

/**
 * The pair picker and the numbers on a real exchange (docs/exchange-rules.md#pairs, docs/tui.md
 * "Keys"): OKX's REST mock lists BTC/USDT (tick 0.1, lot 0.00000001), ETH/USDT and SHIB/USDT
 * live, OLD/USDT suspended and NEW/USDT not yet open; its websocket mock carries the book.
 */
const creds = { api: "okx-test-key", secret: "okx-test-secret", password: "okx-pass-phrase" };
const INSTRUMENTS = "/api/v5/public/instruments";

let ws: OkxWsMock;
let rest: OkxMock;
let screen: RenderResult | undefined;
let feeds: BookFeed[];

beforeEach(async () => {
  ws = await OkxWsMock.start();
  ws.truth.reset(ladder("bid", 10), ladder("ask", 10));
  rest = await startOkxMock(creds);
  feeds = [];
});

afterEach(async () => {
  screen?.unmount();
  screen = undefined;
  for (const feed of feeds) feed.stop();
  await ws.close();
  await rest.close();
});

const listCalls = () => rest.server.requests.filter((r) => r.path === INSTRUMENTS).length;

/** The TUI's own services on the mocks: the adapter, the pair list and the decimals as `spotdesk tui` opens them. */
function services(): TuiServices {
  return {
    ...defaultServices({ credentials: creds, baseUrl: rest.url }),
    async openFeed(exchange, pair, depth) {
      const options: FeedRuntimeOptions = {
        ...nodeFeedOptions(),
        wsUrl: ws.url,
        ...(depth === undefined ? {} : { depth }),
      };
      const feed = createFeed(exchange, pair, options);
      feeds.push(feed);
      return feed;
    },
  };
}

function start(): RenderResult {
  screen = render(
    <App
      services={services()}
      exchange="okx"
      account="main"
      pair="BTC/USDT"
      refreshMs={50}
      ordersPollMs={60_000}
      balancesPollMs={60_000}
    />,
    { columns: 120, rows: 34 },
  );
  return screen;
}

describe("the pair picker on a real exchange (docs/exchange-rules.md#pairs)", () => {
  it("offers only the pairs OKX lists, and refuses a typed pair it does not list", async () => {
    const s = start();
    await s.waitForFrame((f) => f.includes("99.50"));
    await s.press("p");
    const picker = await s.waitForFrame((f) => f.includes("Switch pair") && f.includes("SHIB/USDT"));
    expect(picker).toContain("BTC/USDT");
    expect(picker).toContain("ETH/USDT");
    // neither a suspended nor a pre-open instrument, nor the pairs offered without a list
    expect(picker).not.toContain("OLD/USDT");
    expect(picker).not.toContain("NEW/USDT");
    expect(picker).not.toContain("SOL/USDT");
    await s.press(..."XRP/USDT");
    await s.waitForFrame((f) => f.includes("nothing matches"));
    await s.press(KEYS.enter);
    await s.waitForFrame((f) => f.includes("OKX does not list XRP/USDT: pick one of its 3 pairs"));
    // one read of the list for the session: the decimals and the picker share it
    expect(listCalls()).toBe(1);
  });

  it("shows amounts with the lot's decimals and prices with the tick's, the book's own digits kept", async () => {
    const s = start();
    // lot 0.00000001: the book's "1.000" is shown with 8 decimals; tick 0.1 leaves the book's 2 price decimals
    const frame = await s.waitForFrame((f) => f.includes("1.00000000"));
    expect(frame).toContain("99.50");
    expect(frame).not.toContain(" 1.000 ");
    // the order asked for is cut to the tick and the lot, as it will be sent (docs/decisions.md#d1)
    await s.press(KEYS.tab, ..."99.57", KEYS.enter, ..."0.123456789", "b");
    await s.waitForFrame((f) => f.includes("Send? [y/N] Buy 0.12345678 BTC @ 99.5 USDT"));
    await s.press(KEYS.escape);
    const decimals = await services().pairDecimals?.("okx", "BTC/USDT");
    expect(decimals).toEqual({ priceDecimals: 1, amountDecimals: 8 });
    expect(await services().pairDecimals?.("okx", "SHIB/USDT")).toEqual({ priceDecimals: 9, amountDecimals: 0 });
    expect(await services().pairDecimals?.("okx", "OLD/USDT")).toBeUndefined();
  });

  it("without the list (OKX unreachable) offers the common pairs, takes any typed pair and asks again next time", async () => {
    rest.server.intercept((req) =>
      req.path === INSTRUMENTS ? { status: 503, headers: { "content-type": "text/plain" }, body: "busy" } : undefined,
    );
    const s = start();
    await s.waitForFrame((f) => f.includes("99.50"));
    await s.press("p");
    const picker = await s.waitForFrame((f) => f.includes("Switch pair") && f.includes("SOL/USDT"));
    for (const pair of COMMON_PAIRS) expect(picker).toContain(pair);
    await s.waitForFrame((f) => f.includes("OKX's pair list could not be read: type any pair"));
    await s.press(..."ADA/USDT");
    await s.waitForFrame((f) => f.includes("Enter: use 'ADA/USDT'"));
    const before = listCalls();
    rest.server.intercept(undefined);
    await s.press(KEYS.escape, "p");
    await s.waitForFrame((f) => f.includes("Switch pair") && f.includes("SHIB/USDT"));
    expect(listCalls()).toBe(before + 1);
  });
});

describe("the pair list's way to the exchange", () => {
  it("goes through --proxy to the --base-url host, without a key (docs/decisions.md#d12)", async () => {
    const proxy = await tunnellingProxy(() => rest.url);
    try {
      const tui = defaultServices({ baseUrl: "http://okx.invalid", proxy: proxy.url });
      expect(await tui.listPairs?.("okx")).toEqual({ pairs: ["BTC/USDT", "ETH/USDT", "SHIB/USDT"], listed: true });
      expect(proxy.seen).toEqual(["CONNECT okx.invalid:80"]);
      const sent = rest.server.requests.filter((r) => r.path === INSTRUMENTS);
      expect(sent).toHaveLength(1);
      expect(sent[0]?.headers.host).toBe("okx.invalid");
      expect(sent[0]?.headers["ok-access-key"]).toBeUndefined();
      // the decimals come from the same read
      expect(await tui.pairDecimals?.("okx", "ETH/USDT")).toEqual({ priceDecimals: 2, amountDecimals: 6 });
      expect(rest.server.requests.filter((r) => r.path === INSTRUMENTS)).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it("paper lists its own pairs with no request", async () => {
    const tui = defaultServices({ baseUrl: rest.url });
    expect(await tui.listPairs?.("paper")).toEqual({ pairs: expect.arrayContaining(["BTC/USDT"]), listed: true });
    expect(listCalls()).toBe(0);
  });
});
