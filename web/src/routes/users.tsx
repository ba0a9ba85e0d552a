/** Seed 000 §2 "/users": Users Manager (admin; loaded on demand). */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { Route as adminRoute } from "./_auth._admin";

export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: "/users",
  component: lazyRouteComponent(() => import("../features/users/UsersPage"), "UsersPage"),
});
