import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { HEADER, type SessionAnswer } from "../../../../lib/api.js";
import { api } from "../../app/api";
import { awakeToast } from "../../app/events";
import { signIn } from "../../app/session";
import { EmailField, useDebouncedEmail } from "./EmailField";
import { canKeyLogin, isValidEmail } from "./rules";
import { signKeyLogin } from "./webauthn";

/** Seed 000 §2 "Login with a Key": e-mail only; look up the credentials, then sign with one. */
export function KeyLoginPage() {
  const navigate = useNavigate();
  const [emailRaw, setEmailRaw] = useState("");
  const email = useDebouncedEmail(emailRaw);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (!isValidEmail(email) || busy) return;
    setBusy(true);
    try {
      const ids = await api.call<string[]>("credentials", { headers: { [HEADER.email]: email } });
      if (!ids.ok) return;
      if (!canKeyLogin(email, ids.data)) {
        awakeToast("error", "No key is registered for this e-mail");
        return;
      }
      let headers: Record<string, string>;
      try {
        headers = await signKeyLogin(email, ids.data);
      } catch (error) {
        awakeToast("error", "The key did not sign", (error as Error).message);
        return;
      }
      const answer = await api.call<SessionAnswer>("loginSignature", { headers });
      if (!answer.ok) return;
      await signIn(answer.data, email);
      await navigate({ to: "/" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="panel narrow form"
      aria-label="Login with a Key"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h1>Login with a Key</h1>
      <EmailField value={emailRaw} onChange={setEmailRaw} settled={email} autoFocus />
      <div className="row between">
        <button type="button" className="btn" onClick={() => void navigate({ to: "/login/password" })}>
          Login with a code
        </button>
        <button type="submit" className="btn primary" disabled={!isValidEmail(email) || emailRaw.trim() !== email || busy}>
          Submit
        </button>
      </div>
    </form>
  );
}
