/**
 * A link to an account's trading view (issue 17 "Links", docs/dashboard-delivery.md#links): a real
 * href, so a middle click, Ctrl/Cmd-click or "Open in new tab" opens the view; a plain click stays
 * in the app. The href goes straight to the history: the router's navigate would decode the
 * segments' %5B/%5D and encode the rest a second time.
 */
import { useRouter } from "@tanstack/react-router";
import type { AnchorHTMLAttributes, MouseEvent } from "react";
import type { AccountPath } from "../../../../lib/api.js";
import { queryPathHref } from "./query-path";

/** A click the browser should handle itself (new tab or window, download, a button other than the main one). */
export const isBrowserClick = (e: MouseEvent) => e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey;

export function AccountLink({
  path,
  onClick,
  ...rest
}: { path: AccountPath } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, "href">) {
  const router = useRouter();
  const href = queryPathHref(path);
  return (
    <a
      {...rest}
      href={href}
      onClick={(e) => {
        onClick?.(e);
        if (e.defaultPrevented || isBrowserClick(e)) return;
        e.preventDefault();
        router.history.push(href);
      }}
    />
  );
}
