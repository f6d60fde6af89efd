import { createElement } from "react";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppDeps, AppEnv, Role } from "./_env.ts";
import { getUserById, getUserWithUnreadCount, toSessionUser, type User } from "../db/users.ts";
import {
  createSession,
  deleteSession,
  getSessionRecord,
  readSession,
  sessionCookie,
  sessionExpiry,
  type SessionRecord,
  sessionTimeouts,
  touchSession,
} from "../lib/sessions.ts";
import { ServiceUnavailableError } from "../lib/unavailable.ts";
import { renderPage } from "../components/render.tsx";
import { ForbiddenPage } from "../components/ErrorPages.tsx";

/** Role dashboards and the returnTo rules (lib/return_to.ts), re-exported for page routes. */
export { dashboardPath, redirectAfterLogin, safeReturnTo } from "../lib/return_to.ts";

// Paths that never need the user: skipping them saves a KV read and a query per asset.
const SESSIONLESS_PREFIXES = ["/static/", "/healthz", "/readyz"];

/**
 * Loads the session from its cookie and sets `c.var.user` / `c.var.session` (and, on pages,
 * `c.var.unreadNotifications`): one KV read and one SQL statement, nothing cached between
 * requests, so a disabled user or a revoked session is refused on the next request. A missing,
 * expired or revoked session, or a disabled or deleted user, leaves both null (and clears a
 * stale cookie). Expired sessions are deleted on sight; live ones have `lastSeenAt` refreshed
 * at most once a minute. When KV cannot be read the request fails closed with 503 (the
 * `ServiceUnavailableError` from `readSession`): it is neither let through as the user nor
 * served as signed out, and the cookie is kept.
 */
export function sessions(deps: AppDeps) {
  const cookie = sessionCookie(deps.config);
  return createMiddleware<AppEnv>(async (c, next) => {
    const raw = getCookie(c, cookie.name);
    if (raw && !SESSIONLESS_PREFIXES.some((p) => c.req.path.startsWith(p))) {
      const now = Date.now();
      const session = await readSession(c.var.kv, raw);
      // A page shows the bell's unread badge: read the count with the user, in one statement,
      // rather than as a query of its own. API answers do not need it.
      const isPage = !c.req.path.startsWith("/api/");
      const user: (User & { unreadNotifications?: number }) | undefined = !session
        ? undefined
        : isPage
        ? await getUserWithUnreadCount(c.var.db, session.record.userId)
        : await getUserById(c.var.db, session.record.userId);
      if (session && user && !user.disabledAt) {
        const timeouts = sessionTimeouts(session.record, user.role);
        if (sessionExpiry(session.record, timeouts, now)) {
          await bestEffort("delete an expired session", deleteSession(c.var.kv, session.idHash));
        } else {
          // The session was read and judged live; a missed touch only leaves its idle clock
          // where it was, so a KV that cannot be written right now does not fail the request.
          await bestEffort("refresh a session", touchSession(c.var.kv, session, timeouts, now));
          c.set("user", toSessionUser(user));
          c.set("unreadNotifications", user.unreadNotifications ?? null);
          c.set("session", {
            idHash: session.idHash,
            userId: session.record.userId,
            impersonatorId: session.record.impersonatorId,
          });
        }
      } else if (session) {
        await bestEffort("delete a dead session", deleteSession(c.var.kv, session.idHash));
      }
      if (!c.var.session) clearSessionCookie(c);
    }
    await next();
  });
}

// Cleanup that KV can skip while it is locked: the session is refused either way, and its
// record expires by itself.
async function bestEffort(what: string, work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (err) {
    if (!(err instanceof ServiceUnavailableError)) throw err;
    console.error(`sessions: could not ${what}: KV unavailable`);
  }
}

/** The request's user agent, cut to a length worth storing. */
export function userAgentOf(c: Context<AppEnv>): string {
  return (c.req.header("user-agent") ?? "").slice(0, 256);
}

/**
 * Ends the request's current session (if any) and opens a new one for `userId`, setting the
 * cookie: a fresh id on every sign-in, registration, impersonation and return.
 * `carryCreatedAt` keeps the absolute-timeout clock of the session being replaced. The cookie
 * is set only after the record is stored: when KV cannot store it this throws
 * `ServiceUnavailableError` (503) and the response carries no session cookie.
 */
export async function startSession(
  c: Context<AppEnv>,
  input: {
    userId: string;
    role: Role;
    impersonatorId?: string | null;
    carryCreatedAt?: boolean;
  },
): Promise<SessionRecord> {
  const kv = c.var.kv;
  let createdAt: number | undefined;
  const current = c.var.session;
  if (current) {
    if (input.carryCreatedAt) {
      createdAt = (await getSessionRecord(kv, current.idHash))?.createdAt;
    }
    await deleteSession(kv, current.idHash);
  }
  const impersonatorId = input.impersonatorId ?? null;
  const { id, idHash, record } = await createSession(kv, {
    userId: input.userId,
    impersonatorId,
    ip: c.var.clientIp,
    userAgent: userAgentOf(c),
    timeouts: sessionTimeouts({ impersonatorId }, input.role),
    createdAt,
  });
  const cookie = sessionCookie(c.var.deps.config);
  setCookie(c, cookie.name, id, {
    httpOnly: true,
    sameSite: "Lax",
    path: "/",
    secure: cookie.secure,
    maxAge: Math.floor(sessionTimeouts({ impersonatorId }, input.role).absoluteMs / 1000),
  });
  c.set("session", { idHash, userId: input.userId, impersonatorId });
  // The count read with the previous user is not this session's.
  c.set("unreadNotifications", null);
  return record;
}

/**
 * Who is acting (the admin while impersonating, else the signed-in user) and from where: the
 * audit fields every event shares.
 */
export function auditContext(
  c: Context<AppEnv>,
): { actorId: string | null; ip: string; userAgent: string } {
  return {
    actorId: c.var.session?.impersonatorId ?? c.var.user?.id ?? null,
    ip: c.var.clientIp,
    userAgent: userAgentOf(c),
  };
}

/** Deletes the request's session (if any) and clears the cookie. */
export async function endSession(c: Context<AppEnv>): Promise<void> {
  const current = c.var.session;
  if (current) await deleteSession(c.var.kv, current.idHash);
  clearSessionCookie(c);
  c.set("session", null);
  c.set("user", null);
  c.set("unreadNotifications", null);
}

function clearSessionCookie(c: Context<AppEnv>): void {
  const cookie = sessionCookie(c.var.deps.config);
  deleteCookie(c, cookie.name, { path: "/", secure: cookie.secure, httpOnly: true });
}

/** API guard: 401 `{message}` unless signed in. */
export const requireUser = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user) throw new HTTPException(401, { message: "Authentication required" });
  await next();
});

/** API guard: 401 when signed out, 403 unless the user has one of `roles`. */
export function requireRole(...roles: Role[]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.var.user;
    if (!user) throw new HTTPException(401, { message: "Authentication required" });
    if (!roles.includes(user.role)) {
      throw new HTTPException(403, { message: "You do not have permission to do this" });
    }
    await next();
  });
}

/** `/auth?returnTo={path and query of this request}`, where page guards send signed-out users. */
export function signInPath(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  return `/auth?returnTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/**
 * Page guard: a signed-out visitor is redirected (302) to `/auth?returnTo={path+query}`.
 * Signed-in pages are marked `Cache-Control: private, no-store`.
 */
export const requirePageUser = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.var.user) return c.redirect(signInPath(c), 302);
  c.header("Cache-Control", "private, no-store");
  await next();
});

/**
 * Page guard: signed out → 302 to `/auth?returnTo=…`; signed in without one of `roles` → 403
 * with the Access Denied page, decided on the server.
 */
export function requirePageRole(...roles: Role[]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.var.user;
    if (!user) return c.redirect(signInPath(c), 302);
    c.header("Cache-Control", "private, no-store");
    if (!roles.includes(user.role)) {
      return c.html(
        renderPage(c, { title: "Access denied", noindex: true }, createElement(ForbiddenPage)),
        403,
      );
    }
    await next();
  });
}
