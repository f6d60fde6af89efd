/**
 * Technician test data: a firm working on a client's request (its assignment accepted), its
 * crew, another firm with its own crew, Meridian staff technicians, and readers for what an
 * assignment leaves behind.
 */
import type { TestApp } from "./_helpers.ts";
import { createSignedInUser, type TestUser } from "./_auth.ts";
import { addSurveyor, clientWithSurvey } from "./_assignment_fixtures.ts";
import { insertTechnician } from "../db/technicians.ts";
import type { Survey } from "../lib/survey_schema.ts";
import type { Surveyor } from "../lib/surveyor_schema.ts";

/** A technician account of firm `surveyorId` (null: Meridian staff), signed in. */
export async function addTechnician(
  t: TestApp,
  surveyorId: string | null,
  fullName: string,
  { phone = "(512) 555-0142" }: { phone?: string | null } = {},
): Promise<{ user: TestUser; cookie: string }> {
  const account = await createSignedInUser(t, { role: "technician", fullName, phone });
  await insertTechnician(t.sql, { userId: account.user.id, surveyorId, invitedBy: null });
  return account;
}

/** Makes `surveyorId` the firm working on `surveyId`: an accepted assignment, survey assigned. */
export async function acceptJob(
  t: TestApp,
  surveyId: string,
  surveyorId: string,
  { status = "accepted", scheduledDate = null }: {
    status?: "accepted" | "scheduled";
    scheduledDate?: string | null;
  } = {},
): Promise<void> {
  await t.sql`
    insert into survey_assignments
      (survey_id, surveyor_id, agreed_price_cents, status, source, scheduled_date)
    values (${surveyId}, ${surveyorId}, 128500, ${status}, 'admin', ${scheduledDate})`;
  await t.sql`
    update surveys set status = ${status === "scheduled" ? "scheduled" : "assigned"},
      assigned_surveyor_id = ${surveyorId}, scheduled_date = ${scheduledDate}
    where id = ${surveyId}`;
}

/** Everything most technician tests start from. */
export interface CrewFixture {
  admin: { user: TestUser; cookie: string };
  client: { client: TestUser; cookie: string; survey: Survey };
  survey: Survey;
  /** The firm working on `survey`, and its crew of two. */
  ortiz: { surveyor: Surveyor; user: TestUser | null; cookie: string };
  riley: { user: TestUser; cookie: string };
  sam: { user: TestUser; cookie: string };
  /** Another firm and its technician. */
  other: { surveyor: Surveyor; user: TestUser | null; cookie: string };
  otherTech: { user: TestUser; cookie: string };
  /** A Meridian staff technician. */
  staff: { user: TestUser; cookie: string };
}

/** See `CrewFixture`. The survey is assigned to Ortiz (accepted), nobody in the field yet. */
export async function crewFixture(t: TestApp): Promise<CrewFixture> {
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await clientWithSurvey(t);
  const ortiz = await addSurveyor(t, "Ortiz Surveying");
  const other = await addSurveyor(t, "Other Survey Co");
  await acceptJob(t, client.survey.id, ortiz.surveyor.id);
  return {
    admin,
    client,
    survey: client.survey,
    ortiz,
    riley: await addTechnician(t, ortiz.surveyor.id, "Riley Chen"),
    sam: await addTechnician(t, ortiz.surveyor.id, "Sam Park"),
    other,
    otherTech: await addTechnician(t, other.surveyor.id, "Olive Other"),
    staff: await addTechnician(t, null, "Stacy Staff"),
  };
}

/** The technician assignments of a survey, oldest first. */
export async function technicianRows(t: TestApp, surveyId: string) {
  return [
    ...await t.sql<
      { technicianId: string; notes: string | null; isCurrent: boolean; ended: boolean }[]
    >`select technician_id, notes, is_current, ended_at is not null as ended
      from technician_assignments where survey_id = ${surveyId} order by created_at, id`,
  ];
}

/** The survey's current technician (surveys.assigned_technician_id). */
export async function assignedTechnician(t: TestApp, surveyId: string): Promise<string | null> {
  const [row] = await t.sql<{ id: string | null }[]>`
    select assigned_technician_id as id from surveys where id = ${surveyId}`;
  return row.id;
}

/** `PATCH /api/surveys/{surveyId}/assign-technician`. */
export function assignPath(surveyId: string): string {
  return `/api/surveys/${surveyId}/assign-technician`;
}
