/** Seed 000 §2 "/user/create": Create user (admin; loaded on demand). */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { Route as adminRoute } from "./_auth._admin";

export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: "/user/create",
  component: lazyRouteComponent(() => import("../features/users/UserCreatePage"), "UserCreatePage"),
});
