/**
 * The field moves and the delivery through PATCH /api/surveys/{id}/status, by role: the
 * assigned technician and the surveyor doing the job start fieldwork and mark surveyed (never
 * with a required checklist item missing), the surveyor completes (never without a
 * deliverable), which completes the assignment, emails and notifies the client; anyone else on
 * the survey is a 404; an admin overrides with a note.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { addSurveyor, assignmentRows, emailsOf, notificationsOf } from "../_assignment_fixtures.ts";
import { checklistJob } from "../_checklist_fixtures.ts";
import { latestFieldDate } from "../../lib/fieldwork.ts";
import { makeOlder } from "../_row_order.ts";

function setStatus(t: TestApp, cookie: string, id: string, body: Record<string, unknown>) {
  return t.request("PATCH", `/api/surveys/${id}/status`, { cookie, body });
}

async function statusOf(t: TestApp, id: string): Promise<string> {
  const [row] = await t.sql<{ status: string }[]>`select status from surveys where id = ${id}`;
  return row.status;
}

/** Answers every required checklist item of the survey, as the crew would. */
async function completeChecklist(t: TestApp, surveyId: string): Promise<void> {
  await t.sql`
    update survey_checklist_items set value = case kind
        when 'check' then 'true'::jsonb
        when 'number' then '12.5'::jsonb
        when 'text' then '"Found iron rod"'::jsonb
        else jsonb_build_array(gen_random_uuid()::text) end,
      answered_at = now()
    where survey_id = ${surveyId} and is_required`;
}

/** A deliverable file record (its bytes are the storage's business, not the status rule's). */
async function addDeliverable(t: TestApp, surveyId: string): Promise<void> {
  await t.sql`
    insert into survey_files (survey_id, kind, file_name, content_type, size_bytes, sha256,
      storage, storage_key)
    values (${surveyId}, 'deliverable', 'plat.pdf', 'application/pdf', 1024, ${"a".repeat(64)},
      'postgres', ${crypto.randomUUID()})`;
}

const today = () => latestFieldDate(new Date(Date.now() - 2 * 86_400_000));

test("[fieldwork] the technician starts fieldwork with a position and marks surveyed once the checklist is done", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const id = job.survey.id;
    const start = await setStatus(t, job.technicianCookie, id, {
      status: "in_fieldwork",
      position: { lat: 30.2641, lng: -97.7712 },
    });
    assertEquals((await expectJson(start, 200)).survey.status, "in_fieldwork");
    const [row] = await t.sql`select fieldwork_started_at, fieldwork_start_lat as lat,
      fieldwork_start_lng as lng from surveys where id = ${id}`;
    assert(row.fieldworkStartedAt instanceof Date);
    assertEquals([row.lat, row.lng], [30.2641, -97.7712]);
    const told = await notificationsOf(t, job.client.id);
    assert(told.some((n) => n.title === "Fieldwork has started"));

    const early = await setStatus(t, job.technicianCookie, id, {
      status: "surveyed",
      surveyedDate: today(),
    });
    const refused = await expectJson(early, 409);
    assertMatch(
      refused.message,
      /^\d+ required checklist items? (is|are) not done yet; complete the checklist before marking the survey surveyed\.$/,
    );
    assertEquals(await statusOf(t, id), "in_fieldwork");

    await completeChecklist(t, id);
    const done = await setStatus(t, job.technicianCookie, id, {
      status: "surveyed",
      surveyedDate: today(),
    });
    const body = await expectJson(done, 200);
    assertEquals([body.survey.status, body.survey.surveyedDate], ["surveyed", today()]);

    // The technician never completes: that is the surveyor's, with the deliverables.
    const complete = await setStatus(t, job.technicianCookie, id, {
      status: "completed",
      completedDate: today(),
    });
    assertEquals(
      (await expectJson(complete, 409)).message,
      "The surveyor completes the survey once the deliverables are uploaded.",
    );
  } finally {
    t.close();
  }
});

test("[fieldwork] starting without a position, a position on another move, a day in the future", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const id = job.survey.id;
    const wrong = await setStatus(t, job.surveyorCookie, id, {
      status: "surveyed",
      surveyedDate: today(),
      position: { lat: 1, lng: 2 },
    });
    assertEquals(wrong.status, 409, "surveyed is not a move from scheduled");
    const bad = await setStatus(t, job.surveyorCookie, id, {
      status: "in_fieldwork",
      position: { lat: 91, lng: 0 },
    });
    assertEquals(bad.status, 400);
    // The surveyor doing the job may start it too; the browser may have refused the position.
    const start = await setStatus(t, job.surveyorCookie, id, { status: "in_fieldwork" });
    await expectJson(start, 200);
    const [row] = await t.sql`select fieldwork_started_at, fieldwork_start_lat as lat
      from surveys where id = ${id}`;
    assert(row.fieldworkStartedAt instanceof Date);
    assertEquals(row.lat, null);

    await completeChecklist(t, id);
    const withPosition = await setStatus(t, job.technicianCookie, id, {
      status: "surveyed",
      surveyedDate: today(),
      position: { lat: 1, lng: 2 },
    });
    assertEquals(
      (await expectJson(withPosition, 400)).message,
      "A position is only sent when starting fieldwork.",
    );
    const future = await setStatus(t, job.technicianCookie, id, {
      status: "surveyed",
      surveyedDate: "2099-01-01",
    });
    assertEquals((await expectJson(future, 400)).message, "The date cannot be in the future.");
    assertEquals(await statusOf(t, id), "in_fieldwork");
  } finally {
    t.close();
  }
});

test("[fieldwork] the surveyor completes only with a deliverable; the assignment completes and the client is emailed", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const job = await checklistJob(t, { status: "surveyed" });
    const id = job.survey.id;
    await t.sql`update surveys set surveyed_date = ${today()} where id = ${id}`;
    const none = await setStatus(t, job.surveyorCookie, id, {
      status: "completed",
      completedDate: today(),
    });
    assertEquals(
      (await expectJson(none, 409)).message,
      "Upload at least one deliverable (the plat, certificate, drawing or point file) before completing the survey.",
    );
    assertEquals(await statusOf(t, id), "surveyed");
    assertEquals(await emailsOf(t, "survey_delivered"), []);

    await addDeliverable(t, id);
    await addDeliverable(t, id);
    const res = await setStatus(t, job.surveyorCookie, id, {
      status: "completed",
      completedDate: today(),
    });
    const body = await expectJson(res, 200);
    assertEquals([body.survey.status, body.survey.completedDate], ["completed", today()]);
    assertEquals((await assignmentRows(t, id)).map((a) => a.status), ["completed"]);

    const [email] = await emailsOf(t, "survey_delivered");
    assertEquals(email.toAddress, job.client.email);
    assertEquals(email.subject, "Your Boundary Survey is ready to download");
    assertStringIncludes(email.text, `/client/surveys/${id}`);
    assertStringIncludes(email.text, "Level Line Surveying");
    assertStringIncludes(email.text, "2 files");
    const clientNotes = await notificationsOf(t, job.client.id);
    const delivered = clientNotes.find((n) => n.kind === "survey_delivered");
    assertEquals(delivered?.title, "Your survey is complete");
    assertEquals(delivered?.link, `/survey/${id}`);
    assertStringIncludes(delivered?.body ?? "", "Level Line Surveying delivered your");
    const adminNotes = await notificationsOf(t, admin.user.id);
    assert(adminNotes.some((n) => n.title === "Level Line Surveying delivered a survey"));
  } finally {
    t.close();
  }
});

test("[fieldwork] another firm's surveyor, another technician get a 404; the client may not move fieldwork", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const id = job.survey.id;
    const rival = await addSurveyor(t, "Rival Surveying");
    const stranger = await createSignedInUser(t, { role: "technician" });
    for (const cookie of [rival.cookie, stranger.cookie]) {
      const res = await setStatus(t, cookie, id, { status: "in_fieldwork" });
      assertEquals((await expectJson(res, 404)).message, "Survey not found");
    }
    const client = await setStatus(t, job.clientCookie, id, { status: "in_fieldwork" });
    assertEquals((await expectJson(client, 409)).message, "You can only cancel your request.");
    const cancel = await setStatus(t, job.technicianCookie, id, { status: "cancelled" });
    assertEquals(
      (await expectJson(cancel, 409)).message,
      "Ask Meridian support to cancel this survey.",
    );
    assertEquals(await statusOf(t, id), "scheduled");
  } finally {
    t.close();
  }
});

test("[fieldwork] an admin overrides the delivery rules only with a note, recorded in the timeline", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const job = await checklistJob(t, { status: "in_fieldwork" });
    const id = job.survey.id;
    const bare = await setStatus(t, admin.cookie, id, {
      status: "surveyed",
      surveyedDate: "2030-05-01",
    });
    assertMatch(
      (await expectJson(bare, 400)).message,
      /^A note is required to override the delivery rules: \d+ required checklist items? /,
    );
    assertEquals(await statusOf(t, id), "in_fieldwork");
    const noted = await setStatus(t, admin.cookie, id, {
      status: "surveyed",
      surveyedDate: "2030-05-01",
      note: "Crew confirmed by phone",
    });
    await expectJson(noted, 200);
    // A minute older than the next change (events in a row can share a timestamp).
    await makeOlder(t.sql, "survey_events", { where: t.sql`survey_id = ${id}` });
    const noDeliverable = await setStatus(t, admin.cookie, id, {
      status: "completed",
      completedDate: "2030-05-03",
    });
    assertMatch(
      (await expectJson(noDeliverable, 400)).message,
      /^A note is required to override the delivery rules: Upload at least one deliverable/,
    );
    const completed = await setStatus(t, admin.cookie, id, {
      status: "completed",
      completedDate: "2030-05-03",
      note: "Plat delivered on paper",
    });
    await expectJson(completed, 200);
    const events = await t.sql<{ note: string | null; toStatus: string }[]>`
      select note, to_status from survey_events where survey_id = ${id} and from_status is not null
      order by created_at, id`;
    assertEquals(events.map((e) => e.toStatus), ["surveyed", "completed"]);
    assertMatch(events[0].note ?? "", /^Override: .* Note: Crew confirmed by phone$/);
    assertMatch(events[1].note ?? "", /^Override: Upload at least one deliverable.* Note: Plat/);
    // The admin sees the override in the request's timeline.
    const page = await t.request("GET", `/survey/${id}`, { cookie: admin.cookie });
    assertStringIncludes(await page.text(), "Override: ");
    // No files: the client is notified, not emailed about files to download.
    assertEquals(await emailsOf(t, "survey_delivered"), []);
    assertEquals((await assignmentRows(t, id)).map((a) => a.status), ["completed"]);
  } finally {
    t.close();
  }
});
