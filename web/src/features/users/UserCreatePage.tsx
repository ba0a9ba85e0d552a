import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { api } from "../../app/api";
import { useClients } from "../../app/query";
import { ClientMultiSelect } from "../../components/ClientMultiSelect";
import { canPermitLogin, scopeFromSelection } from "./rules";

export function UserCreatePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const clients = useClients();
  const [email, setEmail] = useState("");
  const [selected, setSelected] = useState<string[]>([]);
  const ready = canPermitLogin(email, selected);
  const submit = async () => {
    if (!ready) return;
    const r = await api.call("setUser", { body: { userId: email.trim(), scope: scopeFromSelection(selected, clients.data ?? []) } });
    if (r.ok) {
      await queryClient.invalidateQueries({ queryKey: ["users"] });
      await navigate({ to: "/users" });
    }
  };
  return (
    <form
      className="panel narrow form"
      aria-label="Create user"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h1>Create user</h1>
      <label className="field">
        <span>E-mail</span>
        <input type="email" name="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </label>
      <ClientMultiSelect clients={clients.data ?? []} selected={selected} onChange={setSelected} />
      <div className="row end">
        <button type="submit" className="btn primary" disabled={!ready}>
          Permit login
        </button>
      </div>
    </form>
  );
}
