import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { islandProps } from "../_pages.ts";
import { checklistJob } from "../_checklist_fixtures.ts";
import type { RateSurveyorProps } from "../../islands/RateSurveyor.tsx";

async function html(t: TestApp, cookie: string, path: string) {
  const res = await t.request("GET", path, { cookie, headers: { accept: "text/html" } });
  return { status: res.status, text: await res.text() };
}

async function addDeliverable(t: TestApp, surveyId: string, name: string): Promise<string> {
  const [row] = await t.sql<{ id: string }[]>`
    insert into survey_files (survey_id, kind, file_name, content_type, size_bytes, sha256,
      storage, storage_key)
    values (${surveyId}, 'deliverable', ${name}, 'application/pdf', 2048, ${"c".repeat(64)},
      'postgres', ${crypto.randomUUID()})
    returning id`;
  return row.id;
}

test("[survey page] during fieldwork the client sees the checklist's progress, never its answers or crew notes", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t, { status: "in_fieldwork" });
    await t.sql`update survey_checklist_items set value = '"Iron rod found under the oak"'::jsonb
      where survey_id = ${job.survey.id} and kind = 'text'`;
    await t.sql`update survey_checklist_items set value = 'true'::jsonb
      where survey_id = ${job.survey.id} and kind = 'check'`;
    const page = await html(t, job.clientCookie, `/survey/${job.survey.id}`);
    assertEquals(page.status, 200);
    assertStringIncludes(page.text, "Fieldwork");
    assertStringIncludes(page.text, "The crew is on site, working through the checklist.");
    assert(/\d+ of \d+ required done/.test(page.text), "progress in words");
    assert(!page.text.includes("Iron rod found under the oak"), "no answer values");
    assert(!page.text.includes("dog in the yard"), "no crew notes");
    assert(!page.text.includes('data-island="SurveyChecklist"'), "no checklist island");
    // Nothing delivered yet, nothing to rate.
    assert(!page.text.includes("Deliverables"));
    assert(!page.text.includes('data-island="RateSurveyor"'));
  } finally {
    t.close();
  }
});

test("[survey page] once completed the client downloads the deliverables and rates the surveyor once", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t, { status: "surveyed" });
    const fileId = await addDeliverable(t, job.survey.id, "boundary-plat.pdf");
    const before = await html(t, job.clientCookie, `/survey/${job.survey.id}`);
    assert(!before.text.includes("boundary-plat.pdf"), "no files before completion");

    const completed = await t.request("PATCH", `/api/surveys/${job.survey.id}/status`, {
      cookie: job.surveyorCookie,
      body: { status: "completed", completedDate: "2026-01-05" },
    });
    // surveyed_date is null in the fixture, so any past day passes.
    await expectJson(completed, 200);

    const page = await html(t, job.clientCookie, `/survey/${job.survey.id}`);
    assertEquals(page.status, 200);
    assertStringIncludes(page.text, "boundary-plat.pdf");
    assertStringIncludes(page.text, `/api/files/${fileId}`);
    // The assignment is completed, and the client still sees who did the job.
    assertStringIncludes(page.text, "Level Line Surveying");
    assert(!page.text.includes("Not assigned yet"));
    // The timeline runs from the request to the delivery.
    assertStringIncludes(page.text, "Completed");
    const props = islandProps<RateSurveyorProps>(page.text, "RateSurveyor");
    assertEquals(props, {
      surveyId: job.survey.id,
      companyName: "Level Line Surveying",
      existing: null,
    });

    const rate = await t.request("POST", `/api/surveys/${job.survey.id}/review`, {
      cookie: job.clientCookie,
      body: { rating: 5, comment: "Great crew" },
    });
    await expectJson(rate, 201);
    const after = await html(t, job.clientCookie, `/survey/${job.survey.id}`);
    const given = islandProps<RateSurveyorProps>(after.text, "RateSurveyor");
    assertEquals(given.existing, { rating: 5, comment: "Great crew" });

    // Another client sees nothing of it.
    const stranger = await createSignedInUser(t, { role: "client" });
    const other = await html(t, stranger.cookie, `/survey/${job.survey.id}`);
    assertEquals(other.status, 404);
    assert(!other.text.includes("boundary-plat.pdf"));
  } finally {
    t.close();
  }
});

test("[survey page] an admin sees uploaded deliverables before completion; the client does not", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const job = await checklistJob(t, { status: "surveyed" });
    await addDeliverable(t, job.survey.id, "draft-plat.pdf");
    const adminPage = await html(t, admin.cookie, `/survey/${job.survey.id}`);
    assertStringIncludes(adminPage.text, "draft-plat.pdf");
    assert(!adminPage.text.includes('data-island="RateSurveyor"'), "admins do not rate");
    const clientPage = await html(t, job.clientCookie, `/survey/${job.survey.id}`);
    assert(!clientPage.text.includes("draft-plat.pdf"));
    assertStringIncludes(
      clientPage.text,
      "Fieldwork is done; your surveyor is drafting the final documents.",
    );
  } finally {
    t.close();
  }
});
