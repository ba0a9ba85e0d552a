import { zodResolver } from "@hookform/resolvers/zod";
import { Link } from "@tanstack/react-router";
import type { FormEvent } from "react";
import { useController, useForm } from "react-hook-form";
import { HEADER, type SessionAnswer } from "../../../../lib/api.js";
import { api } from "../../app/api";
import { awakeToast } from "../../app/events";
import { signIn } from "../../app/session";
import { SubmitButton, waitingFor } from "../../components/SubmitButton";
import { useSingleFlight } from "../../components/single-flight";
import { EmailField, useDebouncedEmail } from "./EmailField";
import { useAfterSignIn } from "./return-to";
import { canKeyLogin, type KeyLoginForm, keyLoginFormSchema } from "./rules";
import { signKeyLogin } from "./webauthn";

/** docs/dashboard-rules.md#screens "Login with a Key": e-mail only; look up the credentials, then sign with one. */
export function KeyLoginPage({ returnTo }: { returnTo?: string | undefined }) {
  const afterSignIn = useAfterSignIn(returnTo);
  const { control, handleSubmit, formState, watch } = useForm<KeyLoginForm, unknown, { email: string }>({
    resolver: zodResolver(keyLoginFormSchema),
    mode: "onChange",
    defaultValues: { email: "" },
  });
  const { field } = useController({ name: "email", control });
  const settled = useDebouncedEmail(field.value);
  const ready = formState.isValid && field.value.trim() === settled;
  const waiting = waitingFor(keyLoginFormSchema, watch(), { email: "a valid e-mail" });

  const submit = handleSubmit(async ({ email }) => {
    const ids = await api.call<string[]>("credentials", { headers: { [HEADER.email]: email } });
    if (!ids.ok) return;
    // docs/dashboard-rules.md#validation: a valid e-mail and at least one credential returned for it.
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
    await afterSignIn();
  });

  const submitOnce = useSingleFlight(async (e: FormEvent<HTMLFormElement>) => submit(e));

  return (
    <form
      className="panel narrow form"
      aria-label="Login with a Key"
      onSubmit={(e) => {
        if (!ready) {
          e.preventDefault();
          return;
        }
        e.preventDefault();
        void submitOnce.run(e);
      }}
    >
      <h1>Login with a Key</h1>
      <EmailField value={field.value} onChange={field.onChange} settled={settled} autoFocus />
      <div className="row between">
        <Link to="/login/password" search={returnTo ? { redirect: returnTo } : {}} className="btn">
          Login with a code
        </Link>
        <SubmitButton waiting={waiting} settling={!ready} busy={formState.isSubmitting || submitOnce.busy}>
          Submit
        </SubmitButton>
      </div>
    </form>
  );
}
