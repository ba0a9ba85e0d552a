import type { Command } from "commander";
import { normalizePair } from "../../lib/pair.js";
import type { ExchangeId } from "../../lib/types.js";
import type { BookFeed, ExchangeAdapter } from "../../exchanges/types.js";
import type { Context } from "../context.js";
import { action } from "../run.js";

export const DEFAULT_PAIR = "BTC/USDT";

/** What the CLI hands to the TUI: the chosen exchange, account and pair, and how to open adapters and feeds with the CLI's credential rules. */
export interface TuiOptions {
  exchange: ExchangeId;
  account: string;
  pair: string;
  now: () => number;
  openExchange(exchange: ExchangeId, account: string): Promise<ExchangeAdapter>;
  openFeed(exchange: ExchangeId, pair: string, depth?: number): Promise<BookFeed>;
}

function tuiOptions(ctx: Context, exchange: ExchangeId, pair: string, open: typeof import("../exchange.js")): TuiOptions {
  const withAccount = (ex: ExchangeId, account: string): Context => ({ ...ctx, options: { ...ctx.options, exchange: ex, account } });
  return {
    exchange,
    account: ctx.options.account,
    pair,
    now: ctx.now,
    openExchange: (ex, account) => open.openExchange(withAccount(ex, account), ex),
    openFeed: (ex, feedPair, depth) => open.openBookFeed(ctx, ex, feedPair, depth),
  };
}

/**
 * `spotdesk tui [PAIR]` (what `npm start` runs). Until tui/ exists in the build it falls back to
 * a live `book PAIR --watch`, which needs no credentials and no network on paper (issue 2 item 6).
 */
export function registerTui(program: Command): void {
  program
    .command("tui")
    .description(`the terminal UI on PAIR (default ${DEFAULT_PAIR}); a live order book until the UI is built`)
    .argument("[pair]", "trading pair", DEFAULT_PAIR)
    .action(
      action(async (ctx, pairText: string) => {
        const open = await import("../exchange.js");
        const id = await open.resolveExchangeId(ctx);
        const pair = normalizePair(pairText, id);
        const { loadPart, pickExport } = await import("../lazy.js");
        const tui = await loadPart("tui");
        if (tui) {
          const run = pickExport<(options: TuiOptions) => Promise<void>>("tui", tui, ["runTui", "startTui", "default"]);
          return run(tuiOptions(ctx, id, pair, open));
        }
        ctx.out.note(`The terminal UI is not in this build yet: showing the live ${pair} book on ${id} (Ctrl-C to quit).`);
        const { showBook } = await import("../book-view.js");
        await showBook(ctx, id, pair, { watch: true });
      }),
    );
}
