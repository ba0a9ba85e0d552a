import { zodResolver } from "@hookform/resolvers/zod";
import { Link, useNavigate } from "@tanstack/react-router";
import type { FormEvent } from "react";
import { Controller, type Resolver, useController, useForm } from "react-hook-form";
import type { z } from "zod";
import type { SessionAnswer } from "../../../../lib/api.js";
import { HEADER } from "../../../../lib/api.js";
import { api } from "../../app/api";
import { awakeToast } from "../../app/events";
import { signIn } from "../../app/session";
import { hasValidToken, useSession } from "../../app/session-store";
import { STORAGE, waEnabled, writeStorage } from "../../app/storage";
import { Checkbox } from "../../components/Checkbox";
import { SubmitButton, waitingFor } from "../../components/SubmitButton";
import { useSingleFlight } from "../../components/single-flight";
import { EmailField, useDebouncedEmail } from "./EmailField";
import { FIRST_RUN_SEND_CODE, FirstRunHint, useFirstRun } from "./FirstRunHint";
import { useAfterSignIn } from "./return-to";
import {
  canSendCode,
  isValidCode,
  isValidPassword,
  loginFormSchema,
  type RegistrationForm,
  registrationFormSchema,
} from "./rules";
import { SessionEndedNotice } from "./SessionEndedNotice";
import { createKeyHeaders } from "./webauthn";

type SignInValues = z.output<typeof loginFormSchema>;
/** After a code was sent, Send code rests this long (the server allows 5 codes an hour, docs/decisions.md#d8). */
const SEND_CODE_PAUSE_MS = 10_000;
const DEFAULTS: RegistrationForm = { email: "", password: "", repeat: "", code: "", createKey: false };

/** Login and Registration share the form (docs/dashboard-rules.md#screens): registration adds the repeated password. */
export function SignInForm({ mode, returnTo }: { mode: "login" | "register"; returnTo?: string | undefined }) {
  const afterSignIn = useAfterSignIn(returnTo);
  const session = useSession();
  const form = useForm<RegistrationForm, unknown, SignInValues>({
    // the rules are lib's schemas (features/auth/rules.ts); registration adds the repeat check
    resolver: zodResolver(mode === "register" ? registrationFormSchema : loginFormSchema) as unknown as Resolver<
      RegistrationForm,
      unknown,
      SignInValues
    >,
    mode: "onChange",
    defaultValues: DEFAULTS,
  });
  const { register, control, handleSubmit, watch, formState, setValue } = form;
  const { field: emailField } = useController({ name: "email", control });
  const email = useDebouncedEmail(emailField.value);
  const [password, repeat, code] = watch(["password", "repeat", "code"]);
  const showKeyOption = waEnabled() === "no";
  // docs/dashboard-rules.md#validation: Submit only when all are valid, on the settled (debounced) e-mail.
  const ready = formState.isValid && emailField.value.trim() === email;
  const waiting = waitingFor(mode === "register" ? registrationFormSchema : loginFormSchema, watch(), {
    email: "a valid e-mail",
    password: "a password of 8 or more characters",
    ...(mode === "register" ? { repeat: "the password repeated" } : {}),
    code: "the 8-character code",
  });

  const firstRun = useFirstRun(mode === "register");
  // one code per click, and none while one is on its way (docs/dashboard.md "Risky actions")
  const sendCode = useSingleFlight(async () => {
    if (firstRun) {
      awakeToast("info", FIRST_RUN_SEND_CODE);
      form.setFocus("code");
      return;
    }
    const sent = await api.call("code", { headers: { [HEADER.email]: email } });
    // a click that lands just after a fast answer is still the same double click: wait before the next code
    if (sent.ok) await new Promise((r) => setTimeout(r, SEND_CODE_PAUSE_MS));
  });

  const submitOnce = useSingleFlight(async (e: FormEvent<HTMLFormElement>) => submit(e));
  const submit = handleSubmit(async (values) => {
    let keyHeaders: Record<string, string> = {};
    if (values.createKey && showKeyOption) {
      try {
        keyHeaders = await createKeyHeaders(values.email, values.code);
      } catch (error) {
        awakeToast("error", "The key was not created", (error as Error).message);
        return;
      }
    }
    const answer = await api.call<SessionAnswer>(mode === "login" ? "loginPassword" : "register", {
      headers: {
        [HEADER.email]: values.email,
        [HEADER.password]: values.password,
        [HEADER.code]: values.code,
        ...keyHeaders,
      },
    });
    if (!answer.ok) return;
    if (answer.data.credentialsId && keyHeaders[HEADER.credentialsId]) writeStorage(STORAGE.WAEnabled, "yes");
    await signIn(answer.data, values.email);
    await afterSignIn();
  });

  // docs/dashboard.md "Sessions": no sign-in form is offered to a tab that is signed in
  if (hasValidToken(session)) return <AlreadySignedIn email={session.email} />;

  return (
    <form
      className="panel narrow form"
      aria-label={mode === "login" ? "Login" : "Registration"}
      onSubmit={(e) => {
        if (!ready) {
          e.preventDefault();
          return;
        }
        e.preventDefault();
        void submitOnce.run(e);
      }}
    >
      <h1>{mode === "login" ? "Login" : "Registration"}</h1>
      {mode === "login" ? <SessionEndedNotice returnTo={returnTo} /> : <FirstRunHint firstRun={firstRun} />}
      <EmailField value={emailField.value} onChange={emailField.onChange} settled={email} autoFocus />
      <label className="field">
        <span>Password</span>
        <input
          type="password"
          autoComplete={mode === "login" ? "current-password" : "new-password"}
          {...register("password")}
          aria-invalid={password !== "" && !isValidPassword(password)}
        />
        <span className="hint">At least 8 characters</span>
      </label>
      {mode === "register" ? (
        <label className="field">
          <span>Repeat password</span>
          <input
            type="password"
            autoComplete="new-password"
            {...register("repeat", { deps: ["password"] })}
            aria-invalid={repeat !== "" && repeat !== password}
          />
          {repeat !== "" && repeat !== password ? (
            <span className="hint bad">Passwords do not match</span>
          ) : (
            <span className="hint">&nbsp;</span>
          )}
        </label>
      ) : null}
      <div className="field">
        <label htmlFor="code">Code</label>
        <div className="row">
          <input
            id="code"
            className="mono grow"
            maxLength={8}
            autoComplete="one-time-code"
            {...register("code")}
            // a code pasted from the e-mail often carries spaces or a line break: they go
            onPaste={(e) => {
              const pasted = e.clipboardData.getData("text");
              const code = pasted.replace(/\s+/g, "");
              if (code === pasted) return;
              e.preventDefault();
              setValue("code", code, { shouldValidate: true, shouldDirty: true, shouldTouch: true });
            }}
            aria-invalid={code !== "" && !isValidCode(code)}
          />
          <button
            type="button"
            className="btn"
            disabled={!canSendCode(email) || sendCode.busy}
            onClick={() => void sendCode.run()}
          >
            Send code
          </button>
        </div>
        <span className="hint">8 characters from the e-mail</span>
      </div>
      {showKeyOption ? (
        <Controller
          control={control}
          name="createKey"
          render={({ field }) => (
            <Checkbox checked={field.value} onCheckedChange={field.onChange}>
              Create a public key on this device
            </Checkbox>
          )}
        />
      ) : null}
      <div className="row between">
        {mode === "login" ? (
          // a link, the return path kept (issue 17 "Links")
          <Link to="/login/key" search={returnTo ? { redirect: returnTo } : {}} className="btn">
            Login with a Key
          </Link>
        ) : (
          <span />
        )}
        <SubmitButton waiting={waiting} settling={!ready} busy={formState.isSubmitting || submitOnce.busy}>
          Submit
        </SubmitButton>
      </div>
    </form>
  );
}

function AlreadySignedIn({ email }: { email: string | undefined }) {
  const navigate = useNavigate();
  return (
    <section className="panel narrow form" aria-label="Signed in">
      <h1>Signed in</h1>
      <p>You are signed in{email ? ` as ${email}` : ""}. To sign in as someone else, Exit first.</p>
      <div className="row end">
        <button type="button" className="btn primary" onClick={() => void navigate({ to: "/" })}>
          Go home
        </button>
      </div>
    </section>
  );
}
