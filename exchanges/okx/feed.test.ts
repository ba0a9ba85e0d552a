import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { expectSameBook, sameBook, testOptions } from "../core/testing/feed-helpers.js";
import { ladder, waitFor } from "../core/testing/ws-mock.js";
import { createFeed } from "../feeds.js";
import type { OkxFeed } from "./feed.js";
import { OkxMock } from "./ws-mock.js";

const INST = "BTC-USDT";

describe("okx feed (docs/decisions.md#d14: okx gets a live book)", () => {
  let mock: OkxMock;
  let feed: OkxFeed | undefined;

  beforeEach(async () => {
    mock = await OkxMock.start();
    mock.truth.reset(ladder("bid", 40), ladder("ask", 40));
  });
  afterEach(async () => {
    feed?.stop();
    await mock.close();
  });

  function open(extra = {}) {
    const { options, logger } = testOptions(mock.url, extra);
    feed = createFeed("okx", "BTC/USDT", options) as OkxFeed;
    feed.start();
    return { feed, logger };
  }

  it("subscribes books on open, applies the snapshot and updates linked by prevSeqId, not +1 (docs/exchange-rules.md#exchange-facts)", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    expect(mock.subscriptions).toEqual([`books:${INST}`]);
    mock.update(
      INST,
      [
        ["99.50", "0"],
        ["99.90", "5"],
      ],
      [["100.00", "0.5"]],
    );
    mock.update(INST, [], [["100.50", "0"]]);
    await waitFor(() => sameBook(feed.book, mock.truth), "updates applied");
    expectSameBook(feed.book, mock.truth);
    expect(feed.stats.resyncs).toBe(0);
  });

  it("accepts heartbeats with prevSeqId == seqId and a maintenance reset to a smaller seqId", async () => {
    const { feed } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.heartbeat(INST);
    mock.heartbeat(INST);
    mock.resetSequence(INST, [["99.95", "1"]]);
    mock.update(INST, [["99.20", "8"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "book follows");
    expect(feed.stats.resyncs).toBe(0);
  });

  it("resyncs from a fresh snapshot when the seqId chain breaks (docs/decisions.md#d14)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.update(INST, [["99.10", "4"]], [], { send: false });
    mock.update(INST, [], [["101.00", "0"]]);
    await waitFor(() => feed.stats.resyncs === 1 && mock.subscriptions.length === 2, "resubscribed");
    await waitFor(() => sameBook(feed.book, mock.truth), "correct after resync");
    expect(feed.state).toBe("live");
    expect(logger.has("resync")).toBe(true);
  });

  it("keeps alive with the text ping, reconnects after a drop and resubscribes (docs/exchange-rules.md#states, docs/decisions.md#d14)", async () => {
    const { feed } = open({ keepAliveMs: 60 });
    await waitFor(() => mock.pings >= 1, "ping");
    mock.server.drop();
    await waitFor(
      () => mock.server.connections === 2 && mock.subscriptions.length === 2 && feed.state === "live",
      "back",
    );
    mock.update(INST, [["98.00", "1"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "book correct after reconnect");
  });

  it("logs garbage and survives it (docs/exchange-rules.md#errors)", async () => {
    const { feed, logger } = open();
    await waitFor(() => feed.state === "live", "live");
    mock.server.broadcast("<html>502</html>");
    mock.server.broadcast(JSON.stringify({ arg: { channel: "books", instId: INST }, action: "update", data: "x" }));
    mock.update(INST, [["99.99", "1"]], []);
    await waitFor(() => sameBook(feed.book, mock.truth), "update after garbage");
    expect(feed.stats.parseFailures).toBe(2);
    expect(logger.has("not understood")).toBe(true);
  });
});
