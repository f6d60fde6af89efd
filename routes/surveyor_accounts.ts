import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { auditContext, requireRole } from "./_auth.ts";
import { ACTION_LIMITS, enforceActionLimits, perAccount, perRecipient } from "./_limits.ts";
import type { Db } from "../db/client.ts";
import {
  getUserByEmail,
  getUserById,
  insertUser,
  PROFILE_PHONE_PATTERN,
  type User,
  UserExistsError,
} from "../db/users.ts";
import { getSurveyor, getSurveyorByUserId, updateSurveyor } from "../db/surveyors.ts";
import {
  AccountAlreadyLinkedError,
  getLinkedSurveyorId,
  lockSurveyorAccountLink,
  setSurveyorUser,
} from "../db/surveyor_accounts.ts";
import {
  deletePasswordResetTokens,
  insertPasswordResetToken,
  INVITATION_TTL_MINUTES,
} from "../db/password_resets.ts";
import { insertAuditEvent } from "../db/audit.ts";
import { getSurveyorVerification } from "../db/claim_tokens.ts";
import {
  requestLicenceStates,
  setPendingLicenceNumber,
  withdrawLicenceStates,
} from "../db/surveyor_licences.ts";
import {
  isClearingNumber,
  licenceCheckNotice,
  planLicenceChange,
  VERIFIED_NUMBER_REQUIRED,
} from "../lib/surveyor_licence.ts";
import { notifyAdminsOfLicenceRequest } from "../lib/surveyor_verification.ts";
import type { StateCode } from "../lib/survey_options.ts";
import { hitRateLimit } from "../db/kv.ts";
import { queueSurveyorInvitationEmail } from "../lib/mail/emails.ts";
import { emailNotice } from "../lib/mail/delivery.ts";
import { generatePassword, hashPassword } from "../lib/passwords.ts";
import { hashToken, randomToken } from "../lib/sessions.ts";
import { singleLine } from "../lib/text.ts";
import type { Surveyor } from "../lib/surveyor_schema.ts";
import {
  type SurveyorAccount,
  SurveyorProfileUpdateSchema,
  toOwnSurveyorProfile,
} from "../lib/surveyor_profile.ts";

/** 404 text for a record that does not exist (or an id that is not one). */
export const SURVEYOR_NOT_FOUND = "Surveyor not found";
/** 404 text of the surveyor's own profile API when no record is linked to their account. */
export const NO_SURVEYOR_PROFILE = "No surveyor profile is linked to your account yet";
/** 409 text when inviting a record whose email already has an account. */
export const EMAIL_TAKEN = "An account with this email already exists — link it instead";
/** 409 text when inviting a record that has no email address. */
export const NO_EMAIL = "Add an email address to this surveyor before sending an invitation";
/** 409 text when re-inviting a linked account that has already been used. */
export const ALREADY_SIGNED_IN =
  "This surveyor's account is already in use; they can reset their password from the sign-in page";
/** 409 text when re-inviting a linked account that is disabled. */
export const ACCOUNT_DISABLED = "This surveyor's account is disabled; enable it before inviting";
/** 409 text when linking to a record that already has an account. */
export const RECORD_ALREADY_LINKED = "This surveyor already has a linked account — unlink it first";
/** 404 text when linking an email nobody has. */
export const NO_ACCOUNT = "No account uses this email address";
/** 409 text when linking an account whose role is not surveyor. */
export const NOT_A_SURVEYOR = "This account is not a surveyor account";
/** 409 text when unlinking a record without an account. */
export const NOT_LINKED = "This surveyor has no linked account";
/** How many days an invitation link works (INVITATION_TTL_MINUTES in days). */
export const INVITATION_VALID_DAYS = INVITATION_TTL_MINUTES / (24 * 60);

/**
 * How often a surveyor may move their own office (`lat`/`lng` of PATCH /api/surveyor/profile)
 * per `OFFICE_MOVE_WINDOW_HOURS`: leads show their distance from the office, so unlimited moves
 * would let anyone trilaterate a lead before buying it.
 */
export const OFFICE_MOVES_PER_WINDOW = 3;
/** The window of `OFFICE_MOVES_PER_WINDOW`, in hours. */
export const OFFICE_MOVE_WINDOW_HOURS = 24;

/** The 429 text when the office was moved too often; `retryAfterSeconds` says when to retry. */
export function officeMovesExhausted(retryAfterSeconds: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  const wait = minutes < 60
    ? `${minutes} minute${minutes === 1 ? "" : "s"}`
    : `${Math.ceil(minutes / 60)} hour${Math.ceil(minutes / 60) === 1 ? "" : "s"}`;
  return `You can move your office location ${OFFICE_MOVES_PER_WINDOW} times in ${OFFICE_MOVE_WINDOW_HOURS} hours. You can move it again in ${wait}; your other changes were not saved either.`;
}

// users.full_name and company_name as the profile form edits them: at most 100 characters.
const USER_TEXT_MAX = 100;

const IdParam = z.object({ id: z.string().max(100) });

const LinkUserInput = z.object({
  email: singleLine("Email", {
    min: 1,
    max: 254,
    messages: {
      min: "Enter the email address of the surveyor's account",
      max: "Enter a valid email address",
    },
  }).pipe(z.email({ error: "Enter a valid email address" })),
}).strict();

function notFound(): never {
  throw new HTTPException(404, { message: SURVEYOR_NOT_FOUND });
}

function conflict(message: string): never {
  throw new HTTPException(409, { message });
}

/** The panel's view of an account. */
export function toSurveyorAccount(user: User): SurveyorAccount {
  return {
    id: user.id,
    fullName: user.fullName,
    email: user.email,
    lastLogin: user.lastLogin,
    disabledAt: user.disabledAt,
  };
}

/** The account linked to `surveyor`, as the admin's account panel shows it, or null. */
export async function getSurveyorAccount(
  db: Db,
  surveyor: Pick<Surveyor, "userId">,
): Promise<SurveyorAccount | null> {
  if (!surveyor.userId) return null;
  const user = await getUserById(db, surveyor.userId);
  return user ? toSurveyorAccount(user) : null;
}

async function reload(db: Db, id: string): Promise<Surveyor> {
  const surveyor = await getSurveyor(db, { id });
  if (!surveyor) notFound();
  return surveyor;
}

/**
 * Surveyor accounts.
 *
 * Admin: `POST /api/surveyors/{id}/invite` creates a surveyor account from the record (its
 * email, the principal's or company's name, company, phone; a random password nobody knows),
 * links it, moves a prospect to invited and queues the invitation with a 7-day set-password
 * link, all in one transaction → 201 `{message, email, surveyor, account}` (`email`: an
 * EmailNotice, whether it leaves or waits in the outbox for want of a mail server, with the
 * message's outbox page); for a linked account
 * that has never signed in it sends a fresh link (200). `POST /api/surveyors/{id}/link-user`
 * `{email}` links an existing surveyor account; `DELETE` unlinks it. Each writes an audit row.
 *
 * Surveyor: `GET`/`PATCH /api/surveyor/profile` read and edit their own record (found by
 * their user id, never by a path id) with the self-service subset of fields. Moving the office
 * (`lat`/`lng`) is limited to `OFFICE_MOVES_PER_WINDOW` per `OFFICE_MOVE_WINDOW_HOURS` (then
 * 429 with `Retry-After`, nothing saved) and each move is audited ('surveyor_office_moved').
 */
export const surveyorAccounts = new Hono<AppEnv>()
  .post(
    "/api/surveyors/:id/invite",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const db = c.var.db;
      const before = await getSurveyor(db, { id });
      if (!before) notFound();
      const recipient = before.userId
        ? (await getUserById(db, before.userId))?.email
        : before.email;
      await enforceActionLimits(c, "invitations", [
        perAccount(c, "surveyor_invites", ACTION_LIMITS.surveyorInvites),
        ...(recipient
          ? [
            await perRecipient(
              "invites_by_recipient",
              recipient,
              ACTION_LIMITS.invitesPerRecipient,
            ),
          ]
          : []),
      ]);
      // The argon2 hash (for a password nobody knows, so the account cannot be used before
      // the link is) is computed before the transaction, and only when an account is made.
      const passwordHash = before.userId ? null : await hashPassword(generatePassword());
      const token = randomToken(32);
      const tokenHash = await hashToken(token);
      const setPasswordUrl = new URL("/reset-password", c.var.deps.config.PUBLIC_URL);
      setPasswordUrl.searchParams.set("token", token);
      const audit = auditContext(c);

      const result = await db.begin(async (tx) => {
        const record = await lockSurveyorAccountLink(tx, { id });
        if (!record) notFound();
        let user: User;
        const isResend = record.userId !== null;
        if (record.userId) {
          const linked = await getUserById(tx, record.userId);
          if (!linked) conflict(RECORD_ALREADY_LINKED);
          if (linked.disabledAt) conflict(ACCOUNT_DISABLED);
          if (linked.lastLogin) conflict(ALREADY_SIGNED_IN);
          user = linked;
        } else {
          if (!record.email) conflict(NO_EMAIL);
          // Unlinked since the first read: nothing was hashed for a new account; ask again.
          if (!passwordHash) conflict("This surveyor changed meanwhile; please try again");
          if (await getUserByEmail(tx, record.email)) conflict(EMAIL_TAKEN);
          const phone = record.phone?.trim() ?? "";
          try {
            user = await insertUser(tx, {
              email: record.email,
              fullName: (record.principalName || record.companyName).slice(0, USER_TEXT_MAX),
              role: "surveyor",
              passwordHash,
              companyName: record.companyName.slice(0, USER_TEXT_MAX),
              phone: PROFILE_PHONE_PATTERN.test(phone) ? phone : null,
            });
          } catch (err) {
            if (err instanceof UserExistsError) conflict(EMAIL_TAKEN);
            throw err;
          }
          await insertAuditEvent(tx, {
            event: "user_created",
            ...audit,
            targetId: user.id,
            details: { role: "surveyor", via: "surveyor_invitation", surveyorId: id },
          });
        }
        await setSurveyorUser(tx, { id, userId: user.id, isInvitation: true });
        await insertPasswordResetToken(tx, {
          userId: user.id,
          tokenHash,
          purpose: "invitation",
          ttlMinutes: INVITATION_TTL_MINUTES,
        });
        const emailId = await queueSurveyorInvitationEmail(tx, {
          to: user.email,
          name: record.principalName || record.companyName,
          companyName: record.companyName,
          setPasswordUrl: setPasswordUrl.href,
          validDays: INVITATION_VALID_DAYS,
        });
        await insertAuditEvent(tx, {
          event: "surveyor_invited",
          ...audit,
          targetId: user.id,
          details: { surveyorId: id, resent: isResend },
        });
        return { user, isResend, emailId, surveyor: await reload(tx, id) };
      });
      const email = emailNotice(c.var.deps.config, {
        emailId: result.emailId,
        isAdmin: true,
        what: `The invitation to ${result.user.email}`,
      });
      return c.json(
        {
          message: email.text,
          email,
          surveyor: result.surveyor,
          account: toSurveyorAccount(result.user),
        },
        result.isResend ? 200 : 201,
      );
    },
  )
  .post(
    "/api/surveyors/:id/link-user",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    zValidator("json", LinkUserInput, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const { email } = c.req.valid("json");
      const audit = auditContext(c);
      const result = await c.var.db.begin(async (tx) => {
        const record = await lockSurveyorAccountLink(tx, { id });
        if (!record) notFound();
        if (record.userId) conflict(RECORD_ALREADY_LINKED);
        const user = await getUserByEmail(tx, email);
        if (!user) throw new HTTPException(404, { message: NO_ACCOUNT });
        if (user.role !== "surveyor") conflict(NOT_A_SURVEYOR);
        if (await getLinkedSurveyorId(tx, { userId: user.id })) {
          conflict(new AccountAlreadyLinkedError().message);
        }
        try {
          await setSurveyorUser(tx, { id, userId: user.id });
        } catch (err) {
          if (err instanceof AccountAlreadyLinkedError) conflict(err.message);
          throw err;
        }
        await insertAuditEvent(tx, {
          event: "surveyor_account_linked",
          ...audit,
          targetId: user.id,
          details: { surveyorId: id },
        });
        return { user, surveyor: await reload(tx, id) };
      });
      return c.json({
        message: "Account linked",
        surveyor: result.surveyor,
        account: toSurveyorAccount(result.user),
      });
    },
  )
  .delete(
    "/api/surveyors/:id/link-user",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const audit = auditContext(c);
      const surveyor = await c.var.db.begin(async (tx) => {
        const record = await lockSurveyorAccountLink(tx, { id });
        if (!record) notFound();
        if (!record.userId) conflict(NOT_LINKED);
        const user = await getUserById(tx, record.userId);
        await setSurveyorUser(tx, { id, userId: null });
        // An invitation not yet used would open an account that no longer has a record.
        if (user && !user.lastLogin) {
          await deletePasswordResetTokens(tx, { userId: record.userId });
        }
        await insertAuditEvent(tx, {
          event: "surveyor_account_unlinked",
          ...audit,
          targetId: record.userId,
          details: { surveyorId: id },
        });
        return await reload(tx, id);
      });
      return c.json({ message: "Account unlinked", surveyor, account: null });
    },
  )
  .get("/api/surveyor/profile", requireRole("surveyor"), async (c) => {
    const surveyor = await getSurveyorByUserId(c.var.db, { userId: c.var.user!.id });
    if (!surveyor) throw new HTTPException(404, { message: NO_SURVEYOR_PROFILE });
    return c.json({ surveyor: toOwnSurveyorProfile(surveyor) });
  })
  .patch(
    "/api/surveyor/profile",
    requireRole("surveyor"),
    zValidator("json", SurveyorProfileUpdateSchema, onInvalid),
    async (c) => {
      const update = c.req.valid("json");
      const userId = c.var.user!.id;
      const current = await getSurveyorByUserId(c.var.db, { userId });
      if (!current) throw new HTTPException(404, { message: NO_SURVEYOR_PROFILE });
      const isMove = update.lat !== undefined &&
        (update.lat !== current.lat || update.lng !== current.lng);
      if (isMove) {
        const limit = await hitRateLimit(c.var.kv, {
          bucket: "office_moves",
          subject: current.id,
          limit: OFFICE_MOVES_PER_WINDOW,
          windowMs: OFFICE_MOVE_WINDOW_HOURS * 3600_000,
        });
        if (!limit.allowed) {
          return c.json({ message: officeMovesExhausted(limit.retryAfterSeconds) }, 429, {
            "Retry-After": String(limit.retryAfterSeconds),
          });
        }
      }
      const saved = await c.var.db.begin(async (tx) => {
        const own = await getSurveyorByUserId(tx, { userId });
        // Locked and checked again, so a record unlinked meanwhile is not edited.
        const record = own && await lockSurveyorAccountLink(tx, { id: own.id });
        if (!own || record?.userId !== userId) {
          throw new HTTPException(404, { message: NO_SURVEYOR_PROFILE });
        }
        // A verified firm's new states and number wait for the admins' licence check
        // (lib/surveyor_licence.ts); the rest of the update takes effect now. Planned from the
        // record as read under the lock, so an admin's decision made meanwhile is not undone.
        const current = await getSurveyor(tx, { id: own.id });
        if (!current) throw new HTTPException(404, { message: NO_SURVEYOR_PROFILE });
        const isVerified = Boolean((await getSurveyorVerification(tx, { id: own.id }))?.verifiedAt);
        if (isVerified && isClearingNumber(current, update)) {
          throw new HTTPException(400, {
            res: Response.json(
              {
                message: VERIFIED_NUMBER_REQUIRED,
                errors: { licenseNumber: VERIFIED_NUMBER_REQUIRED },
              },
              { status: 400 },
            ),
          });
        }
        const plan = isVerified
          ? planLicenceChange(current, update)
          : { direct: update, request: [], withdraw: [] };
        await withdrawLicenceStates(tx, { surveyorId: own.id, states: plan.withdraw });
        if (plan.pendingNumber !== undefined) {
          await setPendingLicenceNumber(tx, {
            surveyorId: own.id,
            licenceNumber: plan.pendingNumber,
          });
        }
        const asked: StateCode[] = await requestLicenceStates(tx, {
          surveyorId: own.id,
          states: plan.request,
          licenceNumber: plan.pendingNumber ?? current.pendingLicenseNumber ??
            current.licenseNumber,
          userId,
        });
        const askedNumber = plan.pendingNumber ?? null;
        if (asked.length || askedNumber) {
          await notifyAdminsOfLicenceRequest(tx, {
            surveyor: current,
            states: asked,
            number: askedNumber,
          });
          await insertAuditEvent(tx, {
            event: "surveyor_licence_requested",
            ...auditContext(c),
            targetId: userId,
            details: {
              surveyorId: own.id,
              states: asked.join(","),
              licenceNumber: askedNumber,
              verifiedNumber: current.licenseNumber,
            },
          });
        }
        const updated = Object.keys(plan.direct).length
          ? await updateSurveyor(tx, { id: own.id, update: plan.direct })
          : await getSurveyor(tx, { id: own.id });
        const notice = licenceCheckNotice({
          states: asked,
          number: askedNumber,
          currentNumber: current.licenseNumber,
        });
        if (updated && (updated.lat !== own.lat || updated.lng !== own.lng)) {
          await insertAuditEvent(tx, {
            event: "surveyor_office_moved",
            ...auditContext(c),
            targetId: userId,
            details: {
              surveyorId: own.id,
              fromLat: own.lat,
              fromLng: own.lng,
              toLat: updated.lat,
              toLng: updated.lng,
            },
          });
        }
        return updated && { updated, notice };
      });
      if (!saved) throw new HTTPException(404, { message: NO_SURVEYOR_PROFILE });
      return c.json({
        message: saved.notice ? `Coverage saved. ${saved.notice}` : "Coverage saved",
        licenceCheck: saved.notice,
        surveyor: toOwnSurveyorProfile(saved.updated),
      });
    },
  );
