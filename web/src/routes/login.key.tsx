/** docs/dashboard-rules.md#screens "/login/key": Login with a Key. */
import { createFileRoute } from "@tanstack/react-router";
import { KeyLoginPage } from "../features/auth/KeyLoginPage";
import { returnToSearchSchema } from "../features/auth/return-to";

export const Route = createFileRoute("/login/key")({
  validateSearch: returnToSearchSchema,
  component: function KeyLoginRoute() {
    const { redirect } = Route.useSearch();
    return <KeyLoginPage returnTo={redirect} />;
  },
});
