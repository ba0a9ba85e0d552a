/**
 * Every submit runs once at a time (docs/dashboard.md "Risky actions"): a second click while the
 * first is in flight does nothing, so a double click cannot send two codes or two DELETEs. The lock
 * is a ref, set before the first await, so it holds even before React re-renders the disabled button.
 */
import { useRef, useState } from "react";

/**
 * Wraps an action; `busy` is true while it runs. When the action resolves to `"done"` the lock stays
 * (a removal that succeeded is not offered again from the same control).
 */
export function useSingleFlight<A extends unknown[]>(
  action: (...args: A) => Promise<unknown>,
): { run: (...args: A) => Promise<void>; busy: boolean } {
  const latest = useRef(action);
  latest.current = action;
  const locked = useRef(false);
  const [busy, setBusy] = useState(false);
  const run = useRef(async (...args: A) => {
    if (locked.current) return;
    locked.current = true;
    setBusy(true);
    let keep = false;
    try {
      keep = (await latest.current(...args)) === "done";
    } finally {
      if (!keep) {
        locked.current = false;
        setBusy(false);
      }
    }
  }).current;
  return { run, busy };
}
