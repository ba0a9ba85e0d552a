/** The root of every screen (docs/dashboard-rules.md#screens): header, toasts, and the not-found screen for any other path. */
import { createRootRoute } from "@tanstack/react-router";
import { AppShell } from "../features/layout/AppShell";
import { NotFound } from "../features/layout/NotFound";

export const Route = createRootRoute({ component: AppShell, notFoundComponent: NotFound });
