import { createContext, useContext } from "react";

/**
 * Colours of the TUI. With NO_COLOR set (https://no-color.org) every colour is undefined, so Ink
 * prints plain text; attributes that are not colour (bold, inverse) stay, the selection must remain
 * visible without colour.
 */
export interface Theme {
  buy: string | undefined;
  sell: string | undefined;
  muted: string | undefined;
  accent: string | undefined;
  flash: string | undefined;
  error: string | undefined;
  success: string | undefined;
  warning: string | undefined;
  /** true when colours are off; components then mark sides with text (B/S) */
  plain: boolean;
}

export function createTheme(noColor: boolean): Theme {
  if (noColor) {
    return {
      buy: undefined,
      sell: undefined,
      muted: undefined,
      accent: undefined,
      flash: undefined,
      error: undefined,
      success: undefined,
      warning: undefined,
      plain: true,
    };
  }
  return {
    buy: "green",
    sell: "red",
    muted: "gray",
    accent: "cyan",
    flash: "yellow",
    error: "red",
    success: "green",
    warning: "yellow",
    plain: false,
  };
}

/** NO_COLOR counts when present and non-empty (no-color.org). */
export function noColorFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NO_COLOR !== undefined && env.NO_COLOR !== "";
}

export const ThemeContext = createContext<Theme>(createTheme(false));

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
