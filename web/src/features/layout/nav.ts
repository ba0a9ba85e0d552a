/** The header navigation (seed 000 §2; PRODUCT D5: admin entries only for admins). */
export interface NavItem {
  to: "/" | "/apikeys" | "/users" | "/login/password" | "/registration";
  label: string;
  admin: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { to: "/", label: "Home", admin: false },
  { to: "/apikeys", label: "API Keys Manager", admin: true },
  { to: "/users", label: "Users Manager", admin: true },
  { to: "/login/password", label: "Login", admin: false },
  { to: "/registration", label: "Register", admin: false },
];

/** The entries a user sees, each marked disabled when it is the current page. */
export function navFor(pathname: string, isAdmin: boolean): (NavItem & { current: boolean })[] {
  return NAV_ITEMS.filter((i) => isAdmin || !i.admin).map((i) => ({ ...i, current: i.to === pathname }));
}
