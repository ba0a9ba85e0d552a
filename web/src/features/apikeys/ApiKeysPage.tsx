import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { CATALOGUE } from "../../../../exchanges/catalogue.js";
import { sealCredentials } from "../../../../lib/envelope.js";
import { api } from "../../app/api";
import { loadEncryptionKey } from "../../app/encryption-key";
import { useAccounts } from "../../app/query";
import { Select } from "../../components/Select";
import {
  type ApiKeyFields,
  apiKeyFormSchema,
  apiKeyPath,
  canDelete,
  PASSPHRASE_HINT,
  type RemoveApiKeysForm,
  removeApiKeysFormSchema,
} from "./rules";

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
  const { register, control, handleSubmit, reset, formState } = useForm<ApiKeyFields>({
    resolver: zodResolver(apiKeyFormSchema),
    mode: "onChange",
    defaultValues: EMPTY,
  });
  const submit = handleSubmit(async (f) => {
    // Seed 000 §5: without a saved encryption key nothing happens, silently.
    const key = loadEncryptionKey();
    if (!key) return;
    const envelope = await sealCredentials(
      { api: f.api.trim(), secret: f.secret.trim(), ...(f.password.trim() ? { password: f.password.trim() } : {}) },
      f.pair.trim(),
      key,
    );
    const r = await api.call("setApiKeys", { body: { path: apiKeyPath(f), apis: envelope } });
    if (r.ok) {
      reset(EMPTY);
      await invalidate();
    }
  });
  return (
    <form className="panel form" aria-label="Add API keys" onSubmit={(e) => void submit(e)}>
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
        <button type="submit" className="btn primary" disabled={!formState.isValid || formState.isSubmitting}>
          Submit
        </button>
      </div>
    </form>
  );
}

function RemoveForm() {
  const invalidate = useInvalidateAccounts();
  const accounts = useAccounts();
  const [search, setSearch] = useState("");
  const { control, handleSubmit, reset, watch } = useForm<RemoveApiKeysForm>({
    resolver: zodResolver(removeApiKeysFormSchema),
    mode: "onChange",
    defaultValues: { path: undefined },
  });
  const chosen = watch("path");
  const needle = search.trim().toLowerCase();
  const matches = (accounts.data ?? []).filter((a) => a.path.join("/").toLowerCase().includes(needle));
  const remove = handleSubmit(async ({ path }) => {
    if (!path) return;
    const r = await api.call("removeApiKeys", { body: { path } });
    if (r.ok) {
      reset({ path: undefined });
      await invalidate();
    }
  });
  return (
    <form className="panel form" aria-label="Remove API keys" onSubmit={(e) => void remove(e)}>
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
        <button type="submit" className="btn danger" disabled={!canDelete(chosen)}>
          Delete
        </button>
      </div>
    </form>
  );
}
