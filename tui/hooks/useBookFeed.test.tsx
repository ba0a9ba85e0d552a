import { Text } from "ink";
import { afterEach, describe, expect, it } from "vitest";
import type { BookFeed, FeedState } from "../../exchanges/types.js";
import { OrderBook } from "../../lib/orderbook.js";
import { type RenderResult, render } from "../../test/tui/render.js";
import { useBookFeed } from "./useBookFeed.js";

let screen: RenderResult | undefined;
afterEach(() => screen?.unmount());

/** A feed over a book the test writes to, counting how often the hook reads the book. */
function testFeed() {
  const book = new OrderBook();
  let reads = 0;
  const top = book.top.bind(book);
  book.top = (n: number) => {
    reads++;
    return top(n);
  };
  const stateListeners = new Set<(s: FeedState) => void>();
  let state: FeedState = "connecting";
  const feed: BookFeed = {
    exchange: "paper",
    pair: "BTC/USDT",
    book,
    get state() {
      return state;
    },
    start() {},
    stop() {},
    async refresh() {},
    onState(l) {
      stateListeners.add(l);
      return () => stateListeners.delete(l);
    },
    onChange() {
      return () => {};
    },
  };
  return {
    feed,
    book,
    reads: () => reads,
    setState(s: FeedState) {
      state = s;
      for (const l of stateListeners) l(s);
    },
  };
}

function Probe(props: { feed: BookFeed; refreshMs: number }) {
  const { view, state, mids } = useBookFeed(props.feed, 5, props.refreshMs);
  return (
    <Text>{`${state} v${view.version} asks=${view.asks.length} changed=${[...view.changed].join(",")} mids=${mids.join(",")}`}</Text>
  );
}

function Health(props: { feed: BookFeed; now: () => number }) {
  const { staleness } = useBookFeed(props.feed, 5, 20, props.now);
  return <Text>{staleness ? `${staleness.state} since ${staleness.since} (${staleness.reason})` : "live"}</Text>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("useBookFeed (docs/exchange-rules.md#states: refresh from the buffer only when it changed)", () => {
  it("reads the book on the refresh tick only when book.version moved", async () => {
    const t = testFeed();
    t.book.applySnapshot([["99", "1"]], [["101", "1"]]);
    screen = render(<Probe feed={t.feed} refreshMs={30} />);
    await screen.waitForFrame((f) => f.includes("asks=1"));
    const readsAfterFirst = t.reads();
    await sleep(200); // several ticks, no change
    expect(t.reads()).toBe(readsAfterFirst);
    t.book.applyDelta("ask", "101", "3");
    await screen.waitForFrame((f) => f.includes("changed=ask:101"));
    expect(t.reads()).toBeGreaterThan(readsAfterFirst);
    // the flash lasts one refresh
    await screen.waitForFrame((f) => f.includes("changed= "));
  });

  it("shows the feed state and collects mid prices for the sparkline", async () => {
    const t = testFeed();
    t.book.applySnapshot([["99", "1"]], [["101", "1"]]);
    screen = render(<Probe feed={t.feed} refreshMs={20} />);
    await screen.waitForFrame((f) => f.startsWith("connecting") && f.includes("mids=100"));
    t.setState("resyncing");
    await screen.waitForFrame((f) => f.startsWith("resyncing"));
    t.book.applySnapshot([["100", "1"]], [["102", "1"]]);
    await screen.waitForFrame((f) => f.includes("mids=100,101"));
    t.setState("stale");
    await screen.waitForFrame((f) => f.startsWith("stale"));
  });

  it("says since when and why the book is not live, from the moment the feed leaves live (docs/tui.md 'Stale book')", async () => {
    const t = testFeed();
    t.book.applySnapshot([["99", "1"]], [["101", "1"]]);
    let clock = Date.UTC(2025, 0, 15, 12, 0, 0);
    const now = () => clock;
    screen = render(<Health feed={t.feed} now={now} />);
    // never live yet: not live since the feed was opened
    await screen.waitForFrame((f) => f === `connecting since ${clock} (connecting)`);
    t.setState("live");
    await screen.waitForFrame((f) => f === "live");
    clock += 5_000;
    const lost = clock;
    t.setState("connecting");
    await screen.waitForFrame((f) => f === `connecting since ${lost} (connection lost, reconnecting)`);
    // still not live: the time and the reason it stopped stay
    clock += 3_000;
    t.setState("resyncing");
    await screen.waitForFrame((f) => f === `resyncing since ${lost} (connection lost, reconnecting)`);
    t.setState("live");
    await screen.waitForFrame((f) => f === "live");
    clock += 1_000;
    const silent = clock;
    t.setState("stale");
    await screen.waitForFrame((f) => f === `stale since ${silent} (no book update for too long, reconnecting)`);
    t.setState("connecting");
    await screen.waitForFrame((f) => f === `connecting since ${silent} (no book update for too long, reconnecting)`);
  });
});
