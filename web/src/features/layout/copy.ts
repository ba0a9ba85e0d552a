import { awakeToast } from "../../app/events";

/** Copies a secret to the clipboard; says so, or says to copy it by hand when the browser refuses. */
export async function copySecret(text: string, what: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    awakeToast("success", `${what} copied`);
    return true;
  } catch {
    awakeToast(
      "error",
      `${what} not copied`,
      "The browser refused the clipboard: select the text and copy it by hand.",
    );
    return false;
  }
}
