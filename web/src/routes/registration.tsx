/** docs/dashboard-rules.md#screens "/registration": Registration. */
import { createFileRoute } from "@tanstack/react-router";
import { RegistrationPage } from "../features/auth/RegistrationPage";

export const Route = createFileRoute("/registration")({ component: RegistrationPage });
