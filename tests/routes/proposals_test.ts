/**
 * Proposals over HTTP (issue 22): a buyer sends, edits and withdraws; the client lists,
 * accepts and declines; who may do what; bad input; and two accepts at once (meaningful on
 * Postgres: DATABASE_URL set, separate connections; on PGlite the two take turns).
 */
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { countRows, expectJson } from "../_fixtures.ts";
import { addBuyer, addPurchase, addSurveyWithLead, type Buyer } from "../_refund_fixtures.ts";
import { assignmentRows, emailsOf, notificationsOf, surveyRow } from "../_assignment_fixtures.ts";
import { todayInUs } from "../../lib/proposal_schema.ts";
import {
  ASSIGNED_DIRECTLY_REASON,
  ASSIGNED_ELSEWHERE_REASON,
  PROPOSAL_MESSAGES,
} from "../../lib/proposal_constants.ts";
import { firmSlug } from "../../lib/firm_slug.ts";
import { refundPurchase } from "../../lib/refunds.ts";
import { makeOlder } from "../_row_order.ts";

/** A date `days` after today in the US (YYYY-MM-DD). */
function daysAhead(days: number): string {
  const d = new Date(`${todayInUs()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function proposalBody(overrides: Record<string, unknown> = {}) {
  return {
    priceCents: 1150_00,
    earliestVisitDate: daysAhead(7),
    turnaroundDays: 5,
    message: "We set all four corners and deliver a signed plat.\nPlease have the deed ready.",
    ...overrides,
  };
}

async function setup(buyers = 1) {
  const t = await createTestApp();
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const { survey, lead } = await addSurveyWithLead(t, client.cookie);
  const firms: Buyer[] = [];
  for (const name of ["Alpha Surveying", "Bravo Surveying", "Charlie Surveying"].slice(0, buyers)) {
    const buyer = await addBuyer(t, name);
    await addPurchase(t, lead, buyer);
    firms.push(buyer);
  }
  return { t, client, survey, lead, firms };
}

function sendPath(leadId: string) {
  return `/api/purchased-leads/${leadId}/proposal`;
}

/**
 * Sends `buyer`'s proposal, a minute after the survey's earlier ones: proposals sent in a row
 * can share a timestamp, and a tie is ordered by id, which says nothing of which came first.
 */
async function send(t: TestApp, leadId: string, buyer: Buyer, body = proposalBody()) {
  await makeOlder(t.sql, "survey_proposals", {
    where: t.sql`survey_id = (select survey_id from leads where id = ${leadId})`,
  });
  return await expectJson(
    await t.request("POST", sendPath(leadId), { cookie: buyer.cookie, body }),
    201,
  );
}

test("[proposals] a buyer sends a proposal: 201, the client is told by bell and email", async () => {
  const { t, client, survey, lead, firms: [alpha] } = await setup();
  try {
    const body = await send(t, lead.id, alpha);
    assertEquals(body.message, "Proposal sent");
    assertEquals(
      [body.proposal.status, body.proposal.priceCents, body.proposal.turnaroundDays],
      ["pending", 1150_00, 5],
    );
    assertEquals(body.proposal.surveyId, survey.id);
    assertEquals(body.proposal.earliestVisitDate, daysAhead(7));

    const notes = await notificationsOf(t, client.user.id);
    const note = notes.find((n) => n.kind === "proposal_received")!;
    assertEquals(note.title, "New proposal from Alpha Surveying");
    assertEquals(note.link, `/survey/${survey.id}#proposals-title`);
    const [mail] = await emailsOf(t, "proposal_received");
    assertEquals(mail.toAddress, client.user.email);
    assertEquals(mail.subject, "You have a proposal from Alpha Surveying");
    assertMatch(mail.text, /\$1,150/);
    assertMatch(mail.text, /Please have the deed ready/);
    assertMatch(mail.text, new RegExp(`/client/surveys/${survey.id}`));

    // One pending proposal per buyer per survey.
    const again = await t.request("POST", sendPath(lead.id), {
      cookie: alpha.cookie,
      body: proposalBody(),
    });
    assertEquals((await expectJson(again, 409)).message, PROPOSAL_MESSAGES.alreadyPending);
    assertEquals(await countRows(t, "survey_proposals"), 1);
  } finally {
    t.close();
  }
});

test("[proposals] bad input is a 400 naming the field, and nothing is stored", async () => {
  const { t, lead, firms: [alpha] } = await setup();
  try {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ priceCents: 1150_50 }, /whole number of dollars/],
      [{ priceCents: 0 }, /more than \$0/],
      [{ priceCents: -100 }, /more than \$0/],
      [{ priceCents: 300_000_00 }, /at most \$250,000/],
      [{ priceCents: "1150" }, /Price/],
      [{ earliestVisitDate: daysAhead(-2) }, /cannot be in the past/],
      [{ earliestVisitDate: "next week" }, /YYYY-MM-DD/],
      [{ earliestVisitDate: daysAhead(400) }, /within a year/],
      [{ turnaroundDays: 0 }, /1 to 90/],
      [{ turnaroundDays: 91 }, /1 to 90/],
      [{ turnaroundDays: 2.5 }, /1 to 90/],
      [{ message: "" }, /Write the client a message/],
      [{ message: "x".repeat(4001) }, /at most 4000/],
      [{ message: "bad\u0000byte" }, /not allowed/],
      [{ extra: true }, /.+/],
    ];
    for (const [override, pattern] of cases) {
      const res = await t.request("POST", sendPath(lead.id), {
        cookie: alpha.cookie,
        body: proposalBody(override),
      });
      const body = await expectJson(res, 400);
      assertMatch(body.message, pattern, JSON.stringify(override));
    }
    const broken = await t.request("POST", sendPath(lead.id), {
      cookie: alpha.cookie,
      body: "{not json",
    });
    assertEquals(broken.status, 400);
    assertEquals(await countRows(t, "survey_proposals"), 0);
  } finally {
    t.close();
  }
});

test("[proposals] only the lead's buyer sends; a refunded purchase or a closed survey is a 409", async () => {
  const { t, client, survey, lead, firms: [alpha] } = await setup();
  try {
    const outsider = await addBuyer(t, "Delta Surveying");
    const res = await t.request("POST", sendPath(lead.id), {
      cookie: outsider.cookie,
      body: proposalBody(),
    });
    assertEquals((await expectJson(res, 404)).message, "Lead not found");
    const unknown = await t.request("POST", sendPath("not-a-uuid"), {
      cookie: alpha.cookie,
      body: proposalBody(),
    });
    assertEquals(unknown.status, 404);
    const asClient = await t.request("POST", sendPath(lead.id), {
      cookie: client.cookie,
      body: proposalBody(),
    });
    assertEquals(asClient.status, 403);
    assertEquals(
      (await t.request("POST", sendPath(lead.id), { body: proposalBody() })).status,
      401,
    );

    await t.sql`update lead_purchases set refunded_at = now() where lead_id = ${lead.id}`;
    const refunded = await t.request("POST", sendPath(lead.id), {
      cookie: alpha.cookie,
      body: proposalBody(),
    });
    assertEquals((await expectJson(refunded, 409)).message, PROPOSAL_MESSAGES.refunded);

    await t.sql`update lead_purchases set refunded_at = null where lead_id = ${lead.id}`;
    await t.sql`update surveys set status = 'cancelled' where id = ${survey.id}`;
    const cancelled = await t.request("POST", sendPath(lead.id), {
      cookie: alpha.cookie,
      body: proposalBody(),
    });
    assertEquals((await expectJson(cancelled, 409)).message, PROPOSAL_MESSAGES.surveyCancelled);
    assertEquals(await countRows(t, "survey_proposals"), 0);
  } finally {
    t.close();
  }
});

test("[proposals] the buyer edits a pending proposal and withdraws it; then nothing is pending", async () => {
  const { t, client, lead, firms: [alpha] } = await setup();
  try {
    const noneYet = await t.request("PATCH", sendPath(lead.id), {
      cookie: alpha.cookie,
      body: { priceCents: 1000_00 },
    });
    assertEquals((await expectJson(noneYet, 409)).message, PROPOSAL_MESSAGES.noPending);
    await send(t, lead.id, alpha);
    const edited = await expectJson(
      await t.request("PATCH", sendPath(lead.id), {
        cookie: alpha.cookie,
        body: { priceCents: 1000_00, turnaroundDays: 3 },
      }),
      200,
    );
    assertEquals(edited.message, "Proposal updated");
    assertEquals([edited.proposal.priceCents, edited.proposal.turnaroundDays], [1000_00, 3]);
    assertEquals(edited.proposal.message, proposalBody().message);
    const titles = (await notificationsOf(t, client.user.id)).map((n) => n.title);
    assert(titles.includes("Alpha Surveying updated their proposal"));
    // An edit rings the bell; only the first sending emails.
    assertEquals((await emailsOf(t, "proposal_received")).length, 1);

    const empty = await t.request("PATCH", sendPath(lead.id), { cookie: alpha.cookie, body: {} });
    assertEquals(empty.status, 400);

    const withdrawn = await expectJson(
      await t.request("DELETE", sendPath(lead.id), { cookie: alpha.cookie }),
      200,
    );
    assertEquals([withdrawn.message, withdrawn.proposal.status], [
      "Proposal withdrawn",
      "withdrawn",
    ]);
    const twice = await t.request("DELETE", sendPath(lead.id), { cookie: alpha.cookie });
    assertEquals(twice.status, 409);
    const late = await t.request("PATCH", sendPath(lead.id), {
      cookie: alpha.cookie,
      body: { priceCents: 900_00 },
    });
    assertEquals(late.status, 409);
    // A new proposal may follow a withdrawn one.
    assertEquals((await send(t, lead.id, alpha)).proposal.status, "pending");
  } finally {
    t.close();
  }
});

test("[proposals] the owning client and admins list the proposals with each firm's facts; others get 404", async () => {
  const { t, client, survey, lead, firms: [alpha, bravo] } = await setup(2);
  try {
    await t.sql`update surveyors set rating = 4.5, review_count = 10, meridian_rating_sum = 9,
      meridian_review_count = 2, verified_at = now(), lat = 30.3361, lng = -97.7589
      where id = ${alpha.surveyorId}`;
    await t.sql`update surveyors set license_states = '{OK}' where id = ${bravo.surveyorId}`;
    await send(t, lead.id, alpha);
    await send(t, lead.id, bravo, proposalBody({ priceCents: 990_00 }));
    const path = `/api/surveys/${survey.id}/proposals`;
    const body = await expectJson(await t.request("GET", path, { cookie: client.cookie }), 200);
    assertEquals(body.proposals.length, 2);
    const [a, b] = body.proposals;
    assertEquals(Object.keys(a).sort(), [
      "declineReason",
      "earliestVisitDate",
      "id",
      "message",
      "priceCents",
      "sentAt",
      "status",
      "surveyor",
      "turnaroundDays",
    ]);
    assertEquals(a.surveyor.companyName, "Alpha Surveying");
    // (4.5 × 10 + 9) / 12 = 4.5
    assertEquals([a.surveyor.rating, a.surveyor.reviewCount], [4.5, 12]);
    assertEquals(a.surveyor.licenceVerified, true);
    assertEquals(a.surveyor.distanceMiles, 5);
    assertEquals(a.surveyor.profileUrl, `/firms/${firmSlug("Alpha Surveying", alpha.surveyorId)}`);
    assertMatch(a.surveyor.profileUrl, /^\/firms\/alpha-surveying-[0-9a-f]{8}$/);
    assertEquals([b.priceCents, b.surveyor.rating, b.surveyor.reviewCount], [990_00, null, 0]);
    assertEquals([b.surveyor.licenceVerified, b.surveyor.distanceMiles], [false, null]);

    const admin = await createSignedInUser(t, { role: "admin" });
    assertEquals((await t.request("GET", path, { cookie: admin.cookie })).status, 200);
    const other = await createSignedInUser(t, { role: "client" });
    for (const cookie of [other.cookie, alpha.cookie]) {
      const res = await t.request("GET", path, { cookie });
      assertEquals((await expectJson(res, 404)).message, "Survey not found");
    }
  } finally {
    t.close();
  }
});

test("[proposals] accepting assigns the survey at the proposal's price, declines the others and tells every proposer", async () => {
  const { t, client, survey, lead, firms: [alpha, bravo, charlie] } = await setup(3);
  try {
    const a = (await send(t, lead.id, alpha)).proposal;
    await send(t, lead.id, bravo, proposalBody({ priceCents: 990_00 }));
    await send(t, lead.id, charlie);
    await t.request("DELETE", sendPath(lead.id), { cookie: charlie.cookie });
    const other = await createSignedInUser(t, { role: "client" });
    const acceptPath = `/api/surveys/${survey.id}/proposals/${a.id}/accept`;
    for (const cookie of [other.cookie, alpha.cookie]) {
      assertEquals((await t.request("POST", acceptPath, { cookie })).status, 404);
    }

    const res = await t.request("POST", acceptPath, { cookie: client.cookie });
    const body = await expectJson(res, 200);
    assertEquals(body.message, "Proposal accepted");
    assertEquals(body.proposal.status, "accepted");
    assertEquals(
      [body.assignment.status, body.assignment.source, body.assignment.agreedPriceCents],
      ["accepted", "proposal", 1150_00],
    );
    const row = await surveyRow(t, survey.id);
    assertEquals([row.status, row.assignedSurveyorId], ["assigned", alpha.surveyorId]);

    const list = await expectJson(
      await t.request("GET", `/api/surveys/${survey.id}/proposals`, { cookie: client.cookie }),
      200,
    );
    assertEquals(
      list.proposals.map((p: { status: string }) => p.status),
      ["accepted", "declined", "withdrawn"],
    );
    assertEquals(
      list.proposals[1].declineReason,
      "The client accepted another surveyor's proposal.",
    );

    const alphaNotes = await notificationsOf(t, alpha.userId);
    assert(alphaNotes.some((n) => n.kind === "proposal_accepted"));
    const bravoNotes = await notificationsOf(t, bravo.userId);
    assertEquals(
      bravoNotes.filter((n) => n.kind === "proposal_declined").map((n) => n.title),
      ["The client chose another surveyor"],
    );
    // The withdrawn proposer is not told again.
    assertEquals(
      (await notificationsOf(t, charlie.userId)).filter((n) => n.kind.startsWith("proposal")),
      [],
    );
    assertEquals((await emailsOf(t, "proposal_accepted")).map((e) => e.toAddress), [alpha.email]);
    assertEquals((await emailsOf(t, "proposal_declined")).map((e) => e.toAddress), [bravo.email]);
    assertEquals((await emailsOf(t, "surveyor_assigned")).length, 1);
    const pipelines = await t.sql<{ surveyorId: string; pipelineStatus: string }[]>`
      select surveyor_id, pipeline_status from lead_purchases where lead_id = ${lead.id}`;
    const pipeline = new Map(pipelines.map((p) => [p.surveyorId, p.pipelineStatus]));
    assertEquals([pipeline.get(alpha.surveyorId), pipeline.get(bravo.surveyorId)], ["won", "lost"]);

    // A second accept, of the same or another proposal, changes nothing.
    const again = await t.request("POST", acceptPath, { cookie: client.cookie });
    assertEquals((await expectJson(again, 409)).message, PROPOSAL_MESSAGES.acceptTaken);
    const sendLate = await t.request("POST", sendPath(lead.id), {
      cookie: charlie.cookie,
      body: proposalBody(),
    });
    assertEquals((await expectJson(sendLate, 409)).message, PROPOSAL_MESSAGES.surveyTaken);
    assertEquals((await assignmentRows(t, survey.id)).length, 1);
  } finally {
    t.close();
  }
});

test("[proposals] accepting on a cancelled survey is a 409 that changes nothing", async () => {
  const { t, client, survey, lead, firms: [alpha] } = await setup();
  try {
    const a = (await send(t, lead.id, alpha)).proposal;
    const cancel = await t.request("DELETE", `/api/surveys/${survey.id}`, {
      cookie: client.cookie,
    });
    assertEquals(cancel.status, 200);
    const res = await t.request("POST", `/api/surveys/${survey.id}/proposals/${a.id}/accept`, {
      cookie: client.cookie,
    });
    assertEquals((await expectJson(res, 409)).message, PROPOSAL_MESSAGES.acceptCancelled);
    assertEquals(await assignmentRows(t, survey.id), []);
    assertEquals((await surveyRow(t, survey.id)).status, "cancelled");
  } finally {
    t.close();
  }
});

test("[proposals] the client declines one with a reason; the proposer is told; a second decline is a 409", async () => {
  const { t, client, survey, lead, firms: [alpha] } = await setup();
  try {
    const a = (await send(t, lead.id, alpha)).proposal;
    const path = `/api/surveys/${survey.id}/proposals/${a.id}/decline`;
    const tooLong = await t.request("POST", path, {
      cookie: client.cookie,
      body: { reason: "x".repeat(501) },
    });
    assertEquals(tooLong.status, 400);
    const res = await t.request("POST", path, {
      cookie: client.cookie,
      body: { reason: "Too far out for us" },
    });
    const body = await expectJson(res, 200);
    assertEquals([body.message, body.proposal.status], ["Proposal declined", "declined"]);
    assertEquals(body.proposal.declineReason, "Too far out for us");
    const notes = (await notificationsOf(t, alpha.userId)).filter((n) =>
      n.kind === "proposal_declined"
    );
    assertEquals(notes.map((n) => n.title), ["The client declined your proposal"]);
    assertMatch(notes[0].body, /Reason: Too far out for us/);
    const [mail] = await emailsOf(t, "proposal_declined");
    assertMatch(mail.text, /Too far out for us/);
    const again = await t.request("POST", path, { cookie: client.cookie, body: {} });
    assertEquals(again.status, 409);
    const accept = await t.request("POST", `/api/surveys/${survey.id}/proposals/${a.id}/accept`, {
      cookie: client.cookie,
    });
    assertEquals((await expectJson(accept, 409)).message, PROPOSAL_MESSAGES.notPending);
    assertEquals((await surveyRow(t, survey.id)).status, "requested");
  } finally {
    t.close();
  }
});

test("[proposals] two accepts of different proposals at once: exactly one wins", async () => {
  const { t, client, survey, lead, firms: [alpha, bravo] } = await setup(2);
  try {
    const a = (await send(t, lead.id, alpha)).proposal;
    const b = (await send(t, lead.id, bravo)).proposal;
    const [ra, rb] = await Promise.all(
      [a, b].map((p) =>
        t.request("POST", `/api/surveys/${survey.id}/proposals/${p.id}/accept`, {
          cookie: client.cookie,
        })
      ),
    );
    const statuses = [ra.status, rb.status].sort();
    assertEquals(statuses, [200, 409]);
    const winner = ra.status === 200 ? alpha : bravo;
    const loserRes = ra.status === 200 ? rb : ra;
    assertEquals((await loserRes.json()).message, PROPOSAL_MESSAGES.acceptTaken);
    const rows = await assignmentRows(t, survey.id);
    assertEquals(rows.map((r) => [r.surveyorId, r.status]), [[winner.surveyorId, "accepted"]]);
    const states = await t.sql<{ status: string }[]>`
      select status from survey_proposals where survey_id = ${survey.id} order by status`;
    assertEquals(states.map((s) => s.status), ["accepted", "declined"]);
    assertEquals((await emailsOf(t, "proposal_accepted")).length, 1);
    assertEquals((await emailsOf(t, "surveyor_assigned")).length, 1);
  } finally {
    t.close();
  }
});

test("[proposals] an approved return withdraws the buyer's pending proposal", async () => {
  const { t, client, survey, lead, firms: [alpha] } = await setup();
  try {
    await send(t, lead.id, alpha);
    const [{ id: purchaseId }] = await t.sql<{ id: string }[]>`
      select id from lead_purchases where lead_id = ${lead.id}`;
    const outcome = await t.sql.begin((tx) =>
      refundPurchase(tx, { purchaseId, reason: "invalid_contact", actorId: null })
    );
    assertEquals(outcome.status, "refunded");
    const list = await expectJson(
      await t.request("GET", `/api/surveys/${survey.id}/proposals`, { cookie: client.cookie }),
      200,
    );
    assertEquals(list.proposals.map((p: { status: string }) => p.status), ["withdrawn"]);
    assertEquals(list.proposals[0].declineReason, "The lead was returned to the surveyor.");
  } finally {
    t.close();
  }
});

test("[proposals] an admin's assignment closes the pending proposals and tells the others", async () => {
  const { t, client, survey, lead, firms: [alpha, bravo] } = await setup(2);
  try {
    await send(t, lead.id, alpha);
    await send(t, lead.id, bravo);
    const admin = await createSignedInUser(t, { role: "admin" });
    const res = await t.request("POST", `/api/surveys/${survey.id}/assign/${alpha.surveyorId}`, {
      cookie: admin.cookie,
      body: { agreedPrice: 400 },
    });
    assertEquals(res.status, 201);
    const list = await expectJson(
      await t.request("GET", `/api/surveys/${survey.id}/proposals`, { cookie: client.cookie }),
      200,
    );
    assertEquals(
      list.proposals.map((p: { status: string; declineReason: string }) => [
        p.status,
        p.declineReason,
      ]),
      [
        ["withdrawn", ASSIGNED_DIRECTLY_REASON],
        ["declined", ASSIGNED_ELSEWHERE_REASON],
      ],
    );
    const notes = (await notificationsOf(t, bravo.userId)).filter((n) =>
      n.kind === "proposal_declined"
    );
    assertEquals(notes.map((n) => n.title), ["The survey went to another surveyor"]);
    assertEquals(
      (await notificationsOf(t, alpha.userId)).filter((n) => n.kind === "proposal_declined"),
      [],
    );
  } finally {
    t.close();
  }
});
