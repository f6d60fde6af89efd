/**
 * Integrity gaps of the lead market (issue 11) seen through the API: a purchase that takes a
 * surveyor's balance low tells them (with a link to billing on this site), and cancelling a
 * request ends its open assignment ("Request cancelled"), tells the surveyor and leaves them
 * nothing to accept or schedule.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import {
  addLeadTo,
  addSurveyor,
  assignmentRows,
  clientWithSurvey,
  emailsOf,
  notificationsOf,
  surveyRow,
} from "../_assignment_fixtures.ts";
import { addLead, addMarketSurveyor } from "../_lead_fixtures.ts";
import { insertAssignment } from "../../db/assignments.ts";
import { makeOlder } from "../_row_order.ts";

function assignPath(surveyId: string, surveyorId: string) {
  return `/api/surveys/${surveyId}/assign/${surveyorId}`;
}

function assignmentStatusPath(surveyId: string, surveyorId: string) {
  return `/api/surveys/${surveyId}/assignment/${surveyorId}/status`;
}

/** A date `days` from today (UTC), YYYY-MM-DD. */
function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

async function setup(t: TestApp) {
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await clientWithSurvey(t);
  const ortiz = await addSurveyor(t, "Ortiz Surveying");
  await addLeadTo(t, client.survey);
  return { admin, client, ortiz, survey: client.survey };
}

/** The surveyor's assignment notices, as "title | body". */
async function assignmentNotices(t: TestApp, userId: string) {
  return (await notificationsOf(t, userId))
    .filter((n) => n.kind === "assignment_status_changed")
    .map((n) => `${n.title} | ${n.body}`);
}

// ---------------------------------------------------------------------------- low balance

test("[lead market integrity] buying a lead through the API that takes the balance below $50 notifies and emails the surveyor with this site's billing link", async () => {
  const t = await createTestApp();
  try {
    const client = await createSignedInUser(t, { role: "client" });
    const { lead } = await addLead(t, client.cookie);
    const buyer = await addMarketSurveyor(t, "Barton Surveying", {
      balanceCents: lead.priceCents + 45_00,
    });
    const res = await t.request("POST", `/api/leads/${lead.id}/buy`, { cookie: buyer.cookie });
    const body = await expectJson(res, 201);
    assertEquals(body.balanceCents, 45_00);
    const notes = (await notificationsOf(t, buyer.userId!)).filter((n) => n.kind === "low_balance");
    assertEquals(notes.map((n) => [n.title, n.link]), [[
      "Your balance is low: $45",
      "/surveyor/billing",
    ]]);
    const mails = await emailsOf(t, "low_balance");
    assertEquals(mails.length, 1);
    assertStringIncludes(mails[0].text, `${t.deps.config.PUBLIC_URL}/surveyor/billing`);
  } finally {
    t.close();
  }
});

// ----------------------------------------------------------------- cancelling a request

test("[lead market integrity] an admin cancelling an assigned request ends the offered assignment, tells the surveyor, and they can no longer accept", async () => {
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
    const noticesBefore = await assignmentNotices(t, f.ortiz.user!.id);
    // A minute older, so the cancellation's notice comes after them for certain.
    await makeOlder(t.sql, "notifications", { where: t.sql`user_id = ${f.ortiz.user!.id}` });
    const res = await t.request("PATCH", `/api/surveys/${f.survey.id}/status`, {
      cookie: f.admin.cookie,
      body: { status: "cancelled" },
    });
    const body = await expectJson(res, 200);
    assertEquals(body.survey.status, "cancelled");

    assertEquals(await assignmentRows(t, f.survey.id), [{
      surveyorId: f.ortiz.surveyor.id,
      status: "cancelled",
      endedReason: "Request cancelled",
      agreedPriceCents: 120_000,
    }]);
    // The survey stays cancelled (not back to waiting for a surveyor) and points at nobody.
    const row = await surveyRow(t, f.survey.id);
    assertEquals([row.status, row.assignedSurveyorId], ["cancelled", null]);
    // One new notice for the surveyor: the cancellation, with the reason.
    const notices = (await assignmentNotices(t, f.ortiz.user!.id)).slice(noticesBefore.length);
    assertEquals(notices.length, 1);
    assertStringIncludes(notices[0], "Your assignment was cancelled | ");
    assertStringIncludes(notices[0], "Reason: Request cancelled");

    const accept = await t.request(
      "PATCH",
      assignmentStatusPath(f.survey.id, f.ortiz.surveyor.id),
      {
        cookie: f.ortiz.cookie,
        body: { status: "accepted" },
      },
    );
    const refused = await expectJson(accept, 409);
    assertEquals(refused.message, "This assignment was cancelled; it can no longer change.");
    assertEquals((await assignmentRows(t, f.survey.id))[0].status, "cancelled");
  } finally {
    t.close();
  }
});

test("[lead market integrity] cancelling a request whose surveyor accepted ends the assignment and they can no longer schedule", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    await expectJson(
      await t.request("POST", assignPath(f.survey.id, f.ortiz.surveyor.id), {
        cookie: f.admin.cookie,
        body: { agreedPrice: 950 },
      }),
      201,
    );
    const path = assignmentStatusPath(f.survey.id, f.ortiz.surveyor.id);
    await expectJson(
      await t.request("PATCH", path, { cookie: f.ortiz.cookie, body: { status: "accepted" } }),
      200,
    );
    await expectJson(
      await t.request("PATCH", `/api/surveys/${f.survey.id}/status`, {
        cookie: f.admin.cookie,
        body: { status: "cancelled" },
      }),
      200,
    );
    const [ended] = await assignmentRows(t, f.survey.id);
    assertEquals([ended.status, ended.endedReason], ["cancelled", "Request cancelled"]);
    const notices = await assignmentNotices(t, f.ortiz.user!.id);
    assert(
      notices.some((n) => n.startsWith("Your assignment was cancelled")),
      notices.join("\n"),
    );

    const schedule = await t.request("PATCH", path, {
      cookie: f.ortiz.cookie,
      body: { status: "scheduled", scheduledDate: daysFromNow(7) },
    });
    assertEquals(
      (await expectJson(schedule, 409)).message,
      "This assignment was cancelled; it can no longer change.",
    );
    const row = await surveyRow(t, f.survey.id);
    assertEquals([row.status, row.scheduledDate], ["cancelled", null]);
  } finally {
    t.close();
  }
});

test("[lead market integrity] a client's cancel (DELETE or PATCH) ends an open assignment and tells the surveyor", async () => {
  for (const how of ["DELETE", "PATCH"] as const) {
    const t = await createTestApp();
    try {
      const f = await setup(t);
      // The client may cancel only while the request waits for a surveyor; an assignment still
      // open then (offered by hand before the request moved) must not outlive the request.
      await insertAssignment(t.sql, {
        surveyId: f.survey.id,
        surveyorId: f.ortiz.surveyor.id,
        agreedPriceCents: 80_000,
        status: "offered",
        source: "admin",
        assignedBy: f.admin.user.id,
      });
      assertEquals((await surveyRow(t, f.survey.id)).status, "surveyors_notified");
      const res = how === "DELETE"
        ? await t.request("DELETE", `/api/surveys/${f.survey.id}`, { cookie: f.client.cookie })
        : await t.request("PATCH", `/api/surveys/${f.survey.id}/status`, {
          cookie: f.client.cookie,
          body: { status: "cancelled" },
        });
      await expectJson(res, 200);
      assertEquals((await surveyRow(t, f.survey.id)).status, "cancelled", how);
      const [ended] = await assignmentRows(t, f.survey.id);
      assertEquals([ended.status, ended.endedReason], ["cancelled", "Request cancelled"], how);
      const notices = await assignmentNotices(t, f.ortiz.user!.id);
      assertEquals(notices.length, 1, how);
      assertStringIncludes(notices[0], "Reason: Request cancelled");
      const accept = await t.request(
        "PATCH",
        assignmentStatusPath(f.survey.id, f.ortiz.surveyor.id),
        { cookie: f.ortiz.cookie, body: { status: "accepted" } },
      );
      await expectJson(accept, 409);
    } finally {
      t.close();
    }
  }
});

test("[lead market integrity] cancelling a request with no open assignment tells no surveyor and leaves ended assignments as they were", async () => {
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
    // The surveyor declines; then the client, waiting again, cancels.
    await expectJson(
      await t.request("PATCH", assignmentStatusPath(f.survey.id, f.ortiz.surveyor.id), {
        cookie: f.ortiz.cookie,
        body: { status: "declined", reason: "Too busy" },
      }),
      200,
    );
    const before = await assignmentRows(t, f.survey.id);
    const noticesBefore = await assignmentNotices(t, f.ortiz.user!.id);
    await expectJson(
      await t.request("DELETE", `/api/surveys/${f.survey.id}`, { cookie: f.client.cookie }),
      200,
    );
    assertEquals((await surveyRow(t, f.survey.id)).status, "cancelled");
    assertEquals(await assignmentRows(t, f.survey.id), before);
    assertEquals(before[0].endedReason, "Too busy");
    assertEquals(await assignmentNotices(t, f.ortiz.user!.id), noticesBefore);
  } finally {
    t.close();
  }
});
