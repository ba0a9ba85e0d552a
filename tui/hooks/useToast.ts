import { useCallback, useEffect, useRef, useState } from "react";

export type ToastKind = "success" | "info" | "error";

/** Seed 000 §9 "Toast durations": success 1000 ms, info 3000 ms, error 3000 ms. */
export const TOAST_MS: Record<ToastKind, number> = { success: 1000, info: 3000, error: 3000 };

export interface Toast {
  kind: ToastKind;
  text: string;
}

/** The toast line: one message at a time (a terminal has one line for it), gone after its duration. */
export function useToast(durations: Record<ToastKind, number> = TOAST_MS): {
  toast: Toast | undefined;
  show: (kind: ToastKind, text: string) => void;
} {
  const [toast, setToast] = useState<Toast | undefined>(undefined);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const show = useCallback(
    (kind: ToastKind, text: string) => {
      if (timer.current) clearTimeout(timer.current);
      setToast({ kind, text });
      timer.current = setTimeout(() => setToast(undefined), durations[kind]);
    },
    [durations],
  );
  useEffect(() => () => clearTimeout(timer.current), []);
  return { toast, show };
}
