import { zodResolver } from "@hookform/resolvers/zod";
import * as Dialog from "@radix-ui/react-dialog";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { generateEncryptionKey } from "../../../../lib/envelope.js";
import { ASK_ENCRYPTION_KEY, saveEncryptionKey, useEncryptionKey } from "../../app/encryption-key";
import { listen } from "../../app/events";
import { copySecret } from "./copy";
import { type EncryptionKeyForm, encryptionKeyFormSchema, enteredKey, enteredKeyError } from "./key-rules";

/** docs/dashboard.md "The encryption key": said wherever the key can be lost. */
export const KEY_LOSS_WARNING =
  "API keys sealed with this key can't be opened without it: not by you, not by the server, not by anyone. Keep a copy somewhere safe.";
export const REPLACE_QUESTION = "Replace the saved encryption key?";
export const FORGET_QUESTION = "Forget the saved encryption key?";

/** What the dialog shows: the form, a generated key shown once, or a question before a saved key is replaced or forgotten. */
type Step =
  | { kind: "form" }
  | { kind: "generated"; key: string }
  | { kind: "confirm"; question: string; confirmLabel: string; change: () => void };

/**
 * docs/dashboard-rules.md#screens "An encryption-key dialog"; docs/dashboard-rules.md#validation: entered 16, 24 or 32 characters, or a generated 64-hex key typed back (docs/decisions.md#d36). A
 * generated key is shown once, with Copy and the warning; replacing or forgetting a saved key asks
 * first (docs/dashboard.md "The encryption key").
 */
export function EncryptionKeyDialog() {
  const saved = useEncryptionKey();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<string | undefined>(undefined);
  const [step, setStep] = useState<Step>({ kind: "form" });
  const { register, handleSubmit, reset, watch, formState } = useForm<EncryptionKeyForm>({
    resolver: zodResolver(encryptionKeyFormSchema),
    mode: "onChange",
    defaultValues: { key: "" },
  });
  const text = watch("key");
  const openWith = (next: boolean) => {
    if (!next) {
      reset({ key: "" });
      setReason(undefined);
    }
    setStep({ kind: "form" });
    setOpen(next);
  };
  // API keys' Submit without a saved key opens this dialog and says why
  useEffect(
    () =>
      listen<string>(ASK_ENCRYPTION_KEY, (why) => {
        setReason(why);
        setStep({ kind: "form" });
        setOpen(true);
      }),
    [],
  );
  /** Runs `change` at once when no key is saved, else after the question. */
  const guarded = (question: string, confirmLabel: string, change: () => void) => {
    if (saved) setStep({ kind: "confirm", question, confirmLabel, change });
    else change();
  };
  const generate = () => {
    const key = generateEncryptionKey();
    saveEncryptionKey(key);
    reset({ key: "" });
    setStep({ kind: "generated", key });
  };
  const save = handleSubmit(({ key }) =>
    guarded(REPLACE_QUESTION, "Replace key", () => {
      saveEncryptionKey(enteredKey(key));
      openWith(false);
    }),
  );

  return (
    <Dialog.Root open={open} onOpenChange={openWith}>
      <Dialog.Trigger asChild>
        <button type="button" className={`btn ${saved ? "" : "warn"}`} aria-label="Encryption key">
          {saved ? "Key ✓" : "Key"}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog" aria-describedby="enc-key-desc">
          <Dialog.Title>Encryption key</Dialog.Title>
          {step.kind === "generated" ? (
            <>
              <p id="enc-key-desc">
                Your new key is saved in this browser. It is shown <strong>this once</strong>: copy it now.
              </p>
              <code className="key-shown mono" data-testid="generated-key">
                {step.key}
              </code>
              <p className="warning-plain" role="note">
                {KEY_LOSS_WARNING}
              </p>
              <div className="row end">
                <button type="button" className="btn" onClick={() => void copySecret(step.key, "Encryption key")}>
                  Copy
                </button>
                <button type="button" className="btn primary" onClick={() => openWith(false)}>
                  Done
                </button>
              </div>
            </>
          ) : step.kind === "confirm" ? (
            <>
              <p id="enc-key-desc" className="warning-plain" role="note">
                {step.question} {KEY_LOSS_WARNING}
              </p>
              <div className="row end">
                <button type="button" className="btn" onClick={() => void copySecret(saved ?? "", "Saved key")}>
                  Copy saved key
                </button>
                <button type="button" className="btn" onClick={() => setStep({ kind: "form" })}>
                  Cancel
                </button>
                <button type="button" className="btn danger" onClick={step.change}>
                  {step.confirmLabel}
                </button>
              </div>
            </>
          ) : (
            <>
              {reason ? (
                <p className="notice" role="status">
                  {reason}
                </p>
              ) : null}
              <p id="enc-key-desc" className="muted">
                API keys are encrypted in this browser (AES-GCM 256) with this key before they are sent.{" "}
                {saved ? "A key is saved." : "No key is saved."}
              </p>
              <form onSubmit={(e) => void save(e)}>
                <label className="field">
                  <span>Key (16, 24 or 32 characters, or a generated key's 64 hex)</span>
                  <input
                    type="password"
                    autoComplete="off"
                    {...register("key")}
                    aria-invalid={text !== "" && !formState.isValid}
                  />
                  <span className="hint num">{text.length} characters</span>
                  {text !== "" && enteredKeyError(text) ? (
                    <span className="hint" role="alert">
                      {enteredKeyError(text)}
                    </span>
                  ) : null}
                </label>
                <div className="row end">
                  {saved ? (
                    <button
                      type="button"
                      className="btn"
                      onClick={() =>
                        guarded(FORGET_QUESTION, "Forget key", () => {
                          saveEncryptionKey(undefined);
                          setStep({ kind: "form" });
                        })
                      }
                    >
                      Forget key
                    </button>
                  ) : null}
                  <button
                    type="button"
                    className="btn"
                    onClick={() => guarded(REPLACE_QUESTION, "Replace with a new key", generate)}
                  >
                    Generate
                  </button>
                  <button type="submit" className="btn primary" disabled={!formState.isValid}>
                    Save
                  </button>
                </div>
              </form>
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
