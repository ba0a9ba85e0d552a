import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AccountPath } from "../../../../lib/api.js";
import { sealCredentials } from "../../../../lib/envelope.js";
import { EXCHANGES } from "../../../../lib/exchanges.js";
import { api } from "../../app/api";
import { loadEncryptionKey } from "../../app/encryption-key";
import { useAccounts } from "../../app/query";
import { PASSPHRASE_HINT, apiKeyPath, canDelete, canSubmitApiKeys, type ApiKeyFields } from "./rules";

const EMPTY: ApiKeyFields = { client: "", account: "", pair: "", api: "", secret: "", password: "", exchange: "" };
const LABELS: [keyof ApiKeyFields, string, string][] = [
  ["client", "Client Name", "text"],
  ["account", "Sub Account", "text"],
  ["pair", "Pair", "text"],
  ["api", "API Key", "text"],
  ["secret", "Secret Key", "password"],
  ["password", "Pass Phrase", "password"],
];

export function ApiKeysPage() {
  return (
    <div className="grid2">
      <CreateForm />
      <RemoveForm />
    </div>
  );
}

function CreateForm() {
  const queryClient = useQueryClient();
  const [f, setF] = useState<ApiKeyFields>(EMPTY);
  const [busy, setBusy] = useState(false);
  const ready = canSubmitApiKeys(f);
  const submit = async () => {
    // Seed 000 §5: without a saved encryption key nothing happens, silently.
    const key = loadEncryptionKey();
    if (!ready || !key || busy) return;
    setBusy(true);
    try {
      const envelope = await sealCredentials(
        { api: f.api.trim(), secret: f.secret.trim(), ...(f.password.trim() ? { password: f.password.trim() } : {}) },
        f.pair.trim(),
        key,
      );
      const r = await api.call("setApiKeys", { body: { path: apiKeyPath(f), apis: envelope } });
      if (r.ok) {
        setF(EMPTY);
        await queryClient.invalidateQueries({ queryKey: ["exchanges"] });
        await queryClient.invalidateQueries({ queryKey: ["clients"] });
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="panel form"
      aria-label="Add API keys"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h1>API Keys Manager</h1>
      {LABELS.map(([name, label, type]) => (
        <label key={name} className="field">
          <span>
            {label}
            {name === "password" ? <span className="muted"> (optional)</span> : null}
          </span>
          <input
            name={name}
            type={type}
            autoComplete="off"
            placeholder={name === "pair" ? "BTC/USDT" : undefined}
            value={f[name]}
            onChange={(e) => setF({ ...f, [name]: e.target.value })}
          />
          {name === "password" ? <span className="hint">{PASSPHRASE_HINT}</span> : null}
        </label>
      ))}
      <label className="field">
        <span>Exchange</span>
        <select name="exchange" value={f.exchange} onChange={(e) => setF({ ...f, exchange: e.target.value })}>
          <option value="">Choose an exchange</option>
          {Object.values(EXCHANGES).map((x) => (
            <option key={x.id} value={x.id}>
              {x.name}
            </option>
          ))}
        </select>
      </label>
      <div className="row end">
        <button type="submit" className="btn primary" disabled={!ready || busy}>
          Submit
        </button>
      </div>
    </form>
  );
}

function RemoveForm() {
  const queryClient = useQueryClient();
  const accounts = useAccounts();
  const [search, setSearch] = useState("");
  const [chosen, setChosen] = useState<AccountPath | undefined>();
  const needle = search.trim().toLowerCase();
  const matches = (accounts.data ?? []).filter((a) => a.path.join("/").toLowerCase().includes(needle));
  const remove = async () => {
    if (!chosen) return;
    const r = await api.call("removeApiKeys", { body: { path: chosen } });
    if (r.ok) {
      setChosen(undefined);
      await queryClient.invalidateQueries({ queryKey: ["exchanges"] });
      await queryClient.invalidateQueries({ queryKey: ["clients"] });
    }
  };
  return (
    <form
      className="panel form"
      aria-label="Remove API keys"
      onSubmit={(e) => {
        e.preventDefault();
        void remove();
      }}
    >
      <h2>Remove</h2>
      <label className="field">
        <span>Search a path</span>
        <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="client/exchange/account" />
      </label>
      <ul className="pick-list" aria-label="Paths">
        {matches.map((a) => {
          const id = a.path.join("/");
          const selected = chosen?.join("/") === id;
          return (
            <li key={id}>
              <label className="check">
                <input type="radio" name="path" checked={selected} onChange={() => setChosen(a.path)} />
                <span className="mono">{id}</span>
              </label>
            </li>
          );
        })}
        {matches.length === 0 ? <li className="muted">No paths</li> : null}
      </ul>
      <div className="row end">
        <button type="submit" className="btn danger" disabled={!canDelete(chosen)}>
          Delete
        </button>
      </div>
    </form>
  );
}
