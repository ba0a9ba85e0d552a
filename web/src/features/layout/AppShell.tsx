import * as Tooltip from "@radix-ui/react-tooltip";
import { Outlet } from "@tanstack/react-router";
import { useEffect } from "react";
import { useColorMode } from "../../app/color-mode";
import { startLive, stopLive } from "../../app/live";
import { useSession } from "../../app/session-store";
import { Toasts } from "../../app/Toasts";
import { Header } from "./Header";
import { ServerDownBanner, useServerDown } from "./ServerDown";

export function AppShell() {
  // one colour-mode state for the header toggle and the toasts
  const [mode, toggle] = useColorMode();
  const down = useServerDown();
  return (
    <Tooltip.Provider delayDuration={200}>
      <Header mode={mode} toggle={toggle} />
      <ServerDownBanner />
      {/* a server down: the page stays (typed forms are kept) but dimmed and out of use, not shown as current */}
      <main className={down ? "main stale-page" : "main"} inert={down} aria-busy={down}>
        <Outlet />
      </main>
      <Toasts theme={mode} />
    </Tooltip.Provider>
  );
}

/** The signed-in part: the live channel runs while a valid token exists (docs/dashboard-rules.md#states). */
export function AuthenticatedLayout() {
  const { accessToken } = useSession();
  useEffect(() => {
    if (!accessToken) return;
    startLive();
  }, [accessToken]);
  useEffect(() => () => stopLive(), []);
  return <Outlet />;
}
