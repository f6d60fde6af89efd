import { createMiddleware } from "hono/factory";
import { HTTPException } from "hono/http-exception";
import type { AppDeps, AppEnv, Role } from "./_env.ts";

/**
 * Loads the session from its cookie and sets `c.var.user` / `c.var.session`.
 * (Stub until the accounts work lands.)
 */
export function sessions(_deps: AppDeps) {
  return createMiddleware<AppEnv>(async (_c, next) => {
    await next();
  });
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
