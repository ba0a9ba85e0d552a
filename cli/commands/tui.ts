import type { Command } from "commander";
import { CATALOGUE } from "../../exchanges/catalogue.js";
import type { ExchangeId } from "../../lib/types.js";
import { type Context, paperDataDir, proxyUrl } from "../context.js";
import { openBookFeed, openExchange, resolveCredentials, resolveExchangeId } from "../exchange.js";
import { action } from "../run.js";
import type { CredentialStore } from "../store.js";
import { storeExists } from "../store-dir.js";

export const DEFAULT_PAIR = "BTC/USDT";

/** Accounts the TUI's switcher offers: paper's simulated ones, or the credential store's for a real exchange. */
async function listAccounts(exchange: ExchangeId, dataDir: string | undefined): Promise<string[]> {
  if (!CATALOGUE[exchange].needsApiKey) {
    const { listPaperAccounts } = await import("../../tui/services.js");
    return listPaperAccounts(exchange, dataDir);
  }
  const { openStore } = await import("../store.js");
  const store = await openStore();
  return store
    .list()
    .filter((a) => a.exchange === exchange)
    .map((a) => a.name);
}

/**
 * `spotdesk tui [PAIR]`, what `npm start` runs: the Ink application of tui/, loaded only here.
 * Adapters and feeds are opened the CLI's way (environment or credential store, --proxy,
 * --base-url), so the TUI and the CLI trade with the same credentials. It needs no credentials and
 * no network on paper; without a terminal it prints the live book as text.
 */
export function registerTui(program: Command): void {
  program
    .command("tui")
    .description(`the terminal UI: a live order book you trade from (default pair ${DEFAULT_PAIR})`)
    .argument("[pair]", "trading pair", DEFAULT_PAIR)
    .action(
      action(async (ctx: Context, pair: string) => {
        // before Ink and React load: a smaller heap for a process that runs for days (docs/tui-memory.md)
        const stopReducer = await (await import("../../tui/heap.js")).tuneTuiHeap();
        const id = await resolveExchangeId(ctx);
        const dataDir = paperDataDir();
        // Once Ink owns the terminal a stderr note would tear the screen: the credential notes are
        // printed once, by resolveCredentials below. An account picked in the TUI is an explicit choice.
        const quietOut = Object.assign(Object.create(ctx.out) as Context["out"], { note: () => {} });
        const withAccount = (exchange: ExchangeId, account: string): Context => ({
          ...ctx,
          accountGiven: ctx.accountGiven || account !== ctx.options.account,
          out: quietOut,
          options: { ...ctx.options, exchange, account },
        });
        // A store key prompt must happen before Ink takes the terminal: resolve a real exchange's
        // credentials now (a missing one ends here with exit 3, like any other command).
        if (CATALOGUE[id].needsApiKey) await resolveCredentials(id, ctx);
        const { runTui } = await import("../../tui/index.js");
        // read beside the TUI's start, not before it: the guard waits for it (docs/tui.md). Without a
        // store file there is no setting to read, and conf and ajv stay unloaded (docs/tui-memory.md)
        let store: Promise<CredentialStore> | undefined;
        const openStoreOnce = () => {
          store ??= import("../store.js").then((m) => m.openStore());
          return store;
        };
        if (storeExists()) openStoreOnce().catch(() => {});
        const proxy = proxyUrl(ctx.options);
        try {
          process.exitCode = await runTui({
            exchange: id,
            pair,
            account: ctx.options.account,
            ...(ctx.options.baseUrl ? { baseUrl: ctx.options.baseUrl } : {}),
            ...(ctx.options.wsUrl ? { wsUrl: ctx.options.wsUrl } : {}),
            ...(dataDir ? { dataDir } : {}),
            // the pair list (docs/exchange-rules.md#pairs) goes through --proxy like the orders
            ...(proxy ? { proxy } : {}),
            now: ctx.now,
            openExchange: (exchange, account) => openExchange(withAccount(exchange, account), exchange),
            openFeed: (exchange, feedPair, depth) => openBookFeed(ctx, exchange, feedPair, depth),
            listAccounts: (exchange) => listAccounts(exchange, dataDir),
            // the account's far-price limit (docs/orders.md), read again on each account switch
            farPricePercent: async (exchange, account) =>
              store || storeExists() ? (await openStoreOnce()).settings(exchange, account).farPricePercent : undefined,
          });
        } finally {
          stopReducer();
        }
      }),
    );
}
