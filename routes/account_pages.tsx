import type { ReactNode } from "react";
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppContext, AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { redirectAfterLogin, requirePageUser, safeReturnTo } from "./_auth.ts";
import { renderPage } from "../components/render.tsx";
import { PublicLayout } from "../components/PublicLayout.tsx";
import { rememberedAppPage } from "./_app_page.tsx";
import { SurveyorCoverageCard } from "../components/SurveyorCoverageCard.tsx";
import { getSurveyorByUserId } from "../db/surveyors.ts";
import { toOwnSurveyorProfile } from "../lib/surveyor_profile.ts";
import { PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import AuthForm from "../islands/AuthForm.tsx";
import ForgotPasswordForm from "../islands/ForgotPasswordForm.tsx";
import ResetPasswordForm, { SET_PASSWORD_TITLES } from "../islands/ResetPasswordForm.tsx";
import ProfileForm from "../islands/ProfileForm.tsx";
import Toaster from "../islands/Toaster.tsx";
import { singleLine } from "../lib/text.ts";
import { getPasswordTokenPurpose } from "../lib/password_reset.ts";
import { isGoogleSignInConfigured } from "../lib/oauth/google.ts";
import { GoogleSignIn } from "../islands/_google_sign_in.tsx";
import { getGoogleAccountForUser } from "../db/oauth_accounts.ts";
import GoogleAccount from "../islands/GoogleAccount.tsx";
import { htmlResponse } from "./_html_response.ts";

/** Spec section 2: what /auth says to a signed-in user while it redirects. */
export const REDIRECTING_TEXT = "Redirecting to your dashboard...";

/**
 * A single query value we only read as text: anything else (arrays, huge strings, control
 * characters) is ignored.
 */
const optionalText = singleLine("Value", { max: 4096 }).optional().catch(undefined);

const AuthQuery = z.object({
  returnTo: optionalText,
  tab: z.enum(["login", "register"]).optional().catch(undefined),
});

const ResetQuery = z.object({
  token: z.string().max(512).optional().catch(undefined),
});

/** A signed-out card page: public header and footer, one centred card, the toast viewport. */
function AuthShell({ children, user }: { children: ReactNode; user?: AppContext["var"]["user"] }) {
  return (
    <PublicLayout user={user}>
      <div className="auth-page">
        <section className="card auth-card">
          <div className="card__body">{children}</div>
        </section>
      </div>
      <Island component={Toaster} props={{}} hydrate="load" />
    </PublicLayout>
  );
}

function noStore(c: AppContext) {
  c.header("Cache-Control", "private, no-store");
}

/** Account pages: /auth, /forgot-password, /reset-password, /profile. */
export const accountPages = new Hono<AppEnv>()
  .get("/auth", zValidator("query", AuthQuery, onInvalid), (c) => {
    const { returnTo, tab } = c.req.valid("query");
    const user = c.var.user;
    noStore(c);
    if (user) {
      // Spec: signed in → 'Redirecting to your dashboard...' and the role redirect. The
      // redirect happens here with a 302; the body says the same for anything that shows it.
      const target = redirectAfterLogin(user.role, returnTo);
      c.header("Location", target);
      return htmlResponse(
        c,
        renderPage(
          c,
          { title: "Redirecting", noindex: true },
          <PublicLayout user={user}>
            <div className="auth-redirect" role="status">
              <span className="spinner" aria-hidden="true" />
              <p>{REDIRECTING_TEXT}</p>
              <a href={target}>Continue</a>
            </div>
          </PublicLayout>,
        ),
        302,
      );
    }
    return htmlResponse(
      c,
      renderPage(
        c,
        {
          title: "Sign in or create an account",
          description: "Sign in to Meridian, or create a free account to request a land survey.",
          noindex: Boolean(returnTo || tab),
          path: returnTo || tab ? undefined : "/auth",
        },
        <AuthShell>
          <h1>Welcome to Meridian</h1>
          <p className="auth-card__intro">
            Sign in to track your survey requests, or create a free account in a minute.
          </p>
          <Island
            component={AuthForm}
            props={{ returnTo: safeReturnTo(returnTo), initialTab: tab ?? "login" }}
            hydrate="load"
          />
          {isGoogleSignInConfigured(c.var.deps.config)
            ? <GoogleSignIn returnTo={safeReturnTo(returnTo)} className="btn--block" />
            : null}
        </AuthShell>,
      ),
    );
  })
  .get("/forgot-password", (c) => {
    noStore(c);
    return htmlResponse(
      c,
      renderPage(
        c,
        {
          title: "Forgot your password?",
          description: "Reset the password of your Meridian account.",
          path: "/forgot-password",
        },
        <AuthShell user={c.var.user}>
          <Island component={ForgotPasswordForm} props={{}} hydrate="load" />
        </AuthShell>,
      ),
    );
  })
  .get("/reset-password", zValidator("query", ResetQuery, onInvalid), async (c) => {
    const { token } = c.req.valid("query");
    noStore(c);
    // An invitation's link (a technician's or surveyor's first password) reads as one.
    const purpose = await getPasswordTokenPurpose(c.var.db, token) ?? "reset";
    // The token is a secret: never let the page (and so its URL) be cached or indexed.
    return htmlResponse(
      c,
      renderPage(
        c,
        { title: SET_PASSWORD_TITLES[purpose], noindex: true, hasSecretInUrl: true },
        <AuthShell user={c.var.user}>
          <Island
            component={ResetPasswordForm}
            props={{ token: token || null, purpose }}
            hydrate="load"
          />
        </AuthShell>,
      ),
    );
  })
  .get("/profile", requirePageUser, async (c) => {
    const user = c.var.user!;
    // A surveyor edits their coverage here too (the same card as on their dashboard).
    const [own, google] = await Promise.all([
      user.role === "surveyor" ? getSurveyorByUserId(c.var.db, { userId: user.id }) : undefined,
      getGoogleAccountForUser(c.var.db, { userId: user.id }),
    ]);
    const isImpersonating = Boolean(c.var.session?.impersonatorId);
    // Sent as it was last rendered while the firm's record and the Google link are the same
    // (routes/_remembered_pages.ts; the user and whether an admin views as them are in the
    // shell it is compared by too): it reads no clock.
    return rememberedAppPage(
      c,
      { title: "Your profile", active: "/profile" },
      `profile ${user.id}`,
      [own, google, isImpersonating],
      () => (
        <>
          <PageHeader
            title="Your profile"
            intro={profileIntro(user.role)}
          />
          <Island
            component={ProfileForm}
            props={{
              email: user.email,
              fullName: user.fullName,
              companyName: user.companyName,
              phone: user.phone,
              isImpersonating,
            }}
            hydrate="load"
          />
          {google
            ? (
              <Island
                component={GoogleAccount}
                props={{
                  email: google.email,
                  linkedAt: google.linkedAt,
                  hasPassword: google.hasPassword,
                  isImpersonating,
                }}
                hydrate="load"
              />
            )
            : null}
          {user.role === "surveyor"
            ? <SurveyorCoverageCard profile={own && toOwnSurveyorProfile(own)} />
            : null}
        </>
      ),
    );
  });

/** The profile page's intro: who uses the details depends on the role. */
function profileIntro(role: string): string {
  const keep = "Keep your contact details up to date";
  switch (role) {
    case "client":
      return `${keep} so your surveyor and our team can reach you.`;
    case "surveyor":
      return `${keep} so clients and our team can reach you.`;
    case "technician":
      return `${keep} so the surveyors you work with and our team can reach you.`;
    default:
      return `${keep}.`;
  }
}
