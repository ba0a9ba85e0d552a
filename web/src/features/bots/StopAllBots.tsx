import { api } from "../../app/api";
import { ConfirmDialog } from "../../components/ConfirmDialog";

/**
 * The kill switch (docs/bots.md "Risk limits and the kill switch"): every bot in the user's scope
 * stops, all their orders cancelled, and stays stopped until resumed one by one. A risky action,
 * so it asks first (docs/dashboard.md "Risky actions").
 */
export function StopAllBots() {
  const stopAll = async (): Promise<boolean> => (await api.call("stopAllBots")).ok;
  return (
    <ConfirmDialog
      trigger={
        <button type="button" className="btn danger">
          Stop all bots
        </button>
      }
      title="Stop all bots?"
      confirmLabel="Stop all bots"
      onConfirm={stopAll}
    >
      <p>
        Every bot you can see stops and its open orders are cancelled. They stay stopped, also after a server restart,
        until you resume each one.
      </p>
    </ConfirmDialog>
  );
}
