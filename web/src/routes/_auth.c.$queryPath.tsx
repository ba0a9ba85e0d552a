/**
 * docs/dashboard-rules.md#screens "/c/{queryPath}": the client trading view (split into its own chunk). The param is
 * only bounded here; decoding to exactly three parts (docs/decisions.md#d13) is the view's rule: anything
 * else leaves it empty rather than not found.
 */
import { createFileRoute } from "@tanstack/react-router";
import { z } from "zod";
import { TradingPage } from "../features/trading/TradingPage";

// three names of up to 100 characters, each encoded once (up to 9 characters a character)
const paramsSchema = z.object({ queryPath: z.string().max(3000) });

export const Route = createFileRoute("/_auth/c/$queryPath")({
  params: { parse: (p) => paramsSchema.parse(p), stringify: (p) => ({ queryPath: p.queryPath }) },
  component: TradingPage,
});
