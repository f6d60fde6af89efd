/**
 * Checklist test data: a client's request worked by a surveyor firm (scheduled assignment) with
 * a technician of that firm assigned directly in the database and the checklist instantiated,
 * as the technician assignment does.
 */
import type { TestApp } from "./_helpers.ts";
import { createSignedInUser, type TestUser } from "./_auth.ts";
import { addSurveyor, clientWithSurvey } from "./_assignment_fixtures.ts";
import { submitSurvey } from "./_fixtures.ts";
import { instantiateChecklist } from "../db/checklists.ts";
import type { Survey } from "../lib/survey_schema.ts";

/** Everyone working on one survey, with session cookies. */
export interface ChecklistJob {
  survey: Survey;
  client: TestUser;
  clientCookie: string;
  surveyorId: string;
  surveyorUser: TestUser;
  surveyorCookie: string;
  technician: TestUser;
  technicianCookie: string;
}

/**
 * A request in `status` (default scheduled) worked by a firm with a scheduled assignment, a
 * technician of the firm assigned, and its checklist instantiated. `overrides` go to the
 * request (e.g. an ALTA survey with altaItems).
 */
export async function checklistJob(
  t: TestApp,
  { status = "scheduled", overrides = {}, instantiate = true }: {
    status?: string;
    overrides?: Record<string, unknown>;
    instantiate?: boolean;
  } = {},
): Promise<ChecklistJob> {
  const { client, cookie: clientCookie, survey: first } = await clientWithSurvey(t);
  const survey = Object.keys(overrides).length > 0
    ? await submitSurvey(t, clientCookie, overrides)
    : first;
  const firm = await addSurveyor(t, "Level Line Surveying");
  const tech = await createSignedInUser(t, { role: "technician", fullName: "Toni Tech" });
  await assignTechnicianInDb(t, {
    surveyId: survey.id,
    surveyorId: firm.surveyor.id,
    technicianId: tech.user.id,
    status,
  });
  if (instantiate) await t.sql.begin((tx) => instantiateChecklist(tx, { surveyId: survey.id }));
  return {
    survey,
    client,
    clientCookie,
    surveyorId: firm.surveyor.id,
    surveyorUser: firm.user!,
    surveyorCookie: firm.cookie,
    technician: tech.user,
    technicianCookie: tech.cookie,
  };
}

/**
 * Gives the survey a scheduled assignment to `surveyorId` and `technicianId` as its current
 * technician (a member of that firm), and puts the survey in `status`.
 */
export async function assignTechnicianInDb(
  t: TestApp,
  { surveyId, surveyorId, technicianId, status = "scheduled" }: {
    surveyId: string;
    surveyorId: string;
    technicianId: string;
    status?: string;
  },
): Promise<void> {
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source,
      scheduled_date)
    values (${surveyId}, ${surveyorId}, 50000, 'scheduled', 'admin', current_date + 1)`;
  await t.sql`
    insert into technicians (user_id, surveyor_id) values (${technicianId}, ${surveyorId})
    on conflict (user_id) do nothing`;
  await t.sql`
    insert into technician_assignments (survey_id, technician_id, notes)
    values (${surveyId}, ${technicianId}, 'Gate code 1234; dog in the yard')`;
  await t.sql`
    update surveys set assigned_surveyor_id = ${surveyorId}, assigned_technician_id = ${technicianId},
      status = ${status}, scheduled_date = current_date + 1, updated_at = now()
    where id = ${surveyId}`;
}

/** The items of a survey's checklist by key: value, who answered (user id) and when. */
export async function itemRows(t: TestApp, surveyId: string) {
  const rows = await t.sql<
    { id: string; key: string; kind: string; value: unknown; answeredBy: string | null }[]
  >`select id, key, kind, value, answered_by from survey_checklist_items
    where survey_id = ${surveyId} order by position`;
  return new Map(rows.map((row) => [row.key, row]));
}

/** Every stored edit of a survey's checklist, oldest device time first. */
export async function answerRows(t: TestApp, surveyId: string) {
  return [
    ...await t.sql<{ key: string; opId: string; value: unknown; isApplied: boolean }[]>`
    select i.key, a.op_id, a.value, a.is_applied
    from survey_checklist_answers a join survey_checklist_items i on i.id = a.item_id
    where i.survey_id = ${surveyId} order by a.answered_at, a.op_id`,
  ];
}
