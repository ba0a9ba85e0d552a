import { Link, useRouterState } from "@tanstack/react-router";
import type { ColorMode } from "../../app/color-mode";
import { useSession } from "../../app/session-store";
import { EncryptionKeyDialog } from "./EncryptionKeyDialog";
import { ExitDialog } from "./ExitDialog";
import { navFor } from "./nav";

export function Header({ mode, toggle }: { mode: ColorMode; toggle: () => void }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const session = useSession();
  return (
    <header className="header">
      <span className="brand">spotdesk</span>
      <nav aria-label="Main" className="nav">
        {/* links, so an entry opens in a new tab (issue 17); the current page is a disabled link */}
        {navFor(pathname, session.admin, Boolean(session.userId)).map((item) => (
          <Link
            key={item.to}
            to={item.to}
            className="nav-item"
            disabled={item.current}
            aria-current={item.current ? "page" : undefined}
          >
            {item.label}
          </Link>
        ))}
      </nav>
      <div className="header-tools">
        <EncryptionKeyDialog />
        <button
          type="button"
          className="btn icon"
          onClick={toggle}
          aria-label={mode === "dark" ? "Switch to light mode" : "Switch to dark mode"}
          title={mode === "dark" ? "Switch to light mode" : "Switch to dark mode"}
        >
          {mode === "dark" ? "☾" : "☀"}
        </button>
        {session.userId ? <ExitDialog /> : null}
      </div>
    </header>
  );
}
