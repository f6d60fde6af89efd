import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { requireUser } from "./_auth.ts";
import {
  countUnreadNotifications,
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  NOTIFICATIONS_PAGE_SIZE,
} from "../db/notifications.ts";

const ListQuery = z.object({
  page: z.coerce
    .number({ error: "page must be a number" })
    .int({ error: "page must be a whole number" })
    .min(1, { error: "page must be 1 or more" })
    .max(10_000, { error: "page is too large" })
    .default(1),
});

const IdParam = z.object({ id: z.string().max(100) });

/**
 * Notifications API, always the signed-in user's own:
 * `GET /api/notifications?page=` → `{notifications, unreadCount, page, pageSize, hasMore}`
 * (newest first), `PATCH /api/notifications/{id}/read` (someone else's id → 404) and
 * `PATCH /api/notifications/mark-all-read`.
 */
export const notifications = new Hono<AppEnv>()
  .get(
    "/api/notifications",
    requireUser,
    zValidator("query", ListQuery, onInvalid),
    async (c) => {
      const { page } = c.req.valid("query");
      const userId = c.var.user!.id;
      const [list, unreadCount] = await Promise.all([
        listNotifications(c.var.db, { userId, page }),
        countUnreadNotifications(c.var.db, { userId }),
      ]);
      return c.json({
        notifications: list.notifications,
        unreadCount,
        page,
        pageSize: NOTIFICATIONS_PAGE_SIZE,
        hasMore: list.hasMore,
      });
    },
  )
  // Registered before `/:id/read` so "mark-all-read" is never taken for an id.
  .patch("/api/notifications/mark-all-read", requireUser, async (c) => {
    const updated = await markAllNotificationsRead(c.var.db, { userId: c.var.user!.id });
    return c.json({ message: "All notifications marked as read", updated, unreadCount: 0 });
  })
  .patch(
    "/api/notifications/:id/read",
    requireUser,
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const userId = c.var.user!.id;
      const found = await markNotificationRead(c.var.db, { id, userId });
      if (!found) throw new HTTPException(404, { message: "Notification not found" });
      const unreadCount = await countUnreadNotifications(c.var.db, { userId });
      return c.json({ message: "Notification marked as read", unreadCount });
    },
  );
