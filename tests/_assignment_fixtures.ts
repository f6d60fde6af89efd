/**
 * Assignment test data: a client's request, surveyors with (or without) an account and a full
 * profile (principal, phone, licence), a lead on the request, and readers for what an
 * assignment leaves behind (the survey row, its events, notifications, queued emails).
 */
import type { TestApp } from "./_helpers.ts";
import { createSignedInUser, type TestUser } from "./_auth.ts";
import { submitSurvey } from "./_fixtures.ts";
import { insertSurveyor, type InsertSurveyorInput } from "../db/surveyors.ts";
import { insertLead } from "../db/leads.ts";
import { getActivePricingConfig } from "../db/pricing.ts";
import { priceLead } from "../lib/lead_pricing.ts";
import type { Survey } from "../lib/survey_schema.ts";
import type { Surveyor } from "../lib/surveyor_schema.ts";

/** A client with a session and one submitted request (1200 Barton Springs Rd, Austin, TX). */
export async function clientWithSurvey(
  t: TestApp,
): Promise<{ client: TestUser; cookie: string; survey: Survey }> {
  const { user, cookie } = await createSignedInUser(t, {
    role: "client",
    fullName: "Dana Client",
  });
  const survey = await submitSurvey(t, cookie);
  return { client: user, cookie, survey };
}

/** A surveyor record (active, in network, licensed in TX) and, unless `withUser` is false, its account. */
export async function addSurveyor(
  t: TestApp,
  name: string,
  { withUser = true, ...rest }: Partial<InsertSurveyorInput> & { withUser?: boolean } = {},
): Promise<{ surveyor: Surveyor; user: TestUser | null; cookie: string }> {
  const account = withUser
    ? await createSignedInUser(t, { role: "surveyor", fullName: `${name} Owner` })
    : null;
  const surveyor = await insertSurveyor(t.sql, {
    companyName: name,
    principalName: `${name} Principal`,
    phone: "(512) 555-0177",
    licenseNumber: "6012",
    licenseStates: ["TX"],
    email: `office@${name.toLowerCase().replace(/[^a-z]/g, "")}.test`,
    surveyTypes: ["boundary"],
    status: "active",
    inNetwork: true,
    lat: 30.3,
    lng: -97.75,
    userId: account?.user.id ?? null,
    ...rest,
  });
  return { surveyor, user: account?.user ?? null, cookie: account?.cookie ?? "" };
}

/** Gives the survey a lead (as Notify surveyors would) and moves it to surveyors_notified. */
export async function addLeadTo(t: TestApp, survey: Survey): Promise<string> {
  const { version, config } = await getActivePricingConfig(t.sql);
  const price = priceLead(config.lead, survey);
  const lead = await insertLead(t.sql, {
    surveyId: survey.id,
    priceCents: price.priceCents,
    pricing: { ...price.inputs, configVersion: version },
    maxBuyers: 3,
    expiryDays: 7,
  });
  await t.sql`update surveys set status = 'surveyors_notified' where id = ${survey.id}`;
  return lead.id;
}

/** The survey row's status, visit day and assigned surveyor. */
export async function surveyRow(t: TestApp, id: string) {
  const [row] = await t.sql<
    { status: string; scheduledDate: string | null; assignedSurveyorId: string | null }[]
  >`select status, scheduled_date::text as scheduled_date, assigned_surveyor_id
    from surveys where id = ${id}`;
  return row;
}

/** The survey's status events after the creation, oldest first, as "from>to". */
export async function surveyMoves(t: TestApp, id: string): Promise<string[]> {
  const rows = await t.sql<{ fromStatus: string; toStatus: string }[]>`
    select from_status, to_status from survey_events
    where survey_id = ${id} and from_status is not null order by created_at, id`;
  return rows.map((r) => `${r.fromStatus}>${r.toStatus}`);
}

/** The assignments of a survey, oldest first. */
export async function assignmentRows(t: TestApp, surveyId: string) {
  return [
    ...await t.sql<
      { surveyorId: string; status: string; endedReason: string | null; agreedPriceCents: number }[]
    >`select surveyor_id, status, ended_reason, agreed_price_cents from survey_assignments
    where survey_id = ${surveyId} order by created_at, id`,
  ];
}

/** The notifications a user received, oldest first. */
export async function notificationsOf(t: TestApp, userId: string) {
  return [
    ...await t.sql<{ kind: string; title: string; body: string; link: string | null }[]>`
    select kind, title, body, link from notifications where user_id = ${userId}
    order by created_at, id`,
  ];
}

/** Queued emails of `template`, oldest first. */
export async function emailsOf(t: TestApp, template: string) {
  return [
    ...await t.sql<{ toAddress: string; subject: string; text: string }[]>`
    select to_address, subject, text from email_outbox where template = ${template}
    order by created_at, id`,
  ];
}
