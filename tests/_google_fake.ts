/**
 * A local fake of Google's OAuth 2.0 / OpenID Connect endpoints (Deno.serve on port 0) for
 * the Google sign-in tests: an authorization endpoint that "approves" at once, redirecting to
 * the redirect URI with a code, and a token endpoint that checks what Google checks (client
 * credentials, the code used once, the redirect URI, the PKCE S256 verifier) and answers with
 * an ID token carrying `next`'s claims. The token is not really signed: the app does not check
 * the signature of a token it got straight from the token endpoint (lib/oauth/google.ts).
 */
import { createHash } from "node:crypto";

/** Client credentials the fake accepts (and the test app is configured with). */
export const FAKE_CLIENT_ID = "meridian-test.apps.googleusercontent.com";
export const FAKE_CLIENT_SECRET = "fake-google-secret";

/** Claims of the ID token the next approval issues; any can be overridden or removed. */
export interface FakeClaims {
  sub: string;
  email: string;
  email_verified: boolean | string;
  name?: string;
  iss?: string;
  aud?: string | string[];
  /** Seconds since the epoch; default an hour on. */
  exp?: number;
}

/** A running fake. */
export interface FakeGoogle {
  origin: string;
  /** Environment for `createTestApp` that points the app at this fake. */
  env: Record<string, string>;
  /** Claims of the next approval (set by each test). */
  next: FakeClaims;
  /** How many token requests arrived (a refused state must never reach the token endpoint). */
  tokenRequests: number;
  /** The authorization requests seen, as URLs. */
  authorizations: URL[];
  /**
   * Plays the user at Google: opens `authorizationUrl` and returns the path and query of the
   * callback the browser would be sent to (`/auth/google/callback?code=…&state=…`).
   */
  approve(authorizationUrl: string): Promise<string>;
  close(): Promise<void>;
  /** Lets the process end while the fake still listens (one fake shared by a whole file). */
  unref(): void;
}

function base64url(data: string | Uint8Array): string {
  const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data;
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

interface Grant {
  challenge: string;
  redirectUri: string;
  claims: FakeClaims;
}

/** Starts a fake Google on a free port. */
export function startFakeGoogle(): FakeGoogle {
  const grants = new Map<string, Grant>();
  let origin = "";
  const fake: FakeGoogle = {
    origin: "",
    env: {},
    next: { sub: "google-sub-1", email: "person@gmail.test", email_verified: true },
    tokenRequests: 0,
    authorizations: [],
    async approve(authorizationUrl: string) {
      const res = await fetch(authorizationUrl, { redirect: "manual" });
      await res.body?.cancel();
      if (res.status !== 302) throw new Error(`fake google refused to authorize: ${res.status}`);
      const location = new URL(res.headers.get("location")!);
      return location.pathname + location.search;
    },
    close: () => server.shutdown(),
    unref: () => server.unref(),
  };
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET" && url.pathname === "/authorize") {
      fake.authorizations.push(url);
      const q = url.searchParams;
      const ok = q.get("response_type") === "code" && q.get("client_id") === FAKE_CLIENT_ID &&
        q.get("code_challenge_method") === "S256" && q.get("code_challenge") &&
        q.get("scope")?.split(" ").includes("openid") && q.get("redirect_uri") && q.get("state");
      if (!ok) return new Response("bad authorization request", { status: 400 });
      const code = crypto.randomUUID();
      grants.set(code, {
        challenge: q.get("code_challenge")!,
        redirectUri: q.get("redirect_uri")!,
        claims: { ...fake.next },
      });
      const back = new URL(q.get("redirect_uri")!);
      back.searchParams.set("code", code);
      back.searchParams.set("state", q.get("state")!);
      return new Response(null, { status: 302, headers: { location: back.href } });
    }
    if (req.method === "POST" && url.pathname === "/token") {
      fake.tokenRequests++;
      const form = new URLSearchParams(await req.text());
      const expected = `Basic ${btoa(`${FAKE_CLIENT_ID}:${FAKE_CLIENT_SECRET}`)}`;
      const refuse = (error: string) => Response.json({ error }, { status: 400 });
      if (req.headers.get("authorization") !== expected) return refuse("invalid_client");
      const code = form.get("code") ?? "";
      const grant = grants.get(code);
      grants.delete(code);
      if (form.get("grant_type") !== "authorization_code" || !grant) {
        return refuse("invalid_grant");
      }
      if (form.get("redirect_uri") !== grant.redirectUri) return refuse("invalid_grant");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = base64url(createHash("sha256").update(verifier).digest());
      if (challenge !== grant.challenge) return refuse("invalid_grant");
      const now = Math.floor(Date.now() / 1000);
      const claims: Record<string, unknown> = {
        iss: origin,
        aud: FAKE_CLIENT_ID,
        iat: now,
        exp: now + 3600,
        ...grant.claims,
      };
      const idToken = [
        base64url(JSON.stringify({ alg: "RS256", kid: "fake", typ: "JWT" })),
        base64url(JSON.stringify(claims)),
        base64url("not-a-real-signature"),
      ].join(".");
      return Response.json({
        access_token: "fake-access-token",
        token_type: "Bearer",
        expires_in: 3599,
        scope: "openid email profile",
        id_token: idToken,
      });
    }
    return new Response("not found", { status: 404 });
  });
  origin = `http://127.0.0.1:${server.addr.port}`;
  fake.origin = origin;
  fake.env = {
    GOOGLE_OAUTH_CLIENT_ID: FAKE_CLIENT_ID,
    GOOGLE_OAUTH_CLIENT_SECRET: FAKE_CLIENT_SECRET,
    GOOGLE_OAUTH_AUTH_URL: `${origin}/authorize`,
    GOOGLE_OAUTH_TOKEN_URL: `${origin}/token`,
    GOOGLE_OAUTH_ISSUER: origin,
  };
  return fake;
}
