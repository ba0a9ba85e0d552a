/** Seed 000 §2 "/login/password": Login. `redirect` (validated) is where the guard found the visitor. */
import { createRoute } from "@tanstack/react-router";
import { LoginPage } from "../features/auth/LoginPage";
import { returnToSearchSchema } from "../features/auth/return-to";
import { Route as rootRoute } from "./__root";

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: "/login/password",
  validateSearch: returnToSearchSchema,
  component: function LoginRoute() {
    const { redirect } = Route.useSearch();
    return <LoginPage returnTo={redirect} />;
  },
});
