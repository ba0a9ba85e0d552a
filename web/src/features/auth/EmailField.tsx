import { useEffect, useState } from "react";
import { EMAIL_DEBOUNCE_MS, isValidEmail } from "./rules";

/** docs/dashboard-rules.md#validation: the e-mail is trimmed and debounced 500 ms; a green dot when valid, red when not. */
export function useDebouncedEmail(raw: string): string {
  const [value, setValue] = useState(raw.trim());
  useEffect(() => {
    const t = setTimeout(() => setValue(raw.trim()), EMAIL_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [raw]);
  return value;
}

export function EmailField(props: {
  value: string;
  onChange: (v: string) => void;
  settled: string;
  autoFocus?: boolean;
  /** "username" on the sign-in forms; "off" where the e-mail is someone else's (Create user) */
  autoComplete?: string;
}) {
  const valid = isValidEmail(props.settled);
  return (
    <label className="field">
      <span>
        E-mail{" "}
        <span
          className={`dot ${props.settled === "" ? "" : valid ? "ok" : "bad"}`}
          role="img"
          aria-label={valid ? "valid e-mail" : "invalid e-mail"}
          data-valid={valid ? "yes" : "no"}
        />
      </span>
      <input
        type="email"
        name="email"
        autoComplete={props.autoComplete ?? "username"}
        value={props.value}
        // biome-ignore lint/a11y/noAutofocus: only when the form asks for it: the e-mail is the one field a sign-in page opens for
        autoFocus={props.autoFocus}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.settled !== "" && !valid}
      />
    </label>
  );
}
