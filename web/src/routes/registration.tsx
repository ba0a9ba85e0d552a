/** Seed 000 §2 "/registration": Registration. */
import { createRoute } from "@tanstack/react-router";
import { RegistrationPage } from "../features/auth/RegistrationPage";
import { Route as rootRoute } from "./__root";

export const Route = createRoute({
  getParentRoute: () => rootRoute,
  path: "/registration",
  component: RegistrationPage,
});
