/** The seed's local-storage names, exactly (docs/dashboard-rules.md#entities, docs/decisions.md#d17). One place reads and writes them. */
export const STORAGE = {
  userId: "userId",
  uicolor: "uicolor",
  viewport: "viewport",
  WAEnabled: "WAEnabled",
  refreshTokenExpiry: "refreshTokenExpiry",
  exchangeFilter: "exchangeFilter",
  clientFilter: "clientFilter",
  panelState: "panel_state",
} as const;
export type StorageName = (typeof STORAGE)[keyof typeof STORAGE];

export function readStorage(name: StorageName): string | null {
  try {
    return globalThis.localStorage?.getItem(name) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(name: StorageName, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(name);
    else globalThis.localStorage?.setItem(name, value);
  } catch {
    // private mode or quota: the app keeps working without persistence
  }
}

/** docs/dashboard-rules.md#entities: WAEnabled defaults to 'no'. */
export function waEnabled(): "yes" | "no" {
  return readStorage(STORAGE.WAEnabled) === "yes" ? "yes" : "no";
}
