/** Seed 000 §2 "/user/edit/{uuid}": Edit one user (admin; loaded on demand). */
import { createRoute, lazyRouteComponent } from "@tanstack/react-router";
import { z } from "zod";
import { Route as adminRoute } from "./_auth._admin";

const paramsSchema = z.object({ uuid: z.string().min(1).max(100) });

export const Route = createRoute({
  getParentRoute: () => adminRoute,
  path: "/user/edit/$uuid",
  params: { parse: (p) => paramsSchema.parse(p), stringify: (p) => ({ uuid: p.uuid }) },
  component: lazyRouteComponent(() => import("../features/users/UserEditPage"), "UserEditPage"),
});
