import type { Command } from "commander";
import { normalizePair } from "../../lib/pair.js";
import { parsePositiveInt } from "../args.js";
import { resolveExchangeId } from "../exchange.js";
import { action } from "../run.js";

export interface BookOptions {
  depth?: string;
  watch?: boolean;
  updates?: string;
}

/** `spotdesk book PAIR [--depth N] [--watch]`: a snapshot, or a live stream refreshed every 500 ms. */
export function registerBook(program: Command): void {
  program
    .command("book")
    .description(
      'order book snapshot, or a live stream with --watch (--json: {"exchange","pair","ts","bids","asks"}, a line per refresh with --watch)',
    )
    .argument("<pair>", "trading pair, e.g. BTC/USDT")
    .option("--depth <n>", "levels per side (default: the exchange's depth, 20 or 50)")
    .option("--watch", "stream the live book until interrupted")
    .option("--updates <n>", "with --watch: stop after N refreshes")
    .action(
      action(async (ctx, pairText: string, options: BookOptions) => {
        const id = await resolveExchangeId(ctx);
        const pair = normalizePair(pairText, id);
        const depth = options.depth === undefined ? undefined : parsePositiveInt(options.depth, "depth", 1000);
        const updates = options.updates === undefined ? undefined : parsePositiveInt(options.updates, "updates");
        const { showBook } = await import("../book-view.js");
        await showBook(ctx, id, pair, {
          watch: options.watch === true,
          ...(depth ? { depth } : {}),
          ...(updates ? { updates } : {}),
        });
      }),
    );
}
