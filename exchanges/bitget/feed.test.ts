import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { BitgetFeed } from "./feed.js";
import { BitgetMock } from "./ws-mock.js";

const INST = "ETHUSDT";

describe("bitget feed", () => {
  let mock: BitgetMock;
  let feed: BitgetFeed | undefined;

  beforeEach(async () => {
    mock = await BitgetMock.start();
    // trailing zeros on purpose: the checksum is over bitget's own strings
    mock.truth.reset(ladder("bid", 40, 2000, 0.1, 2), ladder("ask", 40, 2000, 0.1, 2));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.url, extra);
    feed = createFeed("bitget", "ETH/USDT", options) as BitgetFeed;
    feed.start();
    return { feed, logger };
  }

  it("subscribes books15 by default and takes each push as the whole book (docs/exchange-rules.md#states 'The bitget channel is books15')", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(mock.subscriptions).toEqual([`books15:${INST}`]);
    expectSameBook(feed.book, mock.truth, 15);
    mock.snapshot15(
      INST,
      [
        ["1999.90", "0"],
        ["1999.95", "2.000"],
      ],
      [["2000.00", "0"]],
    );
    await waitFor(() => sameBook(feed.book, mock.truth, 15), "second snapshot");
    expect(feed.book.bidCount).toBe(15);
  });

  it("with more than 15 levels uses books: snapshot then updates, amount 0 removing, checksum verified (docs/exchange-rules.md#states)", async () => {
    const { feed } = open({ depth: 20 });
    await waitFor(() => feed.state === "live", "live");
    expect(mock.subscriptions).toEqual([`books:${INST}`]);
    mock.update(
      INST,
      [
        ["1999.90", "0"],
        ["1999.95", "1.250"],
      ],
      [["2000.10", "0.500"]],
    );
    mock.update(INST, [], [["2000.00", "0"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "updates applied");
    expect(feed.checksum()).toBe(mock.checksum());
    expect(feed.stats.resyncs).toBe(0);
  });

  it("throws the book away and resubscribes on a checksum mismatch (issue 4 integrity)", async () => {
    const { feed, logger } = open({ depth: 20 });
    await waitFor(() => feed.state === "live", "live");
    mock.update(INST, [["1999.97", "3.000"]], [], { badChecksum: true });
    await waitFor(
      () => feed.stats.resyncs === 1 && mock.subscriptions.length === 2 && feed.state === "live",
      "resynced",
    );
    mock.update(INST, [["1999.50", "0"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after resync");
    expect(logger.has("resync")).toBe(true);
  });

  it("detects a lost update through the checksum and ends correct", async () => {
    const { feed } = open({ depth: 20 });
    await waitFor(() => feed.state === "live", "live");
    mock.update(INST, [["1999.98", "1.000"]], [], { send: false });
    mock.update(INST, [], [["2000.20", "0"]]);
    await waitFor(() => feed.stats.resyncs === 1 && feed.state === "live", "resynced");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct");
  });

  it("reconnects after a drop, resubscribes, and survives garbage (docs/decisions.md#d14, docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open({ keepAliveMs: 50 });
    await waitFor(() => feed.state === "live" && mock.pings >= 1, "live and pinging");
    mock.server.drop();
    await waitFor(() => mock.subscriptions.length === 2 && feed.state === "live", "back");
    mock.server.broadcast("garbage");
    mock.snapshot15(INST, [["1999.99", "7.000"]]);
    await waitFor(() => sameBook(feed.book, mock.truth, 15), "snapshot after garbage");
    expect(logger.has("not understood")).toBe(true);
  });
});
