import { SignInForm } from "./SignInForm";

export function LoginPage() {
  return <SignInForm mode="login" />;
}
