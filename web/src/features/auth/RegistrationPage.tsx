import { SignInForm } from "./SignInForm";

export function RegistrationPage() {
  return <SignInForm mode="register" />;
}
