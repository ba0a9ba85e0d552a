/** docs/dashboard-rules.md#screens "/login/password": Login. `redirect` (validated) is where the guard found the visitor. */
import { createFileRoute } from "@tanstack/react-router";
import { LoginPage } from "../features/auth/LoginPage";
import { returnToSearchSchema } from "../features/auth/return-to";

export const Route = createFileRoute("/login/password")({
  validateSearch: returnToSearchSchema,
  component: function LoginRoute() {
    const { redirect } = Route.useSearch();
    return <LoginPage returnTo={redirect} />;
  },
});
