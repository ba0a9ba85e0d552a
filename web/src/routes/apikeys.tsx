/** Seed 000 §2 "/apikeys": API Keys Manager (admin; loaded on demand). */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { Route as adminRoute } from "./_auth._admin";

export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: "/apikeys",
  component: lazyRouteComponent(() => import("../features/apikeys/ApiKeysPage"), "ApiKeysPage"),
});
