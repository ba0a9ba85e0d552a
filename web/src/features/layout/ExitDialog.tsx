import * as Dialog from "@radix-ui/react-dialog";
import * as Tooltip from "@radix-ui/react-tooltip";
import { useEncryptionKey } from "../../app/encryption-key";
import { exitSession } from "../../app/session";
import { useSingleFlight } from "../../components/single-flight";
import { copySecret } from "./copy";
import { KEY_LOSS_WARNING } from "./EncryptionKeyDialog";

export const EXIT_QUESTION = "Are you sure you want to exit?";
export const EXIT_TOOLTIP = "This action will remove all your session data in current website";
/** docs/dashboard.md "The encryption key": Exit clears local storage (docs/dashboard-rules.md#screens), the saved key with it. */
export const EXIT_KEY_WARNING = "The encryption key saved in this browser will be forgotten.";

/** docs/dashboard-rules.md#screens "Exit dialog"; docs/decisions.md#d7: also revokes the refresh token. */
export function ExitDialog() {
  const key = useEncryptionKey();
  const exit = useSingleFlight(exitSession);
  return (
    <Dialog.Root>
      <Dialog.Trigger asChild>
        <button type="button" className="btn">
          Exit
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title>{EXIT_QUESTION}</Dialog.Title>
          {key ? (
            <div role="note">
              <p className="warning-plain">
                {EXIT_KEY_WARNING} {KEY_LOSS_WARNING}
              </p>
              <button type="button" className="btn small" onClick={() => void copySecret(key, "Encryption key")}>
                Copy key
              </button>
            </div>
          ) : null}
          <div className="row end">
            <Dialog.Close asChild>
              <button type="button" className="btn">
                Cancel
              </button>
            </Dialog.Close>
            <Tooltip.Root>
              <Tooltip.Trigger asChild>
                <button type="button" className="btn danger" disabled={exit.busy} onClick={() => void exit.run()}>
                  Submit
                </button>
              </Tooltip.Trigger>
              <Tooltip.Portal>
                <Tooltip.Content className="tooltip" sideOffset={4}>
                  {EXIT_TOOLTIP}
                </Tooltip.Content>
              </Tooltip.Portal>
            </Tooltip.Root>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
