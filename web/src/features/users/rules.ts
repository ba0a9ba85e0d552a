/** Users rules (docs/dashboard-rules.md#screens "Users page", docs/dashboard-rules.md#validation "Users"): lib's payload schemas, as the forms use them. */
import type { z } from "zod";
import type { Scope } from "../../../../lib/api.js";
import { changeScopeSchema, setUserSchema } from "../../../../lib/schemas.js";

/** docs/dashboard-rules.md#screens: Scope shows the word all, or the list joined. */
export function scopeText(scope: Scope): string {
  return scope === "all" ? "all" : scope.join(", ");
}

/** docs/dashboard-rules.md#validation: a selection of exactly all clients gives scope all. */
export function scopeFromSelection(selected: readonly string[], allClients: readonly string[]): Scope {
  const chosen = [...new Set(selected)];
  if (allClients.length > 0 && allClients.every((c) => chosen.includes(c)) && chosen.length === allClients.length)
    return "all";
  return chosen;
}

/** 'Permit login': the e-mail (as `userId`, docs/decisions.md#d18) and the selected clients, checked by lib's setUserSchema. */
export const userCreateFormSchema = setUserSchema;
export type UserCreateForm = z.input<typeof userCreateFormSchema>;

/** Change scope: the selected clients, checked by lib's changeScopeSchema. */
export const changeScopeFormSchema = changeScopeSchema;
export type ChangeScopeForm = z.input<typeof changeScopeFormSchema>;

/** docs/dashboard-rules.md#validation: Permit login only with a valid e-mail and at least one client selected. */
export function canPermitLogin(email: string, selected: readonly string[]): boolean {
  return userCreateFormSchema.safeParse({ userId: email, scope: [...selected] }).success;
}

/** docs/dashboard-rules.md#validation: Change scope needs a loaded user and at least one selected client. */
export function canChangeScope(userLoaded: boolean, selected: readonly string[]): boolean {
  return userLoaded && changeScopeFormSchema.safeParse({ scope: [...selected] }).success;
}

/** The selection that shows a scope: all clients for 'all' (a stored user's scope, or a form's). */
export function selectionOfScope(scope: Scope, allClients: readonly string[]): string[] {
  return scope === "all" ? [...allClients] : [...scope];
}
