import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppContext, AppEnv, SessionUser } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { auditContext, requireRole, startSession } from "./_auth.ts";
import { renderPage } from "../components/render.tsx";
import { PublicLayout } from "../components/PublicLayout.tsx";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { Island } from "../components/Island.tsx";
import SurveyorJoinForm, { type SurveyorJoinFormProps } from "../islands/SurveyorJoinForm.tsx";
import {
  CLAIM_TOKEN_TTL_DAYS,
  type ClaimRecord,
  type ClaimTokenState,
  consumeClaimToken,
  getClaimToken,
  markSurveyorJoined,
  verifySurveyor,
  voidClaimTokens,
} from "../db/claim_tokens.ts";
import {
  getUserByEmail,
  insertUser,
  PROFILE_PHONE_PATTERN,
  toSessionUser,
  type User,
  UserExistsError,
} from "../db/users.ts";
import { getSurveyor, updateSurveyor } from "../db/surveyors.ts";
import { lockSurveyorAccountLink, setSurveyorUser } from "../db/surveyor_accounts.ts";
import { notifyAdmins } from "../db/notifications.ts";
import { notifyLicenceVerified } from "../lib/surveyor_verification.ts";
import { insertAuditEvent } from "../db/audit.ts";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../lib/passwords.ts";
import { hashToken } from "../lib/sessions.ts";
import { secret, singleLine } from "../lib/text.ts";
import { STATE_CODES } from "../lib/survey_options.ts";
import { SURVEY_TYPES } from "../lib/survey_types.ts";
import {
  SURVEYOR_STATUS_LABELS,
  SurveyorFieldsSchema,
  type SurveyorUpdate,
} from "../lib/surveyor_schema.ts";
import { CLAIM_TOKEN_SHAPE } from "./public_leads.tsx";
import { htmlResponse } from "./_html_response.ts";

/** The join API's success message. */
export const WELCOME_MESSAGE = "Welcome to Meridian";
/** 409 when the email already has an account. */
export const EMAIL_TAKEN_MESSAGE = "An account with this email already exists — sign in instead";
/** 4xx texts for a claim link that does not work, by why. */
export const CLAIM_LINK_MESSAGES: Record<Exclude<ClaimTokenState, "valid">, string> = {
  unknown: "This invitation link is not valid",
  used: "This invitation link has already been used — sign in instead",
  expired: "This invitation link has expired — contact us for a new one",
};
/** 404 text for an unknown surveyor record. */
export const SURVEYOR_NOT_FOUND = "Surveyor not found";

const CLAIM_STATUS: Record<Exclude<ClaimTokenState, "valid">, 404 | 410> = {
  unknown: 404,
  used: 410,
  expired: 410,
};

// users.full_name and company_name as the profile form edits them: at most 100 characters.
const USER_TEXT_MAX = 100;

const fields = SurveyorFieldsSchema.shape;
const stateCode = z.enum(STATE_CODES, { error: "Unknown state" });
const surveyType = z.enum(SURVEY_TYPES, { error: "Unknown survey type" });

const Password = secret("Password", { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH });

/** `POST /api/surveyor/join`: the invitation's token, the account and the record's coverage. */

/** A firm's licence, as the join form and the self sign-up (surveyor_self_join.tsx) take it. */
export const LICENCE_FIELDS = {
  licenseNumber: singleLine("Licence number", { min: 1, max: 60 }),
  licenseStates: z.array(stateCode, { error: "Licensed states must be a list of states" })
    .min(1, { error: "Choose the states you are licensed in" })
    .max(STATE_CODES.length, { error: "Too many licensed states" }),
};

/** A firm's office and coverage, as the join form and the self sign-up take them. */
export const OFFICE_FIELDS = {
  address: singleLine("Office address", {
    min: 1,
    max: 300,
    messages: { min: "Enter your office address" },
  }),
  city: fields.city,
  state: fields.state,
  zip: fields.zip,
  lat: fields.lat,
  lng: fields.lng,
  serviceRadiusMiles: fields.serviceRadiusMiles.unwrap(),
  surveyTypes: z.array(surveyType, { error: "Survey types must be a list" })
    .min(1, { error: "Choose the survey types you offer" })
    .max(SURVEY_TYPES.length),
};
export const JoinSchema = z.strictObject({
  token: z.string({ error: CLAIM_LINK_MESSAGES.unknown }).regex(CLAIM_TOKEN_SHAPE, {
    error: CLAIM_LINK_MESSAGES.unknown,
  }),
  companyName: singleLine("Company name", { min: 1, max: 200 }),
  principalName: singleLine("Full name", { min: 1, max: USER_TEXT_MAX }),
  ...LICENCE_FIELDS,
  phone: fields.phone,
  ...OFFICE_FIELDS,
  email: singleLine("Email", { max: 254, messages: { max: "Enter a valid email address" } })
    .pipe(z.email({ error: "Enter a valid email address" })).optional(),
  password: Password,
  confirmPassword: Password.optional(),
}).refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.password, {
  error: "Passwords don't match",
  path: ["confirmPassword"],
}).refine((v) => (v.lat == null) === (v.lng == null), {
  error: "Give both latitude and longitude, or neither",
  path: ["lat"],
});

const IdParam = z.object({ id: z.string().max(100) });
// A bad token in the address is no token: the page explains the link does not work.
const ClaimQuery = z.object({ token: z.string().optional().catch(undefined) });

function fieldError(field: string, message: string, status: 400 | 409 = 400): never {
  throw new HTTPException(status, {
    res: new Response(JSON.stringify({ message, errors: { [field]: message } }), {
      status,
      headers: { "Content-Type": "application/json" },
    }),
  });
}

function linkProblem(state: Exclude<ClaimTokenState, "valid">): never {
  throw new HTTPException(CLAIM_STATUS[state], { message: CLAIM_LINK_MESSAGES[state] });
}

async function readToken(c: AppContext, token: string | undefined) {
  if (!token || !CLAIM_TOKEN_SHAPE.test(token)) return { state: "unknown" as const };
  return await getClaimToken(c.var.db, { tokenHash: await hashToken(token) });
}

const LINK_PAGES: Record<Exclude<ClaimTokenState, "valid">, { heading: string; text: string }> = {
  unknown: {
    heading: "This invitation link is not valid",
    text:
      "Check that you opened the whole link from the invitation email. If it still does not work, contact us and we will send you a new invitation.",
  },
  used: {
    heading: "This invitation has already been used",
    text:
      "An account was already created with this invitation. Sign in with the email address and password chosen then; if you forgot the password, you can reset it from the sign-in page.",
  },
  expired: {
    heading: "This invitation link has expired",
    text:
      `Invitation links work for ${CLAIM_TOKEN_TTL_DAYS} days. Contact us and we will send you a new one.`,
  },
};

function LinkProblemPage(
  { state, user }: { state: Exclude<ClaimTokenState, "valid">; user: SessionUser | null },
) {
  const page = LINK_PAGES[state];
  return (
    <PublicLayout user={user}>
      <section className="container error-page">
        <p className="eyebrow">Join Meridian</p>
        <h1>{page.heading}</h1>
        <p className="error-page__text">{page.text}</p>
        {state === "unknown"
          ? (
            <p className="error-page__text">
              No invitation? <a href="/for-surveyors">Join Meridian as a surveyor</a>{" "}
              and find your firm in our directory.
            </p>
          )
          : null}
        <p className="error-page__actions">
          {state === "used"
            ? <a className="btn btn--primary" href="/auth">Sign in</a>
            : <a className="btn btn--primary" href="/support/contact">Contact us</a>}
          <a className="btn btn--secondary" href="/">Back to home</a>
        </p>
      </section>
    </PublicLayout>
  );
}

function formProps(token: string, record: ClaimRecord): SurveyorJoinFormProps {
  return {
    token,
    email: record.email,
    initial: {
      companyName: record.companyName,
      principalName: record.principalName,
      licenseNumber: record.licenseNumber,
      licenseStates: record.licenseStates,
      phone: record.phone,
      address: record.address,
      city: record.city,
      state: record.state,
      zip: record.zip,
      lat: record.lat,
      lng: record.lng,
      serviceRadiusMiles: record.serviceRadiusMiles,
      surveyTypes: record.surveyTypes,
    },
  };
}

function JoinPage(
  { token, record, user }: { token: string; record: ClaimRecord; user: SessionUser | null },
) {
  return (
    <PublicLayout user={user}>
      <section className="page-hero">
        <div className="container">
          <Breadcrumbs items={[{ href: "/", label: "Home" }, { label: "Join Meridian" }]} />
          <p className="eyebrow">Join Meridian</p>
          <h1>Join Meridian as a surveyor</h1>
          <p className="page-hero__lead">
            {`You were invited to bring ${record.companyName} to Meridian. Check the details we have, add your licence and the area you cover, and choose a password.`}
          </p>
        </div>
      </section>
      <div className="container content-layout">
        <div className="content-layout__main stack">
          {user
            ? (
              <p className="alert alert--warning">
                {`You are signed in as ${user.email}. Creating this account signs you out of that one and into the new surveyor account.`}
              </p>
            )
            : null}
          <section className="card" aria-labelledby="join-form-title">
            <div className="card__body stack">
              <h2 id="join-form-title">Your surveyor account</h2>
              <Island
                component={SurveyorJoinForm}
                props={formProps(token, record)}
                hydrate="load"
              />
            </div>
          </section>
        </div>
        <aside className="content-layout__aside" aria-labelledby="join-steps-title">
          <h2 id="join-steps-title" className="side-nav__heading">How joining works</h2>
          <ol className="stack">
            <li>
              <strong>Create your account</strong> with your licence details and the area you cover.
            </li>
            <li>
              <strong>We check your licence.</strong>{" "}
              A Meridian admin verifies your licence number and state before you can buy leads;
              until then your dashboard says the licence check is pending.
            </li>
            <li>
              <strong>Take on jobs near you.</strong>{" "}
              See each lead's price before you pay, buy it to contact the client, or claim the job
              at the client's quote. Your first claimed job has no claim fee.
            </li>
          </ol>
        </aside>
      </div>
    </PublicLayout>
  );
}

/** The coverage and company fields the join form sets on the record. */
function recordUpdate(
  input: z.infer<typeof JoinSchema>,
  email: string | null,
): SurveyorUpdate {
  const update: SurveyorUpdate = {
    companyName: input.companyName,
    principalName: input.principalName,
    licenseNumber: input.licenseNumber,
    licenseStates: input.licenseStates,
    address: input.address,
    serviceRadiusMiles: input.serviceRadiusMiles,
    surveyTypes: input.surveyTypes,
  };
  for (const key of ["phone", "city", "state", "zip", "lat", "lng"] as const) {
    if (input[key] !== undefined) (update as Record<string, unknown>)[key] = input[key];
  }
  if (email) update.email = email;
  return update;
}

/**
 * Joining from an invitation, and the admin's licence check.
 *
 * - `GET /surveyor/claim?token=…` (public): a valid, unused, unexpired link shows the join form
 *   prefilled from the prospect record (islands/SurveyorJoinForm); an unknown link is a 404
 *   page, a used or expired one a 410 page, each saying what to do. Never cached or indexed.
 * - `POST /api/surveyor/join` (public, the token is the credential): in one transaction uses
 *   the token (and voids the record's other links), creates the surveyor account (409 when
 *   the email has one), links it to the record, saves the company, licence and coverage, puts
 *   the record in `pending` (licence check) and in the network (source kept), notifies the
 *   admins ('surveyor_joined', link /surveyor-detail/{id}) and opens a session (a fresh id,
 *   replacing any current one) → 201 `{message: "Welcome to Meridian", user}`. An unknown link
 *   is a 404, a used or expired one a 410; nothing is stored then.
 * - `POST /api/surveyors/{id}/verify` (admin): pending (or prospect/invited with an account) →
 *   active with verified_at/verified_by; the surveyor is notified → `{message, surveyor}`; 409
 *   in any other state (an active record is always verified already: lib/surveyor_constants.ts
 *   SURVEYOR_STATUSES), 404 for an unknown record.
 */
export const surveyorJoin = new Hono<AppEnv>()
  .get("/surveyor/claim", zValidator("query", ClaimQuery, onInvalid), async (c) => {
    c.header("Cache-Control", "private, no-store");
    c.header("X-Robots-Tag", "noindex");
    const token = c.req.valid("query").token;
    const user = c.var.user;
    const found = await readToken(c, token);
    if (found.state !== "valid" || !found.record) {
      const state = found.state === "valid" ? "unknown" : found.state;
      return htmlResponse(
        c,
        renderPage(
          c,
          { title: LINK_PAGES[state].heading, noindex: true, hasSecretInUrl: true },
          <LinkProblemPage state={state} user={user} />,
        ),
        CLAIM_STATUS[state],
      );
    }
    return htmlResponse(
      c,
      renderPage(
        c,
        { title: "Join Meridian as a surveyor", noindex: true, hasSecretInUrl: true },
        <JoinPage token={token!} record={found.record} user={user} />,
      ),
    );
  })
  .post("/api/surveyor/join", zValidator("json", JoinSchema, onInvalid), async (c) => {
    const input = c.req.valid("json");
    const tokenHash = await hashToken(input.token);
    // Checked before the password is hashed, so a bad link costs no argon2 work.
    const found = await readToken(c, input.token);
    if (found.state !== "valid" || !found.record) {
      linkProblem(found.state === "valid" ? "unknown" : found.state);
    }
    const recordEmail = found.record.email;
    if (recordEmail && input.email && input.email.toLowerCase() !== recordEmail.toLowerCase()) {
      fieldError(
        "email",
        `Your account uses the email address the invitation was sent to: ${recordEmail}`,
      );
    }
    const email = recordEmail ?? input.email;
    if (!email) fieldError("email", "Enter your email address");
    if (await getUserByEmail(c.var.db, email)) fieldError("email", EMAIL_TAKEN_MESSAGE, 409);
    const passwordHash = await hashPassword(input.password);
    const audit = auditContext(c);
    const phone = input.phone?.trim() ?? "";

    const user = await c.var.db.begin(async (tx) => {
      const used = await consumeClaimToken(tx, { tokenHash });
      if (!used) linkProblem("used");
      const record = await lockSurveyorAccountLink(tx, { id: used.surveyorId });
      if (!record || record.status === "paused") linkProblem("unknown");
      if (record.userId) linkProblem("used");
      let created: User;
      try {
        created = await insertUser(tx, {
          email,
          fullName: input.principalName,
          role: "surveyor",
          passwordHash,
          companyName: input.companyName.slice(0, USER_TEXT_MAX),
          phone: PROFILE_PHONE_PATTERN.test(phone) ? phone : null,
          isSigningIn: true,
        });
      } catch (err) {
        if (err instanceof UserExistsError) fieldError("email", EMAIL_TAKEN_MESSAGE, 409);
        throw err;
      }
      await setSurveyorUser(tx, { id: record.id, userId: created.id });
      await updateSurveyor(tx, {
        id: record.id,
        update: recordUpdate(input, record.email ? null : email),
      });
      await markSurveyorJoined(tx, { id: record.id });
      await voidClaimTokens(tx, { surveyorId: record.id });
      await insertAuditEvent(tx, {
        event: "user_created",
        ...audit,
        actorId: created.id,
        targetId: created.id,
        details: { role: "surveyor", via: "surveyor_claim", surveyorId: record.id },
      });
      await insertAuditEvent(tx, {
        event: "surveyor_account_linked",
        ...audit,
        actorId: created.id,
        targetId: created.id,
        details: { surveyorId: record.id, via: "surveyor_claim" },
      });
      await notifyAdmins(tx, {
        kind: "surveyor_joined",
        title: `${input.companyName} joined — licence check needed`,
        body:
          `${input.principalName} created a surveyor account from an invitation. Check licence ${input.licenseNumber} (${
            input.licenseStates.join(", ")
          }), then verify it so they can buy leads.`,
        link: `/surveyor-detail/${record.id}`,
      });
      // The account and the session stand or fall together (as registration does).
      await startSession(c, { userId: created.id, role: created.role });
      return created;
    });
    return c.json({ message: WELCOME_MESSAGE, user: toSessionUser(user) }, 201);
  })
  .post(
    "/api/surveyors/:id/verify",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const adminId = c.var.session?.impersonatorId ?? c.var.user!.id;
      const surveyor = await c.var.db.begin(async (tx) => {
        const record = await lockSurveyorAccountLink(tx, { id });
        if (!record) throw new HTTPException(404, { message: SURVEYOR_NOT_FOUND });
        if (!await verifySurveyor(tx, { id, adminId })) {
          const why = record.status === "active"
            ? `${record.companyName}'s licence is already verified`
            : record.status === "paused"
            ? `${record.companyName} is paused; set their status to Active to resume them (a licence never verified is then recorded as verified by you)`
            : `${record.companyName} has no account yet, so there is nothing to verify (status: ${
              SURVEYOR_STATUS_LABELS[record.status]
            })`;
          throw new HTTPException(409, { message: why });
        }
        if (record.userId) {
          await notifyLicenceVerified(tx, {
            userId: record.userId,
            publicUrl: c.var.deps.config.PUBLIC_URL,
          });
        }
        return await getSurveyor(tx, { id });
      });
      if (!surveyor) throw new HTTPException(404, { message: SURVEYOR_NOT_FOUND });
      return c.json({
        message: `Licence verified — ${surveyor.companyName} can now buy leads`,
        surveyor,
      });
    },
  );
