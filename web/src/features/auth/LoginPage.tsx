import { SignInForm } from "./SignInForm";

export function LoginPage({ returnTo }: { returnTo?: string | undefined }) {
  return <SignInForm mode="login" returnTo={returnTo} />;
}
