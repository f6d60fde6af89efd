import type { Context } from "hono";
import type { Role, SessionUser } from "../lib/roles.ts";
export type { Role, SessionUser };
import type { AppDeps } from "../lib/deps.ts";
import type { Sql } from "../db/client.ts";
import type { LoadedSession } from "../lib/sessions.ts";
export type { AppDeps };

/** The server-side session behind the cookie. */
export interface SessionInfo {
  /** Hash of the session id (the raw id only ever lives in the cookie). */
  idHash: string;
  userId: string;
  /** Set while an admin is impersonating `userId`. */
  impersonatorId: string | null;
}

/** Hono environment shared by every route module. */
export type AppEnv = {
  Variables: {
    deps: AppDeps;
    db: Sql;
    kv: Deno.Kv;
    requestId: string;
    clientIp: string;
    /** The signed-in user, or null. */
    user: SessionUser | null;
    /** The session, or null when signed out. */
    session: SessionInfo | null;
    /**
     * The user's unread notifications, read with the user by the sessions middleware on page
     * requests (not under /api/), else null: the signed-in layout's bell badge.
     */
    unreadNotifications: number | null;
    /**
     * Whether anything set a header on the context (`c.header`, which `setCookie` calls): a
     * finished answer is then made through `c.body`, which adds them
     * (routes/_finished_response.ts).
     */
    hasContextHeaders: boolean;
    /** The answer a route finished with every header (routes/_finished_response.ts), if any. */
    finishedResponse?: Response;
    /**
     * On a page that reads its viewer in its own statement (routes/_auth.ts `ownViewerPage`),
     * the session read from KV and not yet settled with its user (`settleViewer`); else unset.
     */
    pendingSession?: { session: LoadedSession; now: number } | null;
    /**
     * Set by a route answering a document this site shows in its own frames (an email's
     * preview, routes/email_template_pages.tsx): the security headers then allow framing by
     * this origin only and sandbox the document (routes/_middleware.ts `framedDocumentHeaders`).
     */
    isFramedDocument?: boolean;
  };
};

/** A request context of the app. */
export type AppContext = Context<AppEnv>;
