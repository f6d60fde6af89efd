import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import type { AppDeps, AppEnv } from "./_env.ts";
import { hitRateLimit } from "../db/kv.ts";
import { logLine } from "../lib/log.ts";
import { sessionCookie } from "../lib/sessions.ts";
import { STRIPE_WEBHOOK_PATH } from "../lib/payments/provider.ts";
import { isFileUploadRequest } from "../lib/survey_file_types.ts";
import { nameRequestSpan, tagRequestSpan } from "../lib/telemetry.ts";
import { UNMATCHED_ROUTE } from "../lib/metrics.ts";
import { acceptedOrigins } from "../lib/public_url.ts";
import { observeRequest, routeLabel } from "./metrics.ts";
import { isFinishedResponse } from "./_finished_response.ts";

/**
 * Puts deps on the context, assigns a request id (echoed in `X-Request-Id` and put on the
 * request's trace span), works out the client IP, logs one line per request and counts it in
 * the app's metrics (by route pattern and status). Marks every answer that may depend on the
 * session `Cache-Control: private, no-store` unless its route chose a policy (see
 * `isSessionDependent`).
 */
export function requestContext(deps: AppDeps) {
  const context = requestContextPhases(deps);
  return createMiddleware<AppEnv>(async (c, next) => {
    const start = context.enter(c);
    await next();
    context.leave(c, start);
  });
}

/**
 * `requestContext`'s work before the rest of the app (`enter`, which returns the request's
 * start) and after it (`leave`), for a middleware that does more around the same `next()`
 * (routes/_front_door.ts).
 */
export function requestContextPhases(deps: AppDeps) {
  const log = deps.config.LOG_REQUESTS;
  const proxyHops = deps.config.TRUST_PROXY ? deps.config.TRUST_PROXY_HOPS : 0;
  return {
    enter(c: Context<AppEnv>): number {
      const start = performance.now();
      const requestId = requestIdFor(c.req.raw);
      tagRequestSpan(requestId);
      useVariables(c, {
        deps,
        db: deps.sql,
        kv: deps.kv,
        requestId,
        clientIp: clientIp(c.req.raw, c.env, proxyHops),
        user: null,
        session: null,
        unreadNotifications: null,
        hasContextHeaders: false,
      });
      return start;
    },
    leave(c: Context<AppEnv>, start: number): void {
      const requestId = c.var.requestId;
      // A finished answer (routes/_finished_response.ts) has these already.
      if (!isFinishedResponse(c)) {
        const headers = c.res.headers;
        if (!headers.has("Cache-Control") && isSessionDependent(c)) {
          headers.set("Cache-Control", SESSION_DEPENDENT_CACHE_CONTROL);
        }
        headers.set("X-Request-Id", requestId);
      }
      if (log) logRequest(c.req.method, c.req.path, c.res.status, start, requestId);
      const route = routeLabel(c);
      observeRequest(deps, c, route, start);
      nameRequestSpan(c.req.method, route === UNMATCHED_ROUTE ? undefined : route);
    },
  };
}

/** The caching of an answer that may depend on who asks (`isSessionDependent`). */
export const SESSION_DEPENDENT_CACHE_CONTROL = "private, no-store";

type Variables = AppEnv["Variables"];

/**
 * Makes `vars` the request's variables: `c.var` is that one object, and `c.set` and `c.get`
 * write and read it. Hono's `c.var` getter builds a new object from its map on every read
 * (`Object.fromEntries`), and a signed-in page reads it a few dozen times (deps, db, user,
 * session…): garbage and 1–2 % of a page's CPU. Hono's own map is not kept beside it (a map
 * and nine entries per request, for nothing that reads them). Also notes in
 * `hasContextHeaders` whether anything set a header on the context (`c.header`, which
 * `setCookie` calls): a finished answer is then built through `c.body`, which adds them.
 */
function useVariables(c: Context<AppEnv>, vars: Variables): void {
  const values = vars as Record<string, unknown>;
  c.set = ((key: string, value: unknown) => {
    values[key] = value;
  }) as typeof c.set;
  c.get = ((key: string) => values[key]) as typeof c.get;
  Object.defineProperty(c, "var", { value: vars, configurable: true });
  const header = c.header;
  c.header = ((...args: Parameters<typeof header>) => {
    vars.hasContextHeaders = true;
    header(...args);
  }) as typeof c.header;
}

/**
 * Whether an answer may depend on who is asking: every `/api/` answer (JSON for a signed-in
 * user, sign-in itself), and any answer to a request that carried a session cookie or opened a
 * session. Decided here once, so a new route cannot forget it; public pages and static files
 * set their own caching and keep it.
 */
export function isSessionDependent(c: Context<AppEnv>): boolean {
  return c.req.path.startsWith("/api/") || c.var.session !== null ||
    (c.req.header("cookie") ?? "").includes(sessionCookieMarkOf(c.var.deps));
}

const sessionCookieMarks = new WeakMap<AppDeps, string>();

/** `name=` of the session cookie under `deps`' config. */
function sessionCookieMarkOf(deps: AppDeps): string {
  let mark = sessionCookieMarks.get(deps);
  if (mark === undefined) {
    sessionCookieMarks.set(deps, mark = `${sessionCookie(deps.config).name}=`);
  }
  return mark;
}

/** The proxy's request id when it looks like one, else a new UUID. */
export function requestIdFor(req: Request): string {
  const incoming = req.headers.get("x-request-id");
  return incoming && /^[A-Za-z0-9._-]{8,64}$/.test(incoming) ? incoming : crypto.randomUUID();
}

/** One log line per request: method, path, status, milliseconds, request id. */
export function logRequest(
  method: string,
  path: string,
  status: number,
  start: number,
  requestId: string,
): void {
  const ms = (performance.now() - start).toFixed(1);
  logLine(`${method} ${path} ${status} ${ms}ms ${requestId}`);
}

/**
 * The address of whoever connected to the first of our `proxyHops` trusted proxies. Each
 * proxy appends the address it saw to X-Forwarded-For, so only the last `proxyHops` entries
 * were written by us; anything further left came from the client and is never believed.
 * With fewer entries than hops the leftmost is the best the proxies recorded.
 */
export function clientIp(req: Request, env: unknown, proxyHops: number): string {
  if (proxyHops > 0) {
    const forwarded = (req.headers.get("x-forwarded-for") ?? "").split(",")
      .map((entry) => entry.trim()).filter(Boolean);
    if (forwarded.length) {
      return forwarded[Math.max(0, forwarded.length - proxyHops)].slice(0, 64);
    }
    const real = req.headers.get("x-real-ip")?.trim();
    if (real) return real.slice(0, 64);
  }
  // Deno.serve passes the connection info as the second fetch argument.
  const info = env as { remoteAddr?: { hostname?: string } } | undefined;
  return info?.remoteAddr?.hostname ?? "unknown";
}

/** Content-Security-Policy for the configured third-party origins. */
export function contentSecurityPolicy(deps: Pick<AppDeps, "config">): string {
  const scriptSrc = ["'self'"];
  const connectSrc = ["'self'"];
  const imgSrc = ["'self'", "data:"];
  const frameSrc: string[] = [];
  const { ANALYTICS_SCRIPT_URL, CHAT_WIDGET_APP_ID } = deps.config;
  if (ANALYTICS_SCRIPT_URL) {
    const origin = new URL(ANALYTICS_SCRIPT_URL).origin;
    scriptSrc.push(origin);
    connectSrc.push(origin);
  }
  if (CHAT_WIDGET_APP_ID) {
    scriptSrc.push("https://widget.intercom.io", "https://js.intercomcdn.com");
    connectSrc.push(
      "https://*.intercom.io",
      "wss://*.intercom.io",
      "https://api-iam.intercom.io",
    );
    imgSrc.push("https://*.intercomcdn.com", "https://static.intercomassets.com");
    frameSrc.push("https://*.intercom.io");
  }
  const directives = [
    "default-src 'self'",
    `script-src ${scriptSrc.join(" ")}`,
    `connect-src ${connectSrc.join(" ")}`,
    `img-src ${imgSrc.join(" ")}`,
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ];
  if (frameSrc.length) directives.push(`frame-src ${frameSrc.join(" ")}`);
  return directives.join("; ");
}

/**
 * The security headers for a request (HSTS only in production over https). Computed from
 * config once; the per-request part is only the https check.
 */
export function securityHeaderList(deps: Pick<AppDeps, "config">) {
  const base: [string, string][] = [
    ["Content-Security-Policy", contentSecurityPolicy(deps)],
    ["X-Content-Type-Options", "nosniff"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["X-Frame-Options", "DENY"],
    ["Permissions-Policy", "camera=(), microphone=(), geolocation=(self)"],
  ];
  const withHsts: [string, string][] = [
    ...base,
    ["Strict-Transport-Security", "max-age=63072000; includeSubDomains"],
  ];
  const isProduction = deps.config.NODE_ENV === "production";
  const trustProxy = deps.config.TRUST_PROXY;
  return (req: Request) => (isProduction && isHttps(req, trustProxy) ? withHsts : base);
}

/**
 * The policy of a document shown only in this site's own sandboxed frames (an email's preview):
 * framed by this origin alone, sandboxed even when opened on its own, and allowed nothing but its
 * inline styles and this site's images: no script, font, form, frame or fetch.
 */
export const FRAMED_DOCUMENT_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  "sandbox",
].join("; ");

/** `headers` with the framed document's policy in place of the page policy and frame denial. */
export function framedDocumentHeaders(headers: [string, string][]): [string, string][] {
  return headers.map(([name, value]): [string, string] =>
    name === "Content-Security-Policy"
      ? [name, FRAMED_DOCUMENT_POLICY]
      : name === "X-Frame-Options"
      ? [name, "SAMEORIGIN"]
      : [name, value]
  );
}

const securityHeadersByDeps = new WeakMap<AppDeps, (c: Context<AppEnv>) => [string, string][]>();

/**
 * The security headers of the answer to `c`'s request: `securityHeaderList`'s, or
 * `framedDocumentHeaders` when the route set `isFramedDocument`. Each list is built once.
 */
export function securityHeadersOf(c: Context<AppEnv>): [string, string][] {
  const deps = c.var.deps;
  let of = securityHeadersByDeps.get(deps);
  if (!of) {
    const headersFor = securityHeaderList(deps);
    const framed = new Map<[string, string][], [string, string][]>();
    of = (c: Context<AppEnv>) => {
      const list = headersFor(c.req.raw);
      if (!c.var.isFramedDocument) return list;
      let found = framed.get(list);
      if (!found) framed.set(list, found = framedDocumentHeaders(list));
      return found;
    };
    securityHeadersByDeps.set(deps, of);
  }
  return of(c);
}

/**
 * Security headers on every answer, error pages included (`securityHeadersOf`), set on `c.res`
 * once the app has answered; a finished answer (routes/_finished_response.ts) has them already.
 */
export function addSecurityHeaders(c: Context<AppEnv>): void {
  if (isFinishedResponse(c)) return;
  const h = c.res.headers;
  for (const [name, value] of securityHeadersOf(c)) h.set(name, value);
  h.delete("X-Powered-By");
}

function isHttps(req: Request, trustProxy: boolean): boolean {
  // A request URL is absolute and its scheme lower case: no URL parse per request.
  if (req.url.startsWith("https:")) return true;
  return trustProxy && req.headers.get("x-forwarded-proto") === "https";
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for every state change: the request must come from the site's public origin,
 * and `/api/*` bodies must be JSON. "From the public origin" means `Origin` is one of
 * `acceptedOrigins` (PUBLIC_URL's origin; without PUBLIC_URL, also its loopback spellings on
 * the same port) or, without `Origin`, `Sec-Fetch-Site: same-origin`; and a `Sec-Fetch-Site`
 * other than `same-origin` is refused even then. The origin is never built from the request's
 * own Host or forwarded headers: those are chosen by whoever sends the request, so behind a
 * proxy PUBLIC_URL must name the origin browsers use.
 */
export function csrf(deps: AppDeps) {
  const publicOrigin = new URL(deps.config.PUBLIC_URL).origin;
  const origins = acceptedOrigins(deps.config);
  const hint = deps.config.isPublicUrlSet
    ? `PUBLIC_URL is ${publicOrigin}`
    : `PUBLIC_URL is not set (accepted: ${[...origins].join(", ")}); set PUBLIC_URL to ` +
      "the address people open";
  let hasWarned = false;
  return createMiddleware<AppEnv>(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return await next();
    // Stripe's webhook comes from Stripe's servers with no Origin and no cookie; it is
    // authenticated by its signature over the raw body instead (routes/billing.ts).
    if (c.req.method === "POST" && c.req.path === STRIPE_WEBHOOK_PATH) return await next();
    const origin = c.req.header("origin");
    const fetchSite = c.req.header("sec-fetch-site");
    const isSameOrigin = (fetchSite === undefined || fetchSite === "same-origin") &&
      (origin !== undefined ? origins.has(origin) : fetchSite === "same-origin");
    if (!isSameOrigin) {
      if (
        !hasWarned && origin !== undefined && !origins.has(origin) &&
        origin === new URL(c.req.url).origin
      ) {
        // Most likely a deployment whose PUBLIC_URL is not the address people use.
        hasWarned = true;
        logLine(`csrf: refused Origin ${origin.slice(0, 100)}: ${hint}`);
      }
      throw new HTTPException(403, { message: "Cross-site request refused" });
    }
    if (c.req.path.startsWith("/api/")) {
      const length = c.req.header("content-length");
      const type = c.req.header("content-type") ?? "";
      // Browsers send a bodiless PATCH or DELETE with no Content-Length, yet Deno.serve still
      // gives it an empty body stream: without a length, only a typed or chunked body counts.
      const hasBody = length !== undefined ? length !== "0" : c.req.raw.body !== null &&
        (type !== "" || c.req.header("transfer-encoding") !== undefined);
      // A file upload is the one multipart body (routes/files.ts); the origin check above
      // is what guards it, as for JSON.
      const isUpload = isFileUploadRequest(c.req.method, c.req.path) &&
        /^multipart\/form-data\b/i.test(type);
      if (hasBody && !isUpload && !/^application\/json\b/i.test(type)) {
        throw new HTTPException(415, { message: "Request body must be JSON" });
      }
    }
    await next();
  });
}

/** Largest JSON body any endpoint accepts. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * Rate limits a route by client IP: `limit` hits per `windowMs`. Over the limit: 429 with
 * `Retry-After` and `message`.
 */
export function rateLimitByIp(
  bucket: string,
  limit: number,
  windowMs: number,
  message = "Too many requests. Please try again later.",
) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const result = await hitRateLimit(c.var.kv, {
      bucket,
      subject: c.var.clientIp,
      limit,
      windowMs,
    });
    if (!result.allowed) {
      return c.json({ message }, 429, { "Retry-After": String(result.retryAfterSeconds) });
    }
    await next();
  });
}
