import { useEffect } from "react";
import { Toaster, toast } from "sonner";
import {
  AWAKE_TOAST,
  listen,
  TOAST_DURATIONS,
  TOAST_POSITION,
  TOAST_VISIBLE,
  type ToastEvent,
  toastId,
} from "./events";

/** The toast area (docs/dashboard-rules.md#screens, #constants): every toast arrives as an AWAKE_TOAST event (docs/decisions.md#d17). */
export function Toasts({ theme }: { theme: "dark" | "light" }) {
  useEffect(
    () =>
      listen<ToastEvent>(AWAKE_TOAST, (event) => {
        const { kind, title, description } = event;
        // one id per place: a repeated toast replaces its twin (sonner ids), docs/dashboard.md "Toasts"
        const options = {
          id: toastId(event),
          duration: TOAST_DURATIONS[kind],
          ...(description ? { description } : {}),
        };
        if (kind === "default") toast(title, options);
        else toast[kind](title, options);
      }),
    [],
  );
  return (
    <Toaster
      position={TOAST_POSITION}
      visibleToasts={TOAST_VISIBLE}
      duration={TOAST_DURATIONS.default}
      theme={theme}
      offset={{ top: 52, left: 16 }}
      richColors
      closeButton
    />
  );
}
