import { useState } from "react";
import { formatUtcTime } from "../../../../lib/format.js";
import { probeServer, SERVER_PROBE_MS, useServerStatus } from "../../app/server-status";

/**
 * A server that stopped answering is said plainly above the page (docs/dashboard.md "Sessions"):
 * what the page shows may be out of date, so it is dimmed and cannot be used until /health answers.
 */
export function ServerDownBanner() {
  const { downSince } = useServerStatus();
  const [asking, setAsking] = useState(false);
  if (downSince === undefined) return null;
  return (
    <div className="server-down" role="alert">
      <strong>The server does not answer</strong>
      <span>
        since {formatUtcTime(downSince)}. What this page shows may be out of date; it is asked again every{" "}
        {SERVER_PROBE_MS / 1000} s.
      </span>
      <button
        type="button"
        className="btn small"
        disabled={asking}
        onClick={() => {
          setAsking(true);
          void probeServer().finally(() => setAsking(false));
        }}
      >
        Retry now
      </button>
    </div>
  );
}

export function useServerDown(): boolean {
  return useServerStatus().downSince !== undefined;
}
