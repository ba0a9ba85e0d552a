import { useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import type { SessionAnswer } from "../../../../lib/api.js";
import { HEADER } from "../../../../lib/api.js";
import { api } from "../../app/api";
import { awakeToast } from "../../app/events";
import { signIn } from "../../app/session";
import { STORAGE, waEnabled, writeStorage } from "../../app/storage";
import { EmailField, useDebouncedEmail } from "./EmailField";
import { canSendCode, canSubmit, effectivePassword, isValidCode, isValidPassword } from "./rules";
import { createKeyHeaders } from "./webauthn";

/** Login and Registration share the form (seed 000 §2): registration adds the repeated password. */
export function SignInForm({ mode }: { mode: "login" | "register" }) {
  const navigate = useNavigate();
  const [emailRaw, setEmailRaw] = useState("");
  const email = useDebouncedEmail(emailRaw);
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [code, setCode] = useState("");
  const [createKey, setCreateKey] = useState(false);
  const [busy, setBusy] = useState(false);
  const showKeyOption = waEnabled() === "no";
  const pass = mode === "register" ? effectivePassword(password, repeat) : password;
  const ready = canSubmit({ email, password: pass, code }) && emailRaw.trim() === email;

  const sendCode = async () => {
    await api.call("code", { headers: { [HEADER.email]: email } });
  };

  const submit = async () => {
    if (!ready || busy) return;
    setBusy(true);
    try {
      let keyHeaders: Record<string, string> = {};
      if (createKey && showKeyOption) {
        try {
          keyHeaders = await createKeyHeaders(email, code);
        } catch (error) {
          awakeToast("error", "The key was not created", (error as Error).message);
          return;
        }
      }
      const answer = await api.call<SessionAnswer>(mode === "login" ? "loginPassword" : "register", {
        headers: { [HEADER.email]: email, [HEADER.password]: pass, [HEADER.code]: code.trim(), ...keyHeaders },
      });
      if (!answer.ok) return;
      if (answer.data.credentialsId && keyHeaders[HEADER.credentialsId]) writeStorage(STORAGE.WAEnabled, "yes");
      await signIn(answer.data, email);
      await navigate({ to: "/" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="panel narrow form"
      aria-label={mode === "login" ? "Login" : "Registration"}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h1>{mode === "login" ? "Login" : "Registration"}</h1>
      <EmailField value={emailRaw} onChange={setEmailRaw} settled={email} autoFocus />
      <label className="field">
        <span>Password</span>
        <input
          type="password"
          name="password"
          autoComplete={mode === "login" ? "current-password" : "new-password"}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={password !== "" && !isValidPassword(password)}
        />
        <span className="hint">At least 8 characters</span>
      </label>
      {mode === "register" ? (
        <label className="field">
          <span>Repeat password</span>
          <input
            type="password"
            name="repeat"
            autoComplete="new-password"
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            aria-invalid={repeat !== "" && repeat !== password}
          />
          {repeat !== "" && repeat !== password ? <span className="hint bad">Passwords do not match</span> : <span className="hint">&nbsp;</span>}
        </label>
      ) : null}
      <div className="field">
        <label htmlFor="code">Code</label>
        <div className="row">
          <input
            id="code"
            name="code"
            className="mono grow"
            maxLength={8}
            autoComplete="one-time-code"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            aria-invalid={code !== "" && !isValidCode(code)}
          />
          <button type="button" className="btn" disabled={!canSendCode(email)} onClick={() => void sendCode()}>
            Send code
          </button>
        </div>
        <span className="hint">8 characters from the e-mail</span>
      </div>
      {showKeyOption ? (
        <label className="check">
          <input type="checkbox" checked={createKey} onChange={(e) => setCreateKey(e.target.checked)} />
          <span>Create a public key on this device</span>
        </label>
      ) : null}
      <div className="row between">
        {mode === "login" ? (
          <button type="button" className="btn" onClick={() => void navigate({ to: "/login/key" })}>
            Login with a Key
          </button>
        ) : (
          <span />
        )}
        <button type="submit" className="btn primary" disabled={!ready || busy}>
          Submit
        </button>
      </div>
    </form>
  );
}
