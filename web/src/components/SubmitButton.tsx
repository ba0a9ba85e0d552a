/**
 * A submit button that says what it waits for (issue 17 "Early, specific validation",
 * docs/dashboard-delivery.md#validation): while disabled, a hint beside it names the fields still
 * missing or invalid, and the button is described by it (screen readers, tooltip).
 */
import { type ReactNode, useId } from "react";
import type { z } from "zod";

/** "a, b and c". */
export function listText(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/**
 * What a form still waits for: the label of each field the schema refuses on `values`, in the
 * order of `labels` (a field without a label is not named).
 */
export function waitingFor<T extends Record<string, unknown>>(
  schema: z.ZodType,
  values: T,
  labels: Partial<Record<keyof T, string>>,
): string[] {
  const parsed = schema.safeParse(values);
  if (parsed.success) return [];
  const bad = new Set(parsed.error.issues.map((i) => String(i.path[0] ?? "")));
  return Object.entries(labels)
    .filter(([field]) => bad.has(field))
    .map(([, label]) => label as string);
}

export function SubmitButton({
  waiting,
  busy = false,
  settling = false,
  className = "btn primary",
  children,
}: {
  /** what is still missing, in the user's words ("a valid e-mail"); empty when ready */
  waiting: readonly string[];
  busy?: boolean;
  /** a value still settling (a debounced e-mail): disabled for that moment, without a message */
  settling?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const hintId = useId();
  const text = busy ? "Sending…" : waiting.length ? `Waiting for ${listText(waiting)}` : "";
  return (
    <span className="submit">
      {text ? (
        <span id={hintId} className="hint waiting" data-testid="submit-waiting">
          {text}
        </span>
      ) : null}
      <button
        type="submit"
        className={className}
        disabled={busy || settling || waiting.length > 0}
        aria-describedby={text ? hintId : undefined}
        title={text || undefined}
      >
        {children}
      </button>
    </span>
  );
}
