import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import type { FormEvent } from "react";
import { Controller, useController, useForm } from "react-hook-form";
import type { z } from "zod";
import { api } from "../../app/api";
import { useClients } from "../../app/query";
import { ClientMultiSelect } from "../../components/ClientMultiSelect";
import { SubmitButton, waitingFor } from "../../components/SubmitButton";
import { useSingleFlight } from "../../components/single-flight";
import { EmailField, useDebouncedEmail } from "../auth/EmailField";
import { scopeFromSelection, selectionOfScope, type UserCreateForm, userCreateFormSchema } from "./rules";

export function UserCreatePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const clients = useClients();
  const { control, handleSubmit, formState, watch } = useForm<
    UserCreateForm,
    unknown,
    z.output<typeof userCreateFormSchema>
  >({
    resolver: zodResolver(userCreateFormSchema),
    mode: "onChange",
    defaultValues: { userId: "", scope: [] },
  });
  // the field is the payload's userId (docs/decisions.md#d18); the input keeps the name a browser knows
  const { field: email } = useController({ control, name: "userId" });
  // docs/dashboard-rules.md#validation: the e-mail's dot, on the settled (debounced) value as on the sign-in forms
  const settled = useDebouncedEmail(email.value);
  const waiting = waitingFor(userCreateFormSchema, watch(), { userId: "a valid e-mail", scope: "a client" });
  const submit = handleSubmit(async ({ userId, scope }) => {
    // docs/dashboard-rules.md#validation: a selection of exactly all clients gives scope all.
    const r = await api.call("setUser", {
      body: { userId, scope: scopeFromSelection(selectionOfScope(scope, clients.data ?? []), clients.data ?? []) },
    });
    if (r.ok) {
      await queryClient.invalidateQueries({ queryKey: ["users"] });
      await navigate({ to: "/users" });
    }
  });
  const submitOnce = useSingleFlight(async (e: FormEvent<HTMLFormElement>) => submit(e));
  return (
    <form
      className="panel narrow form"
      aria-label="Create user"
      onSubmit={(e) => {
        e.preventDefault();
        void submitOnce.run(e);
      }}
    >
      <h1>Create user</h1>
      <EmailField value={email.value} onChange={email.onChange} settled={settled} autoComplete="off" />
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
      <div className="row end">
        <SubmitButton waiting={waiting} busy={formState.isSubmitting || submitOnce.busy}>
          Permit login
        </SubmitButton>
      </div>
    </form>
  );
}
