import { createElement } from "react";
import type { Context, MiddlewareHandler, Next } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import { HTTPException } from "hono/http-exception";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppDeps, AppEnv, Role } from "./_env.ts";
import { getUserById, getUserWithUnreadCount, toSessionUser, type User } from "../db/users.ts";
import {
  createSession,
  deleteSession,
  getSessionRecord,
  type LoadedSession,
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
import { htmlResponse } from "./_html_response.ts";

/** Role dashboards and the returnTo rules (lib/return_to.ts), re-exported for page routes. */
export { dashboardPath, redirectAfterLogin, safeReturnTo } from "../lib/return_to.ts";

// Paths that never need the user: skipping them saves a KV read and a query per asset.
const SESSIONLESS_PREFIXES = ["/static/", "/healthz", "/readyz"];

/**
 * Loads the session from its cookie and sets `c.var.user` / `c.var.session` (and, on pages,
 * `c.var.unreadNotifications`): one KV read and one SQL statement, nothing cached between
 * requests, so a disabled user or a revoked session is refused on the next request. A missing,
 * expired or revoked session, or a disabled or deleted user, leaves both null (and, on a page,
 * clears the stale cookie). Expired sessions are deleted on sight; live ones have `lastSeenAt`
 * refreshed at most once a minute. When KV cannot be read the request fails closed with 503 (the
 * `ServiceUnavailableError` from `readSession`): it is neither let through as the user nor
 * served as signed out, and the cookie is kept.
 *
 * The pages that read the user in their own statement (`ownViewerPage`) get the session only,
 * as `c.var.pendingSession`, and settle it with the user their statement read
 * (`settleViewer`): the same checks, one statement fewer.
 */
export function sessions(deps: AppDeps): (c: Context<AppEnv>, next: Next) => Promise<void> {
  const cookie = sessionCookie(deps.config);
  return async (c, next) => {
    const raw = getCookie(c, cookie.name);
    if (raw && !SESSIONLESS_PREFIXES.some((p) => c.req.path.startsWith(p))) {
      const now = Date.now();
      const session = await readSession(c.var.kv, raw);
      if (session && readsOwnViewer(c)) {
        c.set("pendingSession", { session, now });
        return await next();
      }
      // A page shows the bell's unread badge: read the count with the user, in one statement,
      // rather than as a query of its own. API answers do not need it.
      const isPage = !isApiRequest(c);
      const user: (User & { unreadNotifications?: number }) | undefined = !session
        ? undefined
        : isPage
        ? await getUserWithUnreadCount(c.var.db, session.record.userId)
        : await getUserById(c.var.db, session.record.userId);
      await admitSession(c, session, user, now);
    }
    await next();
  };
}

/**
 * Sets the request's user and session when `session` is live for `user` (neither disabled nor
 * past its timeouts, which depend on the user's role), refreshing its idle clock; otherwise
 * deletes a dead session and clears the cookie.
 */
async function admitSession(
  c: Context<AppEnv>,
  session: LoadedSession | null,
  user: (User & { unreadNotifications?: number }) | undefined,
  now: number,
): Promise<void> {
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
  // A stale cookie is cleared on pages only. An island's API call can carry a cookie that a
  // sign-in, impersonation or return answered a moment earlier has just replaced: its answer,
  // arriving after that one, would delete the new cookie (Set-Cookie cannot say "only if the
  // value is still X"), and the next page would be signed out. That happened in the e2e suite
  // across two instances: the bell's first fetch raced an impersonation. A page is the
  // user's own navigation, far less likely to overlap a sign-in of theirs; an API call
  // answers 401 and the next page clears the cookie.
  if (!c.var.session && !isApiRequest(c)) clearSessionCookie(c);
}

/** Whether the request is an API call (`/api/…`) rather than a page. */
function isApiRequest(c: Context<AppEnv>): boolean {
  return c.req.path.startsWith("/api/");
}

// The guards of the pages that read their viewer in their own statement (`ownViewerPage`).
const OWN_VIEWER_GUARDS = new WeakSet<MiddlewareHandler<AppEnv>>();

// Whether the route this request matched is such a page: its guard is among the handlers the
// router chose (decided per app and per request, so an app that routes the same path to
// another handler reads the user as usual).
function readsOwnViewer(c: Context<AppEnv>): boolean {
  return matchedRoutes(c).some((route) => OWN_VIEWER_GUARDS.has(route.handler));
}

/**
 * Declares the GET page at `path`, for signed-in users of `role` (or of any of several), as
 * one that reads its viewer (the signed-in user with the bell's unread count) in its own
 * statement (db/users.ts `readWithViewer`). Each statement costs CPU in the process and in its
 * Postgres backend, and the user's own read was a second one on every such page (issue 23:
 * about a quarter of the client dashboard's CPU). When a request matches the returned guard, the sessions middleware
 * reads only the session. The guard sends a visitor with no session to sign in, as
 * `requirePageRole` does. The handler reads its page for `viewerIdOf(c)` and must call
 * `settleViewer` with the viewer its statement read before it uses the page or answers.
 * Nothing is cached: the user is read at every request, as for any other page.
 */
export function ownViewerPage(
  path: string,
  role: Role | readonly Role[] | null,
): OwnViewerPage {
  // Not async: the guard hands on `next()`'s promise rather than a frame of its own.
  const guard: MiddlewareHandler<AppEnv> = (c, next) =>
    !c.var.user && !c.var.pendingSession ? Promise.resolve(c.redirect(signInPath(c), 302)) : next();
  OWN_VIEWER_GUARDS.add(guard);
  return { path, role, guard };
}

/** A page that reads its viewer in its own statement (`ownViewerPage`). */
export interface OwnViewerPage {
  path: string;
  /** The role (or roles) the page is for (any other gets the Access Denied page); null: any. */
  role: Role | readonly Role[] | null;
  /** Sends a visitor without a session to sign in; marks the answer private. */
  guard: MiddlewareHandler<AppEnv>;
}

/** The id of the user a page reads for: the pending session's, or the signed-in user's. */
export function viewerIdOf(c: Context<AppEnv>): string {
  const id = c.var.pendingSession?.session.record.userId ?? c.var.user?.id;
  if (!id) throw new Error("viewerIdOf: no session (the ownViewerPage guard was not used)");
  return id;
}

/**
 * The role the user behind the request probably has, for a page whose statement depends on
 * it (`ownViewerPage` with no role): the signed-in user's, else the role stored with the
 * pending session when it was opened (`SessionRecord.role`), else undefined (read the user
 * first). A guess: the page checks it against the user its statement read.
 */
export function viewerRoleGuess(c: Context<AppEnv>): Role | undefined {
  return c.var.user?.role ?? c.var.pendingSession?.session.record.role;
}

/**
 * Settles the request's pending session with `viewer`, the user the page's own statement read
 * (undefined when there was none): the same checks as every other request (disabled, expired,
 * revoked, the role's timeouts), and the same answers as `requirePageRole` when they fail:
 * a redirect to sign in, or the Access Denied page (403) for a user without `page.role` (or
 * without one of its roles). Returns that answer, or null when the page may be shown; until
 * then nothing the statement read may be used.
 */
export async function settleViewer(
  c: Context<AppEnv>,
  page: { role: Role | readonly Role[] | null },
  viewer: (User & { unreadNotifications: number }) | undefined,
): Promise<Response | null> {
  const pending = c.var.pendingSession;
  if (pending) {
    c.set("pendingSession", null);
    // Only the session's own user can settle it.
    const own = viewer?.id === pending.session.record.userId ? viewer : undefined;
    await admitSession(c, pending.session, own, pending.now);
  }
  const user = c.var.user;
  if (!user) return c.redirect(signInPath(c), 302);
  const isAllowed = page.role === null ||
    (typeof page.role === "string" ? user.role === page.role : page.role.includes(user.role));
  if (!isAllowed) {
    return htmlResponse(
      c,
      renderPage(c, { title: "Access denied", noindex: true }, createElement(ForbiddenPage)),
      403,
    );
  }
  return null;
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
    role: input.role,
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
export const requireUser: MiddlewareHandler<AppEnv> = (c, next) => {
  if (!c.var.user) throw new HTTPException(401, { message: "Authentication required" });
  return next();
};

/** API guard: 401 when signed out, 403 unless the user has one of `roles`. */
export function requireRole(...roles: Role[]): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    const user = c.var.user;
    if (!user) throw new HTTPException(401, { message: "Authentication required" });
    if (!roles.includes(user.role)) {
      throw new HTTPException(403, { message: "You do not have permission to do this" });
    }
    return next();
  };
}

/** `/auth?returnTo={path and query of this request}`, where page guards send signed-out users. */
export function signInPath(c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  return `/auth?returnTo=${encodeURIComponent(url.pathname + url.search)}`;
}

/**
 * Page guard: a signed-out visitor is redirected (302) to `/auth?returnTo={path+query}`.
 * Signed-in pages are marked `Cache-Control: private, no-store` as every answer to a request
 * with a session is (routes/_middleware.ts `isSessionDependent`): not here, where it would
 * keep a page from being finished by its route (routes/_finished_response.ts).
 */
export const requirePageUser: MiddlewareHandler<AppEnv> = (c, next) =>
  c.var.user ? next() : Promise.resolve(c.redirect(signInPath(c), 302));

/**
 * Page guard: signed out → 302 to `/auth?returnTo=…`; signed in without one of `roles` → 403
 * with the Access Denied page, decided on the server.
 */
export function requirePageRole(...roles: Role[]) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const user = c.var.user;
    if (!user) return c.redirect(signInPath(c), 302);
    if (!roles.includes(user.role)) {
      return htmlResponse(
        c,
        renderPage(c, { title: "Access denied", noindex: true }, createElement(ForbiddenPage)),
        403,
      );
    }
    await next();
  });
}
