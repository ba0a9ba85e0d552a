import { useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { formatUtcTimestamp } from "../../../../lib/format.js";
import { api } from "../../app/api";
import { useClients, useUser } from "../../app/query";
import { ClientMultiSelect } from "../../components/ClientMultiSelect";
import { canChangeScope, scopeFromSelection, scopeText, selectionOfScope } from "./rules";

const route = getRouteApi("/_auth/_admin/user/edit/$uuid");

export function UserEditPage() {
  const { uuid } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useUser(uuid);
  const clients = useClients();
  const [selected, setSelected] = useState<string[]>([]);
  useEffect(() => {
    if (user.data) setSelected(selectionOfScope(user.data.scope, clients.data ?? []));
  }, [user.data, clients.data]);
  const u = user.data;
  const change = async () => {
    if (!canChangeScope(Boolean(u), selected)) return;
    const r = await api.call("changeScope", { params: { id: uuid }, body: { scope: scopeFromSelection(selected, clients.data ?? []) } });
    if (r.ok) {
      await queryClient.invalidateQueries({ queryKey: ["user", uuid] });
      await queryClient.invalidateQueries({ queryKey: ["users"] });
    }
  };
  const remove = async () => {
    const r = await api.call("removeUser", { params: { id: uuid } });
    if (r.ok) {
      await queryClient.invalidateQueries({ queryKey: ["users"] });
      await navigate({ to: "/users" });
    }
  };
  return (
    <section className="panel narrow form" aria-label="Edit user">
      <div className="row between">
        <h1>Edit user</h1>
        <button type="button" className="btn" onClick={() => void user.refetch()} aria-label="Refresh">
          ↻ Refresh
        </button>
      </div>
      <dl className="facts">
        <dt>E-mail</dt>
        <dd>{u?.email ?? "-"}</dd>
        <dt>Last seen</dt>
        <dd className="num">{u?.lastActive ? formatUtcTimestamp(u.lastActive) : "-"}</dd>
        <dt>Scope</dt>
        <dd>{u ? scopeText(u.scope) : "-"}</dd>
      </dl>
      <ClientMultiSelect clients={clients.data ?? []} selected={selected} onChange={setSelected} />
      <div className="row between">
        <button type="button" className="btn danger" disabled={!u} onClick={() => void remove()}>
          Remove
        </button>
        <button type="button" className="btn primary" disabled={!canChangeScope(Boolean(u), selected)} onClick={() => void change()}>
          Change scope
        </button>
      </div>
    </section>
  );
}
