/**
 * Public firm profiles (issue 22): /firms/{slug} for active, verified firms only, its content
 * (first name and town of reviewers, nothing else of theirs), JSON-LD, the sitemap, the slug
 * redirect, the review's public text and the firm's one reply.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, ORIGIN, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { countRows, expectJson, submitSurvey } from "../_fixtures.ts";
import { addLeadTo, addSurveyor, emailsOf, notificationsOf } from "../_assignment_fixtures.ts";
import { listSurveyorReviews } from "../../db/reviews.ts";
import { addBuyer, addPurchase, addSurveyWithLead } from "../_refund_fixtures.ts";
import { firmProfilePath, firmSlug } from "../../lib/firm_slug.ts";
import { makeOlder } from "../_row_order.ts";

const HTML = { accept: "text/html" };

/** Ortiz Land Surveying, active and verified in TX and NM, with an office in Austin. */
function ortiz(t: TestApp) {
  return addSurveyor(t, "Ortiz Land Surveying", {
    city: "Austin",
    state: "TX",
    licenseStates: ["TX", "NM"],
    surveyTypes: ["boundary", "topographic"],
    serviceRadiusMiles: 60,
  });
}

/** A client's survey delivered by `surveyorId` (assignment completed), ready to review. */
async function delivered(t: TestApp, surveyorId: string, fullName: string, email: string) {
  const { user, cookie } = await createSignedInUser(t, { role: "client", fullName, email });
  const survey = await submitSurvey(t, cookie);
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source)
    values (${survey.id}, ${surveyorId}, 128500, 'completed', 'admin')`;
  await t.sql`update surveys set status = 'completed', surveyed_date = '2030-05-01',
    completed_date = '2030-05-02' where id = ${survey.id}`;
  return { user, cookie, survey };
}

function review(t: TestApp, cookie: string, surveyId: string, body: unknown) {
  return t.request("POST", `/api/surveys/${surveyId}/review`, { cookie, body });
}

function jsonLdOf(html: string): Record<string, unknown> {
  const match = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html);
  assert(match, "the page has JSON-LD");
  return JSON.parse(match[1]);
}

/** A firm with two reviews (one with a public text that tries HTML), and a claimed lead. */
async function reviewedFirm(t: TestApp) {
  const firm = await ortiz(t);
  const dana = await delivered(t, firm.surveyor.id, "Dana Quillfeather", "dana.q@example.test");
  const lee = await delivered(t, firm.surveyor.id, "Lee Marchetti-Vance", "lee@example.test");
  await expectJson(
    await review(t, dana.cookie, dana.survey.id, {
      rating: 5,
      text: `Staked every corner <script>alert("x")</script> & explained the plat.`,
      comment: "Private: the invoice was late.",
    }),
    201,
  );
  await expectJson(await review(t, lee.cookie, lee.survey.id, { rating: 4 }), 201);
  // Offered a lead three hours ago, claimed it now: the median response is 3 hours.
  const leadId = await addLeadTo(t, dana.survey);
  await t.sql`insert into lead_recipients (lead_id, surveyor_id, kind, notified_at)
    values (${leadId}, ${firm.surveyor.id}, 'notified', now() - interval '3 hours')`;
  await t.sql`insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents)
    values (${leadId}, ${firm.surveyor.id}, 'claim', 0)`;
  return { firm, dana, lee };
}

test("[firms] the profile shows the firm, its record and reviews by first name and town only", async () => {
  const t = await createTestApp();
  try {
    const { firm } = await reviewedFirm(t);
    const path = firmProfilePath("Ortiz Land Surveying", firm.surveyor.id);
    const res = await t.request("GET", path, { headers: HTML });
    assertEquals(res.status, 200);
    assertStringIncludes(res.headers.get("content-type") ?? "", "text/html");
    const html = await res.text();
    assertStringIncludes(html, "<h1>Ortiz Land Surveying</h1>");
    assertStringIncludes(html, "Ortiz Land Surveying Principal");
    assertStringIncludes(html, "New Mexico, Texas");
    assertStringIncludes(html, "Boundary Survey");
    assertStringIncludes(html, "Topographic Survey");
    assertStringIncludes(html, 'class="firm-map__area"');
    assertStringIncludes(html, "Travels up to 60 miles from Austin, TX");
    assert(/data-testid="firm-jobs">2</.test(html), "two jobs completed");
    assertStringIncludes(html, "3 hours (median)");
    assertStringIncludes(html, "4.5 (2 reviews)");
    assertStringIncludes(html, "Dana in Austin, TX");
    assertStringIncludes(html, "Lee in Austin, TX");
    // The public text, escaped; the private comment and anything else of the clients: never.
    assertStringIncludes(
      html,
      "Staked every corner &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; explained the plat.",
    );
    assert(!html.includes('<script>alert("x")'), "typed HTML is never markup");
    for (
      const secret of [
        "Quillfeather",
        "Marchetti",
        "dana.q@example.test",
        "lee@example.test",
        "(512) 555-0100",
        "Barton Springs",
        "invoice was late",
        "Gate code",
      ]
    ) {
      assert(!html.includes(secret), `the page does not show ${secret}`);
    }
    // Indexable, canonical.
    assert(!html.includes("noindex"), "indexable");
    assertStringIncludes(html, `<link rel="canonical" href="${ORIGIN}${path}">`);
    // Anonymous visitors get no reply form.
    assert(!html.includes('data-island="ReviewReply"'));

    const ld = jsonLdOf(html);
    assertEquals(ld["@context"], "https://schema.org");
    assertEquals(ld["@type"], "LocalBusiness");
    assertEquals(ld.name, "Ortiz Land Surveying");
    assertEquals(ld.url, `${ORIGIN}${path}`);
    const rating = ld.aggregateRating as Record<string, unknown>;
    assertEquals([rating["@type"], rating.ratingValue, rating.reviewCount], [
      "AggregateRating",
      4.5,
      2,
    ]);
    const reviews = ld.review as { author: { name: string }; reviewBody?: string }[];
    assertEquals(reviews.map((r) => r.author.name).sort(), ["Dana", "Lee"]);
    assertStringIncludes(JSON.stringify(ld), '<script>alert(\\"x\\")</script>');
  } finally {
    t.close();
  }
});

test("[firms] a firm without reviews says so and has no AggregateRating", async () => {
  const t = await createTestApp();
  try {
    const firm = await ortiz(t);
    const html =
      await (await t.request("GET", firmProfilePath("Ortiz Land Surveying", firm.surveyor.id)))
        .text();
    assertStringIncludes(html, "No client has reviewed this firm on Meridian yet.");
    assertStringIncludes(html, "Not measured yet");
    const ld = jsonLdOf(html);
    assertEquals(ld["@type"], "LocalBusiness");
    assertEquals(ld.aggregateRating, undefined);
  } finally {
    t.close();
  }
});

test("[firms] prospects, invited, pending and paused firms have no page: 404", async () => {
  const t = await createTestApp();
  try {
    for (const status of ["prospect", "invited", "pending", "paused"] as const) {
      const { surveyor } = await addSurveyor(t, `Hidden ${status} Surveying`, {
        status,
        withUser: false,
      });
      const res = await t.request("GET", firmProfilePath(surveyor.companyName, surveyor.id), {
        headers: HTML,
      });
      assertEquals(res.status, 404, status);
      assertStringIncludes(await res.text(), "404");
    }
    // A firm paused after it was public loses its page too.
    const firm = await ortiz(t);
    const path = firmProfilePath("Ortiz Land Surveying", firm.surveyor.id);
    assertEquals((await t.request("GET", path)).status, 200);
    await t.sql`update surveyors set status = 'paused' where id = ${firm.surveyor.id}`;
    assertEquals((await t.request("GET", path)).status, 404);
    for (const bad of ["/firms/nothing", "/firms/x-zzzzzzzz", "/firms/x-00000000"]) {
      assertEquals((await t.request("GET", bad)).status, 404, bad);
    }
  } finally {
    t.close();
  }
});

test("[firms] a wrong name part of a real firm's slug redirects (301) to the canonical one", async () => {
  const t = await createTestApp();
  try {
    const firm = await ortiz(t);
    const slug = firmSlug("Ortiz Land Surveying", firm.surveyor.id);
    const prefix = slug.slice(-8);
    for (const wrong of [`old-name-${prefix}`, `ORTIZ-LAND-SURVEYING-${prefix.toUpperCase()}`]) {
      const res = await t.request("GET", `/firms/${wrong}?page=2`);
      assertEquals(res.status, 301, wrong);
      assertEquals(res.headers.get("location"), `/firms/${slug}?page=2`);
    }
  } finally {
    t.close();
  }
});

test("[firms] the sitemap lists active verified firms and no others", async () => {
  const t = await createTestApp();
  try {
    const firm = await ortiz(t);
    const prospect = await addSurveyor(t, "Prospect Surveying", {
      status: "prospect",
      withUser: false,
    });
    const xml = await (await t.request("GET", "/sitemap.xml")).text();
    assertStringIncludes(
      xml,
      `<loc>${ORIGIN}${firmProfilePath("Ortiz Land Surveying", firm.surveyor.id)}</loc>`,
    );
    assert(!xml.includes(firmSlug("Prospect Surveying", prospect.surveyor.id)));
  } finally {
    t.close();
  }
});

test("[firms] the firm replies to a review once (409 after); others get a 404", async () => {
  const t = await createTestApp();
  try {
    const { firm, dana } = await reviewedFirm(t);
    const [{ id }] = await t.sql<{ id: string }[]>`
      select id from surveyor_reviews where survey_id = ${dana.survey.id}`;
    const reply = (cookie: string, body: unknown) =>
      t.request("POST", `/api/reviews/${id}/reply`, { cookie, body });
    const path = firmProfilePath("Ortiz Land Surveying", firm.surveyor.id);

    // The firm's account sees a reply form under each review it has not answered.
    const before = await (await t.request("GET", path, { cookie: firm.cookie })).text();
    assertStringIncludes(before, 'data-island="ReviewReply"');

    const other = await addSurveyor(t, "Other Surveying");
    assertEquals(
      (await expectJson(await reply(other.cookie, { body: "Hi" }), 404)).message,
      "Review not found",
    );
    await expectJson(await reply(dana.cookie, { body: "Hi" }), 404);
    await expectJson(await reply(await signInAs(t, "admin"), { body: "Hi" }), 404);
    await expectJson(await reply(await signInAs(t, "technician"), { body: "Hi" }), 404);
    await expectJson(
      await t.request("POST", `/api/reviews/${id}/reply`, { body: { body: "Hi" } }),
      401,
    );
    await expectJson(await reply(firm.cookie, { body: "   " }), 400);
    await expectJson(await reply(firm.cookie, { body: "x".repeat(1001) }), 400);
    await expectJson(
      await t.request("POST", `/api/reviews/${crypto.randomUUID()}/reply`, {
        cookie: firm.cookie,
        body: { body: "Hi" },
      }),
      404,
    );
    const [untouched] = await t.sql`select reply from surveyor_reviews where id = ${id}`;
    assertEquals(untouched.reply, null, "no refused reply was stored");

    const ok = await expectJson(
      await reply(firm.cookie, { body: "Thank you, Dana! <b>Glad</b> to help." }),
      201,
    );
    assertEquals(ok.message, "Your reply is published");
    assertEquals(ok.reply.body, "Thank you, Dana! <b>Glad</b> to help.");
    const again = await expectJson(await reply(firm.cookie, { body: "Again" }), 409);
    assertEquals(again.message, "You have already replied to this review");

    const html = await (await t.request("GET", path)).text();
    assertStringIncludes(html, "Reply from Ortiz Land Surveying");
    assertStringIncludes(html, "Thank you, Dana! &lt;b&gt;Glad&lt;/b&gt; to help.");
  } finally {
    t.close();
  }
});

test("[firms] the client hears of the firm's reply (bell and email, never 'sent' without a mail server); the admin's card shows text and reply", async () => {
  const t = await createTestApp();
  try {
    const { firm, dana, lee } = await reviewedFirm(t);
    const [{ id }] = await t.sql<{ id: string }[]>`
      select id from surveyor_reviews where survey_id = ${dana.survey.id}`;
    const path = firmProfilePath("Ortiz Land Surveying", firm.surveyor.id);
    const ok = await expectJson(
      await t.request("POST", `/api/reviews/${id}/reply`, {
        cookie: firm.cookie,
        body: { body: "Thank you, Dana!\nSee you at the closing." },
      }),
      201,
    );
    // The test app has no mail server: the firm is not told an email left.
    assertStringIncludes(ok.clientTold, "no email was sent");
    assert(!/\bsent\b/.test(ok.clientTold.replace("no email was sent", "")));

    const notes = await notificationsOf(t, dana.user.id);
    assertEquals(notes.map((n) => [n.kind, n.title, n.link]), [
      ["review_replied", "Ortiz Land Surveying replied to your review", path],
    ]);
    assertStringIncludes(notes[0].body, "See you at the closing.");
    assertEquals(
      (await notificationsOf(t, lee.user.id)).length,
      0,
      "the other reviewer is not told",
    );
    const [email] = await emailsOf(t, "review_replied");
    assertEquals(email.toAddress, "dana.q@example.test");
    assertEquals(email.subject, "Ortiz Land Surveying replied to your review");
    assertStringIncludes(email.text, "See you at the closing.");
    assertStringIncludes(email.text, `${ORIGIN}${path}`);

    // The admin's reviews card on the directory record shows the public text and the reply.
    const admin = await signInAs(t, "admin");
    const record = await (await t.request("GET", `/surveyor-detail/${firm.surveyor.id}`, {
      cookie: admin,
    })).text();
    assertStringIncludes(record, "Staked every corner");
    assertStringIncludes(record, "Private: the invoice was late.");
    assertStringIncludes(record, "Firm&#x27;s reply");
    assertStringIncludes(record, "See you at the closing.");
    assertStringIncludes(record, "The firm has not replied.");
    const listed = await listSurveyorReviews(t.sql, { surveyorId: firm.surveyor.id });
    assertEquals(listed.reviews.find((r) => r.id === id)?.reply, ok.reply.body);
  } finally {
    t.close();
  }
});

test("[firms] a review's public text is optional, at most 1000 characters, and returned", async () => {
  const t = await createTestApp();
  try {
    const firm = await ortiz(t);
    const a = await delivered(t, firm.surveyor.id, "Ana Client", "ana@example.test");
    const tooLong = await expectJson(
      await review(t, a.cookie, a.survey.id, { rating: 5, text: "x".repeat(1001) }),
      400,
    );
    assertEquals(tooLong.errors.text, "Review must be at most 1000 characters");
    assertEquals(await countRows(t, "surveyor_reviews"), 0);
    const plain = await expectJson(await review(t, a.cookie, a.survey.id, { rating: 3 }), 201);
    assertEquals([plain.review.rating, plain.review.comment, plain.review.text], [3, null, null]);

    const b = await delivered(t, firm.surveyor.id, "Bo Client", "bo@example.test");
    const written = await expectJson(
      await review(t, b.cookie, b.survey.id, { rating: 5, text: "  Great work.\r\nFast.  " }),
      201,
    );
    assertEquals(written.review.text, "Great work.\nFast.");
  } finally {
    t.close();
  }
});

test("[firms] the client's proposals and the admin's directory link active firms' profiles", async () => {
  const t = await createTestApp();
  try {
    const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
    const { survey, lead } = await addSurveyWithLead(t, client.cookie);
    await t.sql`update surveys set status = 'surveyors_notified' where id = ${survey.id}`;
    const alpha = await addBuyer(t, "Alpha Surveying");
    await addPurchase(t, lead, alpha);
    const visit = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    await expectJson(
      await t.request("POST", `/api/purchased-leads/${lead.id}/proposal`, {
        cookie: alpha.cookie,
        body: {
          priceCents: 1150_00,
          earliestVisitDate: visit,
          turnaroundDays: 5,
          message: "Plat.",
        },
      }),
      201,
    );
    const alphaPath = firmProfilePath("Alpha Surveying", alpha.surveyorId);
    const page = await (await t.request("GET", `/survey/${survey.id}`, { cookie: client.cookie }))
      .text();
    assertStringIncludes(page, `<a href="${alphaPath}">Alpha Surveying</a>`);
    assertEquals((await t.request("GET", alphaPath)).status, 200, "the link works");

    const prospect = await addSurveyor(t, "Prospect Surveying", {
      status: "prospect",
      withUser: false,
    });
    const admin = await signInAs(t, "admin");
    const directory = await (await t.request("GET", "/surveyors", { cookie: admin })).text();
    assertStringIncludes(directory, `href="${alphaPath}"`);
    assert(!directory.includes(firmSlug("Prospect Surveying", prospect.surveyor.id)));
  } finally {
    t.close();
  }
});

test("[firms] a firm with no public page (paused, waiting for its check) gets no profile link: profileUrl null", async () => {
  const t = await createTestApp();
  try {
    const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
    const { survey, lead } = await addSurveyWithLead(t, client.cookie);
    await t.sql`update surveys set status = 'surveyors_notified' where id = ${survey.id}`;
    const alpha = await addBuyer(t, "Alpha Surveying");
    const beta = await addBuyer(t, "Beta Surveying");
    const visit = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    for (const buyer of [alpha, beta]) {
      await addPurchase(t, lead, buyer);
      // Earlier proposals a minute older: two in a row can share a timestamp (ties go by id).
      await makeOlder(t.sql, "survey_proposals", { where: t.sql`survey_id = ${survey.id}` });
      await expectJson(
        await t.request("POST", `/api/purchased-leads/${lead.id}/proposal`, {
          cookie: buyer.cookie,
          body: {
            priceCents: 1150_00,
            earliestVisitDate: visit,
            turnaroundDays: 5,
            message: "Plat.",
          },
        }),
        201,
      );
    }
    // Alpha is paused after proposing; Beta's record goes back to the licence check.
    await t.sql`update surveyors set status = 'paused' where id = ${alpha.surveyorId}`;
    await t.sql`update surveyors set status = 'pending', verified_at = null, verified_via = null
      where id = ${beta.surveyorId}`;
    const listed = await expectJson(
      await t.request("GET", `/api/surveys/${survey.id}/proposals`, { cookie: client.cookie }),
      200,
    );
    assertEquals(
      listed.proposals.map((
        p: { surveyor: { companyName: string; profileUrl: string | null } },
      ) => [
        p.surveyor.companyName,
        p.surveyor.profileUrl,
      ]),
      [["Alpha Surveying", null], ["Beta Surveying", null]],
    );
    const page = await (await t.request("GET", `/survey/${survey.id}`, { cookie: client.cookie }))
      .text();
    assertStringIncludes(page, "Alpha Surveying");
    assert(!page.includes(firmSlug("Alpha Surveying", alpha.surveyorId)), "no link to a 404");
    assert(!page.includes(firmSlug("Beta Surveying", beta.surveyorId)), "no link to a 404");
    assertEquals(
      (await t.request("GET", firmProfilePath("Alpha Surveying", alpha.surveyorId))).status,
      404,
      "the page it would have linked is indeed a 404",
    );
  } finally {
    t.close();
  }
});

test("[firms] an active firm's dashboard links its public profile; a firm waiting for its check has none", async () => {
  const t = await createTestApp();
  try {
    const firm = await ortiz(t);
    const html = await (await t.request("GET", "/surveyor-dashboard", { cookie: firm.cookie }))
      .text();
    assertStringIncludes(
      html,
      `href="${firmProfilePath("Ortiz Land Surveying", firm.surveyor.id)}"`,
    );
    assertStringIncludes(html, "Your public profile and reviews");
    const waiting = await addSurveyor(t, "Waiting Surveying", { status: "pending" });
    const other = await (await t.request("GET", "/surveyor-dashboard", { cookie: waiting.cookie }))
      .text();
    assert(!other.includes("Your public profile and reviews"));
  } finally {
    t.close();
  }
});
