import type { Command } from "commander";
import { CATALOGUE } from "../../exchanges/catalogue.js";
import { hasAdapter } from "../../exchanges/registry.js";
import { EXCHANGE_IDS } from "../../lib/types.js";
import { action } from "../run.js";

/** `spotdesk exchanges`: what each exchange needs and allows, from the catalogue (exchanges/<id>/info.ts). */
export function registerExchanges(program: Command): void {
  program
    .command("exchanges")
    .description("list exchange ids, display names, passphrase need, limits, post-only form and feed source")
    .action(
      action(async (ctx) => {
        const rows = EXCHANGE_IDS.map((id) => {
          const info = CATALOGUE[id];
          const limits = info.limits;
          return {
            id,
            name: info.name,
            needsPassphrase: info.needsPassphrase,
            /** most resting orders and the page size of one fetch; null = no cap (docs/decisions.md#d10) */
            openOrdersLimit: limits.openOrders,
            /** 0 = unsupported (docs/exchange-rules.md#limits) */
            createBatchMax: limits.createBatch,
            cancelBatchMax: limits.cancelBatch,
            unsupported: [...limits.unsupported],
            /** the maker-only order form, null where the exchange has none (docs/exchange-rules.md "Post-only") */
            postOnly: info.postOnly?.form ?? null,
            feed: info.feed,
            defaultDepth: info.depth,
            /** false while this build has no adapter for the exchange */
            adapter: hasAdapter(id),
          };
        });
        if (ctx.out.json) return ctx.out.document(rows);
        const yesNo = (v: boolean) => (v ? "yes" : "no");
        const max = (n: number) => (n === 0 ? "-" : String(n));
        ctx.out.table(
          [
            "ID",
            "Name",
            "Passphrase",
            "Open orders",
            "Batch",
            "Cancel batch",
            "Unsupported",
            "Post-only",
            "Feed",
            "Adapter",
          ],
          rows.map((r) => [
            r.id,
            r.name,
            yesNo(r.needsPassphrase),
            r.openOrdersLimit === null ? "unlimited" : String(r.openOrdersLimit),
            max(r.createBatchMax),
            max(r.cancelBatchMax),
            r.unsupported.join(",") || "-",
            r.postOnly ?? "none",
            r.feed,
            yesNo(r.adapter),
          ]),
          ["left", "left", "left", "right", "right", "right", "left", "left", "left", "left"],
        );
      }),
    );
}
