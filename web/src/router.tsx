/**
 * The router of seed 000 §2. Each screen has its own thin route module under routes/ (params and
 * search validated with zod, the screen in its feature folder); routeTree.ts puts them together.
 * Admin screens and the trading view load on demand so the first screen stays small
 * (bench/web.bench.ts).
 */
import { createRouter } from "@tanstack/react-router";
import { setNavigator } from "./app/api";
import { routeTree } from "./routeTree";

export const router = createRouter({ routeTree, defaultPreload: false, scrollRestoration: true });
setNavigator((href) => router.history.push(href));

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
