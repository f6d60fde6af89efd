import { invalidateQueries, setQueryData } from "./_api.ts";
import { navigate } from "./_nav.ts";
import { type AuthTab, AuthTabs, type AuthUser } from "./_auth_forms.tsx";
import { redirectAfterLogin } from "../lib/return_to.ts";

/** Props of the sign-in / registration island. */
export interface AuthFormProps {
  /** The page's `returnTo` (already checked on the server), or null. */
  returnTo: string | null;
  initialTab?: AuthTab;
}

const TABS = [
  { id: "login", label: "Login" },
  { id: "register", label: "Register" },
] as const;

/**
 * /auth: Login and Register tabs. On success a toast greets the user by name and the browser
 * goes where `redirectAfterLogin` says for their role and `returnTo`; on failure a destructive
 * toast shows the server's message (login falls back to 'Invalid credentials').
 */
export default function AuthForm({ returnTo, initialTab = "login" }: AuthFormProps) {
  function onSignedIn(user: AuthUser) {
    invalidateQueries();
    setQueryData("/api/user", user);
    navigate(redirectAfterLogin(user.role, returnTo));
  }
  return (
    <AuthTabs
      idPrefix=""
      tabs={TABS}
      initialTab={initialTab}
      label="Sign in or create an account"
      className="auth-form tabs"
      panelClassName="auth-form__panel"
      onSignedIn={onSignedIn}
    />
  );
}
