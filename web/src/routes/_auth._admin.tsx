/** docs/decisions.md#d5: admin screens are for admins (the server refuses others anyway). */
import { createFileRoute, Outlet, redirect } from "@tanstack/react-router";
import { getSession } from "../app/session-store";

export const Route = createFileRoute("/_auth/_admin")({
  beforeLoad: () => {
    if (!getSession().admin) throw redirect({ to: "/" });
  },
  component: Outlet,
});
