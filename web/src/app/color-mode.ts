/** Colour mode (docs/dashboard-rules.md#overview, #constants): dark by default, follows the system, the choice kept as `uicolor`. */
import { useEffect, useState } from "react";
import { readStorage, STORAGE, writeStorage } from "./storage";

export type ColorMode = "dark" | "light";

/** The stored choice wins; else the system's; dark when the system says nothing. */
export function resolveColorMode(stored: string | null, systemPrefersLight: boolean | undefined): ColorMode {
  if (stored === "dark" || stored === "light") return stored;
  return systemPrefersLight ? "light" : "dark";
}

const systemLight = () =>
  typeof window !== "undefined" && window.matchMedia
    ? window.matchMedia("(prefers-color-scheme: light)").matches
    : undefined;

export function useColorMode(): [ColorMode, () => void] {
  const [mode, setMode] = useState<ColorMode>(() => resolveColorMode(readStorage(STORAGE.uicolor), systemLight()));
  useEffect(() => {
    document.documentElement.dataset.theme = mode;
  }, [mode]);
  useEffect(() => {
    // follow the system until the user chose
    const mq = window.matchMedia?.("(prefers-color-scheme: light)");
    if (!mq) return;
    const onChange = () => {
      if (!readStorage(STORAGE.uicolor)) setMode(resolveColorMode(null, mq.matches));
    };
    mq.addEventListener("change", onChange);
    return () => mq.removeEventListener("change", onChange);
  }, []);
  const toggle = () => {
    const next: ColorMode = mode === "dark" ? "light" : "dark";
    writeStorage(STORAGE.uicolor, next);
    setMode(next);
  };
  return [mode, toggle];
}
