/**
 * Shared test data for route tests: the roles and their dashboards, a complete survey request
 * and the calls that store one, plus the row count and JSON checks several files make.
 */
import { assertEquals, assertMatch } from "./_assert.ts";
import type { TestApp } from "./_helpers.ts";
import type { Role } from "../lib/roles.ts";
import type { Survey } from "../lib/survey_schema.ts";
import type { Sql } from "../db/client.ts";
import { insertNotification } from "../db/notifications.ts";

/** Every role, in a fixed order. */
export const ROLES: readonly Role[] = ["admin", "client", "surveyor", "technician"];

/** Spec: where each role lands after signing in (its dashboard). */
export const DASHBOARDS: Readonly<Record<Role, string>> = {
  admin: "/admin-dashboard",
  client: "/client-dashboard",
  surveyor: "/surveyor-dashboard",
  technician: "/technician-dashboard",
};

/** A complete, valid POST /api/surveys body (a boundary survey in Austin), with `overrides`. */
export function surveyRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    requestId: crypto.randomUUID(),
    address: "1200 Barton Springs Rd, Austin, TX 78704",
    formattedAddress: "1200 Barton Springs Rd, Austin, TX 78704, USA",
    lat: 30.2636,
    lng: -97.7589,
    surveyType: "boundary",
    propertyType: "residential",
    acreage: 0.25,
    terrain: "flat",
    vegetation: "light",
    structures: 1,
    cornersToSet: 0,
    cornersKnown: true,
    rush: "standard",
    state: "TX",
    purpose: "selling",
    accessNotes: "Gate code 1234",
    contactName: "Dana Client",
    contactPhone: "(512) 555-0100",
    contactEmail: "dana@example.test",
    notes: "Dog in the yard",
    ...overrides,
  };
}

/** Submits `surveyRequest(overrides)` as the client behind `cookie`; fails unless it is a 201. */
export async function submitSurvey(
  t: TestApp,
  cookie: string,
  overrides: Record<string, unknown> = {},
): Promise<Survey> {
  const res = await t.request("POST", "/api/surveys", { cookie, body: surveyRequest(overrides) });
  const body = await res.json();
  assertEquals(res.status, 201, JSON.stringify(body));
  return body.survey;
}

/** Gives `userId` `count` unread notifications (a status change of a survey), for bell counts. */
export async function notifyUnread(sql: Sql, userId: string, count = 1): Promise<void> {
  for (let i = 0; i < count; i++) {
    await insertNotification(sql, {
      userId,
      kind: "survey_status_changed",
      title: "Survey scheduled",
      body: "Your boundary survey is scheduled.",
      link: "/client-dashboard",
    });
  }
}

/**
 * `text` with every uuid replaced by "<id>": ids are random, and one may hold a digit run of the
 * private data a test looks for ("8812" once did, in a CI run), which is no leak.
 */
export function withoutIds(text: string): string {
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>");
}

/** How many rows `table` holds (a fixed table name from the test, never input). */
export async function countRows(t: TestApp, table: string): Promise<number> {
  const [{ n }] = await t.sql.unsafe(`select count(*)::int as n from ${table}`);
  return n as number;
}

/** Asserts status, then a JSON content type, and returns the body. */
export async function expectJson(res: Response, status: number) {
  const body = await res.text();
  assertEquals(res.status, status, body);
  assertMatch(res.headers.get("content-type") ?? "", /^application\/json/);
  return JSON.parse(body);
}

/**
 * Puts a survey in `status` directly in the database, for tests that need a survey in a state
 * no status change may set (surveyors_notified by Notify surveyors, assigned by an
 * assignment; lib/survey_status.ts ACTION_ONLY_STATUSES).
 */
export async function putSurveyInStatus(t: TestApp, id: string, status: string): Promise<void> {
  await t.sql`update surveys set status = ${status}, updated_at = now() where id = ${id}`;
}
