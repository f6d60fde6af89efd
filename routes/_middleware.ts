import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import type { AppDeps, AppEnv } from "./_env.ts";
import { hitRateLimit } from "../db/kv.ts";
import { logLine } from "../lib/log.ts";

/**
 * Puts deps on the context, assigns a request id (echoed in `X-Request-Id`), works out the
 * client IP and logs one line per request.
 */
export function requestContext(deps: AppDeps) {
  const log = deps.config.LOG_REQUESTS;
  const trustProxy = deps.config.TRUST_PROXY;
  return createMiddleware<AppEnv>(async (c, next) => {
    const start = performance.now();
    const requestId = requestIdFor(c.req.raw);
    c.set("requestId", requestId);
    c.set("deps", deps);
    c.set("db", deps.sql);
    c.set("kv", deps.kv);
    c.set("user", null);
    c.set("session", null);
    c.set("clientIp", clientIp(c.req.raw, c.env, trustProxy));
    await next();
    c.res.headers.set("X-Request-Id", requestId);
    if (log) logRequest(c.req.method, c.req.path, c.res.status, start, requestId);
  });
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

function clientIp(req: Request, env: unknown, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers.get("x-forwarded-for");
    if (forwarded) return forwarded.split(",")[0].trim().slice(0, 64);
    const real = req.headers.get("x-real-ip");
    if (real) return real.trim().slice(0, 64);
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

/** Security headers on every response, error pages included. */
export function securityHeaders(deps: AppDeps) {
  const headersFor = securityHeaderList(deps);
  return createMiddleware<AppEnv>(async (c, next) => {
    await next();
    const h = c.res.headers;
    for (const [name, value] of headersFor(c.req.raw)) h.set(name, value);
    h.delete("X-Powered-By");
  });
}

function isHttps(req: Request, trustProxy: boolean): boolean {
  if (new URL(req.url).protocol === "https:") return true;
  return trustProxy && req.headers.get("x-forwarded-proto") === "https";
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * CSRF defence for every state change: the request must come from our own origin
 * (`Origin` equal to the request's or PUBLIC_URL's origin, or `Sec-Fetch-Site: same-origin`),
 * and `/api/*` bodies must be JSON.
 */
export function csrf(deps: AppDeps) {
  const publicOrigin = new URL(deps.config.PUBLIC_URL).origin;
  return createMiddleware<AppEnv>(async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return await next();
    const origin = c.req.header("origin");
    const fetchSite = c.req.header("sec-fetch-site");
    const requestOrigin = new URL(c.req.url).origin;
    const sameOrigin = origin
      ? origin === requestOrigin || origin === publicOrigin
      : fetchSite === "same-origin";
    if (!sameOrigin) {
      throw new HTTPException(403, { message: "Cross-site request refused" });
    }
    if (c.req.path.startsWith("/api/")) {
      const length = c.req.header("content-length");
      const type = c.req.header("content-type") ?? "";
      // Browsers send a bodiless PATCH or DELETE with no Content-Length, yet Deno.serve still
      // gives it an empty body stream: without a length, only a typed or chunked body counts.
      const hasBody = length !== undefined ? length !== "0" : c.req.raw.body !== null &&
        (type !== "" || c.req.header("transfer-encoding") !== undefined);
      if (hasBody && !/^application\/json\b/i.test(type)) {
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
