/**
 * Sign in with Google: the OAuth 2.0 authorization-code flow with PKCE (RFC 7636) through the
 * `arctic` package, and the OpenID Connect ID token's claims.
 *
 * - `startGoogleSignIn` makes a random `state` and code verifier and keeps them in Deno KV for
 *   10 minutes under the SHA-256 of the state (KV never holds the state itself, as it never
 *   holds a session id), with where to go afterwards; it returns Google's authorization URL.
 * - `takeGoogleSignInState` reads and deletes that record in one atomic operation, so a state
 *   is used at most once even when two callbacks race; an expired one is refused even if KV
 *   has not dropped it yet (`expireIn` deletes lazily).
 * - `fetchGoogleIdentity` exchanges the code (with the verifier) at the token endpoint and
 *   checks the ID token's issuer, audience, expiry and `email_verified`.
 *
 * arctic's `Google` class has Google's endpoints built in; this module uses arctic's generic
 * `OAuth2Client`, which is what `Google` wraps, so that tests can point the endpoints at a
 * local fake server (GOOGLE_OAUTH_AUTH_URL / _TOKEN_URL / _ISSUER, tests only).
 */
import {
  CodeChallengeMethod,
  decodeIdToken,
  generateCodeVerifier,
  generateState,
  OAuth2Client,
} from "arctic";
import type { Config } from "../config.ts";
import { keys, withKv } from "../../db/kv.ts";
import { hashToken } from "../sessions.ts";

/** Google's authorization endpoint. */
export const GOOGLE_AUTH_URL = "https://accounts.google.com/o/oauth2/v2/auth";
/** Google's token endpoint. */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";
// deno-lint-ignore no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/** The `iss` values Google's ID tokens carry (Google documents both spellings). */
export const GOOGLE_ISSUERS = ["https://accounts.google.com", "accounts.google.com"] as const;
/** How long a started sign-in may take before its state is refused. */
export const GOOGLE_STATE_TTL_MS = 10 * 60_000;
/** The callback path; the redirect URI registered with Google is PUBLIC_URL + this. */
export const GOOGLE_CALLBACK_PATH = "/auth/google/callback";
/** Scopes asked for: who the user is and their email address, nothing more. */
export const GOOGLE_SCOPES = ["openid", "email", "profile"] as const;

/** What KV keeps for a sign-in in progress. */
export interface GoogleSignInState {
  codeVerifier: string;
  /** The safe local path to return to (already checked by `safeReturnTo`), or null. */
  returnTo: string | null;
  /** Epoch ms. */
  createdAt: number;
}

/** The Google account an ID token describes, after its claims were checked. */
export interface GoogleIdentity {
  /** `sub`: the account's stable id (its email can change). */
  subject: string;
  email: string;
  /** `name`, or null when the token has none. */
  name: string | null;
}

/** Why a Google sign-in could not be completed (thrown by `fetchGoogleIdentity`). */
export class GoogleSignInError extends Error {
  constructor(
    /**
     * `token_exchange`: the token endpoint refused the code or could not be reached;
     * `invalid_id_token`: the ID token is missing, malformed, or its issuer, audience or expiry
     * is wrong; `email_unverified`: Google has not verified the account's email address.
     */
    readonly reason: "token_exchange" | "invalid_id_token" | "email_unverified",
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

type GoogleConfig = Pick<
  Config,
  | "PUBLIC_URL"
  | "GOOGLE_OAUTH_CLIENT_ID"
  | "GOOGLE_OAUTH_CLIENT_SECRET"
  | "GOOGLE_OAUTH_AUTH_URL"
  | "GOOGLE_OAUTH_TOKEN_URL"
  | "GOOGLE_OAUTH_ISSUER"
>;

/** True when a Google OAuth client is configured (then "Continue with Google" is offered). */
export function isGoogleSignInConfigured(config: GoogleConfig): boolean {
  return Boolean(config.GOOGLE_OAUTH_CLIENT_ID && config.GOOGLE_OAUTH_CLIENT_SECRET);
}

/** The redirect URI: PUBLIC_URL's origin + /auth/google/callback. */
export function googleRedirectUri(config: Pick<Config, "PUBLIC_URL">): string {
  return new URL(GOOGLE_CALLBACK_PATH, config.PUBLIC_URL).href;
}

function client(config: GoogleConfig): OAuth2Client {
  if (!isGoogleSignInConfigured(config)) throw new Error("Google sign-in is not configured");
  return new OAuth2Client(
    config.GOOGLE_OAUTH_CLIENT_ID!,
    config.GOOGLE_OAUTH_CLIENT_SECRET!,
    googleRedirectUri(config),
  );
}

/**
 * Starts a sign-in: stores a fresh state and code verifier (with `returnTo`) in KV for 10
 * minutes and returns Google's authorization URL and the state (the route also puts the state
 * in a cookie, binding the sign-in to this browser). Throws `ServiceUnavailableError("kv")`
 * when KV cannot be written, and when Google sign-in is not configured.
 */
export async function startGoogleSignIn(
  kv: Deno.Kv,
  config: GoogleConfig,
  { returnTo, now = Date.now() }: { returnTo: string | null; now?: number },
): Promise<{ url: URL; state: string }> {
  const oauth = client(config);
  const state = generateState();
  const codeVerifier = generateCodeVerifier();
  await saveGoogleSignInState(kv, { state, codeVerifier, returnTo, now });
  const url = oauth.createAuthorizationURLWithPKCE(
    config.GOOGLE_OAUTH_AUTH_URL ?? GOOGLE_AUTH_URL,
    state,
    CodeChallengeMethod.S256,
    codeVerifier,
    [...GOOGLE_SCOPES],
  );
  // Let people with several Google accounts choose which one signs in.
  url.searchParams.set("prompt", "select_account");
  return { url, state };
}

/**
 * Stores a sign-in's state (under its hash) for `GOOGLE_STATE_TTL_MS`. Exported for tests,
 * which store one as if started 11 minutes ago. Throws `ServiceUnavailableError("kv")`.
 */
export async function saveGoogleSignInState(
  kv: Deno.Kv,
  input: { state: string; codeVerifier: string; returnTo: string | null; now?: number },
): Promise<void> {
  const record: GoogleSignInState = {
    codeVerifier: input.codeVerifier,
    returnTo: input.returnTo,
    createdAt: input.now ?? Date.now(),
  };
  const key = keys.oauthState(await hashToken(input.state));
  await withKv(kv, () => kv.set(key, record, { expireIn: GOOGLE_STATE_TTL_MS }));
}

/**
 * The stored sign-in for `state`, deleted in the same atomic operation (so it is used once),
 * or undefined when it is unknown, already used or older than 10 minutes. Throws
 * `ServiceUnavailableError("kv")` when KV cannot be reached.
 */
export async function takeGoogleSignInState(
  kv: Deno.Kv,
  { state, now = Date.now() }: { state: string; now?: number },
): Promise<GoogleSignInState | undefined> {
  // arctic's states are 32 base32 characters; anything far off that is no state of ours.
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(state)) return undefined;
  const key = keys.oauthState(await hashToken(state));
  return await withKv(kv, async () => {
    const entry = await kv.get<GoogleSignInState>(key);
    if (!entry.value) return undefined;
    const res = await kv.atomic().check(entry).delete(key).commit();
    // Another callback took it first.
    if (!res.ok) return undefined;
    if (now - entry.value.createdAt >= GOOGLE_STATE_TTL_MS) return undefined;
    return entry.value;
  });
}

/**
 * Exchanges `code` (with the PKCE verifier) for tokens and returns the Google account the ID
 * token names. Throws `GoogleSignInError`: `token_exchange` when the token endpoint refuses or
 * cannot be reached, `invalid_id_token` when the claims are wrong, `email_unverified`.
 */
export async function fetchGoogleIdentity(
  config: GoogleConfig,
  { code, codeVerifier, now = Date.now() }: { code: string; codeVerifier: string; now?: number },
): Promise<GoogleIdentity> {
  let idToken: string;
  try {
    const tokens = await client(config).validateAuthorizationCode(
      config.GOOGLE_OAUTH_TOKEN_URL ?? GOOGLE_TOKEN_URL,
      code,
      codeVerifier,
    );
    idToken = tokens.idToken();
  } catch (err) {
    throw new GoogleSignInError("token_exchange", "The token endpoint refused the code", {
      cause: err,
    });
  }
  let claims: Record<string, unknown>;
  try {
    // The signature is not checked: the token came straight from the token endpoint over TLS
    // in answer to our own authenticated request (client secret + PKCE verifier), which OpenID
    // Connect Core 3.1.3.7 allows in place of validating it. The claims still are checked.
    claims = decodeIdToken(idToken) as Record<string, unknown>;
  } catch (err) {
    throw new GoogleSignInError("invalid_id_token", "The ID token is malformed", { cause: err });
  }
  return checkIdTokenClaims(claims, {
    clientId: config.GOOGLE_OAUTH_CLIENT_ID!,
    issuers: config.GOOGLE_OAUTH_ISSUER ? [config.GOOGLE_OAUTH_ISSUER] : [...GOOGLE_ISSUERS],
    now,
  });
}

/**
 * The identity in ID token `claims` once `iss` is one of `issuers`, `aud` is (or, with `azp`,
 * includes) `clientId`, `exp` is after `now`, `sub` and `email` are present and
 * `email_verified` is true. Throws `GoogleSignInError` otherwise.
 */
export function checkIdTokenClaims(
  claims: Record<string, unknown>,
  { clientId, issuers, now }: { clientId: string; issuers: readonly string[]; now: number },
): GoogleIdentity {
  const refuse = (why: string) => new GoogleSignInError("invalid_id_token", why);
  if (typeof claims.iss !== "string" || !issuers.includes(claims.iss)) {
    throw refuse("Wrong issuer");
  }
  const aud = claims.aud;
  const isOurs = aud === clientId ||
    (Array.isArray(aud) && aud.includes(clientId) && claims.azp === clientId);
  if (!isOurs) throw refuse("Wrong audience");
  if (typeof claims.exp !== "number" || claims.exp * 1000 <= now) throw refuse("Expired");
  const subject = claims.sub;
  if (typeof subject !== "string" || subject.length === 0 || subject.length > 255) {
    throw refuse("No subject");
  }
  const email = claims.email;
  if (typeof email !== "string" || !/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 254) {
    throw refuse("No email address");
  }
  // Google has sent the flag as a string in some tokens.
  if (claims.email_verified !== true && claims.email_verified !== "true") {
    throw new GoogleSignInError("email_unverified", "The email address is not verified");
  }
  // The name becomes the new account's full name: one line, no control characters.
  const name = typeof claims.name === "string"
    ? claims.name.replace(CONTROL_CHARACTERS, " ").trim().slice(0, 100)
    : "";
  return { subject, email, name: name || null };
}
