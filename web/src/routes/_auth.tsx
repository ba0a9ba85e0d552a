/**
 * The signed-in layout. Its beforeLoad guard (the route decides before it renders) restores the session through the refresh
 * cookie or sends the visitor to the login screen, remembering where a lapsed session was (the address
 * as the browser shows it: the router's own href is rewritten on /c/, web/src/router.tsx). A guard is
 * not an authorization boundary: the server checks scope and role on every call.
 */
import { createFileRoute, redirect } from "@tanstack/react-router";
import { ensureSession } from "../app/session";
import { returnSearch } from "../features/auth/return-to";
import { AuthenticatedLayout } from "../features/layout/AppShell";

export const Route = createFileRoute("/_auth")({
  beforeLoad: async ({ location }) => {
    if (!(await ensureSession()))
      throw redirect({
        to: "/login/password",
        search: returnSearch(location.publicHref),
      });
  },
  component: AuthenticatedLayout,
});
