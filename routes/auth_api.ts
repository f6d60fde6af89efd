import { Hono } from "hono";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { getCookie, setCookie } from "hono/cookie";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { auditContext, dashboardPath, endSession, requireUser, startSession } from "./_auth.ts";
import { enforceActionLimits } from "./_limits.ts";
import { insertAuditEvent } from "../db/audit.ts";
import {
  getUserById,
  getUserByIdentifier,
  getUserCredentials,
  insertUser,
  PROFILE_PHONE_PATTERN,
  toSessionUser,
  updateLastLogin,
  updateUserPassword,
  updateUserProfile,
  type User,
  UserExistsError,
} from "../db/users.ts";
import type { Db } from "../db/client.ts";
import {
  consumePasswordResetToken,
  getPasswordResetTarget,
  insertPasswordResetRequest,
} from "../db/password_resets.ts";
import {
  hashPassword,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  verifyDummyPassword,
  verifyPassword,
} from "../lib/passwords.ts";
import { hashToken, revokeUserSessions } from "../lib/sessions.ts";
import { queuePasswordChangedEmail } from "../lib/mail/emails.ts";
import { backgroundWork } from "../lib/background.ts";
import { deviceCookie, findDevice, issueDeviceToken } from "../lib/device_cookies.ts";
import { PASSWORD_TOKEN_SHAPE, processPasswordResetRequests } from "../lib/password_reset.ts";
import { secret, singleLine } from "../lib/text.ts";

/** Spec section 8: the only answer /api/forgot-password ever gives. */
export const FORGOT_PASSWORD_MESSAGE =
  "If an account with this email exists, you'll receive instructions to reset your password.";
/** Spec section 2: the reset link is unknown, used, expired, or its account is disabled. */
export const INVALID_RESET_LINK_MESSAGE = "This password reset link is invalid or has expired.";
/** What /api/reset-password answers for an invitation link: the person is now signed in. */
export const INVITATION_ACCEPTED_MESSAGE = "Your password is set and you are signed in.";
/** Spec section 8: the logout toast text. */
export const LOGGED_OUT_MESSAGE = "You have been logged out successfully.";
/** Same answer for an unknown identifier, a wrong password and a disabled account. */
export const INVALID_CREDENTIALS_MESSAGE = "Invalid credentials";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Rate limits (attempts per window) from the accounts issue. */
export const RATE_LIMITS = {
  login: { limit: 10, windowMs: 3 * MINUTE },
  /** Logins from a browser holding a device cookie for the account (lib/device_cookies.ts). */
  loginDevice: { limit: 10, windowMs: 3 * MINUTE },
  register: { limit: 10, windowMs: HOUR },
  forgotPassword: { limit: 5, windowMs: HOUR },
  passwordChange: { limit: 10, windowMs: 3 * MINUTE },
} as const;

function body<T extends z.ZodRawShape>(shape: T) {
  return z.object(shape, { error: "Request body must be a JSON object" });
}

const Email = singleLine("Email", { max: 254 })
  .pipe(z.email("Please enter a valid email address"));

const NewPassword = secret("Password", { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH });

const FullName = singleLine("Full name", { min: 1, max: 100 });

/** 400 text when a registration's username is not its email. */
export const USERNAME_MISMATCH_MESSAGE = "Username must be the same as the email address";

const RegisterInput = body({
  email: Email,
  password: NewPassword,
  fullName: FullName,
  // The spec's payload carries it, always equal to the email (stored from the email).
  username: singleLine("Username", { max: 254 }).optional(),
}).refine(
  (v) => v.username === undefined || v.username.toLowerCase() === v.email.toLowerCase(),
  {
    message: USERNAME_MISMATCH_MESSAGE,
    path: ["username"],
    // Compare only a valid email: a bad one already has its own message.
    when: (payload) => payload.issues.length === 0,
  },
);

const LoginInput = body({
  identifier: singleLine("Email or username", { min: 1, max: 254 }),
  password: secret("Password", { min: 1, max: PASSWORD_MAX_LENGTH }),
});

const optionalText = (label: string, max: number) =>
  singleLine(label, { max, messages: { type: `${label} must be text` } })
    .nullable().optional()
    .transform((v) => (v === "" ? null : v));

const ProfileInput = body({
  fullName: FullName.optional(),
  companyName: optionalText("Company name", 100),
  phone: optionalText("Phone", 30).refine(
    (v) => v == null || PROFILE_PHONE_PATTERN.test(v),
    "Please enter a valid phone number",
  ),
}).refine(
  (v) => v.fullName !== undefined || v.companyName !== undefined || v.phone !== undefined,
  "Nothing to update",
);

const PasswordChangeInput = body({
  currentPassword: secret("Current password", {
    min: 1,
    max: PASSWORD_MAX_LENGTH,
    messages: { max: `Password must be at most ${PASSWORD_MAX_LENGTH} characters` },
  }),
  newPassword: NewPassword,
  confirmPassword: secret("Confirm password", {
    max: PASSWORD_MAX_LENGTH,
    messages: {
      type: "Confirm password must be text",
      max: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
    },
  }).optional(),
}).refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.newPassword, {
  message: "Passwords don't match",
  path: ["confirmPassword"],
});

const ForgotPasswordInput = body({ email: Email });

const ResetPasswordInput = body({
  token: z.string({ error: INVALID_RESET_LINK_MESSAGE }).max(512, INVALID_RESET_LINK_MESSAGE)
    .optional(),
  password: NewPassword,
  confirmPassword: secret("Confirm password", {
    min: PASSWORD_MIN_LENGTH,
    max: PASSWORD_MAX_LENGTH,
    messages: {
      type: "Confirm password must be text",
      min: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
      max: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
    },
  }).optional(),
}).refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.password, {
  message: "Passwords don't match",
  path: ["confirmPassword"],
});

const TOKEN_SHAPE = PASSWORD_TOKEN_SHAPE;

/**
 * The part of a sign-in shared by the password and Google sign-ins, run inside the caller's
 * transaction `tx`: `last_login`, the `login_succeeded` audit event (with `details`, e.g. the
 * method), and a fresh session (the old one of this browser ended, the cookie rotated).
 * Returns the updated user. Throws `ServiceUnavailableError` when KV cannot store the session,
 * which rolls the transaction back.
 */
export async function recordSignIn(
  c: Context<AppEnv>,
  tx: Db,
  user: User,
  details?: Record<string, string>,
): Promise<User> {
  const updated = (await updateLastLogin(tx, { id: user.id })) ?? user;
  await insertAuditEvent(tx, {
    event: "login_succeeded",
    ...auditContext(c),
    actorId: updated.id,
    targetId: updated.id,
    details,
  });
  await startSession(c, { userId: updated.id, role: updated.role });
  return updated;
}

function invalidResetLink(c: Context) {
  return c.json({ success: false, message: INVALID_RESET_LINK_MESSAGE }, 400);
}

/** Sign-in, registration, logout, the current user, profile and password-reset APIs. */
export const authApi = new Hono<AppEnv>()
  .post("/api/register", zValidator("json", RegisterInput, onInvalid), async (c) => {
    const input = c.req.valid("json");
    await enforceActionLimits(c, "registration attempts", [
      { bucket: "register_ip", subject: c.var.clientIp, ...RATE_LIMITS.register },
    ]);
    const passwordHash = await hashPassword(input.password);
    let user;
    try {
      // The account, its audit row and the session stand or fall together: if KV cannot store
      // the session (503), the insert rolls back, so a retry is not met by "already exists".
      user = await c.var.db.begin(async (tx) => {
        const inserted = await insertUser(tx, {
          email: input.email,
          username: input.email,
          fullName: input.fullName,
          role: "client",
          passwordHash,
          isSigningIn: true,
        });
        await insertAuditEvent(tx, {
          event: "registered",
          ...auditContext(c),
          actorId: inserted.id,
          targetId: inserted.id,
        });
        await startSession(c, { userId: inserted.id, role: inserted.role });
        return inserted;
      });
    } catch (err) {
      if (err instanceof UserExistsError) {
        throw new HTTPException(400, { message: err.message });
      }
      throw err;
    }
    return c.json(toSessionUser(user), 201);
  })
  .post("/api/login", zValidator("json", LoginInput, onInvalid), async (c) => {
    const { identifier, password } = c.req.valid("json");
    const db = c.var.db;
    const cookie = deviceCookie(c.var.deps.config);
    const device = await findDevice(c.var.kv, getCookie(c, cookie.name));
    // A device cookie is trusted only for the account it was issued to, so with one the
    // account is looked up first; without one the limits come before any query.
    let found = device ? await getUserByIdentifier(db, identifier) : undefined;
    const trustedDevice = device && found?.id === device.userId ? device : null;
    await enforceActionLimits(c, "login attempts", [
      { bucket: "login_ip", subject: c.var.clientIp, ...RATE_LIMITS.login },
      // A browser that signed in to this account before has its own limit, so failures from
      // anyone else (the per-identifier limit) cannot lock it out.
      trustedDevice
        ? { bucket: "login_device", subject: trustedDevice.tokenHash, ...RATE_LIMITS.loginDevice }
        : {
          bucket: "login_identifier",
          subject: await hashToken(identifier.toLowerCase()),
          ...RATE_LIMITS.login,
        },
    ]);
    if (!device) found = await getUserByIdentifier(db, identifier);
    // Verify against a dummy hash for unknown identifiers so every failure takes as long.
    const isMatch = found
      ? await verifyPassword(password, found.passwordHash)
      : await verifyDummyPassword(password);
    if (!found || !isMatch || found.disabledAt) {
      const reason = !found ? "unknown_identifier" : !isMatch ? "wrong_password" : "disabled";
      await insertAuditEvent(db, {
        event: "login_failed",
        ...auditContext(c),
        actorId: null,
        targetId: found?.id ?? null,
        details: { reason, trustedDevice: trustedDevice !== null },
      });
      throw new HTTPException(401, { message: INVALID_CREDENTIALS_MESSAGE });
    }
    // KV work runs before the commit: if it fails (503) the sign-in leaves no trace, and
    // nothing that can fail is left after the commit to turn a sign-in into an error.
    const signedIn = found;
    const user = await db.begin(async (tx) => {
      const updated = await recordSignIn(c, tx, signedIn);
      const deviceToken = await issueDeviceToken(c.var.kv, {
        userId: updated.id,
        replacing: device?.tokenHash,
      });
      setCookie(c, cookie.name, deviceToken, cookie.options);
      return updated;
    });
    return c.json(toSessionUser(user));
  })
  .post("/api/logout", requireUser, async (c) => {
    const audit = auditContext(c);
    const targetId = c.var.user!.id;
    // Recorded first: if the database is down the session stays, so a retry can log out.
    await insertAuditEvent(c.var.db, { event: "logout", ...audit, targetId });
    await endSession(c);
    return c.json({ message: LOGGED_OUT_MESSAGE });
  })
  .get("/api/user", requireUser, (c) => {
    return c.json(c.var.user!);
  })
  .patch("/api/user", requireUser, zValidator("json", ProfileInput, onInvalid), async (c) => {
    const input = c.req.valid("json");
    const me = c.var.user!;
    const updated = await c.var.db.begin(async (tx) => {
      const row = await updateUserProfile(tx, { id: me.id, ...input });
      if (!row) return undefined;
      await insertAuditEvent(tx, {
        event: "profile_updated",
        ...auditContext(c),
        targetId: me.id,
        details: {
          fullName: input.fullName !== undefined,
          companyName: input.companyName !== undefined,
          phone: input.phone !== undefined,
        },
      });
      return row;
    });
    if (!updated) throw new HTTPException(401, { message: "Authentication required" });
    return c.json(toSessionUser(updated));
  })
  .post(
    "/api/user/password",
    requireUser,
    zValidator("json", PasswordChangeInput, onInvalid),
    async (c) => {
      const session = c.var.session!;
      if (session.impersonatorId) {
        throw new HTTPException(403, {
          message: "You cannot change this user's password while impersonating them.",
        });
      }
      const { currentPassword, newPassword } = c.req.valid("json");
      const me = c.var.user!;
      await enforceActionLimits(c, "password attempts", [
        { bucket: "password_change", subject: me.id, ...RATE_LIMITS.passwordChange },
      ]);
      const credentials = await getUserCredentials(c.var.db, me.id);
      if (!credentials || !(await verifyPassword(currentPassword, credentials.passwordHash))) {
        throw new HTTPException(400, { message: "Current password is incorrect" });
      }
      const passwordHash = await hashPassword(newPassword);
      const audit = auditContext(c);
      await c.var.db.begin(async (tx) => {
        await updateUserPassword(tx, { id: me.id, passwordHash });
        await queuePasswordChangedEmail(tx, { to: me.email, name: me.fullName });
        await insertAuditEvent(tx, { event: "password_changed", ...audit, targetId: me.id });
        // Before the commit: a password never changes while the old sessions live on.
        await revokeUserSessions(c.var.kv, me.id, { except: session.idHash });
      });
      return c.json({ message: "Your password has been changed." });
    },
  )
  .post(
    "/api/forgot-password",
    zValidator("json", ForgotPasswordInput, onInvalid),
    async (c) => {
      const { email } = c.req.valid("json");
      await enforceActionLimits(c, "password reset requests", [
        { bucket: "forgot_ip", subject: c.var.clientIp, ...RATE_LIMITS.forgotPassword },
        {
          bucket: "forgot_email",
          subject: await hashToken(email.toLowerCase()),
          ...RATE_LIMITS.forgotPassword,
        },
      ]);
      // One identical insert for every email, then the answer: whether the account exists is
      // looked up after it (lib/password_reset.ts says why), so the time to answer cannot
      // tell. The stored row keeps the request if the process dies before the email is queued.
      const { ip, userAgent } = auditContext(c);
      await insertPasswordResetRequest(c.var.db, { email, ip, userAgent });
      const deps = c.var.deps;
      backgroundWork(deps).run(
        "password reset requests",
        () => processPasswordResetRequests(deps.sql, { publicUrl: deps.config.PUBLIC_URL }),
      );
      return c.json({ message: FORGOT_PASSWORD_MESSAGE });
    },
  )
  .get(
    "/api/reset-password/verify",
    zValidator(
      "query",
      z.object({ token: z.string().max(512).optional() }),
      (result, c) => (result.success ? undefined : invalidResetLink(c)),
    ),
    async (c) => {
      c.header("Cache-Control", "no-store");
      const { token } = c.req.valid("query");
      if (!token || !TOKEN_SHAPE.test(token)) return invalidResetLink(c);
      const target = await getPasswordResetTarget(c.var.db, {
        tokenHash: await hashToken(token),
      });
      if (!target) return invalidResetLink(c);
      return c.json({ success: true, email: target.email });
    },
  )
  .post(
    "/api/reset-password",
    zValidator("json", ResetPasswordInput, onInvalid),
    async (c) => {
      const { token, password } = c.req.valid("json");
      if (!token || !TOKEN_SHAPE.test(token)) return invalidResetLink(c);
      const tokenHash = await hashToken(token);
      // Cheap check first so a bad token never costs an argon2 hash.
      const target = await getPasswordResetTarget(c.var.db, { tokenHash });
      if (!target) return invalidResetLink(c);
      const passwordHash = await hashPassword(password);
      const audit = { ...auditContext(c), actorId: null };
      const result = await c.var.db.begin(async (tx) => {
        const used = await consumePasswordResetToken(tx, { tokenHash });
        if (!used) return undefined;
        const { userId: id, purpose } = used;
        await updateUserPassword(tx, { id, passwordHash });
        if (purpose === "reset") {
          await queuePasswordChangedEmail(tx, { to: target.email, name: target.fullName });
        }
        await insertAuditEvent(tx, {
          event: "password_reset_completed",
          ...audit,
          targetId: id,
          details: { purpose },
        });
        // Before the commit: a password never changes while the old sessions live on.
        await revokeUserSessions(c.var.kv, id);
        const user = purpose === "invitation" ? await getUserById(tx, id) : undefined;
        if (!user) return { purpose, user: undefined };
        // An invitation's first password is the person choosing to sign in: the same record,
        // fresh session and device cookie as a password sign-in, before the commit.
        const signedIn = await recordSignIn(c, tx, user, { method: "invitation" });
        const cookie = deviceCookie(c.var.deps.config);
        setCookie(c, cookie.name, await issueDeviceToken(c.var.kv, { userId: id }), cookie.options);
        return { purpose, user: signedIn };
      });
      if (!result) return invalidResetLink(c);
      if (result.user) {
        return c.json({
          success: true,
          message: INVITATION_ACCEPTED_MESSAGE,
          user: toSessionUser(result.user),
          redirectTo: dashboardPath(result.user.role),
        });
      }
      return c.json({
        success: true,
        message: "Your password has been reset. You can now sign in with your new password.",
      });
    },
  );
