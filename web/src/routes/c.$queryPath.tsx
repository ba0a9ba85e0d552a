/**
 * Seed 000 §2 "/c/{queryPath}": the client trading view (loaded on demand). The param is only
 * bounded here; decoding to exactly three parts (PRODUCT D13) is the view's rule: anything else
 * leaves it empty rather than not found.
 */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { z } from "zod";
import { Route as authRoute } from "./_auth";

const paramsSchema = z.object({ queryPath: z.string().max(1000) });

export const Route = createRoute({
  getParentRoute: () => authRoute,
  path: "/c/$queryPath",
  params: { parse: (p) => paramsSchema.parse(p), stringify: (p) => ({ queryPath: p.queryPath }) },
  component: lazyRouteComponent(() => import("../features/trading/TradingPage"), "TradingPage"),
});
