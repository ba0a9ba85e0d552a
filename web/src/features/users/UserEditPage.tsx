import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { getRouteApi, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import type { z } from "zod";
import { formatUtcTimestamp } from "../../../../lib/format.js";
import { api } from "../../app/api";
import { useClients, useUser } from "../../app/query";
import { useSession } from "../../app/session-store";
import { ClientMultiSelect } from "../../components/ClientMultiSelect";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { useSingleFlight } from "../../components/single-flight";
import { type ChangeScopeForm, changeScopeFormSchema, scopeFromSelection, scopeText, selectionOfScope } from "./rules";

const route = getRouteApi("/_auth/_admin/user/edit/$uuid");

export const SELF_REMOVAL_TEXT = "This is your own account: another admin can remove it, you cannot.";

export function UserEditPage() {
  const { uuid } = route.useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useUser(uuid);
  const clients = useClients();
  const { control, handleSubmit, reset, formState } = useForm<
    ChangeScopeForm,
    unknown,
    z.output<typeof changeScopeFormSchema>
  >({
    resolver: zodResolver(changeScopeFormSchema),
    mode: "onChange",
    defaultValues: { scope: [] },
  });
  useEffect(() => {
    if (user.data)
      reset({ scope: selectionOfScope(user.data.scope, clients.data ?? []) }, { keepDefaultValues: false });
  }, [user.data, clients.data, reset]);
  const u = user.data;
  // docs/dashboard-rules.md#validation: Change scope needs a loaded user and at least one selected client.
  const canChange = Boolean(u) && formState.isValid;
  const change = handleSubmit(async ({ scope }) => {
    if (!u) return;
    const r = await api.call("changeScope", {
      params: { id: uuid },
      body: { scope: scopeFromSelection(selectionOfScope(scope, clients.data ?? []), clients.data ?? []) },
    });
    if (r.ok) {
      await queryClient.invalidateQueries({ queryKey: ["user", uuid] });
      await queryClient.invalidateQueries({ queryKey: ["users"] });
    }
  });
  const changeOnce = useSingleFlight(async (e: FormEvent<HTMLFormElement>) => change(e));
  // docs/dashboard.md "Risky actions": removing yourself is refused here and by the server
  const self = uuid === useSession().userId;
  const remove = async (): Promise<boolean> => {
    const r = await api.call("removeUser", { params: { id: uuid } });
    if (!r.ok) return false;
    queryClient.removeQueries({ queryKey: ["user", uuid] });
    await queryClient.invalidateQueries({ queryKey: ["users"] });
    await navigate({ to: "/users" });
    return true;
  };
  return (
    <form
      className="panel narrow form"
      aria-label="Edit user"
      onSubmit={(e) => {
        e.preventDefault();
        void changeOnce.run(e);
      }}
    >
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
      <Controller
        control={control}
        name="scope"
        render={({ field }) => (
          <ClientMultiSelect
            clients={clients.data ?? []}
            selected={selectionOfScope(field.value, clients.data ?? [])}
            onChange={field.onChange}
          />
        )}
      />
      {self ? (
        <p id="self-removal" className="muted">
          {SELF_REMOVAL_TEXT}
        </p>
      ) : null}
      <div className="row between">
        {self ? (
          <button
            type="button"
            className="btn danger"
            disabled
            title={SELF_REMOVAL_TEXT}
            aria-describedby="self-removal"
          >
            Remove
          </button>
        ) : (
          <ConfirmDialog
            trigger={
              <button type="button" className="btn danger" disabled={!u}>
                Remove
              </button>
            }
            title={`Remove ${u?.email ?? "this user"}?`}
            confirmLabel="Remove user"
            onConfirm={remove}
          >
            <p>They can no longer sign in, and their open sessions end at once. This cannot be undone.</p>
          </ConfirmDialog>
        )}
        <button
          type="submit"
          className="btn primary"
          disabled={!canChange || formState.isSubmitting || changeOnce.busy}
        >
          Change scope
        </button>
      </div>
    </form>
  );
}
