import { Hono } from "hono";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import {
  auditContext,
  dashboardPath,
  endSession,
  requireRole,
  requireUser,
  startSession,
} from "./_auth.ts";
import { insertAuditEvent } from "../db/audit.ts";
import {
  disableUser,
  enableUser,
  getUserById,
  isUuid,
  listUsers,
  ROLES,
  setUserRole,
  toSessionUser,
  type User,
} from "../db/users.ts";
import { deletePasswordResetTokens } from "../db/password_resets.ts";
import { revokeUserSessions } from "../lib/sessions.ts";

/** Spec section 8: the 'Admin Restored' toast text. */
export const ADMIN_RESTORED_MESSAGE = "You have returned to your admin account.";

const USER_NOT_FOUND = "User not found";

/** Unknown or malformed ids are the same 404: nothing is revealed about which it was. */
const UserIdParam = z.object({ userId: z.string().refine(isUuid) });
// deno-lint-ignore no-explicit-any
function notFoundOnInvalid(result: any, c: Context) {
  if (!result.success) return c.json({ message: USER_NOT_FOUND }, 404);
}

const ListQuery = z.object({
  page: z.coerce.number({ error: "Page must be a whole number of at least 1" })
    .int("Page must be a whole number of at least 1")
    .min(1, "Page must be a whole number of at least 1")
    .max(100_000, "Page is too large")
    .default(1),
  pageSize: z.coerce.number({ error: "Page size must be a whole number from 1 to 100" })
    .int("Page size must be a whole number from 1 to 100")
    .min(1, "Page size must be a whole number from 1 to 100")
    .max(100, "Page size must be a whole number from 1 to 100")
    .default(25),
  role: z.enum(ROLES, { error: "Role must be admin, client, surveyor or technician" })
    .optional(),
});

const RoleInput = z.object({
  role: z.enum(ROLES, {
    error: (issue) =>
      issue.input === undefined
        ? "Role is required"
        : "Role must be admin, client, surveyor or technician",
  }),
}, { error: "Request body must be a JSON object" });

/** A user as the admin list shows it: the public shape plus whether it is disabled. */
function adminView(user: User) {
  return { ...toSessionUser(user), disabledAt: user.disabledAt };
}

async function loadTarget(c: Context<AppEnv>, id: string): Promise<User> {
  const user = await getUserById(c.var.db, id);
  if (!user) throw new HTTPException(404, { message: USER_NOT_FOUND });
  return user;
}

function refuseSelf(c: Context<AppEnv>, id: string, message: string): void {
  if (c.var.user!.id === id) throw new HTTPException(400, { message });
}

/**
 * Admin APIs: the users list, user management (role, disable, enable) and impersonation.
 * Every route but the status check and the return is admin-only; while impersonating, the
 * signed-in user is the target, so an impersonation cannot be nested.
 */
export const adminApi = new Hono<AppEnv>()
  .get("/api/users", requireRole("admin"), zValidator("query", ListQuery, onInvalid), async (c) => {
    const { page, pageSize, role } = c.req.valid("query");
    const { users, total } = await listUsers(c.var.db, {
      role,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    return c.json({ users: users.map(adminView), total, page, pageSize });
  })
  .patch(
    "/api/admin/users/:userId/role",
    requireRole("admin"),
    zValidator("param", UserIdParam, notFoundOnInvalid),
    zValidator("json", RoleInput, onInvalid),
    async (c) => {
      const { userId } = c.req.valid("param");
      const { role } = c.req.valid("json");
      await loadTarget(c, userId);
      refuseSelf(c, userId, "You cannot change your own role.");
      const changed = await c.var.db.begin(async (tx) => {
        const result = await setUserRole(tx, { id: userId, role });
        if (result && result.previousRole !== role) {
          await insertAuditEvent(tx, {
            event: "role_changed",
            ...auditContext(c),
            targetId: userId,
            details: { from: result.previousRole, to: role },
          });
          // Before the commit, so a KV outage (503) leaves the role as it was.
          await revokeUserSessions(c.var.kv, userId);
        }
        return result;
      });
      if (!changed) throw new HTTPException(404, { message: USER_NOT_FOUND });
      return c.json({ user: adminView(changed.user) });
    },
  )
  .post(
    "/api/admin/users/:userId/disable",
    requireRole("admin"),
    zValidator("param", UserIdParam, notFoundOnInvalid),
    async (c) => {
      const { userId } = c.req.valid("param");
      const before = await loadTarget(c, userId);
      refuseSelf(c, userId, "You cannot disable your own account.");
      const user = await c.var.db.begin(async (tx) => {
        const disabled = await disableUser(tx, { id: userId });
        await deletePasswordResetTokens(tx, { userId });
        if (disabled && !before.disabledAt) {
          await insertAuditEvent(tx, {
            event: "user_disabled",
            ...auditContext(c),
            targetId: userId,
          });
        }
        // Before the commit, so a KV outage (503) leaves the account as it was.
        if (disabled) await revokeUserSessions(c.var.kv, userId);
        return disabled;
      });
      if (!user) throw new HTTPException(404, { message: USER_NOT_FOUND });
      return c.json({ user: adminView(user) });
    },
  )
  .post(
    "/api/admin/users/:userId/enable",
    requireRole("admin"),
    zValidator("param", UserIdParam, notFoundOnInvalid),
    async (c) => {
      const { userId } = c.req.valid("param");
      const before = await loadTarget(c, userId);
      const user = await c.var.db.begin(async (tx) => {
        const enabled = await enableUser(tx, { id: userId });
        if (enabled && before.disabledAt) {
          await insertAuditEvent(tx, {
            event: "user_enabled",
            ...auditContext(c),
            targetId: userId,
          });
        }
        return enabled;
      });
      if (!user) throw new HTTPException(404, { message: USER_NOT_FOUND });
      return c.json({ user: adminView(user) });
    },
  )
  .post(
    "/api/admin/impersonate/:userId",
    requireRole("admin"),
    zValidator("param", UserIdParam, notFoundOnInvalid),
    async (c) => {
      const { userId } = c.req.valid("param");
      const target = await loadTarget(c, userId);
      if (target.role === "admin") {
        throw new HTTPException(403, { message: "Administrators cannot be impersonated." });
      }
      if (target.disabledAt) {
        throw new HTTPException(403, { message: "Disabled accounts cannot be impersonated." });
      }
      const admin = c.var.user!;
      // Recorded before the new session starts: an impersonation is never unaudited.
      await insertAuditEvent(c.var.db, {
        event: "impersonation_started",
        ...auditContext(c),
        actorId: admin.id,
        targetId: target.id,
      });
      await startSession(c, {
        userId: target.id,
        role: target.role,
        impersonatorId: admin.id,
        carryCreatedAt: true,
      });
      return c.json({
        message: `You are now signed in as ${target.fullName}.`,
        user: toSessionUser(target),
        redirectTo: dashboardPath(target.role),
      });
    },
  )
  .get("/api/admin/impersonation-status", (c) => {
    return c.json({ isImpersonating: Boolean(c.var.session?.impersonatorId) });
  })
  .post("/api/admin/return", requireUser, async (c) => {
    const session = c.var.session!;
    if (!session.impersonatorId) {
      throw new HTTPException(400, { message: "You are not impersonating anyone." });
    }
    const targetId = session.userId;
    const admin = await getUserById(c.var.db, session.impersonatorId);
    const audit = auditContext(c);
    if (!admin || admin.disabledAt || admin.role !== "admin") {
      await endSession(c);
      throw new HTTPException(403, { message: "Could not return to admin account" });
    }
    await insertAuditEvent(c.var.db, {
      event: "impersonation_ended",
      ...audit,
      actorId: admin.id,
      targetId,
    });
    await startSession(c, { userId: admin.id, role: admin.role, carryCreatedAt: true });
    return c.json({ message: ADMIN_RESTORED_MESSAGE, redirectTo: dashboardPath("admin") });
  });
