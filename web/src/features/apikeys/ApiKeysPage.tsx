import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { CATALOGUE } from "../../../../exchanges/catalogue.js";
import { sealCredentials } from "../../../../lib/envelope.js";
import { api } from "../../app/api";
import { askForEncryptionKey, loadEncryptionKey } from "../../app/encryption-key";
import { useAccounts } from "../../app/query";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { Select } from "../../components/Select";
import { SubmitButton, waitingFor } from "../../components/SubmitButton";
import { useSingleFlight } from "../../components/single-flight";
import {
  API_KEY_LABELS,
  type ApiKeyFields,
  apiKeyFormSchema,
  apiKeyPath,
  canDelete,
  PASSPHRASE_HINT,
  type RemoveApiKeysForm,
  removeApiKeysFormSchema,
} from "./rules";

export const NO_KEY_REASON =
  "Save an encryption key first: API keys are sealed with it in this browser before they are sent. Then Submit again.";
const EMPTY: ApiKeyFields = { client: "", account: "", pair: "", api: "", secret: "", password: "", exchange: "" };
const TEXT_FIELDS: [Exclude<keyof ApiKeyFields, "exchange">, string, string][] = [
  ["client", "Client Name", "text"],
  ["account", "Sub Account", "text"],
  ["pair", "Pair", "text"],
  ["api", "API Key", "text"],
  ["secret", "Secret Key", "password"],
  ["password", "Pass Phrase", "password"],
];
const EXCHANGE_OPTIONS = Object.values(CATALOGUE).map((x) => ({ value: x.id, label: x.name }));

export function ApiKeysPage() {
  return (
    <div className="grid2">
      <CreateForm />
      <RemoveForm />
    </div>
  );
}

function useInvalidateAccounts() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: ["exchanges"] });
    await queryClient.invalidateQueries({ queryKey: ["clients"] });
  };
}

function CreateForm() {
  const invalidate = useInvalidateAccounts();
  const { register, control, handleSubmit, reset, formState, watch } = useForm<ApiKeyFields>({
    resolver: zodResolver(apiKeyFormSchema),
    mode: "onChange",
    defaultValues: EMPTY,
  });
  const waiting = waitingFor(apiKeyFormSchema, watch(), API_KEY_LABELS);
  const submit = handleSubmit(async (f) => {
    // docs/dashboard-rules.md#validation sent nothing, silently, without a saved key; here the key dialog opens and says why
    // (docs/dashboard.md "The encryption key"). Nothing is sent either way.
    const key = loadEncryptionKey();
    if (!key) {
      askForEncryptionKey(NO_KEY_REASON);
      return;
    }
    const envelope = await sealCredentials(
      { api: f.api.trim(), secret: f.secret.trim(), ...(f.password.trim() ? { password: f.password.trim() } : {}) },
      // docs/web-trading.md: a pair is upper case wherever it is used ("eth/usdt" sealed as ETH/USDT)
      f.pair.trim().toUpperCase(),
      key,
    );
    const r = await api.call("setApiKeys", { body: { path: apiKeyPath(f), apis: envelope } });
    if (r.ok) {
      reset(EMPTY);
      await invalidate();
    }
  });
  const submitOnce = useSingleFlight(async (e: FormEvent<HTMLFormElement>) => submit(e));
  return (
    <form
      className="panel form"
      aria-label="Add API keys"
      onSubmit={(e) => {
        e.preventDefault();
        void submitOnce.run(e);
      }}
    >
      <h1>API Keys Manager</h1>
      {TEXT_FIELDS.map(([name, label, type]) => (
        <label key={name} className="field">
          <span>
            {label}
            {name === "password" ? <span className="muted"> (optional)</span> : null}
          </span>
          <input
            type={type}
            autoComplete="off"
            placeholder={name === "pair" ? "BTC/USDT" : undefined}
            {...register(name)}
          />
          {name === "password" ? <span className="hint">{PASSPHRASE_HINT}</span> : null}
          {name === "pair" && formState.errors.pair ? (
            <span className="hint bad" role="alert">
              {formState.errors.pair.message}
            </span>
          ) : null}
        </label>
      ))}
      <div className="field">
        <label htmlFor="apikeys-exchange">Exchange</label>
        <Controller
          control={control}
          name="exchange"
          render={({ field }) => (
            <Select
              id="apikeys-exchange"
              name="exchange"
              value={field.value}
              onValueChange={field.onChange}
              options={EXCHANGE_OPTIONS}
              placeholder="Choose an exchange"
            />
          )}
        />
      </div>
      <div className="row end">
        <SubmitButton waiting={waiting} busy={formState.isSubmitting || submitOnce.busy}>
          Submit
        </SubmitButton>
      </div>
    </form>
  );
}

function RemoveForm() {
  const invalidate = useInvalidateAccounts();
  const accounts = useAccounts();
  const [search, setSearch] = useState("");
  const { control, reset, watch } = useForm<RemoveApiKeysForm>({
    resolver: zodResolver(removeApiKeysFormSchema),
    mode: "onChange",
    defaultValues: { path: undefined },
  });
  const chosen = watch("path");
  const needle = search.trim().toLowerCase();
  const matches = (accounts.data ?? []).filter((a) => a.path.join("/").toLowerCase().includes(needle));
  const remove = async (): Promise<boolean> => {
    if (!chosen) return false;
    const r = await api.call("removeApiKeys", { body: { path: chosen } });
    if (!r.ok) return false;
    reset({ path: undefined });
    await invalidate();
    return true;
  };
  return (
    <form className="panel form" aria-label="Remove API keys" onSubmit={(e) => e.preventDefault()}>
      <h2>Remove</h2>
      <label className="field">
        <span>Search a path</span>
        <input
          type="search"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
          placeholder="client/exchange/account"
        />
      </label>
      <Controller
        control={control}
        name="path"
        render={({ field }) => (
          <ul className="pick-list" aria-label="Paths">
            {matches.map((a) => {
              const id = a.path.join("/");
              return (
                <li key={id}>
                  <label className="check">
                    <input
                      type="radio"
                      name="path"
                      checked={field.value?.join("/") === id}
                      onChange={() => field.onChange(a.path)}
                    />
                    <span className="mono">{id}</span>
                  </label>
                </li>
              );
            })}
            {matches.length === 0 ? <li className="muted">No paths</li> : null}
          </ul>
        )}
      />
      <div className="row end">
        <ConfirmDialog
          trigger={
            <button type="button" className="btn danger" disabled={!canDelete(chosen)}>
              Delete
            </button>
          }
          title={`Delete the API key of ${chosen?.join("/") ?? ""}?`}
          confirmLabel="Delete API key"
          onConfirm={remove}
        >
          <p>
            The account's sealed keys are deleted from the server, and the bots on this account lose their copy of them.
            To trade on it again, the keys must be entered anew.
          </p>
        </ConfirmDialog>
      </div>
    </form>
  );
}
