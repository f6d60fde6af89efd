import { Hono } from "hono";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { auditContext, redirectAfterLogin, requireUser, safeReturnTo } from "./_auth.ts";
import { recordSignIn } from "./auth_api.ts";
import { renderPage } from "../components/render.tsx";
import { PublicLayout } from "../components/PublicLayout.tsx";
import { hitRateLimit } from "../db/kv.ts";
import { insertAuditEvent } from "../db/audit.ts";
import {
  getUserByEmail,
  getUserById,
  insertUser,
  type User,
  UserExistsError,
} from "../db/users.ts";
import {
  deleteGoogleAccount,
  getGoogleAccountBySubject,
  getGoogleAccountForUser,
  GoogleAccountLinkedError,
  insertGoogleAccount,
  touchGoogleAccount,
} from "../db/oauth_accounts.ts";
import {
  fetchGoogleIdentity,
  type GoogleIdentity,
  GoogleSignInError,
  isGoogleSignInConfigured,
  startGoogleSignIn,
  takeGoogleSignInState,
} from "../lib/oauth/google.ts";
import { hashPassword } from "../lib/passwords.ts";
import { randomToken } from "../lib/sessions.ts";
import type { Role } from "../lib/roles.ts";
import { htmlResponse } from "./_html_response.ts";

/** What the callback says when a sign-in cannot be completed, by cause. */
export const GOOGLE_SIGN_IN_MESSAGES = {
  state: "This Google sign-in has expired or was already used. Please try again.",
  cancelled: "Google sign-in was cancelled. You can try again or sign in with your password.",
  failed: "Google could not confirm your sign-in. Please try again.",
  unverified:
    "Your Google account's email address is not verified. Verify it with Google, or sign in with your password.",
  disabled: "This account has been disabled. Please contact support.",
  admin: "Admin accounts sign in with their password.",
  otherGoogle:
    "This account is already linked to a different Google account. Sign in with that Google account or with your password.",
  busy: "Your account could not be set up just now. Please try again.",
  rateLimited: "Too many sign-in attempts. Please try again in a few minutes.",
} as const;

/** DELETE /api/user/google answers. */
export const GOOGLE_UNLINK_MESSAGES = {
  removed: "Your Google account has been removed. Sign in with your email and password.",
  none: "No Google account is linked to your account.",
  noPassword:
    "Set a password before removing Google sign-in, or you could not sign in any more. Use 'Forgot Password?' on the sign-in page to set one.",
  impersonating: "You cannot change this user's sign-in methods while impersonating them.",
} as const;

/** Starts of sign-ins per IP: each one stores a state in KV for 10 minutes. */
export const GOOGLE_START_RATE_LIMIT = { limit: 30, windowMs: 10 * 60_000 } as const;

const STATE_COOKIE = "meridian_google_state";
const SECURE_STATE_COOKIE = "__Secure-meridian_google_state";
const STATE_COOKIE_PATH = "/auth/google";

function stateCookie(c: Context<AppEnv>) {
  const secure = new URL(c.var.deps.config.PUBLIC_URL).protocol === "https:";
  return { name: secure ? SECURE_STATE_COOKIE : STATE_COOKIE, secure };
}

/** A query value read only as text; anything else (arrays, huge strings) counts as absent. */
const queryText = (max: number) => z.string().max(max).optional().catch(undefined);

const StartQuery = z.object({ returnTo: queryText(4096) });

const CallbackQuery = z.object({
  state: queryText(512),
  code: queryText(2048),
  error: queryText(256),
});

/**
 * Where a Google sign-in lands: `redirectAfterLogin`, the password sign-in's rule, except that
 * the request flow (/create-survey, which keeps its draft in the tab's sessionStorage) gets its
 * visitor back: a password sign-in there happens inline and never leaves the page either.
 */
export function redirectAfterGoogleSignIn(role: Role, returnTo: string | null): string {
  if (role !== "admin" && returnTo === "/create-survey") return returnTo;
  return redirectAfterLogin(role, returnTo);
}

/** The failure page: what went wrong and the way back to /auth (with the same returnTo). */
function failure(
  c: Context<AppEnv>,
  status: 400 | 403 | 404 | 409 | 429,
  message: string,
  returnTo: string | null,
) {
  c.header("Cache-Control", "private, no-store");
  const back = returnTo ? `/auth?returnTo=${encodeURIComponent(returnTo)}` : "/auth";
  return htmlResponse(
    c,
    renderPage(
      c,
      { title: "Google sign-in", noindex: true },
      <PublicLayout user={c.var.user}>
        <div className="auth-page">
          <section className="card auth-card">
            <div className="card__body">
              <h1>Google sign-in</h1>
              <p className="alert alert--error" role="alert">{message}</p>
              <a className="btn btn--primary btn--block" href={back}>Back to sign in</a>
            </div>
          </section>
        </div>
      </PublicLayout>,
    ),
    status,
  );
}

type Outcome =
  | { kind: "signed_in"; user: User }
  | { kind: "refused"; reason: "disabled" | "admin" | "otherGoogle" };

/**
 * Finds or creates the account for a verified Google identity and signs it in, in one
 * transaction: the linked account (by Google subject), else the user with the same email
 * (linked now), else a new client account. A disabled user and an admin are refused (the
 * refusal recorded as a failed login).
 */
async function signInWithGoogle(c: Context<AppEnv>, identity: GoogleIdentity): Promise<Outcome> {
  const db = c.var.db;
  const audit = auditContext(c);
  // A new account gets the hash of a random password nobody knows (users need one): hashed
  // before the transaction, so argon2's time is not spent holding it open.
  const isNew = !(await getGoogleAccountBySubject(db, identity)) &&
    !(await getUserByEmail(db, identity.email));
  const placeholderHash = isNew ? await hashPassword(randomToken(32)) : undefined;
  return await db.begin(async (tx): Promise<Outcome> => {
    const link = await getGoogleAccountBySubject(tx, identity);
    let user = link ? await getUserById(tx, link.userId) : await getUserByEmail(tx, identity.email);
    const refuse = async (reason: "disabled" | "admin" | "otherGoogle"): Promise<Outcome> => {
      await insertAuditEvent(tx, {
        event: "login_failed",
        ...audit,
        actorId: null,
        targetId: user?.id ?? null,
        details: { reason, method: "google" },
      });
      return { kind: "refused", reason };
    };
    if (user?.disabledAt) return await refuse("disabled");
    // An admin's sign-in always takes their password; Google alone never opens one.
    if (user?.role === "admin") return await refuse("admin");
    if (user && link) {
      await touchGoogleAccount(tx, identity);
    } else if (user) {
      if (await getGoogleAccountForUser(tx, { userId: user.id })) {
        return await refuse("otherGoogle");
      }
      await insertGoogleAccount(tx, { userId: user.id, ...identity });
      await insertAuditEvent(tx, {
        event: "google_account_linked",
        ...audit,
        actorId: user.id,
        targetId: user.id,
      });
    } else {
      const passwordHash = placeholderHash ?? await hashPassword(randomToken(32));
      user = await insertUser(tx, {
        email: identity.email,
        fullName: identity.name ?? identity.email.split("@")[0],
        role: "client",
        passwordHash,
      });
      await insertGoogleAccount(tx, {
        userId: user.id,
        ...identity,
        placeholderPasswordHash: passwordHash,
      });
      await insertAuditEvent(tx, {
        event: "registered",
        ...audit,
        actorId: user.id,
        targetId: user.id,
        details: { method: "google" },
      });
    }
    return { kind: "signed_in", user: await recordSignIn(c, tx, user, { method: "google" }) };
  });
}

/**
 * Sign in with Google: GET /auth/google (start; a plain link, no JavaScript needed),
 * GET /auth/google/callback (Google sends the browser back here), and DELETE /api/user/google
 * (remove the link from /profile). Both pages are 404 while no Google client is configured.
 */
export const oauth = new Hono<AppEnv>()
  .get("/auth/google", zValidator("query", StartQuery), async (c) => {
    const config = c.var.deps.config;
    if (!isGoogleSignInConfigured(config)) return c.notFound();
    c.header("Cache-Control", "private, no-store");
    const returnTo = safeReturnTo(c.req.valid("query").returnTo);
    const user = c.var.user;
    // Signed in already: where /auth would send them.
    if (user) return c.redirect(redirectAfterGoogleSignIn(user.role, returnTo), 302);
    const limit = await hitRateLimit(c.var.kv, {
      bucket: "google_start_ip",
      subject: c.var.clientIp,
      ...GOOGLE_START_RATE_LIMIT,
    });
    if (!limit.allowed) {
      c.header("Retry-After", String(limit.retryAfterSeconds));
      return failure(c, 429, GOOGLE_SIGN_IN_MESSAGES.rateLimited, returnTo);
    }
    const { url, state } = await startGoogleSignIn(c.var.kv, config, { returnTo });
    // The state also goes in a cookie of this browser: a callback link made by someone else
    // (login CSRF: signing the victim in to the attacker's account) carries a state this
    // browser never started. Lax: Google's redirect back is a top-level GET.
    const cookie = stateCookie(c);
    setCookie(c, cookie.name, state, {
      httpOnly: true,
      secure: cookie.secure,
      sameSite: "Lax",
      path: STATE_COOKIE_PATH,
      maxAge: 600,
    });
    return c.redirect(url.href, 302);
  })
  .get("/auth/google/callback", zValidator("query", CallbackQuery), async (c) => {
    const config = c.var.deps.config;
    if (!isGoogleSignInConfigured(config)) return c.notFound();
    const { state, code, error } = c.req.valid("query");
    const cookie = stateCookie(c);
    const browserState = getCookie(c, cookie.name);
    deleteCookie(c, cookie.name, { path: STATE_COOKIE_PATH, secure: cookie.secure });
    // Taken (and so used up) before anything else is looked at: one attempt per state.
    const stored = state ? await takeGoogleSignInState(c.var.kv, { state }) : undefined;
    if (!stored || browserState !== state) {
      return failure(c, 400, GOOGLE_SIGN_IN_MESSAGES.state, stored?.returnTo ?? null);
    }
    const returnTo = stored.returnTo;
    if (error || !code) {
      const message = error === "access_denied"
        ? GOOGLE_SIGN_IN_MESSAGES.cancelled
        : GOOGLE_SIGN_IN_MESSAGES.failed;
      return failure(c, 400, message, returnTo);
    }
    let identity: GoogleIdentity;
    try {
      identity = await fetchGoogleIdentity(config, { code, codeVerifier: stored.codeVerifier });
    } catch (err) {
      if (!(err instanceof GoogleSignInError)) throw err;
      if (err.reason === "email_unverified") {
        return failure(c, 403, GOOGLE_SIGN_IN_MESSAGES.unverified, returnTo);
      }
      console.error(`google sign-in: ${err.reason}: ${err.message}`);
      return failure(c, 400, GOOGLE_SIGN_IN_MESSAGES.failed, returnTo);
    }
    let outcome: Outcome;
    try {
      outcome = await signInWithGoogle(c, identity);
    } catch (err) {
      // Two sign-ins for the same new email or Google account at once: one wins.
      if (err instanceof UserExistsError || err instanceof GoogleAccountLinkedError) {
        return failure(c, 409, GOOGLE_SIGN_IN_MESSAGES.busy, returnTo);
      }
      throw err;
    }
    if (outcome.kind === "refused") {
      const status = outcome.reason === "otherGoogle" ? 409 : 403;
      return failure(c, status, GOOGLE_SIGN_IN_MESSAGES[outcome.reason], returnTo);
    }
    c.header("Cache-Control", "private, no-store");
    return c.redirect(redirectAfterGoogleSignIn(outcome.user.role, returnTo), 302);
  })
  .delete("/api/user/google", requireUser, async (c) => {
    if (c.var.session?.impersonatorId) {
      throw new HTTPException(403, { message: GOOGLE_UNLINK_MESSAGES.impersonating });
    }
    const me = c.var.user!;
    const audit = auditContext(c);
    const result = await c.var.db.begin(async (tx) => {
      const outcome = await deleteGoogleAccount(tx, { userId: me.id });
      if (outcome === "removed") {
        await insertAuditEvent(tx, { event: "google_account_unlinked", ...audit, targetId: me.id });
      }
      return outcome;
    });
    if (result === "none") throw new HTTPException(404, { message: GOOGLE_UNLINK_MESSAGES.none });
    if (result === "no_password") {
      throw new HTTPException(409, { message: GOOGLE_UNLINK_MESSAGES.noPassword });
    }
    return c.json({ message: GOOGLE_UNLINK_MESSAGES.removed });
  });
