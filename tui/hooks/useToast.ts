import { useCallback, useEffect, useRef, useState } from "react";

export type ToastKind = "success" | "info" | "error";

/**
 * How long a message stays when no key is pressed (docs/tui.md "Messages"): 8 s; an error stays
 * until it is dismissed (Esc), so it cannot go unread while the trader looks away.
 */
export const TOAST_MS: Record<ToastKind, number> = { success: 8000, info: 8000, error: Number.POSITIVE_INFINITY };

export interface Toast {
  kind: ToastKind;
  text: string;
}

/**
 * The message line: one message at a time (a terminal has one line for it). A message goes at the
 * next key or after its duration; an error only with Esc (`onKey`), or when another message
 * replaces it.
 */
export function useToast(durations: Record<ToastKind, number> = TOAST_MS): {
  toast: Toast | undefined;
  show: (kind: ToastKind, text: string) => void;
  /** called before a key is handled: true when the key was spent dismissing an error */
  onKey: (key: string) => boolean;
} {
  const [toast, setToast] = useState<Toast | undefined>(undefined);
  const current = useRef<Toast | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const set = useCallback((next: Toast | undefined) => {
    current.current = next;
    setToast(next);
  }, []);
  const show = useCallback(
    (kind: ToastKind, text: string) => {
      clearTimeout(timer.current);
      set({ kind, text });
      const ms = durations[kind];
      if (Number.isFinite(ms)) timer.current = setTimeout(() => set(undefined), ms);
    },
    [durations, set],
  );
  const onKey = useCallback(
    (key: string) => {
      const shown = current.current;
      if (!shown) return false;
      if (shown.kind === "error") {
        if (key !== "escape") return false;
        clearTimeout(timer.current);
        set(undefined);
        return true;
      }
      clearTimeout(timer.current);
      set(undefined);
      return false;
    },
    [set],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return { toast, show, onKey };
}
