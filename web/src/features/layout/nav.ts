/** The header navigation (docs/dashboard-rules.md#screens; docs/decisions.md#d5: admin entries only for admins). */
export interface NavItem {
  to: "/" | "/apikeys" | "/users" | "/login/password" | "/registration";
  label: string;
  admin: boolean;
  /** who sees it: everyone, only a signed-in user, or only a visitor without a session */
  for: "all" | "signed-in" | "signed-out";
}

export const NAV_ITEMS: readonly NavItem[] = [
  { to: "/", label: "Home", admin: false, for: "all" },
  { to: "/apikeys", label: "API Keys Manager", admin: true, for: "signed-in" },
  { to: "/users", label: "Users Manager", admin: true, for: "signed-in" },
  { to: "/login/password", label: "Login", admin: false, for: "signed-out" },
  { to: "/registration", label: "Register", admin: false, for: "signed-out" },
];

/**
 * The entries a user sees, each marked disabled when it is the current page. Login and Register are
 * not offered while signed in; admin entries only to a signed-in admin (docs/dashboard.md "Sessions").
 */
export function navFor(pathname: string, isAdmin: boolean, signedIn = isAdmin): (NavItem & { current: boolean })[] {
  return NAV_ITEMS.filter(
    (i) => (isAdmin || !i.admin) && (i.for === "all" || (i.for === "signed-in") === signedIn),
  ).map((i) => ({ ...i, current: i.to === pathname }));
}
