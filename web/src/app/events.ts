/**
 * App events (docs/dashboard-rules.md#states, #constants; docs/decisions.md#d17): toasts are raised through one `AWAKE_TOAST` event,
 * live-channel messages are re-broadcast as events named by their type (snapshot, delta), and a
 * click on an order-book row is an event too (part 2).
 */
export const AWAKE_TOAST = "AWAKE_TOAST";
export const LIVE_EVENTS = { snapshot: "snapshot", delta: "delta" } as const;

export type ToastKind = "success" | "info" | "error" | "default";
export interface ToastEvent {
  kind: ToastKind;
  title: string;
  description?: string;
  /** toasts with one id share one place: a newer one replaces the older (docs/dashboard.md "Toasts") */
  id?: string;
}

/** docs/dashboard-rules.md#constants: success 1000 ms, info 3000 ms, error 3000 ms, default 5000 ms. */
export const TOAST_DURATIONS: Record<ToastKind, number> = { success: 1000, info: 3000, error: 3000, default: 5000 };
/** docs/dashboard-rules.md#constants: max 4 visible, top-left. */
export const TOAST_VISIBLE = 4;
export const TOAST_POSITION = "top-left" as const;

const bus: EventTarget = typeof window !== "undefined" ? window : new EventTarget();

export function emit<T>(name: string, detail: T): void {
  bus.dispatchEvent(new CustomEvent(name, { detail }));
}

export function listen<T>(name: string, handler: (detail: T) => void): () => void {
  const wrapped = (e: Event) => handler((e as CustomEvent<T>).detail);
  bus.addEventListener(name, wrapped);
  return () => bus.removeEventListener(name, wrapped);
}

/**
 * The live channel's routine toasts share one place: 'Connected' and then 'Subscribed' come on every
 * page load, and one replaces the other instead of stacking over the page (docs/dashboard.md "Toasts").
 */
export const LIVE_TOAST_ID = "live-channel";

export function awakeToast(kind: ToastKind, title: string, description?: string, id?: string): void {
  emit<ToastEvent>(AWAKE_TOAST, {
    kind,
    title,
    ...(description === undefined ? {} : { description }),
    ...(id === undefined ? {} : { id }),
  });
}

/**
 * Where a toast goes (docs/dashboard.md "Toasts"): its own id when it has one, else its kind and
 * text, so the same error raised again (a server down, every 15 s) refreshes one toast instead of
 * stacking copies.
 */
export function toastId(event: ToastEvent): string {
  return event.id ?? `${event.kind}\u0000${event.title}\u0000${event.description ?? ""}`;
}
