/** docs/dashboard-rules.md#screens "/": Home, the clients list. */
import { createFileRoute } from "@tanstack/react-router";
import { HomePage } from "../features/home/HomePage";

export const Route = createFileRoute("/_auth/")({ component: HomePage });
