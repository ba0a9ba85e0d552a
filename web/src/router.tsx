/**
 * The router of docs/dashboard-rules.md#screens. Each screen has its own thin route file under routes/ (params and
 * search validated with zod, the screen in its feature folder); the router plugin generates
 * routeTree.gen.ts from those files and splits each route's component into its own chunk, so the
 * first screen stays small (docs/dashboard-delivery.md).
 */
import { createRouter } from "@tanstack/react-router";
import { setNavigator } from "./app/api";
import { queryPathRewrite } from "./features/trading/query-path";
import { routeTree } from "./routeTree.gen";

export const router = createRouter({
  routeTree,
  defaultPreload: false,
  scrollRestoration: true,
  // /c/{queryPath} encoded once (docs/decisions.md#d13, docs/dashboard-delivery.md#links)
  rewrite: queryPathRewrite,
});
setNavigator((href) => router.history.push(href));

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
