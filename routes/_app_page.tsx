import type { ReactNode } from "react";
import type { AppContext } from "./_env.ts";
import { countUnreadNotifications } from "../db/notifications.ts";
import { renderPage } from "../components/render.tsx";
import { AppLayout } from "../components/AppLayout.tsx";
import { htmlResponse } from "./_html_response.ts";

/** What a signed-in page says about itself. */
export interface AppPageMeta {
  title: string;
  /** Path of the page's nav entry, e.g. "/leads" (see `AppLayout`). */
  active?: string;
}

/**
 * Renders `body` as a signed-in page in the app layout (never indexed). The page guard has
 * already set `c.var.user`; throws when it has not. The bell shows the user's unread count
 * before it first loads: the sessions middleware read it with the user (routes/_auth.ts), so
 * it costs a query here only when a request got its user another way.
 */
export async function appPage(
  c: AppContext,
  meta: AppPageMeta,
  body: ReactNode,
  status: 200 | 404 = 200,
): Promise<Response> {
  const user = c.var.user;
  if (!user) throw new Error("appPage needs a signed-in user: put a page guard in front");
  const initialUnread = c.var.unreadNotifications ??
    await countUnreadNotifications(c.var.db, { userId: user.id });
  return htmlResponse(
    c,
    renderPage(
      c,
      { title: meta.title, noindex: true, bodyClass: "app" },
      <AppLayout
        user={user}
        isImpersonating={Boolean(c.var.session?.impersonatorId)}
        active={meta.active}
        initialUnread={initialUnread}
      >
        {body}
      </AppLayout>,
    ),
    status,
  );
}
