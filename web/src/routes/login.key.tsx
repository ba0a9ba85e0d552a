/** Seed 000 §2 "/login/key": Login with a Key. */
import { createRoute } from "@tanstack/react-router";
import { KeyLoginPage } from "../features/auth/KeyLoginPage";
import { returnToSearchSchema } from "../features/auth/return-to";
import { Route as rootRoute } from "./__root";

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: "/login/key",
  validateSearch: returnToSearchSchema,
  component: function KeyLoginRoute() {
    const { redirect } = Route.useSearch();
    return <KeyLoginPage returnTo={redirect} />;
  },
});
