import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { expectJson } from "../_fixtures.ts";
import { checklistJob } from "../_checklist_fixtures.ts";
import { formatCents } from "../../lib/quote_text.ts";

async function page(t: TestApp, cookie: string, path: string) {
  const res = await t.request("GET", path, { cookie, headers: { accept: "text/html" } });
  assertEquals(res.status, 200);
  return await res.text();
}

// Issue 21: after delivery the dashboard said "Not assigned yet" and /survey/{id} showed only
// the instant quote ("This price does not change") although the job was done at an agreed price.
test("[survey pages] after delivery the client still sees who did the survey, their rating and the agreed price beside the quote", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t, { status: "surveyed" });
    await t.sql`update surveyors set rating = 4.7, review_count = 31, phone = '(512) 555-0101'
      where id = ${job.surveyorId}`;
    const [{ quoted }] = await t.sql<{ quoted: number }[]>`
      select quoted_price_cents as quoted from surveys where id = ${job.survey.id}`;
    const agreed = quoted + 4_200;
    await t.sql`update survey_assignments set agreed_price_cents = ${agreed}
      where survey_id = ${job.survey.id}`;
    await t.sql`
      insert into survey_files (survey_id, kind, file_name, content_type, size_bytes, sha256,
        storage, storage_key)
      values (${job.survey.id}, 'deliverable', 'plat.pdf', 'application/pdf', 2048,
        ${"c".repeat(64)}, 'postgres', ${crypto.randomUUID()})`;
    await expectJson(
      await t.request("PATCH", `/api/surveys/${job.survey.id}/status`, {
        cookie: job.surveyorCookie,
        body: { status: "completed", completedDate: "2026-01-05" },
      }),
      200,
    );
    for (const path of ["/client-dashboard", `/survey/${job.survey.id}`]) {
      const html = await page(t, job.clientCookie, path);
      assert(!html.includes("Not assigned yet"), `${path}: the surveyor is named`);
      for (
        const text of [
          "Level Line Surveying",
          "(512) 555-0101",
          "Rated 4.7 of 5 (31 public reviews)",
          "Agreed price",
          formatCents(agreed),
          `${formatCents(4_200)} more than the instant quote of ${formatCents(quoted)}`,
        ]
      ) assertStringIncludes(html, text, `${path} shows ${text}`);
    }
    const detail = await page(t, job.clientCookie, `/survey/${job.survey.id}`);
    assert(!detail.includes("This price does not change."), "the quote is not what is paid");
    assertStringIncludes(detail, "you pay the agreed price");

    // Once a client rated the firm, Meridian's reviews are the rating shown.
    await expectJson(
      await t.request("POST", `/api/surveys/${job.survey.id}/review`, {
        cookie: job.clientCookie,
        body: { rating: 5 },
      }),
      201,
    );
    assertStringIncludes(
      await page(t, job.clientCookie, "/client-dashboard"),
      "Rated 5.0 of 5 by 1 Meridian client",
    );
  } finally {
    t.close();
  }
});

test("[survey pages] while unassigned the quote still says it does not change, and no agreed price shows", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t, { status: "scheduled" });
    await t.sql`delete from survey_assignments where survey_id = ${job.survey.id}`;
    await t.sql`update surveys set status = 'requested', assigned_surveyor_id = null
      where id = ${job.survey.id}`;
    const html = await page(t, job.clientCookie, `/survey/${job.survey.id}`);
    assertStringIncludes(html, "This price does not change.");
    assertStringIncludes(html, "Not assigned yet");
    assert(!html.includes('data-testid="agreed-price-fact"'));
  } finally {
    t.close();
  }
});
