import { useNavigate } from "@tanstack/react-router";
import { useEffect } from "react";

/** docs/dashboard-rules.md#screens: title and heading 'Page not found ;(', 'Go home' replaces the history entry. */
export const NOT_FOUND_TEXT = "Page not found ;(";

export function NotFound() {
  const navigate = useNavigate();
  useEffect(() => {
    const previous = document.title;
    document.title = NOT_FOUND_TEXT;
    return () => {
      document.title = previous;
    };
  }, []);
  return (
    <section className="panel narrow center">
      <h1>{NOT_FOUND_TEXT}</h1>
      <button type="button" className="btn primary" onClick={() => void navigate({ to: "/", replace: true })}>
        Go home
      </button>
    </section>
  );
}
