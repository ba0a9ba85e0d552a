/** Bots on paper with a pinned clock and seed (docs/decisions.md#d21–#d25): a runner, its feed, its states. */
import { afterEach } from "vitest";
import { createPaperFeed, paperBook } from "../../exchanges/paper/index.js";
import type { BookFeed, ExchangeAdapter } from "../../exchanges/types.js";
import { AccountLedger, BotRunner, type BotState, type RunnerOptions } from "../../server/bots/runner.js";
import type { RunnableBotType } from "../../server/bots/strategies/index.js";
import { paperOn, SEED, type TestClock, tempDataDir } from "../paper/helpers.js";

export { SEED, T0, TestClock, tempDataDir } from "../paper/helpers.js";

export interface BotHarness {
  runner: BotRunner;
  feed: BookFeed;
  adapter: ExchangeAdapter;
  states: BotState[];
  last(): BotState;
}

const running: { runner: BotRunner; feed: BookFeed }[] = [];
afterEach(async () => {
  for (const { runner, feed } of running.splice(0)) {
    // a runner whose exchange "died" mid-call never finishes its tick: do not wait for it
    await Promise.race([runner.stop().catch(() => undefined), new Promise((r) => setTimeout(r, 500))]);
    feed.stop();
  }
});

export function paperFeed(dataDir: string, clock: TestClock, pair = "BTC/USDT"): BookFeed {
  return createPaperFeed(pair, { dataDir, now: clock.now, seed: SEED, intervalMs: 20 });
}

export function startBot(
  type: RunnableBotType,
  setup: unknown,
  options: {
    clock: TestClock;
    dataDir?: string;
    botId?: string;
    adapter?: ExchangeAdapter;
    feed?: BookFeed;
    state?: Record<string, unknown>;
    ledger?: AccountLedger;
    extra?: Partial<RunnerOptions>;
    startFeed?: boolean;
  },
): BotHarness {
  const dataDir = options.dataDir ?? tempDataDir();
  const adapter = options.adapter ?? paperOn(dataDir, options.clock, { account: "bots" });
  const pair =
    (setup as { pair?: string; main?: { pair: string } }).pair ?? (setup as { main: { pair: string } }).main.pair;
  const feed = options.feed ?? paperFeed(dataDir, options.clock, pair);
  const states: BotState[] = [];
  const runner = new BotRunner({
    botId: options.botId ?? "bot-1",
    type,
    setup,
    exchange: "paper",
    adapter,
    feed,
    account: "paper:bots",
    decimals: { price: 2, amount: 6 },
    ledger: options.ledger ?? new AccountLedger(),
    now: options.clock.now,
    random: () => 0.5,
    syncIntervalMs: 1000,
    // the tests' clock jumps ahead of real time, where no countdown is refreshed: armed only where a test asks
    countdownSeconds: 0,
    onState: (state) => {
      states.push(JSON.parse(JSON.stringify(state)) as BotState);
    },
    ...(options.state ? { state: options.state } : {}),
    ...options.extra,
  });
  running.push({ runner, feed });
  if (options.startFeed !== false) feed.start();
  runner.start();
  return { runner, feed, adapter, states, last: () => states[states.length - 1]! };
}

export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what: string,
  timeoutMs = 8000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The synthetic book at an instant (the same function the feed and the fills use). */
export function bookAt(ms: number, pair = "BTC/USDT") {
  return paperBook(pair, { now: () => ms, seed: SEED });
}
