import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv, SessionUser } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { auditContext, requireRole, startSession } from "./_auth.ts";
import { enforceActionLimits } from "./_limits.ts";
import { RATE_LIMITS } from "./auth_api.ts";
import {
  EMAIL_TAKEN_MESSAGE,
  LICENCE_FIELDS,
  OFFICE_FIELDS,
  SURVEYOR_NOT_FOUND,
} from "./surveyor_join.tsx";
import { renderPage } from "../components/render.tsx";
import { PublicLayout } from "../components/PublicLayout.tsx";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { Island } from "../components/Island.tsx";
import { LeadCard } from "../components/LeadCard.tsx";
import SurveyorSignUpForm from "../islands/SurveyorSignUpForm.tsx";
import { getActivePricingConfig } from "../db/pricing.ts";
import {
  getUserByEmail,
  insertUser,
  PROFILE_PHONE_PATTERN,
  toSessionUser,
  type User,
  UserExistsError,
} from "../db/users.ts";
import { insertSurveyor, updateSurveyor } from "../db/surveyors.ts";
import { lockSurveyorAccountLink, setSurveyorUser } from "../db/surveyor_accounts.ts";
import { markSurveyorJoined } from "../db/claim_tokens.ts";
import { notifyAdmins } from "../db/notifications.ts";
import { insertAuditEvent } from "../db/audit.ts";
import {
  type ClaimRequestReason,
  decideClaimRequest,
  findDuplicateFirm,
  insertClaimRequest,
  listClaimRequests,
  listProspectMatches,
  lockFirmIdentity,
} from "../db/surveyor_self_join.ts";
import { notifyJoinDecision } from "../lib/surveyor_verification.ts";
import { emailNotice } from "../lib/mail/delivery.ts";
import { firmExists } from "../db/surveyor_licences.ts";
import { AccountAlreadyLinkedError } from "../db/surveyor_accounts.ts";
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../lib/passwords.ts";
import { secret, singleLine } from "../lib/text.ts";
import { SurveyorFieldsSchema } from "../lib/surveyor_schema.ts";
import { type ForSurveyorsFacts, forSurveyorsFacts } from "../lib/surveyor_self_join.ts";
import { formatLeadPrice } from "../lib/lead_pricing.ts";
import {
  REFUND_REASON_LABELS,
  REFUND_REASONS,
  REFUND_REQUEST_DAYS,
  RETURN_WINDOW_DAYS,
} from "../lib/refund_constants.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import { htmlResponse } from "./_html_response.ts";

/** The public page for surveyors. */
export const FOR_SURVEYORS_PATH = "/for-surveyors";
/** Where a new surveyor lands: the dashboard says the licence is being checked. */
export const AFTER_SIGN_UP_PATH = "/surveyor-dashboard";

/** The sign-up's success messages, by outcome. */
export const SIGN_UP_MESSAGES = {
  created: "Welcome to Meridian — we are checking your licence",
  claimed: "Welcome to Meridian — we are checking your licence",
  review:
    "Your account is ready. Your firm is already on Meridian, so our team will review your request and link your account to it.",
} as const;

/** What happened to a sign-up's firm. */
export type SignUpOutcome = keyof typeof SIGN_UP_MESSAGES;

/** 400 when the office address cannot be found. */
export const ADDRESS_NOT_FOUND = "We could not find this address — check it or pick a suggestion";
/** 404 for a claim request that is not pending on that record. */
export const CLAIM_REQUEST_NOT_FOUND = "Claim request not found";

/** Shortest search for a firm. */
export const MATCH_QUERY_MIN = 2;

const fields = SurveyorFieldsSchema.shape;
const Password = secret("Password", { min: PASSWORD_MIN_LENGTH, max: PASSWORD_MAX_LENGTH });
// users.full_name and company_name as the profile form edits them: at most 100 characters.
const USER_TEXT_MAX = 100;

/** `POST /api/surveyors/join`: the account, the firm (or the prospect chosen) and its coverage. */
export const SignUpSchema = z.strictObject({
  surveyorId: z.uuid({ error: SURVEYOR_NOT_FOUND }).nullable().optional(),
  companyName: singleLine("Company name", { min: 1, max: 200 }),
  principalName: singleLine("Full name", { min: 1, max: USER_TEXT_MAX }),
  email: singleLine("Email", { max: 254 }).pipe(z.email("Please enter a valid email address")),
  password: Password,
  confirmPassword: Password.optional(),
  phone: fields.phone,
  ...LICENCE_FIELDS,
  ...OFFICE_FIELDS,
}).refine((v) => v.confirmPassword === undefined || v.confirmPassword === v.password, {
  error: "Passwords don't match",
  path: ["confirmPassword"],
}).refine((v) => (v.lat == null) === (v.lng == null), {
  error: "Give both latitude and longitude, or neither",
  path: ["lat"],
});

type SignUpInput = z.infer<typeof SignUpSchema>;

const MatchQuery = z.object({
  q: singleLine("Search", {
    min: MATCH_QUERY_MIN,
    max: 100,
    messages: {
      type: "Search for your firm's name, licence number or town",
      min: "Type at least 2 characters",
    },
  }),
});

/** Searches per visitor address: a person types a few; a script walking the directory many. */
export const MATCH_SEARCH_LIMIT = { limit: 60, windowMs: 10 * 60_000 } as const;

const IdParam = z.object({ id: z.uuid({ error: SURVEYOR_NOT_FOUND }) });
const RequestParams = z.object({
  id: z.uuid({ error: SURVEYOR_NOT_FOUND }),
  requestId: z.uuid({ error: CLAIM_REQUEST_NOT_FOUND }),
});
const Decision = z.strictObject({
  decision: z.enum(["approve", "deny"], { error: "Decision must be approve or deny" }),
});

function fieldError(field: string, message: string, status: 400 | 409 = 400): never {
  throw new HTTPException(status, {
    res: new Response(JSON.stringify({ message, errors: { [field]: message } }), {
      status,
      headers: { "Content-Type": "application/json" },
    }),
  });
}

function Section(
  { id, title, children }: { id: string; title: string; children: React.ReactNode },
) {
  return (
    <section className="card" aria-labelledby={id}>
      <div className="card__body stack">
        <h2 id={id}>{title}</h2>
        {children}
      </div>
    </section>
  );
}

function ForSurveyorsPage(
  { facts, user }: { facts: ForSurveyorsFacts; user: SessionUser | null },
) {
  const { lead } = facts;
  const typeShares = Object.entries(lead.sharePercent).map(([type, percent]) => (
    <li key={type}>
      {`${SURVEY_TYPE_INFO[type as keyof typeof SURVEY_TYPE_INFO]?.name ?? type}: ${percent}%`}
    </li>
  ));
  return (
    <PublicLayout user={user}>
      <section className="page-hero">
        <div className="container">
          <Breadcrumbs items={[{ href: "/", label: "Home" }, { label: "For surveyors" }]} />
          <p className="eyebrow">For surveyors</p>
          <h1>Survey leads near you, priced before you pay</h1>
          <p className="page-hero__lead">
            Clients ask Meridian for boundary, topographic, ALTA, elevation and construction surveys
            and get an instant quote. Licensed firms in the area see each request and choose the
            ones they want. No subscription and no monthly fee: you pay only for the leads you take.
          </p>
          <p>
            <a className="btn btn--primary" href="#join">Join as a surveyor</a>{" "}
            <a className="btn btn--secondary" href="/auth">Sign in</a>
          </p>
        </div>
      </section>
      <div className="container content-layout">
        <div className="content-layout__main stack">
          <Section id="lead-price-title" title="What a lead costs">
            <p>
              {`A lead costs a share of the client's instant quote, set by the survey type, never less than ${
                formatLeadPrice(lead.floorCents)
              } and never more than ${formatLeadPrice(lead.capCents)}.`}
            </p>
            <ul>{typeShares}</ul>
            <p>
              {`A subdivision survey has no instant quote (it is quoted by hand), so its lead costs a flat ${
                formatLeadPrice(lead.subdivisionFlatCents)
              }. You see the price and how it was worked out on every lead before you buy it.`}
            </p>
          </Section>
          <Section id="sharing-title" title="Sharing and claiming">
            <p>
              {`Each lead can be bought by up to ${lead.maxBuyers} surveyors. Buying it shows you the client's name, phone, email and address so you can send a proposal and talk it through; the client chooses the firm. A lead stays open for ${lead.expiryDays} days.`}
            </p>
            <p>
              {`While nobody has bought a lead, you can claim it instead: you take the job at the client's instant quote and nobody else can buy it. A claim costs ${lead.claimFeeMultiple} times the lead price, and your first claimed job has no claim fee.`}
            </p>
          </Section>
          <Section id="returns-title" title="Returns">
            <p>
              {`If the client cancels the request, every purchase made in the ${RETURN_WINDOW_DAYS} days before is refunded to your balance automatically. Within ${REFUND_REQUEST_DAYS} days of buying you can also ask for a lead to be returned for one of these reasons; an admin decides:`}
            </p>
            <ul>
              {REFUND_REASONS.map((r) => <li key={r}>{REFUND_REASON_LABELS[r]}</li>)}
            </ul>
            <p>
              A lead that became your job (marked won, or assigned to you) can no longer be
              returned.
            </p>
          </Section>
          <Section id="example-title" title="An example lead">
            <p className="muted" data-testid="example-label">
              Example only: not a real request. This is how a lead looks before you buy it, priced
              with today's lead prices.
            </p>
            <LeadCard lead={facts.example} now={facts.now} level={3} />
          </Section>
          <section className="card" id="join" aria-labelledby="join-title">
            <div className="card__body stack">
              <h2 id="join-title">Join as a surveyor</h2>
              <p>
                Find your firm in our directory to claim its listing, or add it if it is not there.
                We check your licence before you can buy leads.
              </p>
              <Island component={SurveyorSignUpForm} props={{}} hydrate="visible" />
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
              A Meridian admin verifies your licence number and states before you can buy leads;
              meanwhile you can complete your profile, add your crew and top up your balance.
            </li>
            <li>
              <strong>Take on jobs near you.</strong>{" "}
              See each lead's price before you pay, buy it to contact the client, or claim the job
              at the client's quote.
            </li>
          </ol>
        </aside>
      </div>
    </PublicLayout>
  );
}

/** The account's firm fields from the sign-up (what the admin's record form holds). */
function firmFields(input: SignUpInput, point: { lat: number; lng: number } | null) {
  return {
    companyName: input.companyName,
    principalName: input.principalName,
    licenseNumber: input.licenseNumber,
    licenseStates: input.licenseStates,
    email: input.email,
    phone: input.phone ?? null,
    address: input.address,
    city: input.city ?? null,
    state: input.state ?? null,
    zip: input.zip ?? null,
    lat: point?.lat ?? null,
    lng: point?.lng ?? null,
    serviceRadiusMiles: input.serviceRadiusMiles,
    surveyTypes: input.surveyTypes,
  };
}

/**
 * Firms that join by themselves (issue 22):
 *
 * - `GET /for-surveyors` (public): what leads cost (the active pricing configuration's lead
 *   section), sharing and claiming, returns, an example lead priced by the same code, and the
 *   sign-up form (islands/SurveyorSignUpForm).
 * - `GET /api/surveyors/join/matches?q=` (public, rate limited per address) → `{matches}`:
 *   prospects (no account) by company name, town or licence number; directory fields only.
 * - `POST /api/surveyors/join` (public, rate limited like registration) → 201 `{message,
 *   outcome, user, next}`: creates the surveyor account and signs it in, and
 *   - `surveyorId` of a prospect chosen from the matches: claims it (outcome `claimed`);
 *   - none, and no other record has the firm: a new record, source signup (outcome `created`);
 *   either way the firm waits in the licence check (status pending) and the admins are told;
 *   - the licence number is on another record, the same company is there in the same state, or
 *     the chosen record has an account already: no firm is made or changed; the request is
 *     attached to that record for the admins to review (outcome `review`).
 *   409 when the email has an account; 400 for bad input or an address that cannot be found;
 *   404 for an unknown `surveyorId`. Nothing is stored on any error.
 * - `GET /api/surveyors/{id}/claim-requests` (admin) → `{requests}`: the sign-ups that went to
 *   review on that record, with what they typed.
 * - `POST /api/surveyors/{id}/claim-requests/{requestId}` `{decision: "approve"|"deny"}`
 *   (admin) → `{message}`: approve links the account to the record (a prospect or invited one
 *   goes to the licence check), deny closes the request; the person is told (bell and the
 *   SurveyorJoinDecided email; `email` is the EmailNotice, true about a missing mail server). 404 when the
 *   request is not pending on that record, 409 when the record has an account already.
 */
export const surveyorSelfJoin = new Hono<AppEnv>()
  .get(FOR_SURVEYORS_PATH, async (c) => {
    const { config } = await getActivePricingConfig(c.var.db);
    const facts = forSurveyorsFacts(config, new Date());
    return htmlResponse(
      c,
      renderPage(
        c,
        {
          title: "For surveyors: survey leads near you",
          description:
            "Join Meridian as a licensed land surveyor: see survey requests near you, pay only for the leads you take, with the price shown before you buy.",
          path: FOR_SURVEYORS_PATH,
        },
        <ForSurveyorsPage facts={facts} user={c.var.user} />,
      ),
    );
  })
  .get(
    "/api/surveyors/join/matches",
    zValidator("query", MatchQuery, onInvalid),
    async (c) => {
      await enforceActionLimits(c, "searches", [
        { bucket: "surveyor_join_search_ip", subject: c.var.clientIp, ...MATCH_SEARCH_LIMIT },
      ]);
      c.header("Cache-Control", "private, no-store");
      const matches = await listProspectMatches(c.var.db, { q: c.req.valid("query").q });
      return c.json({ matches });
    },
  )
  .post("/api/surveyors/join", zValidator("json", SignUpSchema, onInvalid), async (c) => {
    const input = c.req.valid("json");
    await enforceActionLimits(c, "sign-up attempts", [
      { bucket: "surveyor_join_ip", subject: c.var.clientIp, ...RATE_LIMITS.register },
    ]);
    const db = c.var.db;
    if (await getUserByEmail(db, input.email)) fieldError("email", EMAIL_TAKEN_MESSAGE, 409);
    let point = input.lat != null && input.lng != null ? { lat: input.lat, lng: input.lng } : null;
    if (!point) {
      const found = await c.var.deps.geo.geocode({ address: input.address });
      if (!found) fieldError("address", ADDRESS_NOT_FOUND);
      point = { lat: found.lat, lng: found.lng };
    }
    const passwordHash = await hashPassword(input.password);
    const audit = auditContext(c);
    const phone = input.phone?.trim() ?? "";
    const firm = firmFields(input, point);

    const result = await db.begin(async (tx) => {
      await lockFirmIdentity(tx, input);
      let claimed: { id: string; userId: string | null; status: string } | undefined;
      if (input.surveyorId) {
        claimed = await lockSurveyorAccountLink(tx, { id: input.surveyorId });
        if (!claimed) fieldError("surveyorId", SURVEYOR_NOT_FOUND);
      }
      const isClaimable = claimed?.status === "prospect" && claimed.userId === null;
      const duplicate = await findDuplicateFirm(tx, {
        companyName: input.companyName,
        states: [...new Set([...(input.state ? [input.state] : []), ...input.licenseStates])],
        licenseNumber: input.licenseNumber,
        excludeId: claimed?.id,
      });
      let user: User;
      try {
        user = await insertUser(tx, {
          email: input.email,
          username: input.email,
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
      let outcome: SignUpOutcome;
      let surveyorId: string;
      let reason: ClaimRequestReason | null = null;
      if (duplicate || (claimed && !isClaimable)) {
        outcome = "review";
        surveyorId = duplicate?.id ?? claimed!.id;
        reason = duplicate?.reason ?? "taken";
        await insertClaimRequest(tx, {
          surveyorId,
          userId: user.id,
          reason,
          details: { ...firm, chosenSurveyorId: claimed?.id ?? null },
        });
      } else if (claimed) {
        outcome = "claimed";
        surveyorId = claimed.id;
        await setSurveyorUser(tx, { id: surveyorId, userId: user.id });
        await updateSurveyor(tx, { id: surveyorId, update: firm });
        await markSurveyorJoined(tx, { id: surveyorId });
      } else {
        outcome = "created";
        const record = await insertSurveyor(tx, {
          ...firm,
          status: "pending",
          inNetwork: true,
          source: "signup",
          userId: user.id,
        });
        surveyorId = record.id;
      }
      await insertAuditEvent(tx, {
        event: "user_created",
        ...audit,
        actorId: user.id,
        targetId: user.id,
        details: { role: "surveyor", via: "surveyor_sign_up", surveyorId, outcome },
      });
      if (outcome !== "review") {
        await insertAuditEvent(tx, {
          event: "surveyor_account_linked",
          ...audit,
          actorId: user.id,
          targetId: user.id,
          details: { surveyorId, via: "surveyor_sign_up" },
        });
      }
      const licence = `${input.licenseNumber} (${input.licenseStates.join(", ")})`;
      await notifyAdmins(
        tx,
        outcome === "review"
          ? {
            kind: "surveyor_joined",
            title: `${input.companyName} signed up — already on Meridian, review needed`,
            body:
              `${input.principalName} (${input.email}) signed up for a firm that is already on record (${
                reason === "licence_number"
                  ? `licence ${input.licenseNumber} is on it`
                  : reason === "company_state"
                  ? "same company name and state"
                  : "the listing already has an account"
              }). Check licence ${licence}, then link the account or decline the request.`,
            link: `/surveyor-detail/${surveyorId}`,
          }
          : {
            kind: "surveyor_joined",
            title: `${input.companyName} joined — licence check needed`,
            body: `${input.principalName} signed up on /for-surveyors${
              outcome === "claimed" ? " and claimed their directory listing" : ""
            }. Check licence ${licence}, then verify it so they can buy leads.`,
            link: `/surveyor-detail/${surveyorId}`,
          },
      );
      // The account and the session stand or fall together (as registration does).
      await startSession(c, { userId: user.id, role: user.role });
      return { user, outcome };
    });
    return c.json({
      message: SIGN_UP_MESSAGES[result.outcome],
      outcome: result.outcome,
      user: toSessionUser(result.user),
      next: AFTER_SIGN_UP_PATH,
    }, 201);
  })
  .get(
    "/api/surveyors/:id/claim-requests",
    requireRole("admin"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      c.header("Cache-Control", "private, no-store");
      const { id } = c.req.valid("param");
      if (!await firmExists(c.var.db, { id })) {
        throw new HTTPException(404, { message: SURVEYOR_NOT_FOUND });
      }
      const requests = await listClaimRequests(c.var.db, { surveyorId: id });
      return c.json({ requests });
    },
  )
  .post(
    "/api/surveyors/:id/claim-requests/:requestId",
    requireRole("admin"),
    zValidator("param", RequestParams, onInvalid),
    zValidator("json", Decision, onInvalid),
    async (c) => {
      const { id, requestId } = c.req.valid("param");
      const { decision } = c.req.valid("json");
      const adminId = c.var.session?.impersonatorId ?? c.var.user!.id;
      const message = await c.var.db.begin(async (tx) => {
        const record = await lockSurveyorAccountLink(tx, { id });
        if (!record) throw new HTTPException(404, { message: SURVEYOR_NOT_FOUND });
        if (decision === "approve" && record.userId) {
          throw new HTTPException(409, {
            message:
              `${record.companyName} already has an account; unlink it first to give the firm to this person`,
          });
        }
        const request = await decideClaimRequest(tx, {
          id: requestId,
          surveyorId: id,
          status: decision === "approve" ? "approved" : "denied",
        });
        if (!request) throw new HTTPException(404, { message: CLAIM_REQUEST_NOT_FOUND });
        if (decision === "approve") {
          try {
            await setSurveyorUser(tx, { id, userId: request.userId });
          } catch (err) {
            if (err instanceof AccountAlreadyLinkedError) {
              throw new HTTPException(409, { message: err.message });
            }
            throw err;
          }
          // A firm not yet verified goes to the licence check; a verified one stays active.
          if (record.status === "prospect" || record.status === "invited") {
            await markSurveyorJoined(tx, { id });
          }
        }
        const email = await notifyJoinDecision(tx, {
          userId: request.userId,
          companyName: record.companyName,
          decision: decision === "approve" ? "linked" : "declined",
          publicUrl: c.var.deps.config.PUBLIC_URL,
        });
        await insertAuditEvent(tx, {
          event: decision === "approve" ? "surveyor_account_linked" : "surveyor_claim_denied",
          ...auditContext(c),
          actorId: adminId,
          targetId: request.userId,
          details: { surveyorId: id, via: "claim_request", requestId },
        });
        return {
          text: decision === "approve"
            ? `Account linked to ${record.companyName}`
            : `Request declined; the person is told in the app`,
          email,
        };
      });
      return c.json({
        message: message.text,
        email: message.email &&
          emailNotice(c.var.deps.config, {
            emailId: message.email.emailId,
            isAdmin: true,
            what: `The email to ${message.email.to}`,
          }),
      });
    },
  );
