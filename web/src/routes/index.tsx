/** Seed 000 §2 "/": Home, the clients list. */
import { createRoute } from "@tanstack/react-router";
import { HomePage } from "../features/home/HomePage";
import { Route as authRoute } from "./_auth";

export const Route = createRoute({ getParentRoute: () => authRoute, path: "/", component: HomePage });
