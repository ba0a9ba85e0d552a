import { useCallback, useRef, useState } from "react";

export type SetSyncedState<T> = (next: T | ((current: T) => T)) => void;

/**
 * useState whose latest value a key handler can read at once through the returned ref. Ink hands
 * every key of one stdin chunk (tmux send-keys, a paste, a fast typist over ssh) to the handler
 * before React renders again, so a handler reading its render's state would act on the value from
 * before the previous key: ↓ ↓ Enter in one chunk answered "Select a level with ↑ ↓ first".
 * Values must not be functions (an updater is told apart by its type).
 */
export function useSyncedState<T>(initial: T): [T, SetSyncedState<T>, { readonly current: T }] {
  const [state, setState] = useState(initial);
  const ref = useRef(state);
  const set = useCallback<SetSyncedState<T>>((next) => {
    const value = typeof next === "function" ? (next as (current: T) => T)(ref.current) : next;
    ref.current = value;
    setState(value);
  }, []);
  return [state, set, ref];
}
