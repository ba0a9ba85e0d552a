/** Rules of the shared inputs (docs/dashboard-rules.md#screens "Shared inputs", docs/dashboard-rules.md#validation). The components only call these. */
import { isUserNumber } from "../../../lib/decimal.js";

export const EMPTY_LIST_TEXT = "No items added to the group";

/** docs/dashboard-rules.md#validation "List editor": items are trimmed and de-duplicated; an empty item cannot be added. */
export function addListItem(items: readonly string[], text: string): string[] {
  const item = text.trim();
  if (item === "" || items.includes(item)) return [...items];
  return [...items, item];
}

export function removeListItem(items: readonly string[], item: string): string[] {
  return items.filter((i) => i !== item);
}

/** docs/dashboard-rules.md#validation "Range": reported only when both min and max are set. */
export function reportRange(min: string, max: string): { min: string; max: string } | undefined {
  if (min.trim() === "" || max.trim() === "") return undefined;
  return { min: normalizeNumber(min), max: normalizeNumber(max) };
}

/** docs/dashboard-rules.md#validation "Numbers": a comma is converted to a dot. */
export function normalizeNumber(text: string): string {
  return text.trim().replace(",", ".");
}

/** docs/dashboard-rules.md#validation: on blur, invalid input reverts to the previous value; valid input is kept with a dot. */
export function numberOnBlur(text: string, previous: string): string {
  if (text.trim() === "") return "";
  return isUserNumber(text) ? normalizeNumber(text) : previous;
}
