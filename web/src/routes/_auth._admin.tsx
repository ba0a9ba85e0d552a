/** PRODUCT D5: admin screens are for admins (the server refuses others anyway). */
import { createRoute, Outlet, redirect } from "@tanstack/react-router";
import { getSession } from "../app/session-store";
import { Route as authRoute } from "./_auth";

export const Route = createRoute({
  getParentRoute: () => authRoute,
  id: "_admin",
  beforeLoad: () => {
    if (!getSession().admin) throw redirect({ to: "/" });
  },
  component: Outlet,
});
