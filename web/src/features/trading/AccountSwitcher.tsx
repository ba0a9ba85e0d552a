import { useNavigate } from "@tanstack/react-router";
import type { AccountAnswer, AccountPath } from "../../../../lib/api.js";
import { encodeQueryPath } from "./query-path";

/** docs/dashboard-rules.md#screens: the accounts of the same client and exchange; a click replaces the route. */
export function AccountSwitcher({ path, accounts }: { path: AccountPath; accounts: readonly AccountAnswer[] }) {
  const navigate = useNavigate();
  const same = accounts.filter((a) => a.client === path[0] && a.exchange === path[1]);
  if (same.length === 0) return null;
  return (
    <nav className="switcher" aria-label="Accounts">
      {same.map((a) => {
        const current = a.account === path[2];
        return (
          <button
            key={a.account}
            type="button"
            className={`chip${current ? " current" : ""}`}
            aria-current={current ? "page" : undefined}
            disabled={current}
            onClick={() =>
              void navigate({ to: "/c/$queryPath", params: { queryPath: encodeQueryPath(a.path) }, replace: true })
            }
          >
            {a.account}
          </button>
        );
      })}
    </nav>
  );
}
