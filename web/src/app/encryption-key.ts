/** The saved encryption key (seed 000 §3 panel_state, §5 "Encryption key"). */
import { useSyncExternalStore } from "react";
import { decodePanelState, encodePanelState } from "../../../lib/panel-state.js";
import { readStorage, STORAGE, writeStorage } from "./storage";

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
      return () => listeners.delete(l);
    },
    () => readStorage(STORAGE.panelState),
    () => null,
  );
  return decodePanelState(raw);
}
