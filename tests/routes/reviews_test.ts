import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser } from "../_auth.ts";
import { countRows, expectJson } from "../_fixtures.ts";
import { addSurveyor, clientWithSurvey, notificationsOf } from "../_assignment_fixtures.ts";
import { listSurveyorReviews } from "../../db/reviews.ts";
import { makeOlder } from "../_row_order.ts";

/** A completed survey of a client, delivered by Ortiz Surveying (assignment completed). */
async function delivered(t: TestApp) {
  const c = await clientWithSurvey(t);
  const ortiz = await addSurveyor(t, "Ortiz Surveying");
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source)
    values (${c.survey.id}, ${ortiz.surveyor.id}, 128500, 'completed', 'admin')`;
  await t.sql`update surveys set status = 'completed', surveyed_date = '2030-05-01',
    completed_date = '2030-05-02' where id = ${c.survey.id}`;
  return { ...c, ortiz };
}

function review(t: TestApp, cookie: string, surveyId: string, body: unknown) {
  return t.request("POST", `/api/surveys/${surveyId}/review`, { cookie, body });
}

test("[reviews] the client rates the surveyor of their completed survey once; the rating adds up", async () => {
  const t = await createTestApp();
  try {
    const admin = await createUser(t.sql, { role: "admin" });
    const f = await delivered(t);
    const res = await review(t, f.cookie, f.survey.id, {
      rating: 4,
      comment: "  On time, clear plat.\r\nWould hire again.  ",
    });
    const body = await expectJson(res, 201);
    assertEquals(body.message, "Thank you for your rating");
    assertEquals([body.review.rating, body.review.comment], [
      4,
      "On time, clear plat.\nWould hire again.",
    ]);
    const [firm] = await t.sql<{ sum: number; count: number }[]>`
      select meridian_rating_sum as sum, meridian_review_count as count
      from surveyors where id = ${f.ortiz.surveyor.id}`;
    assertEquals(firm, { sum: 4, count: 1 });

    const again = await review(t, f.cookie, f.survey.id, { rating: 1 });
    assertEquals((await expectJson(again, 409)).message, "You have already rated this survey");
    assertEquals(await countRows(t, "surveyor_reviews"), 1);
    const [after] = await t.sql`select meridian_rating_sum as sum from surveyors
      where id = ${f.ortiz.surveyor.id}`;
    assertEquals(after.sum, 4, "the refused second rating changed nothing");

    // The admins and the firm's account are told.
    const adminNotes = await notificationsOf(t, admin.id);
    const note = adminNotes.find((n) => n.kind === "surveyor_reviewed");
    assertEquals(note?.title, "Ortiz Surveying was rated 4 stars");
    assertEquals(note?.link, `/surveyor-detail/${f.ortiz.surveyor.id}`);
    assertStringIncludes(note?.body ?? "", "Would hire again.");
    const firmNotes = await notificationsOf(t, f.ortiz.user!.id);
    assertEquals(firmNotes.map((n) => [n.kind, n.title]), [
      ["surveyor_reviewed", "A client rated your work 4 stars"],
    ]);

    // The directory record lists it, newest first, with the average.
    const second = await delivered(t);
    await t.sql`update survey_assignments set surveyor_id = ${f.ortiz.surveyor.id}
      where survey_id = ${second.survey.id}`;
    // The first rating a minute older, so the second is the newest for certain.
    await makeOlder(t.sql, "surveyor_reviews");
    await expectJson(await review(t, second.cookie, second.survey.id, { rating: 5 }), 201);
    const listed = await listSurveyorReviews(t.sql, { surveyorId: f.ortiz.surveyor.id });
    assertEquals(listed.total, 2);
    assertEquals(listed.average, 4.5);
    assertEquals(listed.reviews.map((r) => r.rating), [5, 4]);
    assertEquals(listed.reviews[1].clientName, "Dana Client");
  } finally {
    t.close();
  }
});

test("[reviews] another client gets a 404, other roles a 403, an unfinished survey a 409", async () => {
  const t = await createTestApp();
  try {
    const f = await delivered(t);
    const stranger = await createSignedInUser(t, { role: "client" });
    const other = await review(t, stranger.cookie, f.survey.id, { rating: 5 });
    assertEquals((await expectJson(other, 404)).message, "Survey not found");
    for (const role of ["admin", "surveyor", "technician"] as const) {
      const { cookie } = await createSignedInUser(t, { role });
      assertEquals((await review(t, cookie, f.survey.id, { rating: 5 })).status, 403, role);
    }
    assertEquals((await review(t, f.ortiz.cookie, f.survey.id, { rating: 5 })).status, 403);
    assertEquals((await review(t, "", f.survey.id, { rating: 5 })).status, 401);

    const open = await clientWithSurvey(t);
    const early = await review(t, open.cookie, open.survey.id, { rating: 5 });
    assertEquals(
      (await expectJson(early, 409)).message,
      "You can rate your surveyor once the survey is completed.",
    );
    // Completed by an admin with nobody on the job: nobody to rate.
    await t.sql`update surveys set status = 'completed' where id = ${open.survey.id}`;
    const nobody = await review(t, open.cookie, open.survey.id, { rating: 5 });
    assertEquals((await expectJson(nobody, 409)).message, "This survey has no surveyor to rate.");

    for (const bad of [{ rating: 0 }, { rating: 6 }, { rating: 3.5 }, { rating: "5" }, {}]) {
      const res = await review(t, f.cookie, f.survey.id, bad);
      assertEquals(res.status, 400, JSON.stringify(bad));
    }
    const long = await review(t, f.cookie, f.survey.id, { rating: 5, comment: "x".repeat(2001) });
    assertEquals(long.status, 400);
    assertEquals(await countRows(t, "surveyor_reviews"), 0);
    const [firm] = await t.sql`select meridian_review_count as n from surveyors
      where id = ${f.ortiz.surveyor.id}`;
    assertEquals(firm.n, 0);
  } finally {
    t.close();
  }
});

test("[reviews] the surveyor's directory record shows Meridian reviews, newest first", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const f = await delivered(t);
    const path = `/surveyor-detail/${f.ortiz.surveyor.id}`;
    const before = await (await t.request("GET", path, { cookie: admin.cookie })).text();
    assertStringIncludes(before, "No client has rated this surveyor on Meridian yet.");
    await expectJson(
      await review(t, f.cookie, f.survey.id, { rating: 3, comment: "Late but thorough" }),
      201,
    );
    const res = await t.request("GET", path, { cookie: admin.cookie });
    assertEquals(res.status, 200);
    const html = await res.text();
    assertStringIncludes(html, "Meridian reviews");
    assertStringIncludes(html, "3.0</strong> from 1 review");
    assertStringIncludes(html, "Late but thorough");
    assertStringIncludes(html, "Dana Client");
    assert(html.includes(`href="/survey/${f.survey.id}"`));
  } finally {
    t.close();
  }
});
