/**
 * Routes of seed 000 §2. Route definitions stay thin: params are validated with zod and each
 * screen lives in its feature folder. The authenticated layout has a beforeLoad guard (STYLE.md);
 * the server still checks scope and role on every call.
 */
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, Outlet, redirect } from "@tanstack/react-router";
import { z } from "zod";
import { setNavigator } from "./app/api";
import { ensureSession } from "./app/session";
import { getSession } from "./app/session-store";
import { KeyLoginPage } from "./features/auth/KeyLoginPage";
import { LoginPage } from "./features/auth/LoginPage";
import { RegistrationPage } from "./features/auth/RegistrationPage";
import { HomePage } from "./features/home/HomePage";
import { AppShell, AuthenticatedLayout } from "./features/layout/AppShell";
import { NotFound } from "./features/layout/NotFound";

// Admin screens and the trading view load on demand: the first screen stays small (bench/web.bench.ts).
const rootRoute = createRootRoute({ component: AppShell, notFoundComponent: NotFound });

const loginPassword = createRoute({ getParentRoute: () => rootRoute, path: "/login/password", component: LoginPage });
const loginKey = createRoute({ getParentRoute: () => rootRoute, path: "/login/key", component: KeyLoginPage });
const registration = createRoute({ getParentRoute: () => rootRoute, path: "/registration", component: RegistrationPage });

const authenticated = createRoute({
  getParentRoute: () => rootRoute,
  id: "authenticated",
  beforeLoad: async () => {
    if (!(await ensureSession())) throw redirect({ to: "/login/password" });
  },
  component: AuthenticatedLayout,
});

/** PRODUCT D5: admin screens are for admins (the server refuses others anyway). */
const admin = createRoute({
  getParentRoute: () => authenticated,
  id: "admin",
  beforeLoad: () => {
    if (!getSession().admin) throw redirect({ to: "/" });
  },
  component: Outlet,
});

const home = createRoute({ getParentRoute: () => authenticated, path: "/", component: HomePage });
const apikeys = createRoute({ getParentRoute: () => admin, path: "/apikeys", component: lazyRouteComponent(() => import("./features/apikeys/ApiKeysPage"), "ApiKeysPage") });
const users = createRoute({ getParentRoute: () => admin, path: "/users", component: lazyRouteComponent(() => import("./features/users/UsersPage"), "UsersPage") });
const userCreate = createRoute({ getParentRoute: () => admin, path: "/user/create", component: lazyRouteComponent(() => import("./features/users/UserCreatePage"), "UserCreatePage") });
const uuidParams = z.object({ uuid: z.string().min(1).max(100) });
const userEdit = createRoute({
  getParentRoute: () => admin,
  path: "/user/edit/$uuid",
  params: { parse: (p) => uuidParams.parse(p), stringify: (p) => ({ uuid: p.uuid }) },
  component: lazyRouteComponent(() => import("./features/users/UserEditPage"), "UserEditPage"),
});
const queryPathParams = z.object({ queryPath: z.string().max(1000) });
const trading = createRoute({
  getParentRoute: () => authenticated,
  path: "/c/$queryPath",
  params: { parse: (p) => queryPathParams.parse(p), stringify: (p) => ({ queryPath: p.queryPath }) },
  component: lazyRouteComponent(() => import("./features/trading/TradingPage"), "TradingPage"),
});

const routeTree = rootRoute.addChildren([
  loginPassword,
  loginKey,
  registration,
  authenticated.addChildren([home, trading, admin.addChildren([apikeys, users, userCreate, userEdit])]),
]);

export const router = createRouter({ routeTree, defaultPreload: false, scrollRestoration: true });
setNavigator((to) => void router.navigate({ to }));

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}
