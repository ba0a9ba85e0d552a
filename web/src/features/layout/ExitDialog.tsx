import * as Dialog from "@radix-ui/react-dialog";
import * as Tooltip from "@radix-ui/react-tooltip";
import { exitSession } from "../../app/session";

export const EXIT_QUESTION = "Are you sure you want to exit?";
export const EXIT_TOOLTIP = "This action will remove all your session data in current website";

/** Seed 000 §2 "Exit dialog"; PRODUCT D7: also revokes the refresh token. */
export function ExitDialog() {
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
          <div className="row end">
            <Dialog.Close asChild>
              <button type="button" className="btn">
                Cancel
              </button>
            </Dialog.Close>
            <Tooltip.Root>
              <Tooltip.Trigger asChild>
                <button type="button" className="btn danger" onClick={() => void exitSession()}>
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
