import * as Dialog from "@radix-ui/react-dialog";
import { type ReactNode, useState } from "react";
import { useSingleFlight } from "./single-flight";

interface ConfirmProps {
  trigger: ReactNode;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** resolves true when the action succeeded: the dialog closes */
  onConfirm: () => Promise<boolean>;
}

/**
 * A risky action asks first (docs/dashboard.md "Risky actions"): the trigger opens an alert dialog
 * that names what will happen, and its confirm button runs once however often it is clicked (the
 * lock lives in the dialog's content, so each opening starts unlocked).
 */
export function ConfirmDialog(props: ConfirmProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !busy && setOpen(next)}>
      <Dialog.Trigger asChild>{props.trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content
          className="dialog"
          role="alertdialog"
          aria-describedby="confirm-desc"
          onPointerDownOutside={(e) => e.preventDefault()}
        >
          <ConfirmBody {...props} onBusy={setBusy} onDone={() => setOpen(false)} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ConfirmBody(props: ConfirmProps & { onBusy: (busy: boolean) => void; onDone: () => void }) {
  const { run, busy } = useSingleFlight(async () => {
    props.onBusy(true);
    const ok = await props.onConfirm().finally(() => props.onBusy(false));
    if (!ok) return;
    props.onDone();
    return "done";
  });
  return (
    <>
      <Dialog.Title>{props.title}</Dialog.Title>
      <div id="confirm-desc">{props.children}</div>
      <div className="row end">
        <Dialog.Close asChild>
          <button type="button" className="btn" disabled={busy}>
            Cancel
          </button>
        </Dialog.Close>
        <button type="button" className="btn danger" disabled={busy} onClick={() => void run()}>
          {props.confirmLabel}
        </button>
      </div>
    </>
  );
}
