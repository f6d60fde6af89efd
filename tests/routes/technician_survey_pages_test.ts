import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps } from "../_pages.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { checklistJob } from "../_checklist_fixtures.ts";
import type { FieldActionsProps } from "../../islands/FieldActions.tsx";
import { newerStatus } from "../../islands/_field_memory.ts";
import type { CompleteSurveyProps } from "../../islands/CompleteSurvey.tsx";
import type { SurveyChecklistProps } from "../../islands/SurveyChecklist.tsx";

function page(t: TestApp, cookie: string, id: string) {
  return t.request("GET", `/technician-survey-detail/${id}`, {
    cookie,
    headers: { accept: "text/html" },
  });
}

test("[field page] the technician, the surveyor doing the job and admins see everything needed on site", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    await t.sql`update surveys set access_notes = 'Gate on the north side',
      parcel = ${t.sql.json({ parcelNumber: "R-77123", county: "Travis" })}
      where id = ${job.survey.id}`;
    const admin = await createSignedInUser(t, { role: "admin" });
    for (
      const [who, cookie] of [
        ["technician", job.technicianCookie],
        ["surveyor", job.surveyorCookie],
        ["admin", admin.cookie],
      ] as const
    ) {
      const res = await page(t, cookie, job.survey.id);
      assertEquals(res.status, 200, who);
      assertEquals(res.headers.get("cache-control"), "private, no-store");
      const html = await res.text();
      assertStringIncludes(html, "Open in maps");
      assertStringIncludes(html, "https://www.google.com/maps/search/?api=1&amp;query=");
      assertStringIncludes(html, "R-77123");
      assertStringIncludes(html, "Gate on the north side");
      assertStringIncludes(html, job.survey.contactName);
      assert(html.includes('href="tel:'), `${who}: a tap-to-call phone`);
      assertStringIncludes(html, "Gate code 1234; dog in the yard");
      assertStringIncludes(html, "Level Line Surveying");
      const actions = islandProps<FieldActionsProps>(html, "FieldActions");
      assertEquals([actions.surveyId, actions.status], [job.survey.id, "scheduled"]);
      assert(actions.progress && actions.progress.requiredTotal > 0, "progress of the checklist");
      assertEquals(actions.progress.requiredDone, 0);
      const checklist = islandProps<SurveyChecklistProps>(html, "SurveyChecklist");
      assertEquals(checklist.canEdit, true);
      assert(checklist.items.length > 0);
      // The surveyor and admins see who the crew is; the technician is told only their notes.
      assertEquals(html.includes("Technician: Toni Tech"), who !== "technician", who);
    }
  } finally {
    t.close();
  }
});

test("[field page] the client, another firm, another technician and unknown ids get the 404 page", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const rival = await addSurveyor(t, "Rival Surveying");
    const stranger = await createSignedInUser(t, { role: "technician" });
    for (const cookie of [rival.cookie, stranger.cookie]) {
      const res = await page(t, cookie, job.survey.id);
      assertEquals(res.status, 404);
      const html = await res.text();
      assertStringIncludes(html, "Survey not found");
      assert(!html.includes("Gate code 1234"), "nothing of the job leaks");
    }
    // The client's own survey is /survey/{id}; this page is the crew's.
    assertEquals((await page(t, job.clientCookie, job.survey.id)).status, 403);
    for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
      assertEquals((await page(t, job.technicianCookie, id)).status, 404, id);
    }
  } finally {
    t.close();
  }
});

test("[field page] a role changed since sign-in is the role the page is read for", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    // The session was opened as a technician: the page's statement is read for that role, then
    // read again for the role the account has now.
    assertEquals((await page(t, job.technicianCookie, job.survey.id)).status, 200);
    await t.sql`update users set role = 'admin' where id = ${job.technician.id}`;
    const res = await page(t, job.technicianCookie, job.survey.id);
    assertEquals(res.status, 200);
    const html = await res.text();
    assertStringIncludes(html, "Technician: Toni Tech", "the admin's view names the crew");
    await t.sql`update users set role = 'client' where id = ${job.technician.id}`;
    assertEquals((await page(t, job.technicianCookie, job.survey.id)).status, 403);
  } finally {
    t.close();
  }
});

test("[field page] the surveyor's job page offers Mark complete once surveyed, disabled without a deliverable", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t, { status: "surveyed" });
    const res = await t.request("GET", `/surveyor/jobs/${job.survey.id}`, {
      cookie: job.surveyorCookie,
    });
    assertEquals(res.status, 200);
    const html = await res.text();
    const props = islandProps<CompleteSurveyProps>(html, "CompleteSurvey");
    assertEquals([props.status, props.deliverables], ["surveyed", 0]);
    assertStringIncludes(html, "Mark complete");
    assertStringIncludes(html, "Upload at least one deliverable");
    // Another firm's surveyor with no job there sees no delivery card.
    const rival = await addSurveyor(t, "Rival Surveying");
    const other = await t.request("GET", `/surveyor/jobs/${job.survey.id}`, {
      cookie: rival.cookie,
    });
    assertEquals(other.status, 404);
  } finally {
    t.close();
  }
});

test("[field page] a status change answers its own time after the page's renderedAt, to the millisecond", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const html = await (await page(t, job.technicianCookie, job.survey.id)).text();
    const { renderedAt } = islandProps<FieldActionsProps>(html, "FieldActions");
    const before = Date.now();
    const res = await t.request("PATCH", `/api/surveys/${job.survey.id}/status`, {
      cookie: job.technicianCookie,
      body: { status: "in_fieldwork" },
    });
    const after = Date.now();
    assertEquals(res.status, 200);
    const body = await res.json();
    assertEquals(body.survey.status, "in_fieldwork");
    // The device keeps this time with the new status and shows it over a copy of the page
    // kept from before (islands/_field_memory.ts newerStatus): it must not read as older.
    const answeredAt = Date.parse(body.answeredAt);
    assert(answeredAt >= before && answeredAt <= after, `${body.answeredAt} within the request`);
    assert(answeredAt >= Date.parse(renderedAt), `${body.answeredAt} ≥ ${renderedAt}`);
    assertEquals(new Date(answeredAt).toISOString(), body.answeredAt, "ISO, to the millisecond");
  } finally {
    t.close();
  }
});

test("[field page] a status moved forward and back between two views is a new page: the device's kept status does not win over it", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const id = job.survey.id;
    const first = islandProps<FieldActionsProps>(
      await (await page(t, job.technicianCookie, id)).text(),
      "FieldActions",
    );
    // Nothing changed: the page is sent as it was (its render time with it).
    const again = islandProps<FieldActionsProps>(
      await (await page(t, job.technicianCookie, id)).text(),
      "FieldActions",
    );
    assertEquals(again.renderedAt, first.renderedAt, "sent as last rendered");

    // The device starts fieldwork and keeps the answer; then the survey is put back exactly as
    // it was (every column the start wrote), by whatever means, before the next view.
    const columns = (await t.sql<{ name: string }[]>`
      select column_name as name from information_schema.columns
      where table_name = 'surveys' and is_generated = 'NEVER' and column_name <> 'id'`)
      .map((row) => row.name);
    const [{ before }] = await t.sql<{ before: string }[]>`
      select to_jsonb(s)::text as before from surveys s where id = ${id}`;
    const res = await t.request("PATCH", `/api/surveys/${id}/status`, {
      cookie: job.technicianCookie,
      body: { status: "in_fieldwork" },
    });
    assertEquals(res.status, 200);
    const { survey, answeredAt } = await res.json();
    const known = { status: survey.status, surveyedDate: survey.surveyedDate, at: answeredAt };
    const list = columns.join(", ");
    await t.sql.unsafe(
      `update surveys set (${list}) =
        (select ${list} from jsonb_populate_record(null::surveys, $2::text::jsonb)) where id = $1`,
      [id, before],
    );
    // newerStatus compares by the second, an answer in the render's second counting as newer:
    // the next view is in a later second than the answer, as a view minutes later would be.
    await new Promise((resolve) => setTimeout(resolve, 1_005 - Date.now() % 1_000));

    const shown = islandProps<FieldActionsProps>(
      await (await page(t, job.technicianCookie, id)).text(),
      "FieldActions",
    );
    assertEquals(shown.status, "scheduled");
    assertEquals(
      newerStatus({ status: known, touched: 0 }, shown),
      undefined,
      `the server's "scheduled" read after the answer (${answeredAt}) is shown, not the device's "in fieldwork" (page rendered ${shown.renderedAt})`,
    );
  } finally {
    t.close();
  }
});
