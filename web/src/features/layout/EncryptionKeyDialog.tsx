import { zodResolver } from "@hookform/resolvers/zod";
import * as Dialog from "@radix-ui/react-dialog";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { generateEncryptionKey } from "../../../../lib/envelope.js";
import { saveEncryptionKey, useEncryptionKey } from "../../app/encryption-key";
import { type EncryptionKeyForm, encryptionKeyFormSchema } from "./key-rules";

/** Seed 000 §2 "An encryption-key dialog"; §5: entered 16, 24 or 32 characters, or generated. */
export function EncryptionKeyDialog() {
  const saved = useEncryptionKey();
  const [open, setOpen] = useState(false);
  const { register, handleSubmit, reset, watch, formState } = useForm<EncryptionKeyForm>({
    resolver: zodResolver(encryptionKeyFormSchema),
    mode: "onChange",
    defaultValues: { key: "" },
  });
  const text = watch("key");
  const close = () => {
    reset({ key: "" });
    setOpen(false);
  };
  const save = handleSubmit(({ key }) => {
    saveEncryptionKey(key);
    close();
  });
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) reset({ key: "" });
        setOpen(next);
      }}
    >
      <Dialog.Trigger asChild>
        <button type="button" className={`btn ${saved ? "" : "warn"}`} aria-label="Encryption key">
          {saved ? "Key ✓" : "Key"}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog" aria-describedby="enc-key-desc">
          <Dialog.Title>Encryption key</Dialog.Title>
          <p id="enc-key-desc" className="muted">
            API keys are encrypted in this browser (AES-GCM 256) with this key before they are sent.{" "}
            {saved ? "A key is saved." : "No key is saved."}
          </p>
          <form onSubmit={(e) => void save(e)}>
            <label className="field">
              <span>Key (16, 24 or 32 characters)</span>
              <input
                type="password"
                autoComplete="off"
                {...register("key")}
                aria-invalid={text !== "" && !formState.isValid}
              />
              <span className="hint num">{text.length} characters</span>
            </label>
            <div className="row end">
              {saved ? (
                <button type="button" className="btn" onClick={() => saveEncryptionKey(undefined)}>
                  Forget key
                </button>
              ) : null}
              <button
                type="button"
                className="btn"
                onClick={() => {
                  saveEncryptionKey(generateEncryptionKey());
                  close();
                }}
              >
                Generate
              </button>
              <button type="submit" className="btn primary" disabled={!formState.isValid}>
                Save
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
