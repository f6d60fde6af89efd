/**
 * Every byte of bad input is a 4xx: walks the real route table of the app and sends every
 * /api endpoint, signed in with a role allowed to call it, a valid sample with one thing broken
 * at a time — NUL and other control characters, a lone surrogate, invalid UTF-8 bytes, a
 * 100-deep object, an array, a number, null, a string over the length limit, a body over the
 * 64 KB limit, a missing field, unknown and malformed ids. Every answer must be a 4xx JSON
 * `{message}` (never a 500, never a 2xx, never a 401/403/429 that would hide the check behind
 * the guard) and no table may change. Then the unbroken sample must succeed, which proves that
 * each refusal came from the one broken value.
 *
 * A route added without a sample fails the first test, so the table stays complete.
 */
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, ORIGIN, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser, TEST_PASSWORD, type TestUser } from "../_auth.ts";
import { submitSurvey, surveyRequest } from "../_fixtures.ts";
import type { Role } from "../../lib/roles.ts";
import type { Survey } from "../../lib/survey_schema.ts";
import { insertContactMessage } from "../../db/contact_messages.ts";
import { insertDiscountCode } from "../../db/discounts.ts";
import { insertNotification } from "../../db/notifications.ts";
import { insertPasswordResetToken } from "../../db/password_resets.ts";
import { getActivePricingConfig } from "../../db/pricing.ts";
import { hashToken, randomToken } from "../../lib/sessions.ts";
import { addContact, insertSurveyor } from "../../db/surveyors.ts";
import { insertClaimRequest } from "../../db/surveyor_self_join.ts";
import { postLedgerEntry } from "../../db/ledger.ts";
import { buyLead } from "../../db/lead_market.ts";
import { addLead } from "../_lead_fixtures.ts";
import { addStoredFile } from "../_file_fixtures.ts";
import { insertClaimToken } from "../../db/claim_tokens.ts";
import { instantiateChecklist } from "../../db/checklists.ts";
import { insertOutboxEmail } from "../../lib/mail/outbox.ts";
import type { AppDeps } from "../../lib/deps.ts";
import { type PaymentsProvider, WebhookSignatureError } from "../../lib/payments/provider.ts";
import { startFakeGoogle } from "../_google_fake.ts";
import { insertTemplateVersion } from "../../db/email_templates.ts";
import { defaultTexts } from "../../lib/mail/template_copy.ts";
import { templateShape } from "../../routes/email_template_api.ts";
import { insertProposal } from "../../db/proposals.ts";

/** The date `days` from now (YYYY-MM-DD, UTC): a visit day a proposal may name. */
function inDays(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** What every sample may draw on: one of each role signed in, and one of each stored thing. */
interface Fixture {
  t: TestApp;
  cookies: Record<Role, string>;
  client: TestUser;
  /** A second client: the target of the admin user actions. */
  other: TestUser;
  survey: Survey;
  notificationId: string;
  messageId: string;
  messageCursor: string;
  discountId: string;
  resetToken: string;
  pricingConfig: unknown;
  /** A surveyor record with one contact (index 0). */
  surveyorId: string;
  /** A record with an email and no account (POST …/invite). */
  invitableSurveyorId: string;
  /** The record linked to the signed-in surveyor (their own profile; DELETE …/link-user). */
  ownSurveyorId: string;
  /** A surveyor account linked to no record (POST …/link-user). */
  linkableEmail: string;
  /** An open lead the signed-in surveyor may buy, claim or hide (in Dallas, like them). */
  leadId: string;
  /** A lead the signed-in surveyor bought (their purchased lead). */
  purchasedLeadId: string;
  /** Another buyer's pending return request for that lead. */
  refundRequestId: string;
  /** The join link's token of an invited prospect (POST /api/surveyor/join). */
  claimToken: string;
  /** A record with an account waiting for its licence check (POST …/verify). */
  pendingSurveyorId: string;
  /** A sign-up's pending claim request on `invitableSurveyorId` (issue 22). */
  claimRequestId: string;
  /** A survey offered to the `surveyorId` record (PATCH …/assignment/{surveyorId}/status). */
  assignedSurveyId: string;
  /** A deliverable of `survey`, in storage (GET and DELETE /api/files/{id}). */
  fileId: string;
  /** A survey the `ownSurveyorId` firm works on (accepted), nobody in the field yet. */
  workingSurveyId: string;
  /** A technician of the `ownSurveyorId` firm who has not signed in yet. */
  ownTechnicianId: string;
  /** The client's survey delivered by the `surveyorId` firm (completed), not rated yet. */
  deliveredSurveyId: string;
  /** A review of the `ownSurveyorId` firm, not answered yet (POST /api/reviews/{id}/reply). */
  ownReviewId: string;
  /** An outbox email the sender gave up on (POST …/email-outbox/{id}/retry). */
  failedEmailId: string;
  /** The survey of `purchasedLeadId`: the signed-in surveyor's firm has a thread on it. */
  purchasedSurveyId: string;
  /** Another lead the signed-in surveyor bought, with their pending proposal on it. */
  proposedLeadId: string;
  /** That lead's survey (the client's) and the pending proposal (accept, decline). */
  proposedSurveyId: string;
  proposalId: string;
}

/** A valid request to one endpoint, and what about it may be absent or null. */
interface Sample {
  /** Who calls it (null: signed out). */
  role: Role | null;
  params?: (f: Fixture) => Record<string, string>;
  body?: (f: Fixture) => Record<string, unknown>;
  query?: (f: Fixture) => Record<string, string>;
  /** Top-level fields that may be left out. */
  optional?: string[];
  /** Top-level fields that may be null. */
  nullable?: string[];
  /** Dependencies the route needs besides the test defaults (a payment provider). */
  deps?: () => Partial<AppDeps>;
}

// An ALTA survey: its price uses every factor, so none of them is dropped unread.
const DETAILS = {
  surveyType: "alta",
  propertyType: "residential",
  acreage: 0.25,
  terrain: "flat",
  vegetation: "light",
  structures: 1,
  cornersToSet: 0,
  cornersKnown: true,
  rush: "standard",
  state: "TX",
  altaItems: ["4"],
  discountCode: "SPRING10",
};
const DETAILS_OPTIONAL = [
  "structures",
  "cornersToSet",
  "cornersKnown",
  "rush",
  "altaItems",
  "discountCode",
];

/** The sample for every /api route that takes input, by `METHOD /path` as the router has it. */
const SAMPLES: Record<string, Sample> = {
  "POST /api/register": {
    role: null,
    body: () => ({
      email: "new.person@example.test",
      password: "s3cret pass",
      fullName: "New Person",
      username: "new.person@example.test",
    }),
    optional: ["username"],
  },
  "POST /api/login": {
    role: null,
    body: (f) => ({ identifier: f.client.email, password: TEST_PASSWORD }),
  },
  "PATCH /api/user": {
    role: "client",
    body: () => ({
      fullName: "Dana Client",
      companyName: "Dana Holdings LLC",
      phone: "(512) 555-0100",
    }),
    optional: ["fullName", "companyName", "phone"],
    nullable: ["companyName", "phone"],
  },
  "POST /api/user/password": {
    role: "client",
    body: () => ({
      currentPassword: TEST_PASSWORD,
      newPassword: "a new secret",
      confirmPassword: "a new secret",
    }),
    optional: ["confirmPassword"],
  },
  "POST /api/forgot-password": { role: null, body: (f) => ({ email: f.client.email }) },
  "GET /api/reset-password/verify": { role: null, query: (f) => ({ token: f.resetToken }) },
  "POST /api/reset-password": {
    role: null,
    body: (f) => ({
      token: f.resetToken,
      password: "brand new pass",
      confirmPassword: "brand new pass",
    }),
    optional: ["confirmPassword"],
  },
  "POST /api/contact": {
    role: null,
    body: () => ({
      name: "Dana Client",
      email: "dana@example.test",
      phone: "(512) 555-0100",
      topic: "quote",
      message: "Please call me about a boundary survey.\nMornings are best.",
    }),
    optional: ["phone"],
    nullable: ["phone"],
  },
  "GET /api/address-suggestions": {
    role: null,
    query: () => ({ input: "1200 Barton", lat: "30.26", lng: "-97.75" }),
  },
  "GET /api/geocode": { role: null, query: () => ({ address: "Austin, TX 78704" }) },
  "GET /api/users": {
    role: "admin",
    query: () => ({ page: "1", pageSize: "25", role: "client" }),
    optional: ["page", "pageSize", "role"],
  },
  "PATCH /api/admin/users/:userId/role": {
    role: "admin",
    params: (f) => ({ userId: f.other.id }),
    body: () => ({ role: "surveyor" }),
  },
  "POST /api/admin/users/:userId/disable": {
    role: "admin",
    params: (f) => ({ userId: f.other.id }),
  },
  "POST /api/admin/users/:userId/enable": {
    role: "admin",
    params: (f) => ({ userId: f.other.id }),
  },
  "POST /api/admin/impersonate/:userId": {
    role: "admin",
    params: (f) => ({ userId: f.other.id }),
  },
  "GET /api/admin/contact-messages": {
    role: "admin",
    query: (f) => ({ before: f.messageCursor, limit: "20", unread: "false" }),
    optional: ["before", "limit", "unread"],
  },
  "PATCH /api/admin/contact-messages/:id/read": {
    role: "admin",
    params: (f) => ({ id: f.messageId }),
  },
  "GET /api/admin/email-outbox/:id": {
    role: "admin",
    params: (f) => ({ id: f.failedEmailId }),
  },
  "POST /api/admin/email-outbox/:id/retry": {
    role: "admin",
    params: (f) => ({ id: f.failedEmailId }),
  },
  // The fixture saved version 1 of password_reset's words (so Reset to default has work to do).
  "POST /api/admin/email-templates/:id/versions": {
    role: "admin",
    params: () => ({ id: "password_reset" }),
    body: () => ({ ...EMAIL_WORDS, baseVersion: 1 }),
    optional: ["baseVersion"],
  },
  "POST /api/admin/email-templates/:id/reset": {
    role: "admin",
    params: () => ({ id: "password_reset" }),
    body: () => ({ baseVersion: 1 }),
    optional: ["baseVersion"],
  },
  "POST /api/admin/email-templates/:id/preview": {
    role: "admin",
    params: () => ({ id: "password_reset" }),
    body: () => EMAIL_WORDS,
  },
  "POST /api/admin/email-templates/:id/test": {
    role: "admin",
    params: () => ({ id: "password_reset" }),
    body: () => EMAIL_WORDS,
  },
  "POST /api/calculate-price": { role: null, body: () => DETAILS, optional: DETAILS_OPTIONAL },
  "PUT /api/admin/pricing-config": {
    role: "admin",
    body: (f) => ({ config: f.pricingConfig, note: "Spring prices\n\tfor Texas" }),
    optional: ["note"],
  },
  "GET /api/admin/pricing-config/history": {
    role: "admin",
    query: () => ({ page: "1" }),
    optional: ["page"],
  },
  "GET /api/admin/pricing-config/versions/:version": {
    role: "admin",
    params: () => ({ version: "1" }),
  },
  "POST /api/admin/pricing-preview": {
    role: "admin",
    body: (f) => ({
      config: f.pricingConfig,
      samples: [{ label: "Quarter acre", details: DETAILS }],
    }),
    optional: ["samples"],
  },
  "GET /api/admin/discount-codes": {
    role: "admin",
    query: () => ({ page: "1" }),
    optional: ["page"],
  },
  "POST /api/admin/discount-codes": {
    role: "admin",
    body: () => ({
      code: "LAUNCH-25",
      kind: "percent",
      value: 25,
      validFrom: "2030-01-01T00:00:00Z",
      validUntil: "2030-12-31T00:00:00Z",
      maxUses: 100,
      oncePerClient: true,
      note: "Launch promotion",
    }),
    optional: ["validFrom", "validUntil", "maxUses", "oncePerClient", "note"],
    nullable: ["validFrom", "validUntil", "maxUses"],
  },
  "PATCH /api/admin/discount-codes/:id": {
    role: "admin",
    params: (f) => ({ id: f.discountId }),
    body: () => ({ active: false }),
  },
  "GET /api/parcels/lookup": {
    role: "client",
    query: () => ({ address: "1200 Barton Springs Rd, Austin, TX" }),
  },
  "POST /api/surveys": {
    role: "client",
    body: () =>
      surveyRequest({
        surveyType: "alta",
        altaItems: ["4"],
        discountCode: "SPRING10",
        neededBy: "2099-01-01",
      }),
    optional: [
      "formattedAddress",
      "placeId",
      "structures",
      "cornersToSet",
      "cornersKnown",
      "rush",
      "altaItems",
      "discountCode",
      "neededBy",
      "accessNotes",
      "contactEmail",
      "notes",
    ],
  },
  "GET /api/surveys": {
    role: "admin",
    query: () => ({
      status: "requested",
      surveyType: "boundary",
      from: "2020-01-01",
      to: "2099-12-31",
      q: "Barton",
      page: "1",
      pageSize: "20",
    }),
    optional: ["status", "surveyType", "from", "to", "q", "page", "pageSize"],
  },
  "POST /api/surveys/delete-multiple": {
    role: "admin",
    body: (f) => ({ ids: [f.survey.id] }),
  },
  "GET /api/surveys/:id": { role: "client", params: (f) => ({ id: f.survey.id }) },
  "PATCH /api/surveys/:id/status": {
    role: "admin",
    params: (f) => ({ id: f.survey.id }),
    // Straight to fieldwork (an admin may skip steps), with where the crew started.
    body: () => ({
      status: "in_fieldwork",
      scheduledDate: "2030-05-01",
      note: "Crew booked\nGate 4",
      position: { lat: 30.26, lng: -97.74 },
    }),
    optional: ["scheduledDate", "note", "position"],
  },
  "DELETE /api/surveys/:id": { role: "admin", params: (f) => ({ id: f.survey.id }) },
  "POST /api/surveys/:id/review": {
    role: "client",
    params: (f) => ({ id: f.deliveredSurveyId }),
    body: () => ({ rating: 4, comment: "On time\nClear plat", text: "Clear plat\nOn time" }),
    optional: ["comment", "text"],
  },
  "POST /api/reviews/:id/reply": {
    role: "surveyor",
    params: (f) => ({ id: f.ownReviewId }),
    body: () => ({ body: "Thank you\nGlad to help" }),
  },
  "POST /api/surveys/:id/find-surveyors": {
    role: "admin",
    params: (f) => ({ id: f.survey.id }),
    query: () => ({ refresh: "true" }),
    optional: ["refresh"],
  },
  "POST /api/surveys/:id/notify-surveyors": { role: "admin", params: (f) => ({ id: f.survey.id }) },
  "GET /api/surveys/:id/surveyors": { role: "admin", params: (f) => ({ id: f.survey.id }) },
  "GET /api/surveys/:id/dispatch-map": { role: "admin", params: (f) => ({ id: f.survey.id }) },
  "GET /api/files/:id": {
    role: "admin",
    params: (f) => ({ id: f.fileId }),
    query: () => ({ inline: "1" }),
    optional: ["inline"],
  },
  "DELETE /api/files/:id": { role: "admin", params: (f) => ({ id: f.fileId }) },
  "POST /api/surveys/:surveyId/assign/:surveyorId": {
    role: "admin",
    params: (f) => ({ surveyId: f.survey.id, surveyorId: f.surveyorId }),
    body: () => ({ agreedPrice: 1285.5, reason: "Client asked for a local firm" }),
    optional: ["reason"],
  },
  "PATCH /api/surveys/:surveyId/assignment/:surveyorId/status": {
    role: "admin",
    params: (f) => ({ surveyId: f.assignedSurveyId, surveyorId: f.surveyorId }),
    body: () => ({ status: "declined", reason: "Too far this month" }),
    optional: ["reason"],
  },
  "GET /api/notifications": { role: "client", query: () => ({ page: "1" }), optional: ["page"] },
  "GET /api/surveyors": {
    role: "admin",
    query: () => ({
      q: "Acme",
      state: "TX",
      surveyType: "boundary",
      status: "active",
      inNetworkOnly: "true",
      page: "1",
      pageSize: "25",
    }),
    optional: ["q", "state", "surveyType", "status", "inNetworkOnly", "page", "pageSize"],
  },
  "POST /api/surveyors": {
    role: "admin",
    body: () => ({
      companyName: "Hill Country Surveying",
      principalName: "Dana Hill",
      licenseStates: ["TX"],
      email: "office@hillcountry.example",
      phone: "(512) 555-0142",
      city: "Austin",
      state: "TX",
      zip: "78704",
      lat: 30.25,
      lng: -97.75,
      serviceRadiusMiles: 60,
      surveyTypes: ["boundary"],
      inNetwork: true,
      status: "active",
      notes: "Prefers email\nafter 5pm",
    }),
    optional: [
      "principalName",
      "licenseStates",
      "email",
      "phone",
      "city",
      "state",
      "zip",
      "lat",
      "lng",
      "serviceRadiusMiles",
      "surveyTypes",
      "inNetwork",
      "status",
      "notes",
    ],
    nullable: ["principalName", "email", "phone", "city", "state", "zip", "lat", "lng", "notes"],
  },
  "GET /api/surveyors/:id": { role: "admin", params: (f) => ({ id: f.surveyorId }) },
  "PATCH /api/surveyors/:id": {
    role: "admin",
    params: (f) => ({ id: f.surveyorId }),
    body: () => ({ companyName: "Acme Land Surveying", serviceRadiusMiles: 75, notes: "Gate 4" }),
    optional: ["companyName", "serviceRadiusMiles", "notes"],
    nullable: ["notes"],
  },
  "POST /api/surveyors/:id/contact-history": {
    role: "admin",
    params: (f) => ({ id: f.surveyorId }),
    body: () => ({
      channel: "call",
      summary: "Talked about coverage\n\tand prices",
      outcome: "Interested",
      nextFollowUp: "2030-01-15",
    }),
    optional: ["outcome", "nextFollowUp"],
    nullable: ["outcome", "nextFollowUp"],
  },
  "POST /api/surveyors/:id/contacts": {
    role: "admin",
    params: (f) => ({ id: f.surveyorId }),
    body: () => ({
      name: "Sam Field",
      title: "Party chief",
      email: "sam@hillcountry.example",
      phone: "512-555-0143",
      isPrimary: true,
    }),
    optional: ["title", "email", "phone", "isPrimary"],
    nullable: ["title", "email", "phone"],
  },
  "PATCH /api/surveyors/:id/contacts/:index": {
    role: "admin",
    params: (f) => ({ id: f.surveyorId, index: "0" }),
    body: () => ({ name: "Pat Office", isPrimary: true }),
    optional: ["name", "isPrimary"],
  },
  "DELETE /api/surveyors/:id/contacts/:index": {
    role: "admin",
    params: (f) => ({ id: f.surveyorId, index: "0" }),
  },
  "GET /api/surveys/by-surveyor/:id": { role: "admin", params: (f) => ({ id: f.surveyorId }) },
  "POST /api/convert-place-to-surveyor": {
    role: "admin",
    body: () => ({
      placeId: "ChIJ-bad-input-sample",
      name: "Capitol Land Surveys",
      address: "100 Congress Ave, Austin, TX 78701, USA",
      city: "Austin",
      state: "TX",
      zip: "78701",
      lat: 30.2672,
      lng: -97.7431,
      phone: "(512) 555-0100",
      website: "https://capitol.example",
      rating: 4.5,
      reviewCount: 20,
    }),
    optional: ["address", "city", "state", "zip", "phone", "website", "rating", "reviewCount"],
    nullable: ["address", "city", "state", "zip", "phone", "website", "rating", "reviewCount"],
  },
  "PATCH /api/notifications/:id/read": {
    role: "client",
    params: (f) => ({ id: f.notificationId }),
  },
  "POST /api/surveyors/:id/invite": {
    role: "admin",
    params: (f) => ({ id: f.invitableSurveyorId }),
  },
  "POST /api/surveyors/:id/link-user": {
    role: "admin",
    params: (f) => ({ id: f.surveyorId }),
    body: (f) => ({ email: f.linkableEmail }),
  },
  "DELETE /api/surveyors/:id/link-user": {
    role: "admin",
    params: (f) => ({ id: f.ownSurveyorId }),
  },
  "POST /api/surveyors/:id/verify": {
    role: "admin",
    params: (f) => ({ id: f.pendingSurveyorId }),
  },
  "POST /api/surveyors/:id/licence-states/:state": {
    role: "admin",
    params: (f) => ({ id: f.surveyorId, state: "NM" }),
    body: () => ({ decision: "reject" }),
  },
  "POST /api/surveyors/:id/licence-number": {
    role: "admin",
    params: (f) => ({ id: f.surveyorId }),
    body: () => ({ decision: "verify", licenseNumber: "RPLS 7788" }),
  },
  "POST /api/surveyors/:id/licence": {
    role: "admin",
    params: (f) => ({ id: f.pendingSurveyorId }),
    body: () => ({ decision: "reject" }),
  },
  "POST /api/surveyor/join": {
    role: null,
    body: (f) => ({
      token: f.claimToken,
      companyName: "Claimant Surveying LLC",
      principalName: "Casey Claimant",
      licenseNumber: "RPLS 4242",
      licenseStates: ["TX"],
      phone: "(512) 555-0142",
      address: "500 Congress Ave, Austin, TX 78701, USA",
      city: "Austin",
      state: "TX",
      zip: "78701",
      lat: 30.2682,
      lng: -97.7429,
      serviceRadiusMiles: 60,
      surveyTypes: ["boundary"],
      email: "claimant@surveying.example",
      password: "secret1",
      confirmPassword: "secret1",
    }),
    optional: ["phone", "city", "state", "zip", "lat", "lng", "email", "confirmPassword"],
    nullable: ["phone", "city", "state", "zip", "lat", "lng"],
  },
  // Firms that join by themselves (issue 22): the prospect search and the sign-up.
  "GET /api/surveyors/join/matches": { role: null, query: () => ({ q: "Prospect" }) },
  "GET /api/surveyors/:id/claim-requests": {
    role: "admin",
    params: (f) => ({ id: f.invitableSurveyorId }),
  },
  "POST /api/surveyors/:id/claim-requests/:requestId": {
    role: "admin",
    params: (f) => ({ id: f.invitableSurveyorId, requestId: f.claimRequestId }),
    body: () => ({ decision: "approve" }),
  },
  "POST /api/surveyors/join": {
    role: null,
    body: () => ({
      companyName: "Self Join Surveying LLC",
      principalName: "Jo Joiner",
      email: "jo@selfjoin.example",
      password: "secret1",
      confirmPassword: "secret1",
      phone: "(512) 555-0177",
      licenseNumber: "RPLS 9191",
      licenseStates: ["TX"],
      address: "500 Congress Ave, Austin, TX 78701, USA",
      city: "Austin",
      state: "TX",
      zip: "78701",
      lat: 30.2682,
      lng: -97.7429,
      serviceRadiusMiles: 60,
      surveyTypes: ["boundary"],
    }),
    optional: ["surveyorId", "confirmPassword", "phone", "city", "state", "zip", "lat", "lng"],
    nullable: ["surveyorId", "phone", "city", "state", "zip", "lat", "lng"],
  },
  // Lead returns: the signed-in surveyor's purchase; another buyer's pending request.
  "POST /api/purchased-leads/:leadId/refund-request": {
    role: "surveyor",
    params: (f) => ({ leadId: f.purchasedLeadId }),
    body: () => ({ reason: "invalid_contact", note: "The phone number is disconnected." }),
  },
  "GET /api/admin/refund-requests": {
    role: "admin",
    query: () => ({ status: "pending", page: "1", pageSize: "20" }),
    optional: ["status", "page", "pageSize"],
  },
  "POST /api/admin/refund-requests/:id/decision": {
    role: "admin",
    params: (f) => ({ id: f.refundRequestId }),
    body: () => ({ decision: "deny", note: "The number answered when we called." }),
  },
  // The lead market: the signed-in surveyor's own record takes leads (see the fixture).
  "GET /api/leads": {
    role: "surveyor",
    query: () => ({ surveyType: "boundary", maxDistance: "25", page: "1" }),
    optional: ["surveyType", "maxDistance", "page"],
  },
  "GET /api/leads/:id": { role: "surveyor", params: (f) => ({ id: f.leadId }) },
  "POST /api/leads/:id/buy": { role: "surveyor", params: (f) => ({ id: f.leadId }) },
  "POST /api/leads/:id/claim": { role: "surveyor", params: (f) => ({ id: f.leadId }) },
  "POST /api/leads/:id/dismiss": { role: "surveyor", params: (f) => ({ id: f.leadId }) },
  "GET /api/purchased-leads": {
    role: "surveyor",
    query: () => ({ page: "1" }),
    optional: ["page"],
  },
  "GET /api/purchased-leads/:id": { role: "surveyor", params: (f) => ({ id: f.purchasedLeadId }) },
  "PATCH /api/purchased-leads/:id": {
    role: "surveyor",
    params: (f) => ({ id: f.purchasedLeadId }),
    body: () => ({ pipelineStatus: "contacted", pipelineNote: "Called\nSite visit Tuesday" }),
    optional: ["pipelineStatus", "pipelineNote"],
    nullable: ["pipelineNote"],
  },
  "PATCH /api/surveyor/profile": {
    role: "surveyor",
    body: () => ({
      companyName: "Barton Creek Surveying",
      principalName: "Ana Ortiz",
      licenseNumber: "RPLS 6120",
      licenseStates: ["TX", "OK"],
      phone: "(512) 555-0100",
      website: "https://barton.example",
      address: "100 Congress Ave, Austin, TX 78701, USA",
      city: "Austin",
      state: "TX",
      zip: "78701",
      lat: 30.2672,
      lng: -97.7431,
      serviceRadiusMiles: 80,
      surveyTypes: ["boundary", "topographic"],
    }),
    optional: [
      "companyName",
      "principalName",
      "licenseNumber",
      "licenseStates",
      "phone",
      "website",
      "address",
      "city",
      "state",
      "zip",
      "lat",
      "lng",
      "serviceRadiusMiles",
      "surveyTypes",
    ],
    nullable: [
      "principalName",
      "licenseNumber",
      "phone",
      "website",
      "address",
      "city",
      "state",
      "zip",
      "lat",
      "lng",
    ],
  },
  "GET /api/billing": { role: "surveyor", query: () => ({ before: "1" }), optional: ["before"] },
  "POST /api/billing/checkout": {
    role: "surveyor",
    body: () => ({ amountCents: 10_000 }),
    deps: acceptingPayments,
  },
  "POST /api/stripe/webhook": {
    role: null,
    body: () => ({
      id: "evt_test_badinput",
      type: "checkout.session.completed",
      data: { object: { id: "cs_test_unknown" } },
    }),
    deps: acceptingPayments,
  },
  "GET /api/surveyors/:id/ledger": {
    role: "admin",
    params: (f) => ({ id: f.surveyorId }),
    query: () => ({ before: "1" }),
    optional: ["before"],
  },
  "POST /api/surveyors/:id/balance-adjustments": {
    role: "admin",
    params: (f) => ({ id: f.surveyorId }),
    body: () => ({ amountCents: 5_000, note: "Paid by check #1042" }),
  },
  // Technicians (issue 12): the signed-in surveyor's firm, its technician and the survey it works.
  "GET /api/technicians": {
    role: "surveyor",
    query: (f) => ({ surveyorId: f.ownSurveyorId, page: "1" }),
    optional: ["surveyorId", "page"],
  },
  "POST /api/technicians": {
    role: "admin",
    body: (f) => ({
      fullName: "Riley Chen",
      email: "riley.crew@example.test",
      phone: "(512) 555-0142",
      surveyorId: f.ownSurveyorId,
    }),
    optional: ["phone"],
    nullable: ["phone", "surveyorId"],
  },
  "POST /api/technicians/:technicianId/invite": {
    role: "surveyor",
    params: (f) => ({ technicianId: f.ownTechnicianId }),
  },
  "DELETE /api/technicians/:technicianId": {
    role: "surveyor",
    params: (f) => ({ technicianId: f.ownTechnicianId }),
  },
  "GET /api/surveys/:surveyId/technicians": {
    role: "surveyor",
    params: (f) => ({ surveyId: f.workingSurveyId }),
  },
  "PATCH /api/surveys/:surveyId/assign-technician": {
    role: "surveyor",
    params: (f) => ({ surveyId: f.workingSurveyId }),
    body: (f) => ({
      technicianId: f.ownTechnicianId,
      notes: "Gate code 1234\nBring the long tape",
    }),
    optional: ["notes"],
    nullable: ["notes"],
  },
  // The client's view of the checklist: progress only.
  "GET /api/surveys/:id/checklist": { role: "client", params: (f) => ({ id: f.workingSurveyId }) },
  "POST /api/surveys/:id/checklist/answers": {
    role: "surveyor",
    params: (f) => ({ id: f.workingSurveyId }),
    body: () => ({
      ops: [{
        opId: crypto.randomUUID(),
        itemKey: "field_notes",
        value: "North gate locked\nKey at the office",
        answeredAt: new Date(Date.now() - 60_000).toISOString(),
      }],
    }),
  },
  "POST /api/checklist-templates/:surveyType": {
    role: "admin",
    params: () => ({ surveyType: "boundary" }),
    body: () => ({
      items: [{
        key: "pins_found",
        label: "Pins found",
        kind: "number",
        unit: "ea",
        help: "Count them\nDescribe them in the notes",
        isRequired: true,
      }],
    }),
  },
  // Proposals (issue 22): the signed-in surveyor's purchases and the client's survey.
  "POST /api/purchased-leads/:leadId/proposal": {
    role: "surveyor",
    params: (f) => ({ leadId: f.purchasedLeadId }),
    body: () => ({
      priceCents: 1_285_00,
      earliestVisitDate: inDays(7),
      turnaroundDays: 10,
      message: "Boundary survey with corners set.\nWe need the gate code.",
    }),
  },
  "PATCH /api/purchased-leads/:leadId/proposal": {
    role: "surveyor",
    params: (f) => ({ leadId: f.proposedLeadId }),
    body: () => ({
      priceCents: 1_300_00,
      earliestVisitDate: inDays(8),
      turnaroundDays: 12,
      message: "New price\nincludes the flood certificate.",
    }),
    optional: ["priceCents", "earliestVisitDate", "turnaroundDays", "message"],
  },
  "DELETE /api/purchased-leads/:leadId/proposal": {
    role: "surveyor",
    params: (f) => ({ leadId: f.proposedLeadId }),
  },
  "GET /api/surveys/:id/proposals": { role: "client", params: (f) => ({ id: f.proposedSurveyId }) },
  "POST /api/surveys/:id/proposals/:proposalId/accept": {
    role: "client",
    params: (f) => ({ id: f.proposedSurveyId, proposalId: f.proposalId }),
  },
  "POST /api/surveys/:id/proposals/:proposalId/decline": {
    role: "client",
    params: (f) => ({ id: f.proposedSurveyId, proposalId: f.proposalId }),
    body: () => ({ reason: "Too high\nfor a small lot" }),
    optional: ["reason"],
  },
  // Messages on the job: the signed-in surveyor's thread on the survey of their purchase.
  "GET /api/surveys/:id/messages": {
    role: "surveyor",
    params: (f) => ({ id: f.purchasedSurveyId }),
    query: (f) => ({ surveyorId: f.ownSurveyorId, after: "1" }),
    optional: ["surveyorId", "after"],
  },
  "POST /api/surveys/:id/messages": {
    role: "surveyor",
    params: (f) => ({ id: f.purchasedSurveyId }),
    body: (f) => ({ surveyorId: f.ownSurveyorId, body: "Is the gate open\non Tuesday?" }),
    optional: ["surveyorId"],
  },
};

/**
 * Card payments that take none and a webhook that trusts its body (signatures are
 * tests/routes/billing_test.ts's): the billing routes' checks are then all that refuses input.
 */
function acceptingPayments(): Partial<AppDeps> {
  const payments: PaymentsProvider = {
    name: "fake",
    isEnabled: true,
    createCheckoutSession: () =>
      Promise.resolve({
        id: `cs_test_${crypto.randomUUID().slice(0, 8)}`,
        url: "https://pay.test/",
      }),
    parseWebhook: (rawBody) => {
      try {
        return Promise.resolve(JSON.parse(rawBody));
      } catch (err) {
        return Promise.reject(new WebhookSignatureError("Not JSON", { cause: err }));
      }
    },
  };
  return { payments };
}

/** /api routes that read nothing from the request but the session. */
/** Routes whose body is multipart, not JSON: their own test at the end of this file. */
const MULTIPART_ROUTES = new Set(["POST /api/surveys/:id/files"]);

/** Words of the password reset email: its defaults with another subject. */
const EMAIL_WORDS = (() => {
  const texts = defaultTexts(templateShape("password_reset"));
  return { subject: `${texts.subject} today`, blocks: texts.blocks };
})();

const NO_INPUT = new Set([
  "GET /api/surveyor/profile",
  "GET /api/licence-checks",
  "POST /api/logout",
  "GET /api/user",
  "DELETE /api/user/google",
  "GET /api/admin/impersonation-status",
  "POST /api/admin/return",
  "GET /api/admin/pricing-config",
  "PATCH /api/notifications/mark-all-read",
  "GET /api/checklist-templates",
]);

async function fixture(t: TestApp): Promise<Fixture> {
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await createSignedInUser(t, { role: "client" });
  const surveyor = await createSignedInUser(t, { role: "surveyor" });
  const technician = await createSignedInUser(t, { role: "technician" });
  const other = await createUser(t.sql, { role: "client" });
  const survey = await submitSurvey(t, client.cookie);
  await insertNotification(t.sql, {
    userId: client.user.id,
    kind: "survey_status_changed",
    title: "Survey scheduled",
    body: "Your survey is scheduled.",
    link: `/survey/${survey.id}`,
  });
  const [{ id: notificationId }] = await t.sql<{ id: string }[]>`
    select id from notifications where user_id = ${client.user.id} limit 1`;
  const message = await insertContactMessage(t.sql, {
    name: "Visitor",
    email: "visitor@example.test",
    phone: null,
    topic: "quote",
    message: "How much is a boundary survey?",
    ip: null,
  });
  const code = await insertDiscountCode(t.sql, {
    code: "SPRING10",
    kind: "percent",
    value: 10,
    createdBy: admin.user.id,
  });
  const resetToken = randomToken(32);
  await insertPasswordResetToken(t.sql, {
    userId: client.user.id,
    tokenHash: await hashToken(resetToken),
  });
  const surveyorRecord = await insertSurveyor(t.sql, { companyName: "Acme Surveying" });
  await addContact(t.sql, { id: surveyorRecord.id, contact: { name: "Ann Office" } });
  const invitable = await insertSurveyor(t.sql, {
    companyName: "Invitee Surveying",
    email: "invitee@surveying.example",
  });
  const own = await insertSurveyor(t.sql, {
    companyName: "Own Surveying",
    userId: surveyor.user.id,
  });
  const linkable = await createUser(t.sql, { role: "surveyor" });
  const claimant = await insertSurveyor(t.sql, {
    companyName: "Claimant Surveying",
    email: "claimant@surveying.example",
  });
  const claimToken = randomToken(32);
  await insertClaimToken(t.sql, {
    surveyorId: claimant.id,
    leadId: null,
    tokenHash: await hashToken(claimToken),
  });
  const pendingUser = await createUser(t.sql, { role: "surveyor" });
  const pending = await insertSurveyor(t.sql, {
    companyName: "Pending Surveying",
    status: "pending",
    userId: pendingUser.id,
  });
  const claimer = await createUser(t.sql, { role: "surveyor" });
  const claimRequest = await insertClaimRequest(t.sql, {
    surveyorId: invitable.id,
    userId: claimer.id,
    reason: "company_state",
    details: { companyName: invitable.companyName },
  });
  // Someone near the survey to offer its lead to (POST …/notify-surveyors).
  await insertSurveyor(t.sql, {
    companyName: "Barton Surveying",
    email: "office@barton.example",
    lat: 30.27,
    lng: -97.75,
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
    status: "active",
    inNetwork: true,
  });
  // The verified `surveyorId` firm asked for New Mexico and a new licence number
  // (POST …/licence-states/{state}, …/licence-number).
  await t.sql`
    insert into surveyor_licence_states (surveyor_id, state, status, licence_number)
    values (${surveyorRecord.id}, 'NM', 'pending', 'RPLS 7788')`;
  await t.sql`
    update surveyors set pending_license_number = 'RPLS 7788', pending_license_number_at = now()
    where id = ${surveyorRecord.id}`;
  // The signed-in surveyor's record takes leads, in Dallas (far from the Austin survey, so
  // notify-surveyors is not changed by it): active, verified, a balance; one lead open to them
  // and one they bought.
  const dallas = {
    address: "1500 Marilla St, Dallas, TX 75201",
    formattedAddress: "1500 Marilla St, Dallas, TX 75201, USA",
    lat: 32.7767,
    lng: -96.797,
  };
  await t.sql`
    update surveyors set status = 'active', verified_at = now(), verified_via = 'seed',
      lat = ${dallas.lat},
      lng = ${dallas.lng}, license_states = '{TX}', survey_types = '{boundary}'
    where id = ${own.id}`;
  await t.sql.begin((tx) =>
    postLedgerEntry(tx, {
      surveyorId: own.id,
      kind: "top_up",
      amountCents: 500_00,
      reference: "bad-input-fixture",
    })
  );
  const openLead = await addLead(t, client.cookie, { overrides: dallas });
  const purchased = await addLead(t, client.cookie, { overrides: dallas });
  await buyLead(t.sql, {
    leadId: purchased.lead.id,
    surveyorId: own.id,
    actorId: null,
    publicUrl: "http://localhost",
  });
  // Another buyer of that lead asked for a return (POST …/refund-requests/{id}/decision).
  const [refundRequest] = await t.sql<{ id: string }[]>`
    with p as (
      insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents)
      values (${purchased.lead.id}, ${surveyorRecord.id}, 'buy', 3850) returning id
    )
    insert into lead_refund_requests (lead_purchase_id, reason, note)
    select id, 'duplicate', 'Same client as last week' from p returning id`;
  const assigned = await submitSurvey(t, client.cookie);
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, source)
    values (${assigned.id}, ${surveyorRecord.id}, 128500, 'admin')`;
  await t.sql`update surveys set status = 'assigned', assigned_surveyor_id = ${surveyorRecord.id}
    where id = ${assigned.id}`;
  // The signed-in surveyor's firm works on a survey (accepted) and has a technician who has
  // not signed in yet (the technician routes).
  const working = await submitSurvey(t, client.cookie);
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source)
    values (${working.id}, ${own.id}, 128500, 'accepted', 'admin')`;
  await t.sql`update surveys set status = 'assigned', assigned_surveyor_id = ${own.id}
    where id = ${working.id}`;
  const crewMember = await createUser(t.sql, { role: "technician" });
  await t.sql`insert into technicians (user_id, surveyor_id) values (${crewMember.id}, ${own.id})`;
  // Its checklist, as assigning a technician makes it (the checklist routes).
  await t.sql.begin((tx) => instantiateChecklist(tx, { surveyId: working.id }));
  // A survey the `surveyorId` firm delivered to the client (POST …/review).
  const delivered = await submitSurvey(t, client.cookie);
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source)
    values (${delivered.id}, ${surveyorRecord.id}, 128500, 'completed', 'admin')`;
  await t.sql`update surveys set status = 'completed', completed_date = '2030-05-02'
    where id = ${delivered.id}`;
  // A survey the signed-in surveyor's firm delivered, rated by the client (POST …/reply).
  const reviewed = await submitSurvey(t, client.cookie);
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source)
    values (${reviewed.id}, ${own.id}, 128500, 'completed', 'admin')`;
  await t.sql`update surveys set status = 'completed', completed_date = '2030-05-02'
    where id = ${reviewed.id}`;
  const [ownReview] = await t.sql<{ id: string }[]>`
    insert into surveyor_reviews (survey_id, surveyor_id, client_id, rating)
    values (${reviewed.id}, ${own.id}, ${client.user.id}, 5) returning id`;
  // A second lead the signed-in surveyor bought, with their pending proposal to the client
  // (PATCH and DELETE …/proposal; accept and decline). `purchasedLeadId` has none (POST).
  const proposed = await addLead(t, client.cookie, { overrides: dallas });
  const bought = await buyLead(t.sql, {
    leadId: proposed.lead.id,
    surveyorId: own.id,
    actorId: null,
    publicUrl: "http://localhost",
  });
  const proposal = await insertProposal(t.sql, {
    surveyId: proposed.survey.id,
    purchaseId: bought.purchase.id,
    surveyorId: own.id,
    priceCents: 1_450_00,
    earliestVisitDate: inDays(7),
    turnaroundDays: 10,
    message: "Boundary survey with corners set.",
  });
  const failedEmailId = await insertOutboxEmail(t.sql, {
    to: "bounced@example.test",
    subject: "Reset your Meridian password",
    html: "<p>h</p>",
    text: "h",
    template: "password_reset",
  });
  await t.sql`update email_outbox set status = 'failed', attempts = 8, last_error = '550 No'
    where id = ${failedEmailId}`;
  await t.sql.begin((tx) =>
    insertTemplateVersion(tx, {
      template: "password_reset",
      subject: "Your password reset link",
      blocks: {},
      createdBy: admin.user.id,
    })
  );
  return {
    t,
    cookies: {
      admin: admin.cookie,
      client: client.cookie,
      surveyor: surveyor.cookie,
      technician: technician.cookie,
    },
    client: client.user,
    other,
    survey,
    notificationId,
    messageId: message.id,
    messageCursor: `${message.createdAt.toISOString()}_${message.id}`,
    discountId: code!.id,
    resetToken,
    pricingConfig: (await getActivePricingConfig(t.sql)).config,
    surveyorId: surveyorRecord.id,
    invitableSurveyorId: invitable.id,
    ownSurveyorId: own.id,
    linkableEmail: linkable.email,
    leadId: openLead.lead.id,
    purchasedLeadId: purchased.lead.id,
    refundRequestId: refundRequest.id,
    claimToken,
    pendingSurveyorId: pending.id,
    claimRequestId: claimRequest.id,
    assignedSurveyId: assigned.id,
    fileId: await addStoredFile(t, { surveyId: survey.id, uploadedBy: admin.user.id }),
    workingSurveyId: working.id,
    ownTechnicianId: crewMember.id,
    deliveredSurveyId: delivered.id,
    ownReviewId: ownReview.id,
    failedEmailId,
    purchasedSurveyId: purchased.survey.id,
    proposedLeadId: proposed.lead.id,
    proposedSurveyId: proposed.survey.id,
    proposalId: proposal.id,
  };
}

/**
 * Row count and a digest of the contents of every table: any insert, update or delete shows. Not `snapshot_changes` (migration 0055): it records which
 * transactions ran a write statement on a table, whether or not a row changed (an update of an
 * id that matches nothing, answered 404, counts), so that remembered pages are read again; it
 * holds no data a user sees.
 */
async function snapshot(t: TestApp): Promise<Record<string, string>> {
  const tables = await t.sql<{ tablename: string }[]>`
    select tablename from pg_tables where schemaname = current_schema()
      and tablename <> 'snapshot_changes'
    order by tablename`;
  const state: Record<string, string> = {};
  for (const { tablename } of tables) {
    // Table names come from the catalog, never from input.
    const [row] = await t.sql.unsafe(
      `select count(*)::int as n, coalesce(md5(string_agg(x::text, '|' order by x::text)), '')
        as digest from "${tablename}" x`,
    );
    state[tablename] = `${row.n} ${row.digest}`;
  }
  return state;
}

let ipCounter = 0;

/**
 * Sends one request. Each comes from its own address (TRUST_PROXY=1): the per-IP limits in
 * front of some validators would otherwise answer 429 before the value is ever checked.
 */
function send(
  f: Fixture,
  sample: Sample,
  method: string,
  path: string,
  body?: string | Uint8Array<ArrayBuffer>,
): Promise<Response> {
  const n = ++ipCounter;
  const headers: Record<string, string> = {
    origin: ORIGIN,
    "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  };
  if (sample.role) headers.cookie = f.cookies[sample.role];
  if (body !== undefined) headers["content-type"] = "application/json";
  return Promise.resolve(f.t.app.request(`${ORIGIN}${path}`, { method, headers, body }));
}

/** A 4xx JSON `{message}` that is not the guard or a rate limit speaking. */
async function assertRefused(res: Response, what: string): Promise<void> {
  const text = await res.text();
  const seen = `${what} → ${res.status} ${text.slice(0, 200)}`;
  assert(res.status >= 400 && res.status < 500, seen);
  assert(![401, 403, 429].includes(res.status), `${seen} (the check was never reached)`);
  assertMatch(res.headers.get("content-type") ?? "", /^application\/json/, seen);
  const json = JSON.parse(text);
  assert(typeof json.message === "string" && json.message.length > 0, seen);
}

function fillPath(route: string, params: Record<string, string>): string {
  return route.replace(/:(\w+)/g, (_, name: string) => params[name]);
}

function deepObject(levels: number): unknown {
  let value: unknown = "deep";
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** `value` with `char` inside it, where trimming cannot remove it. */
function inside(value: string, char: string): string {
  const at = Math.max(1, Math.floor(value.length / 2));
  return value.length === 0 ? `x${char}x` : value.slice(0, at) + char + value.slice(at);
}

// NUL, other C0 controls (VT and FF included: trim would strip them at an end), DEL, C1.
const CONTROL_CHARS = ["\u0000", "\u0001", "\u0008", "\u000b", "\u000c", "\u001b", "\u007f"]
  .concat(["\u0080", "\u0085", "\u009f"]);
const LONE_SURROGATES = ["\ud800", "\udfff"];
// Not UTF-8: a stray byte, a bad continuation, an overlong "/", an encoded surrogate
// (CESU-8), a code point past U+10FFFF, a truncated sequence.
const INVALID_UTF8 = [[0xff], [0xc3, 0x28], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [
  0xf4,
  0x90,
  0x80,
  0x80,
], [0xe2, 0x82]];
const LONG = "x".repeat(20_000);
const OVER_BODY_LIMIT = "x".repeat(100 * 1024);
const MARK = "\u2063MARK\u2063";

/** A JSON body with raw `bytes` spliced in where `marked` has MARK. */
function withBytes(marked: unknown, bytes: number[]): Uint8Array<ArrayBuffer> {
  const [before, after] = JSON.stringify(marked).split(MARK);
  const enc = new TextEncoder();
  return new Uint8Array([...enc.encode(before), ...bytes, ...enc.encode(after)]);
}

/** Every path to a string inside `value` (through objects and arrays). */
function stringPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (typeof value === "string") return [path];
  if (Array.isArray(value)) return value.flatMap((v, i) => stringPaths(v, [...path, i]));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => stringPaths(v, [...path, k]));
  }
  return [];
}

function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (value === undefined) delete node[last];
  else node[last] = value;
  return copy;
}

/** Bad values for the string at `path` (its valid value is `valid`). */
function badStrings(valid: string): { label: string; value: unknown }[] {
  return [
    ...CONTROL_CHARS.map((c) => ({
      label: `U+${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
      value: inside(valid, c),
    })),
    ...LONE_SURROGATES.map((s) => ({ label: "a lone surrogate", value: inside(valid, s) })),
    { label: "a 20,000-character string", value: LONG },
    { label: "a 100 KB string", value: OVER_BODY_LIMIT },
    { label: "a number", value: 12345 },
  ];
}

/** Bad values for any field, whatever its type. */
function badShapes(): { label: string; value: unknown }[] {
  return [
    { label: "a 100-deep object", value: deepObject(100) },
    { label: "an array", value: [["x"]] },
    { label: "a string with NUL", value: "true\u0000" },
  ];
}

const BAD_IDS = [
  "not-a-uuid",
  "%00",
  "12345",
  "%2e%2e%2f%2e%2e%2fetc%2fpasswd",
  "%FF%FE",
  "%ED%A0%80",
  "x".repeat(500),
  "00000000-0000-0000-0000-00000000000%00",
];

async function checkBody(f: Fixture, sample: Sample, method: string, path: string) {
  const valid = sample.body!(f);
  const optional = new Set(sample.optional ?? []);
  const nullable = new Set(sample.nullable ?? []);
  const sendJson = (body: unknown) => send(f, sample, method, path, JSON.stringify(body));
  for (const field of stringPaths(valid)) {
    const where = field.join(".");
    const original = field.reduce<unknown>(
      (node, key) => (node as Record<string | number, unknown>)[key],
      valid,
    ) as string;
    for (const { label, value } of badStrings(original)) {
      await assertRefused(await sendJson(setAt(valid, field, value)), `${where}: ${label}`);
    }
    for (const bytes of INVALID_UTF8) {
      const body = withBytes(setAt(valid, field, inside(original, MARK)), bytes);
      await assertRefused(await send(f, sample, method, path, body), `${where}: bytes ${bytes}`);
    }
  }
  for (const key of Object.keys(valid)) {
    for (const { label, value } of badShapes()) {
      await assertRefused(await sendJson(setAt(valid, [key], value)), `${key}: ${label}`);
    }
    if (!nullable.has(key)) {
      await assertRefused(await sendJson(setAt(valid, [key], null)), `${key}: null`);
    }
    if (!optional.has(key)) {
      await assertRefused(await sendJson(setAt(valid, [key], undefined)), `${key}: missing`);
    }
  }
  const wholeBodies: [string, string | Uint8Array<ArrayBuffer>][] = [
    ["an empty body", ""],
    ["malformed JSON", "{"],
    ["null", "null"],
    ["an array", JSON.stringify([valid])],
    ["a number", "42"],
    ["a string", JSON.stringify("text")],
    ["a 100-deep object", JSON.stringify(deepObject(100))],
    ["a 10,000-deep array", "[".repeat(10_000) + "]".repeat(10_000)],
    ["a body over 64 KB", JSON.stringify({ ...valid, padding: OVER_BODY_LIMIT })],
    ["invalid UTF-8 in an unknown key", withBytes({ ...valid, [MARK]: 1 }, [0xff])],
    ["a lone surrogate in an unknown key", JSON.stringify({ ...valid, "\ud800": 1 })],
  ];
  for (const [label, body] of wholeBodies) {
    await assertRefused(await send(f, sample, method, path, body), `body: ${label}`);
  }
}

async function checkQuery(f: Fixture, sample: Sample, method: string, route: string) {
  const valid = sample.query!(f);
  const optional = new Set(sample.optional ?? []);
  const base = fillPath(route, sample.params?.(f) ?? {});
  const get = (query: URLSearchParams) => send(f, sample, method, `${base}?${query}`);
  for (const [key, original] of Object.entries(valid)) {
    // Number() reads VT and FF around a number as whitespace, like a space: the value used is
    // the number, so they are not bad input in a numeric parameter.
    const isNumber = /^-?\d+(\.\d+)?$/.test(original);
    const chars = CONTROL_CHARS.filter((c) => !(isNumber && (c === "\u000b" || c === "\u000c")));
    const values = [...chars.map((c) => inside(original, c)), LONG];
    for (const value of values) {
      const query = new URLSearchParams(valid);
      query.set(key, value);
      await assertRefused(await get(query), `?${key}=${JSON.stringify(value.slice(0, 40))}`);
    }
    const repeated = new URLSearchParams(valid);
    repeated.append(key, original);
    await assertRefused(await get(repeated), `?${key} twice`);
    if (!optional.has(key)) {
      const missing = new URLSearchParams(valid);
      missing.delete(key);
      await assertRefused(await get(missing), `?${key} missing`);
    }
  }
}

async function checkParams(f: Fixture, sample: Sample, method: string, route: string) {
  const params = sample.params!(f);
  const body = sample.body ? JSON.stringify(sample.body(f)) : undefined;
  const query = sample.query ? `?${new URLSearchParams(sample.query(f))}` : "";
  for (const name of Object.keys(params)) {
    for (const bad of [crypto.randomUUID(), ...BAD_IDS]) {
      const path = fillPath(route, { ...params, [name]: bad }) + query;
      await assertRefused(await send(f, sample, method, path, body), `:${name} = ${bad}`);
    }
  }
}

test("[bad input] every /api route has a bad-input sample or is listed as taking no input", async () => {
  const t = await createTestApp();
  const routes = new Set(
    t.app.routes
      .filter((r) => r.method !== "ALL" && r.path.startsWith("/api/"))
      .map((r) => `${r.method} ${r.path}`),
  );
  const covered = new Set([...Object.keys(SAMPLES), ...NO_INPUT, ...MULTIPART_ROUTES]);
  assertEquals([...routes].filter((r) => !covered.has(r)).sort(), [], "routes without a sample");
  assertEquals([...covered].filter((r) => !routes.has(r)).sort(), [], "samples without a route");
  t.close();
});

/**
 * The fixture a GET sample left as it found it, kept for the next GET sample: building one
 * (an app, four sessions, ten requests submitted through the API) is most of a sample's time.
 * It is used again only while every table holds what it held when it was kept (`snapshot`:
 * each row's text), so the next sample starts from the state a fresh fixture would have; a
 * sample that needs other dependencies, or whose method may change something (a sign-out
 * changes only KV), builds its own. The GET samples run first, so they share one.
 */
let kept: { f: Fixture; state: Record<string, string> } | undefined;

function sameState(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

const readsFirst = Object.entries(SAMPLES).sort(([a], [b]) =>
  Number(!a.startsWith("GET ")) - Number(!b.startsWith("GET "))
);

for (const [route, sample] of readsFirst) {
  const [method, pattern] = route.split(" ");
  const mayKeep = method === "GET" && !sample.deps;
  test(`[bad input] ${route}: every bad value is a 4xx {message} and changes nothing`, async () => {
    let f: Fixture | undefined;
    let before: Record<string, string> | undefined;
    if (mayKeep && kept) {
      before = await snapshot(kept.f.t);
      if (sameState(before, kept.state)) f = kept.f;
    }
    if (!f) {
      kept?.f.t.close();
      kept = undefined;
      const t = await createTestApp({ env: { TRUST_PROXY: "1" }, deps: sample.deps?.() });
      f = await fixture(t);
      before = await snapshot(t);
    }
    kept = undefined;
    const { t } = f;
    const path = fillPath(pattern, sample.params?.(f) ?? {});
    if (sample.body) await checkBody(f, sample, method, path);
    if (sample.query) await checkQuery(f, sample, method, pattern);
    if (sample.params) await checkParams(f, sample, method, pattern);
    assertEquals(await snapshot(t), before, "a refused request changed a table");

    // The unbroken sample passes, so every refusal above was the broken value's doing.
    const query = sample.query ? `?${new URLSearchParams(sample.query(f))}` : "";
    const body = sample.body ? JSON.stringify(sample.body(f)) : undefined;
    const res = await send(f, sample, method, path + query, body);
    const text = await res.text();
    assert(res.status >= 200 && res.status < 300, `valid sample → ${res.status} ${text}`);
    const after = mayKeep ? await snapshot(t) : undefined;
    if (after && sameState(after, before!)) kept = { f, state: after };
    else t.close();
  });
}

test("[bad input] POST /api/surveys/:id/files: every bad form is a 4xx {message} and changes nothing", async () => {
  const t = await createTestApp({ env: { TRUST_PROXY: "1" } });
  const f = await fixture(t);
  const before = await snapshot(t);
  const boundary = "BadInputBoundary7MA4YWxk";
  const enc = new TextEncoder();
  const pdf = enc.encode("%PDF-1.7\n1 0 obj\n<< /Type /Catalog >>\nendobj\n");
  const valid: Record<string, string> = { kind: "deliverable", opId: crypto.randomUUID() };
  type Value = string | Uint8Array;
  const form = (
    fields: [string, Value][],
    file: { bytes: Uint8Array; name: Value } | null = { bytes: pdf, name: "plat.pdf" },
  ) => {
    const pieces: Uint8Array[] = [];
    const text = (s: string) => pieces.push(enc.encode(s));
    const value = (v: Value) => pieces.push(typeof v === "string" ? enc.encode(v) : v);
    for (const [name, v] of fields) {
      text(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`);
      value(v);
      text("\r\n");
    }
    if (file) {
      text(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="`);
      value(file.name);
      text('"\r\nContent-Type: application/pdf\r\n\r\n');
      value(file.bytes);
      text("\r\n");
    }
    text(`--${boundary}--\r\n`);
    const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of pieces) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const post = (
    body: Uint8Array | string,
    { surveyId = f.survey.id, type = `multipart/form-data; boundary=${boundary}`, headers = {} }: {
      surveyId?: string;
      type?: string;
      headers?: Record<string, string>;
    } = {},
  ) => {
    const n = ++ipCounter;
    return Promise.resolve(f.t.app.request(`${ORIGIN}/api/surveys/${surveyId}/files`, {
      method: "POST",
      headers: {
        origin: ORIGIN,
        "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        cookie: f.cookies.admin,
        "content-type": type,
        ...headers,
      },
      body: body as BodyInit,
    }));
  };
  const fieldsWith = (name: string, v: Value | undefined): [string, Value][] =>
    Object.entries({ ...valid, [name]: v }).filter(([, x]) => x !== undefined) as [string, Value][];
  for (const name of Object.keys(valid)) {
    for (const c of CONTROL_CHARS) {
      await assertRefused(
        await post(form(fieldsWith(name, inside(valid[name], c)))),
        `${name}: control`,
      );
    }
    for (const bytes of INVALID_UTF8) {
      const v = new Uint8Array([...enc.encode(valid[name]), ...bytes]);
      await assertRefused(await post(form(fieldsWith(name, v))), `${name}: bytes ${bytes}`);
    }
    await assertRefused(await post(form(fieldsWith(name, LONG))), `${name}: long`);
    await assertRefused(await post(form(fieldsWith(name, "12345"))), `${name}: wrong value`);
    await assertRefused(
      await post(form([...fieldsWith(name, valid[name]), [name, valid[name]]])),
      `${name}: repeated`,
    );
  }
  await assertRefused(await post(form(fieldsWith("kind", undefined))), "kind: missing");
  await assertRefused(
    await post(form([...fieldsWith("kind", "deliverable"), ["role", "admin"]])),
    "unknown field",
  );
  for (const c of CONTROL_CHARS) {
    await assertRefused(
      await post(form(fieldsWith("kind", "deliverable"), { bytes: pdf, name: `a${c}.pdf` })),
      "file name control",
    );
  }
  for (const bytes of INVALID_UTF8) {
    const name = new Uint8Array([...enc.encode("plat"), ...bytes, ...enc.encode(".pdf")]);
    await assertRefused(
      await post(form(fieldsWith("kind", "deliverable"), { bytes: pdf, name })),
      `file name bytes ${bytes}`,
    );
  }
  const wholeBodies: [
    string,
    Uint8Array | string,
    { type?: string; headers?: Record<string, string> },
  ][] = [
    ["no file", form(fieldsWith("kind", "deliverable"), null), {}],
    [
      "two files",
      (() => {
        const one = form(fieldsWith("kind", "deliverable"));
        const file = form([], { bytes: pdf, name: "b.pdf" });
        return new Uint8Array([...one.subarray(0, one.length - boundary.length - 6), ...file]);
      })(),
      {},
    ],
    [
      "an empty file",
      form(fieldsWith("kind", "deliverable"), { bytes: new Uint8Array(), name: "a.pdf" }),
      {},
    ],
    [
      "a program",
      form(fieldsWith("kind", "deliverable"), { bytes: enc.encode("MZ\x90\0\x03"), name: "a.pdf" }),
      {},
    ],
    ["an empty body", "", {}],
    ["no boundary", form(fieldsWith("kind", "deliverable")), { type: "multipart/form-data" }],
    ["JSON", JSON.stringify(valid), { type: "application/json" }],
    ["another boundary", form(fieldsWith("kind", "deliverable")), {
      type: "multipart/form-data; boundary=other",
    }],
    ["cut short", form(fieldsWith("kind", "deliverable")).subarray(0, 300), {}],
    ["a Content-Length over 25 MB", form(fieldsWith("kind", "deliverable")), {
      headers: { "content-length": String(26 * 1024 * 1024 + 65 * 1024) },
    }],
    [
      "100 parts",
      form(Array.from({ length: 100 }, (_, i) => [`f${i}`, "x"] as [string, Value])),
      {},
    ],
  ];
  for (const [label, body, options] of wholeBodies) {
    await assertRefused(await post(body, options), `body: ${label}`);
  }
  for (const bad of [crypto.randomUUID(), ...BAD_IDS]) {
    await assertRefused(
      await post(form(fieldsWith("kind", "deliverable")), { surveyId: bad }),
      `:id = ${bad}`,
    );
  }
  assertEquals(await snapshot(t), before, "a refused upload changed a table");
  const res = await post(form(Object.entries(valid)));
  const text = await res.text();
  assertEquals(res.status, 201, text);
  t.close();
});

test("[bad input] GET /metrics: every malformed Authorization or query is a 401 {message}", async () => {
  const token = "bad-input-metrics-token-0123456789";
  const t = await createTestApp({ env: { METRICS_TOKEN: token } });
  const before = await snapshot(t);
  const headers: [string, string][] = [
    ["empty", ""],
    ["scheme only", "Bearer"],
    ["scheme and a space", "Bearer "],
    ["two spaces", `Bearer  ${token}`],
    ["tab", `Bearer\t${token}`],
    ["trailing junk", `Bearer ${token} x`],
    ["control character", `Bearer ${inside(token, "\u0001")}`],
    ["latin-1 byte", `Bearer ${inside(token, "\u00e9")}`],
    ["10 KB token", `Bearer ${"a".repeat(10_000)}`],
    ["another scheme", `Token ${token}`],
    ["basic", `Basic ${btoa(`metrics:${token}`)}`],
  ];
  for (const [label, authorization] of headers) {
    const res = await t.request("GET", "/metrics", { headers: { authorization } });
    const text = await res.text();
    const seen = `${label} → ${res.status} ${text.slice(0, 200)}`;
    assertEquals(res.status, 401, seen);
    assertEquals(JSON.parse(text).message, "A valid metrics token is required", seen);
  }
  // The query is ignored, whatever it holds; the token alone decides.
  for (const query of ["?x=%00", "?name[]=%ff", `?token=${token}`, `?${"a=1&".repeat(500)}`]) {
    const res = await t.request("GET", `/metrics${query}`);
    assertEquals(res.status, 401, query);
    await res.body?.cancel();
  }
  assertEquals(await snapshot(t), before, "a refused scrape changed a table");
  const ok = await t.request("GET", "/metrics?x=%00", {
    headers: { authorization: `Bearer ${token}` },
  });
  assertEquals(ok.status, 200, await ok.text());
  t.close();
});

test("[bad input] /auth/google and its callback: a bad returnTo is dropped or made safe, a bad state, code or error is a 4xx page that signs nobody in and changes nothing", async () => {
  const google = startFakeGoogle();
  const t = await createTestApp({ env: { ...google.env, TRUST_PROXY: "1" } });
  const page = (path: string) => {
    const n = ++ipCounter;
    return Promise.resolve(t.app.request(`${ORIGIN}${path}`, {
      headers: {
        accept: "text/html",
        "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      },
    }));
  };
  await createUser(t.sql, { role: "client", email: google.next.email });
  const before = await snapshot(t);
  // A returnTo that is not a safe local path starts the sign-in without one.
  const badReturnTo = [
    ...CONTROL_CHARS.map((c) => `/client${c}x`),
    "//evil.example",
    "https://evil.example/",
    "/\\evil",
    "%2F%2Fevil.example",
    "%FF%FE",
    LONG,
  ];
  for (const value of badReturnTo) {
    const res = await page(`/auth/google?returnTo=${encodeURIComponent(value)}`);
    await res.body?.cancel();
    assertEquals(res.status, 302, JSON.stringify(value.slice(0, 40)));
  }
  const twice = await page("/auth/google?returnTo=%2Fclient&returnTo=%2Fclient");
  await twice.body?.cancel();
  assertEquals(twice.status, 302);
  // Stored: nothing, or (C1 controls) a local path with every odd character percent-encoded.
  for await (const entry of t.kv.list<{ returnTo: string | null }>({ prefix: ["oauth_states"] })) {
    const stored = entry.value.returnTo;
    assert(stored === null || /^\/(?![/\\])[\x21-\x7e]*$/.test(stored), `stored ${stored}`);
  }
  const bad = [
    "",
    ...CONTROL_CHARS.map((c) => `AAAAAAAAAAAAAAAA${c}AAAAAAAAAAAAAAA`),
    "%FF%FE",
    "%ED%A0%80",
    LONG,
  ];
  const queries = [
    ...bad.map((v) => `state=${encodeURIComponent(v)}&code=abc`),
    ...bad.map((v) => `state=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA&code=${encodeURIComponent(v)}`),
    ...bad.map((v) => `state=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA&error=${encodeURIComponent(v)}`),
    "state=a&state=b&code=c",
    "code=abc",
    "",
  ];
  for (const query of queries) {
    const res = await page(`/auth/google/callback?${query}`);
    const text = await res.text();
    const seen = `?${query.slice(0, 80)} → ${res.status} ${text.slice(0, 120)}`;
    assert(res.status >= 400 && res.status < 500, seen);
    assertMatch(res.headers.get("content-type") ?? "", /^text\/html/, seen);
    assert(!res.headers.getSetCookie().some((l) => l.startsWith("meridian_session=")), seen);
  }
  // A real state (this browser's) with a code Google never issued: refused by the token
  // endpoint, a 4xx page, and the state is spent.
  const start = await page("/auth/google");
  await start.body?.cancel();
  const state = new URL(start.headers.get("location")!).searchParams.get("state")!;
  for (const code of ["forged", LONG.slice(0, 2000), "%00"]) {
    const n = ++ipCounter;
    const res = await t.app.request(
      `${ORIGIN}/auth/google/callback?state=${state}&code=${encodeURIComponent(code)}`,
      {
        headers: {
          accept: "text/html",
          cookie: `meridian_google_state=${state}`,
          "x-forwarded-for": `10.9.${(n >> 8) & 255}.${n & 255}`,
        },
      },
    );
    assertEquals(res.status, 400, code.slice(0, 20));
    await res.body?.cancel();
  }
  assertEquals(google.tokenRequests, 1, "only the first try reached Google: the state is spent");
  assertEquals(await snapshot(t), before, "a refused Google sign-in changed a table");
  t.close();
  await google.close();
});
