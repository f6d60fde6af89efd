import { assert, assertEquals, assertMatch, assertRejects } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import {
  addLeadTo,
  addSurveyor,
  assignmentRows,
  clientWithSurvey,
  emailsOf,
  notificationsOf,
  surveyMoves,
  surveyRow,
} from "../_assignment_fixtures.ts";
import {
  AssignmentError,
  assignSurveyorInTx,
  earliestVisitDate,
  type UpdateAssignmentStatusInput,
  updateAssignmentStatusInTx,
} from "../../lib/assignments.ts";
import { canMoveAssignment, nextAssignmentStatuses } from "../../lib/assignment_constants.ts";
import { canAssignmentMove } from "../../lib/survey_status.ts";
import { getSurveyForUser } from "../../db/surveys.ts";
import type { Role } from "../../lib/roles.ts";
import { makeOlder } from "../_row_order.ts";

const PUBLIC_URL = "http://localhost";
const NOW = new Date("2030-05-10T12:00:00Z");

function assign(
  t: TestApp,
  input: {
    surveyId: string;
    surveyorId: string;
    agreedPriceCents?: number;
    source?: "claim" | "admin";
    actorId?: string | null;
    reason?: string;
  },
) {
  return t.sql.begin((tx) =>
    assignSurveyorInTx(tx, {
      agreedPriceCents: 150000,
      source: "admin",
      actorId: null,
      publicUrl: PUBLIC_URL,
      ...input,
    })
  );
}

function move(
  t: TestApp,
  input: Omit<UpdateAssignmentStatusInput, "publicUrl" | "now" | "actor"> & {
    actor: { id: string; role: Role };
  },
) {
  return t.sql.begin((tx) =>
    updateAssignmentStatusInTx(tx, { publicUrl: PUBLIC_URL, now: NOW, ...input })
  );
}

async function refusal(work: Promise<unknown>): Promise<AssignmentError> {
  const err = await assertRejects(() => work);
  assert(err instanceof AssignmentError, `expected an AssignmentError, got ${err}`);
  return err;
}

test("[assignments] moves per role follow the lifecycle", () => {
  assertEquals(nextAssignmentStatuses("surveyor", "offered"), ["accepted", "declined"]);
  assertEquals(nextAssignmentStatuses("admin", "offered"), ["accepted", "declined", "cancelled"]);
  assertEquals(nextAssignmentStatuses("surveyor", "accepted"), ["scheduled"]);
  // The surveyor finishes the job by completing the survey (lib/fieldwork.ts); admins by hand.
  assertEquals(nextAssignmentStatuses("surveyor", "scheduled"), ["scheduled"]);
  assertEquals(nextAssignmentStatuses("admin", "scheduled"), [
    "scheduled",
    "completed",
    "cancelled",
  ]);
  assertEquals(nextAssignmentStatuses("admin", "declined"), []);
  assert(!canMoveAssignment("client", "offered", "accepted"));
  assert(!canMoveAssignment("surveyor", "accepted", "cancelled"));
  assert(!canMoveAssignment("surveyor", "offered", "completed"));
  assert(canAssignmentMove("assign", "surveyors_notified", "assigned"));
  assert(canAssignmentMove("unassign", "scheduled", "requested"));
  assert(!canAssignmentMove("assign", "in_fieldwork", "assigned"));
  assert(!canAssignmentMove("schedule", "requested", "scheduled"));
});

test("[assignments] a visit day is in the past only once it is over everywhere in the US", () => {
  // 09:00 UTC on May 10 is still May 9 in Hawaii: May 9 is not in the past yet.
  assertEquals(earliestVisitDate(new Date("2030-05-10T09:00:00Z")), "2030-05-09");
  assertEquals(earliestVisitDate(new Date("2030-05-10T12:00:00Z")), "2030-05-10");
});

test("[assignments] a claim is accepted at once: survey assigned, client notified and emailed with the surveyor", async () => {
  const t = await createTestApp();
  try {
    const { client, survey } = await clientWithSurvey(t);
    await addLeadTo(t, survey);
    const { surveyor, user } = await addSurveyor(t, "Ortiz Surveying");
    const a = await assign(t, {
      surveyId: survey.id,
      surveyorId: surveyor.id,
      agreedPriceCents: 128550,
      source: "claim",
      actorId: user!.id,
    });
    assertEquals([a.status, a.source, a.agreedPriceCents, a.companyName], [
      "accepted",
      "claim",
      128550,
      "Ortiz Surveying",
    ]);
    assertEquals(await surveyRow(t, survey.id), {
      status: "assigned",
      scheduledDate: null,
      assignedSurveyorId: surveyor.id,
    });
    assertEquals(await surveyMoves(t, survey.id), ["surveyors_notified>assigned"]);
    // One notification for the news, not a generic "status changed" beside it.
    const notes = (await notificationsOf(t, client.id)).filter((n) =>
      n.kind !== "survey_requested"
    );
    assertEquals(notes.map((n) => [n.kind, n.title]), [["surveyor_assigned", "Surveyor assigned"]]);
    assertMatch(notes[0].body, /Ortiz Surveying \(Ortiz Surveying Principal\).*\$1,285\.50/);
    const [mail] = await emailsOf(t, "surveyor_assigned");
    assertEquals(mail.toAddress, client.email);
    for (const text of ["Ortiz Surveying Principal", "(512) 555-0177", "TX 6012", "$1,285.50"]) {
      assert(mail.text.includes(text), `email mentions ${text}`);
    }
    const seen = await getSurveyForUser(t.sql, { id: survey.id, user: client });
    assertEquals(seen?.assignedSurveyor, {
      surveyorId: surveyor.id,
      name: "Ortiz Surveying Principal",
      companyName: "Ortiz Surveying",
      phone: "(512) 555-0177",
      licenseNumber: "6012",
      licenseState: "TX",
      agreedPriceCents: 128550,
      status: "accepted",
      scheduledDate: null,
      source: "claim",
      rating: seen?.assignedSurveyor?.rating ?? null,
      reviewCount: seen?.assignedSurveyor?.reviewCount ?? null,
      meridianRatingSum: 0,
      meridianReviewCount: 0,
    });
  } finally {
    t.close();
  }
});

test("[assignments] an admin's assignment is offered: the surveyor is asked, the client told nothing yet", async () => {
  const t = await createTestApp();
  try {
    const { client, survey } = await clientWithSurvey(t);
    const admin = await createUser(t.sql, { role: "admin" });
    const { surveyor, user } = await addSurveyor(t, "Ortiz Surveying");
    const a = await assign(t, { surveyId: survey.id, surveyorId: surveyor.id, actorId: admin.id });
    assertEquals(a.status, "offered");
    assertEquals((await surveyRow(t, survey.id)).status, "assigned");
    assertEquals(await surveyMoves(t, survey.id), ["requested>assigned"]);
    const clientNotes = (await notificationsOf(t, client.id)).map((n) => n.kind);
    assert(!clientNotes.includes("surveyor_assigned"));
    assert(!clientNotes.includes("survey_status_changed"));
    assertEquals(await emailsOf(t, "surveyor_assigned"), []);
    const [note] = await notificationsOf(t, user!.id);
    assertEquals(note.title, "You were assigned a survey");
    const [offer] = await emailsOf(t, "assignment_offered");
    assertEquals(offer.toAddress, user!.email);
    assert(offer.text.includes("Austin, TX") && offer.text.includes("$1,500"));
    // Before accepting, the surveyor gets no street address or client details.
    for (const secret of ["Barton Springs", "Dana", "555-0100", "dana@example.test"]) {
      assert(!offer.text.includes(secret), `offer leaks ${secret}`);
      assert(!offer.subject.includes(secret));
    }
    const seen = await getSurveyForUser(t.sql, { id: survey.id, user: client });
    assertEquals(seen?.assignedSurveyor?.status, "offered");
  } finally {
    t.close();
  }
});

test("[assignments] reassigning ends the open assignment with the reason; one open per survey", async () => {
  const t = await createTestApp();
  try {
    const { survey } = await clientWithSurvey(t);
    const first = await addSurveyor(t, "First Survey Co");
    const second = await addSurveyor(t, "Second Survey Co");
    const third = await addSurveyor(t, "Third Survey Co", { withUser: false });
    // Each assignment a minute after the one before (rows in a row can share a timestamp).
    const earlier = () =>
      makeOlder(t.sql, "survey_assignments", { where: t.sql`survey_id = ${survey.id}` });
    await assign(t, { surveyId: survey.id, surveyorId: first.surveyor.id });
    await earlier();
    await assign(t, {
      surveyId: survey.id,
      surveyorId: second.surveyor.id,
      reason: "Client asked for another firm",
    });
    await earlier();
    await assign(t, { surveyId: survey.id, surveyorId: third.surveyor.id });
    assertEquals(
      (await assignmentRows(t, survey.id)).map((r) => [r.status, r.endedReason]),
      [
        ["cancelled", "Client asked for another firm"],
        ["cancelled", "Reassigned"],
        ["offered", null],
      ],
    );
    assertEquals((await surveyRow(t, survey.id)).assignedSurveyorId, third.surveyor.id);
    const [ended] = await notificationsOf(t, first.user!.id).then((n) =>
      n.filter((x) => x.title === "Your assignment was ended")
    );
    assert(ended, "the replaced surveyor is told");
    // The survey moved to assigned once; reassignments are not status changes.
    assertEquals(await surveyMoves(t, survey.id), ["requested>assigned"]);
  } finally {
    t.close();
  }
});

test("[assignments] refusals write nothing: unknown ids, closed survey, paused or same surveyor", async () => {
  const t = await createTestApp();
  try {
    const { survey } = await clientWithSurvey(t);
    const { surveyor } = await addSurveyor(t, "Ortiz Surveying");
    const paused = await addSurveyor(t, "Paused Co", { status: "paused" });
    const unknown = crypto.randomUUID();
    assertEquals(
      (await refusal(assign(t, { surveyId: unknown, surveyorId: surveyor.id }))).status,
      404,
    );
    assertEquals(
      (await refusal(assign(t, { surveyId: "nope", surveyorId: surveyor.id }))).status,
      404,
    );
    assertEquals(
      (await refusal(assign(t, { surveyId: survey.id, surveyorId: unknown }))).status,
      404,
    );
    const p = await refusal(assign(t, { surveyId: survey.id, surveyorId: paused.surveyor.id }));
    assertEquals([p.status, p.message], [409, "This surveyor is paused and cannot be assigned."]);
    assertEquals(
      (await refusal(
        assign(t, { surveyId: survey.id, surveyorId: surveyor.id, agreedPriceCents: 0 }),
      ))
        .status,
      400,
    );
    assertEquals(await assignmentRows(t, survey.id), []);
    assertEquals((await surveyRow(t, survey.id)).status, "requested");

    await assign(t, { surveyId: survey.id, surveyorId: surveyor.id });
    const same = await refusal(assign(t, { surveyId: survey.id, surveyorId: surveyor.id }));
    assertEquals([same.status, same.message], [
      409,
      "This surveyor is already assigned to this survey.",
    ]);
    assertEquals((await assignmentRows(t, survey.id)).length, 1);

    for (const status of ["cancelled", "completed"]) {
      const other = await clientWithSurvey(t);
      await t.sql`update surveys set status = ${status} where id = ${other.survey.id}`;
      const err = await refusal(assign(t, { surveyId: other.survey.id, surveyorId: surveyor.id }));
      assertEquals(err.status, 409);
      assertMatch(err.message, new RegExp(`This survey is ${status}`));
      assertEquals(await assignmentRows(t, other.survey.id), []);
    }
  } finally {
    t.close();
  }
});

test("[assignments] the surveyor accepts, schedules and reschedules, an admin completes; the survey follows", async () => {
  const t = await createTestApp();
  try {
    const { client, survey } = await clientWithSurvey(t);
    const admin = await createUser(t.sql, { role: "admin" });
    const { surveyor, user } = await addSurveyor(t, "Ortiz Surveying");
    await assign(t, { surveyId: survey.id, surveyorId: surveyor.id, actorId: admin.id });
    const actor = { id: user!.id, role: "surveyor" as const };
    const base = { surveyId: survey.id, surveyorId: surveyor.id, actor };

    const accepted = await move(t, { ...base, status: "accepted" });
    assertEquals(accepted.status, "accepted");
    const clientNotes = await notificationsOf(t, client.id);
    assert(clientNotes.some((n) => n.kind === "surveyor_assigned"), "client told at acceptance");
    assertEquals((await emailsOf(t, "surveyor_assigned")).length, 1);
    const adminNotes = await notificationsOf(t, admin.id);
    assert(adminNotes.some((n) => n.title === "Ortiz Surveying accepted an assignment"));

    // The survey's moves so far a minute older than the next (events can share a timestamp).
    await makeOlder(t.sql, "survey_events", { where: t.sql`survey_id = ${survey.id}` });
    const scheduled = await move(t, { ...base, status: "scheduled", scheduledDate: "2030-06-02" });
    assertEquals([scheduled.status, scheduled.scheduledDate], ["scheduled", "2030-06-02"]);
    assertEquals(await surveyRow(t, survey.id), {
      status: "scheduled",
      scheduledDate: "2030-06-02",
      assignedSurveyorId: surveyor.id,
    });
    const [visit] = await emailsOf(t, "visit_scheduled");
    assertEquals(visit.toAddress, client.email);
    assert(visit.text.includes("Sunday, June 2, 2030"));

    await move(t, { ...base, status: "scheduled", scheduledDate: "2030-06-05" });
    assertEquals((await surveyRow(t, survey.id)).scheduledDate, "2030-06-05");
    assertEquals((await emailsOf(t, "visit_scheduled")).length, 2);

    // The surveyor completes the job by completing the survey with its deliverables, not here.
    const refused = await refusal(move(t, { ...base, status: "completed" }));
    assertEquals(refused.status, 409);
    const done = await move(t, {
      ...base,
      status: "completed",
      actor: { id: admin.id, role: "admin" },
    });
    assertEquals(done.status, "completed");
    // An admin completing the assignment by hand leaves the survey to the completion flow.
    assertEquals((await surveyRow(t, survey.id)).status, "scheduled");
    assertEquals(await surveyMoves(t, survey.id), ["requested>assigned", "assigned>scheduled"]);
  } finally {
    t.close();
  }
});

test("[assignments] who may move what: other surveyors and clients 404, illegal moves 409, dates 400", async () => {
  const t = await createTestApp();
  try {
    const { client, survey } = await clientWithSurvey(t);
    const { surveyor, user } = await addSurveyor(t, "Ortiz Surveying");
    const other = await addSurveyor(t, "Other Co");
    await assign(t, { surveyId: survey.id, surveyorId: surveyor.id });
    const base = { surveyId: survey.id, surveyorId: surveyor.id };
    const me = { id: user!.id, role: "surveyor" as const };

    for (
      const actor of [{ id: other.user!.id, role: "surveyor" as const }, {
        id: client.id,
        role: "client" as const,
      }]
    ) {
      const err = await refusal(move(t, { ...base, status: "accepted", actor }));
      assertEquals([err.status, err.message], [404, "Assignment not found"]);
    }
    const none = await refusal(
      move(t, {
        surveyId: survey.id,
        surveyorId: other.surveyor.id,
        status: "accepted",
        actor: {
          id: other.user!.id,
          role: "surveyor",
        },
      }),
    );
    assertEquals(none.status, 404);

    const early = await refusal(
      move(t, { ...base, status: "scheduled", scheduledDate: "2030-06-01", actor: me }),
    );
    assertEquals([early.status, early.message], [
      409,
      "Accept the assignment before scheduling the visit.",
    ]);
    const cancel = await refusal(move(t, { ...base, status: "cancelled", actor: me }));
    assertEquals([cancel.status, cancel.message], [409, "Decline the assignment instead."]);
    const dated = await refusal(
      move(t, { ...base, status: "accepted", scheduledDate: "2030-06-01", actor: me }),
    );
    assertEquals(dated.status, 400);

    await move(t, { ...base, status: "accepted", actor: me });
    const noDate = await refusal(move(t, { ...base, status: "scheduled", actor: me }));
    assertEquals([noDate.status, noDate.message], [400, "Choose the day of the field visit."]);
    const past = await refusal(
      move(t, { ...base, status: "scheduled", scheduledDate: "2030-05-09", actor: me }),
    );
    assertEquals([past.status, past.message], [400, "The visit date cannot be in the past."]);
    const late = await refusal(move(t, { ...base, status: "cancelled", actor: me }));
    assertEquals(late.status, 409);
    assertMatch(late.message, /ask Meridian support/);
    const again = await refusal(move(t, { ...base, status: "accepted", actor: me }));
    assertEquals(again.status, 409);
    assertEquals((await assignmentRows(t, survey.id))[0].status, "accepted");
    assertEquals((await surveyRow(t, survey.id)).status, "assigned");
  } finally {
    t.close();
  }
});

test("[assignments] declining or cancelling puts the survey back: notified with a lead, requested without", async () => {
  const t = await createTestApp();
  try {
    const admin = await createUser(t.sql, { role: "admin" });
    const adminActor = { id: admin.id, role: "admin" as const };
    const { surveyor, user } = await addSurveyor(t, "Ortiz Surveying");

    // Declined offer, survey with a lead: back to surveyors_notified, nobody assigned.
    const withLead = await clientWithSurvey(t);
    await addLeadTo(t, withLead.survey);
    await assign(t, { surveyId: withLead.survey.id, surveyorId: surveyor.id });
    await move(t, {
      surveyId: withLead.survey.id,
      surveyorId: surveyor.id,
      status: "declined",
      reason: "Too far this month",
      actor: { id: user!.id, role: "surveyor" },
    });
    assertEquals(await surveyRow(t, withLead.survey.id), {
      status: "surveyors_notified",
      scheduledDate: null,
      assignedSurveyorId: null,
    });
    assertEquals(
      (await assignmentRows(t, withLead.survey.id))[0].endedReason,
      "Too far this month",
    );
    const declinedNote = (await notificationsOf(t, admin.id)).find((n) =>
      n.title === "Ortiz Surveying declined an assignment"
    );
    assertMatch(declinedNote!.body, /Too far this month/);
    // The client was never told of an offer, so no "no longer assigned" either.
    assert(
      !(await notificationsOf(t, withLead.client.id)).some((n) =>
        n.title === "Your surveyor is no longer assigned"
      ),
    );

    // Cancelled after scheduling, survey without a lead: back to requested, the date cleared.
    const plain = await clientWithSurvey(t);
    const base = { surveyId: plain.survey.id, surveyorId: surveyor.id };
    // Each move a minute after the one before (events in a row can share a timestamp).
    const earlier = () =>
      makeOlder(t.sql, "survey_events", { where: t.sql`survey_id = ${plain.survey.id}` });
    await assign(t, { ...base, source: "claim" });
    await earlier();
    await move(t, { ...base, status: "scheduled", scheduledDate: "2030-06-02", actor: adminActor });
    await earlier();
    await move(t, { ...base, status: "cancelled", actor: adminActor });
    assertEquals(await surveyRow(t, plain.survey.id), {
      status: "requested",
      scheduledDate: null,
      assignedSurveyorId: null,
    });
    assertEquals(await surveyMoves(t, plain.survey.id), [
      "requested>assigned",
      "assigned>scheduled",
      "scheduled>requested",
    ]);
    assert(
      (await notificationsOf(t, plain.client.id)).some((n) =>
        n.title === "Your surveyor is no longer assigned"
      ),
    );
    assert(
      (await notificationsOf(t, user!.id)).some((n) => n.title === "Your assignment was cancelled"),
    );
    const seen = await getSurveyForUser(t.sql, { id: plain.survey.id, user: plain.client });
    assertEquals(seen?.assignedSurveyor, null);
  } finally {
    t.close();
  }
});

test("[assignments] reassigning a scheduled survey clears the old visit day", async () => {
  const t = await createTestApp();
  try {
    const admin = { id: (await createUser(t.sql, { role: "admin" })).id, role: "admin" as const };
    const { survey } = await clientWithSurvey(t);
    const first = await addSurveyor(t, "First Survey Co");
    const second = await addSurveyor(t, "Second Survey Co");
    await assign(t, { surveyId: survey.id, surveyorId: first.surveyor.id, source: "claim" });
    await move(t, {
      surveyId: survey.id,
      surveyorId: first.surveyor.id,
      status: "scheduled",
      scheduledDate: "2030-06-02",
      actor: admin,
    });
    await assign(t, { surveyId: survey.id, surveyorId: second.surveyor.id });
    assertEquals(await surveyRow(t, survey.id), {
      status: "assigned",
      scheduledDate: null,
      assignedSurveyorId: second.surveyor.id,
    });
  } finally {
    t.close();
  }
});

test("[assignments] on a cancelled request the assignment can only be cancelled", async () => {
  const t = await createTestApp();
  try {
    const { client, survey } = await clientWithSurvey(t);
    const admin = await createUser(t.sql, { role: "admin" });
    const { surveyor, user } = await addSurveyor(t, "Ortiz Surveying");
    await assign(t, { surveyId: survey.id, surveyorId: surveyor.id });
    await t.sql`update surveys set status = 'cancelled' where id = ${survey.id}`;
    const base = { surveyId: survey.id, surveyorId: surveyor.id };
    const err = await refusal(
      move(t, { ...base, status: "accepted", actor: { id: user!.id, role: "surveyor" } }),
    );
    assertEquals([err.status, err.message], [
      409,
      "This survey is cancelled; its assignment can only be cancelled.",
    ]);
    assert(!(await notificationsOf(t, client.id)).some((n) => n.kind === "surveyor_assigned"));
    const ended = await move(t, {
      ...base,
      status: "cancelled",
      actor: { id: admin.id, role: "admin" },
    });
    assertEquals(ended.status, "cancelled");
    assertEquals((await surveyRow(t, survey.id)).status, "cancelled");
  } finally {
    t.close();
  }
});
