/** The saved encryption key (docs/dashboard-rules.md#entities panel_state, docs/dashboard-rules.md#validation "Encryption key"). */
import { useSyncExternalStore } from "react";
import { decodePanelState, encodePanelState } from "../../../lib/panel-state.js";
import { emit } from "./events";
import { readStorage, STORAGE, writeStorage } from "./storage";

/** The app event that opens the encryption-key dialog with a reason (API keys' Submit without a saved key). */
export const ASK_ENCRYPTION_KEY = "ASK_ENCRYPTION_KEY";
export function askForEncryptionKey(reason: string): void {
  emit<string>(ASK_ENCRYPTION_KEY, reason);
}

const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

export function loadEncryptionKey(): string | undefined {
  return decodePanelState(readStorage(STORAGE.panelState));
}

export function saveEncryptionKey(key: string | undefined): void {
  writeStorage(STORAGE.panelState, key === undefined ? null : encodePanelState(key));
  notify();
}

export function useEncryptionKey(): string | undefined {
  const raw = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      // Exit in another tab clears the shared storage, the saved key with it: the header must not say "Key ✓" then
      const onStorage = (e: StorageEvent) => (e.key === null || e.key === STORAGE.panelState) && l();
      window.addEventListener("storage", onStorage);
      return () => {
        listeners.delete(l);
        window.removeEventListener("storage", onStorage);
      };
    },
    () => readStorage(STORAGE.panelState),
    () => null,
  );
  return decodePanelState(raw);
}
