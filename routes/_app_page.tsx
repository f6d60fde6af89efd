import type { ReactNode } from "react";
import type { AppContext } from "./_env.ts";
import { countUnreadNotifications } from "../db/notifications.ts";
import { renderPage } from "../components/render.tsx";
import { AppLayout } from "../components/AppLayout.tsx";
import { finishedHtml, htmlResponse, toHtmlBytes } from "./_html_response.ts";
import { rememberedPages } from "./_remembered_pages.ts";

/** What a signed-in page says about itself. */
export interface AppPageMeta {
  title: string;
  /** Path of the page's nav entry, e.g. "/leads" (see `AppLayout`). */
  active?: string;
}

/**
 * Renders `body` as a signed-in page in the app layout (never indexed). The page guard has
 * already set `c.var.user`; throws when it has not. The bell shows the user's unread count
 * before it first loads.
 */
export async function appPage(
  c: AppContext,
  meta: AppPageMeta,
  body: ReactNode,
  status: 200 | 404 = 200,
): Promise<Response> {
  const initialUnread = await unreadOf(c);
  return htmlResponse(c, renderAppPage(c, meta, body, initialUnread), status);
}

/**
 * The remembered signed-in pages' answers (routes/_remembered_pages.ts): a few hundred pages,
 * 6–50 KB each, within 4 MB with the data each was drawn from.
 */
const keptAppPages = rememberedPages(300, 4_000_000);

/**
 * `appPage` for a page whose data comes from its snapshot cache (db/snapshot_cache.ts): `data`
 * is everything the body shows, as the cache returned it (the same objects while nothing the
 * page reads was written), and `body` renders it. A reload whose data and shell (the user, the
 * unread count, impersonation, `meta`) are unchanged sends the bytes sent last for `slot` (the
 * page and its viewer, e.g. `client-dashboard {id} {page}`) without rendering anything; the
 * render must read nothing but `data`, the shell and what is the same for every request.
 */
export async function rememberedAppPage(
  c: AppContext,
  meta: AppPageMeta,
  slot: string,
  data: unknown,
  body: () => ReactNode,
): Promise<Response> {
  const initialUnread = await unreadOf(c);
  const shell = [
    meta.title,
    meta.active,
    c.var.session?.impersonatorId ?? null,
    initialUnread,
    c.var.user,
  ];
  const bytes = keptAppPages(
    slot,
    shell,
    data,
    () => toHtmlBytes(renderAppPage(c, meta, body(), initialUnread)),
  );
  return finishedHtml(c, bytes, 200, true);
}

// The bell's count before it first loads: the sessions middleware read it with the user
// (routes/_auth.ts), so it costs a query here only when a request got its user another way.
function unreadOf(c: AppContext): number | Promise<number> {
  const user = c.var.user;
  if (!user) throw new Error("appPage needs a signed-in user: put a page guard in front");
  return c.var.unreadNotifications ?? countUnreadNotifications(c.var.db, { userId: user.id });
}

function renderAppPage(
  c: AppContext,
  meta: AppPageMeta,
  body: ReactNode,
  initialUnread: number,
): string {
  return renderPage(
    c,
    { title: meta.title, noindex: true, bodyClass: "app" },
    <AppLayout
      user={c.var.user!}
      isImpersonating={Boolean(c.var.session?.impersonatorId)}
      active={meta.active}
      initialUnread={initialUnread}
    >
      {body}
    </AppLayout>,
  );
}
