import type { SessionEndReason } from "../../app/api";
import { useSession } from "../../app/session-store";

/** What the login screen says when a session ended under the page (docs/dashboard.md "Sessions"). */
export const SESSION_END_TEXT: Record<SessionEndReason, string> = {
  expired: "Your session expired. Sign in again to continue.",
  revoked:
    "Your session was ended: you exited in another tab or window, or an admin removed your access. Sign in again to continue.",
  elsewhere: "You exited in another tab. Sign in again to continue.",
};

export function SessionEndedNotice({ returnTo }: { returnTo?: string | undefined }) {
  const { ended } = useSession();
  if (!ended) return null;
  return (
    <p className="notice" role="status" data-testid="session-ended">
      {SESSION_END_TEXT[ended]}
      {returnTo ? (
        <>
          {" "}
          You will go back to <span className="mono">{safeDecode(returnTo)}</span>.
        </>
      ) : null}
    </p>
  );
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
