import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import {
  addLeadTo,
  addSurveyor,
  assignmentRows,
  clientWithSurvey,
  emailsOf,
  surveyRow,
} from "../_assignment_fixtures.ts";
import { makeOlder } from "../_row_order.ts";

function assignPath(surveyId: string, surveyorId: string) {
  return `/api/surveys/${surveyId}/assign/${surveyorId}`;
}

function statusPath(surveyId: string, surveyorId: string) {
  return `/api/surveys/${surveyId}/assignment/${surveyorId}/status`;
}

/** A date `days` from today (UTC), YYYY-MM-DD. */
function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function setup(t: TestApp) {
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await clientWithSurvey(t);
  const technician = await createSignedInUser(t, { role: "technician" });
  const ortiz = await addSurveyor(t, "Ortiz Surveying");
  const other = await addSurveyor(t, "Other Survey Co");
  return { admin, client, technician, ortiz, other, survey: client.survey };
}

test("[assignments api] only admins assign; 201 with the assignment, price in exact cents", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    const path = assignPath(f.survey.id, f.ortiz.surveyor.id);
    for (const cookie of [f.client.cookie, f.ortiz.cookie, f.technician.cookie]) {
      const res = await t.request("POST", path, { cookie, body: { agreedPrice: 1200 } });
      assertEquals(res.status, 403);
    }
    assertEquals((await t.request("POST", path, { body: { agreedPrice: 1200 } })).status, 401);
    assertEquals(await assignmentRows(t, f.survey.id), []);

    const res = await t.request("POST", path, {
      cookie: f.admin.cookie,
      body: { agreedPrice: 1285.1 },
    });
    const body = await expectJson(res, 201);
    assertEquals(body.message, "Surveyor assigned");
    assertEquals(
      [body.assignment.status, body.assignment.agreedPriceCents, body.assignment.companyName],
      ["offered", 128510, "Ortiz Surveying"],
    );
    assertEquals((await surveyRow(t, f.survey.id)).status, "assigned");
    assertEquals((await emailsOf(t, "assignment_offered")).length, 1);
  } finally {
    t.close();
  }
});

test("[assignments api] bad input to assign is a 4xx {message} and stores nothing", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    const path = assignPath(f.survey.id, f.ortiz.surveyor.id);
    const cookie = f.admin.cookie;
    const cases: [unknown, number, RegExp][] = [
      [{ agreedPrice: -5 }, 400, /more than \$0/],
      [{ agreedPrice: 0 }, 400, /more than \$0/],
      [{ agreedPrice: 10.005 }, 400, /dollars and cents/],
      [{ agreedPrice: "1200" }, 400, /must be a number/],
      [{}, 400, /.+/],
      [{ agreedPrice: 1200, extra: 1 }, 400, /.+/],
      [{ agreedPrice: 1e9 }, 400, /at most/],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.request("POST", path, { cookie, body });
      const json = await expectJson(res, status);
      assertMatch(json.message, message, JSON.stringify(body));
    }
    for (
      const p of [
        assignPath(crypto.randomUUID(), f.ortiz.surveyor.id),
        assignPath(f.survey.id, crypto.randomUUID()),
        assignPath("not-a-uuid", f.ortiz.surveyor.id),
        assignPath(f.survey.id, "not-a-uuid"),
      ]
    ) {
      const res = await t.request("POST", p, { cookie, body: { agreedPrice: 1200 } });
      await expectJson(res, 404);
    }
    assertEquals(await assignmentRows(t, f.survey.id), []);
    assertEquals((await surveyRow(t, f.survey.id)).status, "requested");
  } finally {
    t.close();
  }
});

test("[assignments api] reassigning ends the previous assignment with the admin's reason", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    const cookie = f.admin.cookie;
    await expectJson(
      await t.request("POST", assignPath(f.survey.id, f.ortiz.surveyor.id), {
        cookie,
        body: { agreedPrice: 1200 },
      }),
      201,
    );
    // A minute older, so it is listed first for certain (rows in a row can share a timestamp).
    await makeOlder(t.sql, "survey_assignments", { where: t.sql`survey_id = ${f.survey.id}` });
    const again = await t.request("POST", assignPath(f.survey.id, f.ortiz.surveyor.id), {
      cookie,
      body: { agreedPrice: 1300 },
    });
    assertEquals(
      (await expectJson(again, 409)).message,
      "This surveyor is already assigned to this survey.",
    );
    await expectJson(
      await t.request("POST", assignPath(f.survey.id, f.other.surveyor.id), {
        cookie,
        body: { agreedPrice: 1300, reason: "Client prefers a local firm" },
      }),
      201,
    );
    assertEquals(
      (await assignmentRows(t, f.survey.id)).map((r) => [r.status, r.endedReason]),
      [["cancelled", "Client prefers a local firm"], ["offered", null]],
    );
  } finally {
    t.close();
  }
});

test("[assignments api] concurrent assigns leave exactly one open assignment", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    const third = await addSurveyor(t, "Third Survey Co");
    const ids = [f.ortiz.surveyor.id, f.other.surveyor.id, third.surveyor.id];
    const answers = await Promise.all(
      ids.map((id) =>
        t.request("POST", assignPath(f.survey.id, id), {
          cookie: f.admin.cookie,
          body: { agreedPrice: 1200 },
        })
      ),
    );
    // Each waits for the survey's row lock, then replaces the one before: all succeed in turn.
    assertEquals(answers.map((r) => r.status), [201, 201, 201]);
    const rows = await assignmentRows(t, f.survey.id);
    assertEquals(rows.filter((r) => r.status === "offered").length, 1);
    assertEquals(rows.filter((r) => r.status === "cancelled").length, 2);
    const open = rows.find((r) => r.status === "offered")!;
    assertEquals((await surveyRow(t, f.survey.id)).assignedSurveyorId, open.surveyorId);
  } finally {
    t.close();
  }
});

test("[assignments api] the assigned surveyor accepts and schedules; other surveyors and clients cannot", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    await expectJson(
      await t.request("POST", assignPath(f.survey.id, f.ortiz.surveyor.id), {
        cookie: f.admin.cookie,
        body: { agreedPrice: 1200 },
      }),
      201,
    );
    const path = statusPath(f.survey.id, f.ortiz.surveyor.id);
    // Another surveyor: their own id in the path names no assignment, Ortiz's is not theirs.
    await expectJson(
      await t.request("PATCH", path, { cookie: f.other.cookie, body: { status: "accepted" } }),
      404,
    );
    await expectJson(
      await t.request("PATCH", statusPath(f.survey.id, f.other.surveyor.id), {
        cookie: f.other.cookie,
        body: { status: "accepted" },
      }),
      404,
    );
    for (const cookie of [f.client.cookie, f.technician.cookie]) {
      assertEquals(
        (await t.request("PATCH", path, { cookie, body: { status: "accepted" } })).status,
        403,
      );
    }
    assertEquals((await assignmentRows(t, f.survey.id))[0].status, "offered");

    const accepted = await expectJson(
      await t.request("PATCH", path, { cookie: f.ortiz.cookie, body: { status: "accepted" } }),
      200,
    );
    assertEquals([accepted.message, accepted.assignment.status], [
      "Assignment updated",
      "accepted",
    ]);

    const bad: [unknown, number, RegExp][] = [
      [{ status: "scheduled" }, 400, /Choose the day/],
      [{ status: "scheduled", scheduledDate: daysFromNow(-3) }, 400, /in the past/],
      [{ status: "scheduled", scheduledDate: "2030-02-30" }, 400, /.+/],
      [{ status: "scheduled", scheduledDate: 20300601 }, 400, /.+/],
      [{ status: "finished" }, 400, /Unknown assignment status/],
      [{ status: "cancelled" }, 409, /ask Meridian support/],
      [{ status: "completed" }, 409, /Schedule the visit/],
    ];
    for (const [body, status, message] of bad) {
      const json = await expectJson(
        await t.request("PATCH", path, { cookie: f.ortiz.cookie, body }),
        status,
      );
      assertMatch(json.message, message, JSON.stringify(body));
    }
    assertEquals((await surveyRow(t, f.survey.id)).status, "assigned");

    const day = daysFromNow(10);
    const scheduled = await expectJson(
      await t.request("PATCH", path, {
        cookie: f.ortiz.cookie,
        body: { status: "scheduled", scheduledDate: day },
      }),
      200,
    );
    assertEquals(scheduled.assignment.scheduledDate, day);
    assertEquals(await surveyRow(t, f.survey.id), {
      status: "scheduled",
      scheduledDate: day,
      assignedSurveyorId: f.ortiz.surveyor.id,
    });
    assertEquals((await emailsOf(t, "visit_scheduled")).length, 1);
  } finally {
    t.close();
  }
});

test("[assignments api] admins cancel; the survey goes back to waiting for a surveyor", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    await addLeadTo(t, f.survey);
    await expectJson(
      await t.request("POST", assignPath(f.survey.id, f.ortiz.surveyor.id), {
        cookie: f.admin.cookie,
        body: { agreedPrice: 1200 },
      }),
      201,
    );
    const path = statusPath(f.survey.id, f.ortiz.surveyor.id);
    const cancelled = await expectJson(
      await t.request("PATCH", path, {
        cookie: f.admin.cookie,
        body: { status: "cancelled", reason: "Client postponed" },
      }),
      200,
    );
    assertEquals([cancelled.assignment.status, cancelled.assignment.endedReason], [
      "cancelled",
      "Client postponed",
    ]);
    assertEquals(await surveyRow(t, f.survey.id), {
      status: "surveyors_notified",
      scheduledDate: null,
      assignedSurveyorId: null,
    });
    const again = await expectJson(
      await t.request("PATCH", path, { cookie: f.admin.cookie, body: { status: "accepted" } }),
      409,
    );
    assertMatch(again.message, /was cancelled/);
  } finally {
    t.close();
  }
});

test("[assignments api] the client sees the surveyor only once assigned, in full only once accepted", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    const cookie = f.client.cookie;
    const read = async () =>
      (await expectJson(await t.request("GET", `/api/surveys/${f.survey.id}`, { cookie }), 200))
        .survey;
    assertEquals((await read()).assignedSurveyor, null);
    let page = await (await t.request("GET", `/survey/${f.survey.id}`, { cookie })).text();
    assert(page.includes("Not assigned yet"));
    assert(!page.includes("Ortiz Surveying"));

    await expectJson(
      await t.request("POST", assignPath(f.survey.id, f.ortiz.surveyor.id), {
        cookie: f.admin.cookie,
        body: { agreedPrice: 1285.5 },
      }),
      201,
    );
    assertEquals((await read()).assignedSurveyor.status, "offered");
    page = await (await t.request("GET", `/survey/${f.survey.id}`, { cookie })).text();
    assert(page.includes("waiting for them to accept"));
    assert(page.includes("Waiting for the surveyor"));
    assert(!page.includes("(512) 555-0177"), "no phone before the surveyor accepts");
    assert(!page.includes(">Surveyor assigned<"), "the badge does not claim an assignment");

    await expectJson(
      await t.request("PATCH", statusPath(f.survey.id, f.ortiz.surveyor.id), {
        cookie: f.ortiz.cookie,
        body: { status: "accepted" },
      }),
      200,
    );
    const seen = (await read()).assignedSurveyor;
    assertEquals(
      [seen.companyName, seen.name, seen.phone, seen.licenseState, seen.licenseNumber],
      ["Ortiz Surveying", "Ortiz Surveying Principal", "(512) 555-0177", "TX", "6012"],
    );
    assertEquals(seen.agreedPriceCents, 128550);
    for (const path of [`/survey/${f.survey.id}`, "/client-dashboard"]) {
      const html = await (await t.request("GET", path, { cookie })).text();
      for (
        const text of [
          "Ortiz Surveying Principal",
          "(512) 555-0177",
          "Licence TX 6012",
          "$1,285.50",
        ]
      ) {
        assert(html.includes(text), `${path} shows ${text}`);
      }
    }
    // Another client still cannot see the survey at all.
    const stranger = await createSignedInUser(t, { role: "client" });
    await expectJson(
      await t.request("GET", `/api/surveys/${f.survey.id}`, { cookie: stranger.cookie }),
      404,
    );
  } finally {
    t.close();
  }
});

test("[assignments api] GET …/surveyors: admins get buyers and the assignment, the client names only", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    await addLeadTo(t, f.survey);
    await t.sql`
      insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents)
      select id, ${f.other.surveyor.id}, 'buy', 3850 from leads where survey_id = ${f.survey.id}`;
    await expectJson(
      await t.request("POST", assignPath(f.survey.id, f.ortiz.surveyor.id), {
        cookie: f.admin.cookie,
        body: { agreedPrice: 1200 },
      }),
      201,
    );
    const path = `/api/surveys/${f.survey.id}/surveyors`;
    const admin = await expectJson(await t.request("GET", path, { cookie: f.admin.cookie }), 200);
    assertEquals(admin.buyers.map((b: { companyName: string }) => b.companyName), [
      "Other Survey Co",
    ]);
    assertEquals(admin.assignment.companyName, "Ortiz Surveying");

    const mine = await expectJson(await t.request("GET", path, { cookie: f.client.cookie }), 200);
    assertEquals(
      new Set(Object.keys(mine.surveyors[0])),
      new Set(["companyName", "name", "notified", "bought", "assigned"]),
    );
    const byName = Object.fromEntries(
      mine.surveyors.map((s: { companyName: string }) => [s.companyName, s]),
    );
    assertEquals(byName["Other Survey Co"].bought, true);
    assertEquals(byName["Ortiz Surveying"].assigned, true);
    assertEquals(mine.assignment.status, "offered");
    const text = JSON.stringify(mine);
    for (const secret of [f.ortiz.surveyor.id, "555-0177", "office@", "distanceMiles", "score"]) {
      assert(!text.includes(secret), `client view leaks ${secret}`);
    }

    const stranger = await createSignedInUser(t, { role: "client" });
    await expectJson(await t.request("GET", path, { cookie: stranger.cookie }), 404);
    for (const cookie of [f.ortiz.cookie, f.technician.cookie]) {
      assertEquals((await t.request("GET", path, { cookie })).status, 403);
    }
  } finally {
    t.close();
  }
});

test("[assignments api] the admin's request page offers the assign form with buyers and matches", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    await addLeadTo(t, f.survey);
    await t.sql`
      insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents)
      select id, ${f.other.surveyor.id}, 'buy', 3850 from leads where survey_id = ${f.survey.id}`;
    const html = await (await t.request("GET", `/survey/${f.survey.id}`, {
      cookie: f.admin.cookie,
    })).text();
    assert(html.includes('data-island="AssignSurveyor"'));
    assert(html.includes("Other Survey Co (Bought the lead)"));
    // The quote prefills the agreed price.
    assert(html.includes(`value="${f.survey.quotedPriceCents! / 100}"`), "price prefilled");
    const clientHtml = await (await t.request("GET", `/survey/${f.survey.id}`, {
      cookie: f.client.cookie,
    })).text();
    assert(!clientHtml.includes('data-island="AssignSurveyor"'));
  } finally {
    t.close();
  }
});
