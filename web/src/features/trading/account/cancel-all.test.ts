/** Cancel all's question (docs/web-trading.md "Balances and open orders"). */
import { describe, expect, it } from "vitest";
import type { BotAnswer } from "../../../../../lib/api.js";
import { botsPlacingOn, cancelAllQuestion } from "./cancel-all";

const PATH = ["Demo", "paper", "main"] as const;
const bot = (over: Partial<BotAnswer>): BotAnswer => ({
  botId: "b1",
  botType: "grid-bot",
  path: [...PATH],
  paths: [],
  setup: { pair: "BTC/USDT" },
  status: "running",
  created: 1,
  ...over,
});

describe("Cancel all with bots running", () => {
  it("names the bots that place orders on this account's pair: its path or an extra path, running or backing off, the pair in any case", () => {
    const bots = [
      bot({ botId: "grid" }),
      bot({ botId: "floating", botType: "floating-bot", setup: { main: { pair: "btc/usdt" } } }),
      bot({ botId: "heavy", botType: "heavy-volume-bot", path: ["Other", "paper", "main"], paths: [[...PATH]] }),
      bot({ botId: "retrying", status: "backing-off" }),
      bot({ botId: "stopped", status: "stopped" }),
      bot({ botId: "paused", status: "paused" }),
      bot({ botId: "volume", botType: "volume-bot", status: "not run" }),
      bot({ botId: "eth", setup: { pair: "ETH/USDT" } }),
      bot({ botId: "other-account", path: ["Demo", "paper", "alt"] }),
    ];
    expect(botsPlacingOn(bots, [...PATH], "BTC/USDT").map((b) => b.botId)).toEqual([
      "grid",
      "floating",
      "heavy",
      "retrying",
    ]);
  });

  it("asks with the count and the account, and says the bots will place their orders again", () => {
    expect(cancelAllQuestion([...PATH], "BTC/USDT", 10, [])).toEqual({
      text: "Cancel all 10 open BTC/USDT orders of Demo / paper / main?",
      bots: undefined,
    });
    expect(cancelAllQuestion([...PATH], "BTC/USDT", 1, [bot({ botId: "g1" })]).bots).toBe(
      "1 bot is running on BTC/USDT here and will place its orders again: grid-bot g1 (running). Stop it first (Bots) to keep the book clear.",
    );
    expect(
      cancelAllQuestion([...PATH], "BTC/USDT", 10, [bot({ botId: "g1" }), bot({ botId: "g2", status: "backing-off" })])
        .bots,
    ).toBe(
      "2 bots are running on BTC/USDT here and will place their orders again: grid-bot g1 (running), grid-bot g2 (backing-off). Stop them first (Bots) to keep the book clear.",
    );
  });
});
