/**
 * A client's survey timeline: "Meridian support" for every change the client did not make,
 * and only notes written for the client, in the JSON and the HTML alike. Admins see it all.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { countRows, expectJson, submitSurvey } from "../_fixtures.ts";
import { assertHtml, getPage, pageText } from "../_pages.ts";
import { SUPPORT_ACTOR_NAME, type SurveyEvent } from "../../lib/survey_schema.ts";
import { makeOlder } from "../_row_order.ts";

const ADMIN_NAME = "Ada Lovelace-Admin";
const CLIENT_NAME = "Dana Client-Owner";
const INTERNAL = "Internal: client was rude on the phone, quote high next time";
const FOR_CLIENT = "The crew is on site; expect a call this week.";
const OLD_NOTE = "Written before notes had an audience";

/**
 * A client's survey that an admin moved on twice: one internal note, one for the client. Each
 * event is a minute older than the next and the last a minute old: events made in a row can
 * share a timestamp, and a tie is ordered by id, which says nothing of which came first.
 */
async function surveyWithNotes(t: TestApp) {
  const admin = await createSignedInUser(t, { role: "admin", fullName: ADMIN_NAME });
  const client = await createSignedInUser(t, { role: "client", fullName: CLIENT_NAME });
  const survey = await submitSurvey(t, client.cookie);
  const changes = [
    { status: "scheduled", scheduledDate: "2099-03-01", note: INTERNAL },
    { status: "in_fieldwork", note: FOR_CLIENT, isNoteVisibleToClient: true },
  ];
  const earlier = () =>
    makeOlder(t.sql, "survey_events", { where: t.sql`survey_id = ${survey.id}` });
  for (const body of changes) {
    await earlier();
    const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
      cookie: admin.cookie,
      body,
    });
    await expectJson(res, 200);
  }
  await earlier();
  return { admin, client, survey };
}

async function eventsAs(t: TestApp, id: string, cookie: string) {
  const res = await t.request("GET", `/api/surveys/${id}`, { cookie });
  const text = await res.text();
  assertEquals(res.status, 200, text);
  return { text, events: JSON.parse(text).events as SurveyEvent[] };
}

function assertNoStaffDetails(text: string, where: string) {
  assert(!text.includes(ADMIN_NAME), `${where} names the admin`);
  assert(!text.includes(INTERNAL), `${where} holds the internal note`);
  assert(!text.includes(OLD_NOTE), `${where} holds an older (internal) note`);
}

test("[timeline] a client's JSON names Meridian support and holds only notes written for them", async () => {
  const t = await createTestApp();
  const { client, survey } = await surveyWithNotes(t);
  const { text, events } = await eventsAs(t, survey.id, client.cookie);
  assertNoStaffDetails(text, "GET /api/surveys/{id}");
  assertEquals(
    events.map((e) => [e.toStatus, e.actorName, e.note, e.isNoteVisibleToClient]),
    [
      ["requested", CLIENT_NAME, null, false],
      ["scheduled", SUPPORT_ACTOR_NAME, null, false],
      ["in_fieldwork", SUPPORT_ACTOR_NAME, FOR_CLIENT, true],
    ],
  );
  t.close();
});

test("[timeline] a client's survey page and dashboard show Meridian support, never the admin or an internal note", async () => {
  const t = await createTestApp();
  const { client, survey } = await surveyWithNotes(t);
  const res = await getPage(t, `/survey/${survey.id}`, client.cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  const html = await pageText(res);
  assertNoStaffDetails(html, "/survey/{id}");
  assertStringIncludes(html, SUPPORT_ACTOR_NAME);
  assertStringIncludes(html, FOR_CLIENT);
  assertStringIncludes(html, CLIENT_NAME, "the client's own request shows their name");
  assert(!html.includes("Internal note"), "no note labels for clients");

  const dashboard = await getPage(t, "/client-dashboard", client.cookie);
  assertEquals(dashboard.status, 200);
  assertNoStaffDetails(await pageText(dashboard), "/client-dashboard");
  t.close();
});

test("[timeline] the admin still sees every name and note, each marked with its audience", async () => {
  const t = await createTestApp();
  const { admin, survey } = await surveyWithNotes(t);
  const { events } = await eventsAs(t, survey.id, admin.cookie);
  assertEquals(
    events.map((e) => [e.toStatus, e.actorName, e.note, e.isNoteVisibleToClient]),
    [
      ["requested", CLIENT_NAME, null, false],
      ["scheduled", ADMIN_NAME, INTERNAL, false],
      ["in_fieldwork", ADMIN_NAME, FOR_CLIENT, true],
    ],
  );
  const res = await getPage(t, `/survey/${survey.id}`, admin.cookie);
  assertEquals(res.status, 200);
  const html = await pageText(res);
  assertStringIncludes(html, ADMIN_NAME);
  const text = html.replace(/<[^>]*>/g, "");
  assertStringIncludes(text, `Internal note: ${INTERNAL}`);
  assertStringIncludes(text, `Visible to client: ${FOR_CLIENT}`);
  assert(!html.includes(SUPPORT_ACTOR_NAME), "admins see real names");
  t.close();
});

test("[timeline] notes from before the visibility flag stay internal", async () => {
  const t = await createTestApp();
  const { admin, client, survey } = await surveyWithNotes(t);
  // As the rows already stored when migration 0006 ran: no visibility given.
  await t.sql`
    insert into survey_events (survey_id, actor_id, from_status, to_status, note)
    values (${survey.id}, ${admin.user.id}, 'in_fieldwork', 'surveyed', ${OLD_NOTE})`;
  const mine = await eventsAs(t, survey.id, client.cookie);
  assertNoStaffDetails(mine.text, "GET /api/surveys/{id}");
  assertEquals(mine.events.length, 4);
  const html = await pageText(await getPage(t, `/survey/${survey.id}`, client.cookie));
  assertNoStaffDetails(html, "/survey/{id}");
  const theirs = await eventsAs(t, survey.id, admin.cookie);
  assertEquals(theirs.events[3].note, OLD_NOTE);
  assertEquals(theirs.events[3].isNoteVisibleToClient, false);
  t.close();
});

test("[timeline] a client's own note on their cancellation is theirs to read", async () => {
  const t = await createTestApp();
  const client = await createSignedInUser(t, { role: "client", fullName: CLIENT_NAME });
  const survey = await submitSurvey(t, client.cookie);
  // The request's creation a minute older than its cancellation (events can share a timestamp).
  await makeOlder(t.sql, "survey_events", { where: t.sql`survey_id = ${survey.id}` });
  const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
    cookie: client.cookie,
    body: { status: "cancelled", note: "Sold the lot", isNoteVisibleToClient: false },
  });
  await expectJson(res, 200);
  const { events } = await eventsAs(t, survey.id, client.cookie);
  assertEquals(events[1].actorName, CLIENT_NAME);
  assertEquals(events[1].note, "Sold the lot");
  t.close();
});

test("[timeline] a note's visibility must be true or false; a bad one changes nothing", async () => {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await createSignedInUser(t, { role: "client" });
  const survey = await submitSurvey(t, client.cookie);
  for (const isNoteVisibleToClient of ["yes", 1, null, { a: 1 }]) {
    const res = await t.request("PATCH", `/api/surveys/${survey.id}/status`, {
      cookie: admin.cookie,
      body: { status: "scheduled", note: "x", isNoteVisibleToClient },
    });
    const body = await expectJson(res, 400);
    assertEquals(body.errors?.isNoteVisibleToClient, "Note visibility must be true or false");
  }
  assertEquals(await countRows(t, "survey_events"), 1);
  const [{ status }] = await t.sql`select status from surveys where id = ${survey.id}`;
  assertEquals(status, "requested");
  t.close();
});
