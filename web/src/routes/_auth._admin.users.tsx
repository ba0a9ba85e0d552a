/** docs/dashboard-rules.md#screens "/users": Users Manager (admin; split into its own chunk). */
import { createFileRoute } from "@tanstack/react-router";
import { UsersPage } from "../features/users/UsersPage";

export const Route = createFileRoute("/_auth/_admin/users")({ component: UsersPage });
