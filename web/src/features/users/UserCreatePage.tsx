import { zodResolver } from "@hookform/resolvers/zod";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import type { FormEvent } from "react";
import { Controller, useController, useForm } from "react-hook-form";
import type { z } from "zod";
import { api } from "../../app/api";
import { useClients } from "../../app/query";
import { ClientMultiSelect } from "../../components/ClientMultiSelect";
import { useSingleFlight } from "../../components/single-flight";
import { scopeFromSelection, selectionOfScope, type UserCreateForm, userCreateFormSchema } from "./rules";

export function UserCreatePage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const clients = useClients();
  const { control, handleSubmit, formState } = useForm<UserCreateForm, unknown, z.output<typeof userCreateFormSchema>>({
    resolver: zodResolver(userCreateFormSchema),
    mode: "onChange",
    defaultValues: { userId: "", scope: [] },
  });
  // the field is the payload's userId (PRODUCT D18); the input keeps the name a browser knows
  const { field: email } = useController({ control, name: "userId" });
  const submit = handleSubmit(async ({ userId, scope }) => {
    // Seed 000 §5: a selection of exactly all clients gives scope all.
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
      <label className="field">
        <span>E-mail</span>
        <input
          type="email"
          autoComplete="off"
          name="email"
          ref={email.ref}
          value={email.value}
          onChange={email.onChange}
          onBlur={email.onBlur}
        />
      </label>
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
        <button
          type="submit"
          className="btn primary"
          disabled={!formState.isValid || formState.isSubmitting || submitOnce.busy}
        >
          Permit login
        </button>
      </div>
    </form>
  );
}
