/** Users rules (seed 000 §2 "Users page", §5 "Users"). */
import type { Scope } from "../../../../lib/api.js";
import { isValidEmail } from "../auth/rules";

/** Seed 000 §2: Scope shows the word all, or the list joined. */
export function scopeText(scope: Scope): string {
  return scope === "all" ? "all" : scope.join(", ");
}

/** Seed 000 §5: a selection of exactly all clients gives scope all. */
export function scopeFromSelection(selected: readonly string[], allClients: readonly string[]): Scope {
  const chosen = [...new Set(selected)];
  if (allClients.length > 0 && allClients.every((c) => chosen.includes(c)) && chosen.length === allClients.length) return "all";
  return chosen;
}

/** Seed 000 §5: Permit login only with a valid e-mail and at least one client selected. */
export function canPermitLogin(email: string, selected: readonly string[]): boolean {
  return isValidEmail(email) && selected.length > 0;
}

/** Seed 000 §5: Change scope needs a loaded user and at least one selected client. */
export function canChangeScope(userLoaded: boolean, selected: readonly string[]): boolean {
  return userLoaded && selected.length > 0;
}

/** The selection that shows a scope: all clients for 'all'. */
export function selectionOfScope(scope: Scope, allClients: readonly string[]): string[] {
  return scope === "all" ? [...allClients] : [...scope];
}
