/** docs/dashboard-rules.md#screens "/user/create": Create user (admin; split into its own chunk). */
import { createFileRoute } from "@tanstack/react-router";
import { UserCreatePage } from "../features/users/UserCreatePage";

export const Route = createFileRoute("/_auth/_admin/user/create")({ component: UserCreatePage });
