import { useNavigate, useRouterState } from "@tanstack/react-router";
import type { ColorMode } from "../../app/color-mode";
import { useSession } from "../../app/session-store";
import { EncryptionKeyDialog } from "./EncryptionKeyDialog";
import { ExitDialog } from "./ExitDialog";
import { navFor } from "./nav";

export function Header({ mode, toggle }: { mode: ColorMode; toggle: () => void }) {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const session = useSession();
  const navigate = useNavigate();
  return (
    <header className="header">
      <span className="brand">spotdesk</span>
      <nav aria-label="Main" className="nav">
        {navFor(pathname, session.admin, Boolean(session.userId)).map((item) => (
          <button
            key={item.to}
            type="button"
            className="nav-item"
            disabled={item.current}
            aria-current={item.current ? "page" : undefined}
            onClick={() => void navigate({ to: item.to })}
          >
            {item.label}
          </button>
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
