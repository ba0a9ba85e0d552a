/**
 * Where a visitor whose session lapsed goes back to after signing in again: the `redirect` search
 * of the sign-in routes. Only an in-app path is accepted (never another origin, never a sign-in
 * screen), so a crafted link cannot send a fresh session elsewhere.
 */
import { useRouter } from "@tanstack/react-router";
import { z } from "zod";

export function isReturnPath(href: string): boolean {
  return (
    href.startsWith("/") &&
    !href.startsWith("//") &&
    !href.startsWith("/\\") &&
    href !== "/" &&
    !/^\/(login|registration)\b/.test(href)
  );
}

/** The sign-in routes' search: an unusable `redirect` is dropped rather than failing the route. */
export const returnToSearchSchema = z.object({
  redirect: z.string().max(2000).refine(isReturnPath).optional().catch(undefined),
});

/**
 * The guard's search for the login screen: the return path for anyone, a lapsed session or a
 * signed-out bookmark alike (docs/dashboard.md "Sessions"), so signing in lands where they were going.
 */
export function returnSearch(href: string): { redirect?: string } {
  return isReturnPath(href) ? { redirect: href } : {};
}

/** After a sign-in: back to the return path when there is one, else Home. */
export function useAfterSignIn(returnTo: string | undefined): () => Promise<void> {
  const router = useRouter();
  return async () => {
    if (returnTo && isReturnPath(returnTo)) router.history.push(returnTo);
    else await router.navigate({ to: "/" });
  };
}
