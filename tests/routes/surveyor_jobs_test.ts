/**
 * A surveyor's job page (routes/surveyor_job_pages.tsx, /surveyor/jobs/{surveyId}): the
 * surveyor an admin assigned — without buying the lead, or on a request that never had one —
 * sees the job like a lead while it is offered (with Accept / Decline), and the client's
 * details once they accept. Everyone else gets a 404 (other surveyors) or the role guard.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson, ROLES, submitSurvey } from "../_fixtures.ts";
import {
  assertForbiddenPage,
  assertHtml,
  assertRedirectsToAuth,
  getPage,
  islandProps,
  pageText,
} from "../_pages.ts";
import { addLeadTo, addSurveyor, emailsOf, notificationsOf } from "../_assignment_fixtures.ts";
import type { AssignmentActionsProps } from "../../islands/AssignmentActions.tsx";
import { getSurveyorJobPageWithViewer } from "../../db/surveyor_jobs.ts";

/** What only the job's surveyor, once they accepted, may read: distinctive so a hit is real. */
const PERSONAL = {
  name: "Zebulon Quartermaine",
  phone: "(512) 555-0199",
  email: "zebulon.q@example.test",
  street: "4417 Wildflower",
  notes: "Beware of the llamas",
  access: "Gate code 9876",
  owner: "Ophelia Parcelowner",
};

function jobPath(surveyId: string): string {
  return `/surveyor/jobs/${surveyId}`;
}

/** A client's request at a distinctive address, with a parcel naming its owner. */
async function distinctiveRequest(t: TestApp) {
  const { cookie, user } = await createSignedInUser(t, { role: "client", fullName: PERSONAL.name });
  const survey = await submitSurvey(t, cookie, {
    address: "4417 Wildflower Ln, Austin, TX 78704",
    formattedAddress: "4417 Wildflower Ln, Austin, TX 78704, USA",
    contactName: PERSONAL.name,
    contactPhone: PERSONAL.phone,
    contactEmail: PERSONAL.email,
    notes: PERSONAL.notes,
    accessNotes: PERSONAL.access,
    acreage: 2.5,
    neededBy: "2099-06-30",
  });
  await t.sql`update surveys set parcel = ${
    t.sql.json({ owner: PERSONAL.owner, parcelNumber: "R-77123", county: "Travis" })
  } where id = ${survey.id}`;
  return { cookie, client: user, survey };
}

async function setup(t: TestApp) {
  const admin = await createSignedInUser(t, { role: "admin" });
  const request = await distinctiveRequest(t);
  const ortiz = await addSurveyor(t, "Ortiz Surveying");
  const other = await addSurveyor(t, "Other Survey Co");
  return { admin, ...request, ortiz, other };
}

async function assign(t: TestApp, adminCookie: string, surveyId: string, surveyorId: string) {
  const res = await t.request("POST", `/api/surveys/${surveyId}/assign/${surveyorId}`, {
    cookie: adminCookie,
    body: { agreedPrice: 1285.1 },
  });
  await expectJson(res, 201);
}

async function move(
  t: TestApp,
  cookie: string,
  surveyId: string,
  surveyorId: string,
  status: string,
) {
  const res = await t.request(
    "PATCH",
    `/api/surveys/${surveyId}/assignment/${surveyorId}/status`,
    { cookie, body: { status } },
  );
  await expectJson(res, 200);
}

function assertNoPersonalData(html: string, context: string) {
  for (const [what, value] of Object.entries(PERSONAL)) {
    assert(!html.includes(value), `${context}: the ${what} (${value}) must not be on the page`);
  }
  // The escaped forms too (an apostrophe or ampersand would be entity-encoded).
  assert(!html.includes("Wildflower"), `${context}: no street name`);
  // The number standing alone: as part of an id or a hash (a uuid's "-4417-") it is not the
  // address, and a page of random ids holds one now and then.
  assert(!/(?<![\w-])4417(?![\w-])/.test(html), `${context}: no street number`);
}

async function jobHtml(t: TestApp, surveyId: string, cookie: string, status = 200) {
  const res = await getPage(t, jobPath(surveyId), cookie);
  assertEquals(res.status, status, `GET ${jobPath(surveyId)}`);
  assertHtml(res);
  return await pageText(res);
}

test("[surveyor jobs] an offered job reads like a lead: no personal data, Accept and Decline", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    await assign(t, f.admin.cookie, f.survey.id, f.ortiz.surveyor.id);

    const html = await jobHtml(t, f.survey.id, f.ortiz.cookie);
    assertNoPersonalData(html, "offered job");
    assertStringIncludes(html, "Boundary Survey");
    assertStringIncludes(html, "Austin, TX");
    assertStringIncludes(html, "2.5 acres");
    assertStringIncludes(html, "Jun 30, 2099");
    assertStringIncludes(html, "Agreed price $1,285.10");
    assertStringIncludes(html, 'data-testid="job-locked"');
    // The page's statement brings nothing of the fieldwork, the crew or the files back for a
    // firm that only has the offer.
    const { job } = await getSurveyorJobPageWithViewer(t.sql, {
      surveyId: f.survey.id,
      userId: f.ortiz.user!.id,
      messages: { limit: 20 },
    });
    assertEquals(
      [job?.access, job?.crew, job?.crewChoices, job?.deliverables, job?.unlocked],
      [undefined, undefined, null, null, null],
    );
    const props = islandProps<AssignmentActionsProps>(html, "AssignmentActions");
    assertEquals(
      [props.status, props.allowed, props.agreedPriceCents, props.surveyId, props.surveyorId],
      ["offered", ["accepted", "declined"], 128510, f.survey.id, f.ortiz.surveyor.id],
    );
    assertStringIncludes(html, ">Accept</button>");
    assertStringIncludes(html, ">Decline</button>");

    // The offer's notification and email lead to this page.
    const notes = await notificationsOf(t, f.ortiz.user!.id);
    assertEquals(notes.map((n) => [n.title, n.link]), [
      ["You were assigned a survey", jobPath(f.survey.id)],
    ]);
    const [email] = await emailsOf(t, "assignment_offered");
    assertStringIncludes(email.text, `/surveyor/jobs/${f.survey.id}`);
  } finally {
    t.close();
  }
});

test("[surveyor jobs] once accepted the client's contact, address, parcel and request are unlocked", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    await assign(t, f.admin.cookie, f.survey.id, f.ortiz.surveyor.id);
    await move(t, f.ortiz.cookie, f.survey.id, f.ortiz.surveyor.id, "accepted");

    const html = await jobHtml(t, f.survey.id, f.ortiz.cookie);
    for (const value of Object.values(PERSONAL)) assertStringIncludes(html, value);
    assertStringIncludes(html, "4417 Wildflower Ln, Austin, TX 78704, USA");
    assertStringIncludes(html, `href="tel:5125550199"`);
    assertStringIncludes(html, `href="mailto:${PERSONAL.email}"`);
    assertStringIncludes(html, "R-77123");
    assertStringIncludes(html, "Selling the property");
    assert(!html.includes('data-testid="job-locked"'), "nothing says it is locked");
    const props = islandProps<AssignmentActionsProps>(html, "AssignmentActions");
    assertEquals([props.status, props.allowed], ["accepted", ["scheduled"]]);
    assert(!html.includes(">Accept</button>"), "no Accept once accepted");

    // Scheduled and completed keep it unlocked.
    const day = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const res = await t.request(
      "PATCH",
      `/api/surveys/${f.survey.id}/assignment/${f.ortiz.surveyor.id}/status`,
      { cookie: f.ortiz.cookie, body: { status: "scheduled", scheduledDate: day } },
    );
    await expectJson(res, 200);
    assertStringIncludes(await jobHtml(t, f.survey.id, f.ortiz.cookie), PERSONAL.phone);
    // The job is done when the survey is delivered (lib/fieldwork.ts completes the assignment).
    await t.sql`update survey_assignments set status = 'completed'
      where survey_id = ${f.survey.id} and surveyor_id = ${f.ortiz.surveyor.id}`;
    const done = await jobHtml(t, f.survey.id, f.ortiz.cookie);
    assertStringIncludes(done, PERSONAL.phone);
    assertStringIncludes(done, "You completed this job.");
  } finally {
    t.close();
  }
});

test("[surveyor jobs] another surveyor, a surveyor without a record and unknown ids get the 404 page", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    await assign(t, f.admin.cookie, f.survey.id, f.ortiz.surveyor.id);
    await move(t, f.ortiz.cookie, f.survey.id, f.ortiz.surveyor.id, "accepted");
    const noRecord = await createSignedInUser(t, { role: "surveyor" });

    for (const [who, cookie] of [["other", f.other.cookie], ["no record", noRecord.cookie]]) {
      const html = await jobHtml(t, f.survey.id, cookie, 404);
      assertStringIncludes(html, "Job not found");
      assertNoPersonalData(html, who);
    }
    for (const id of [crypto.randomUUID(), "not-a-uuid", "%27%3B--"]) {
      assertStringIncludes(await jobHtml(t, id, f.ortiz.cookie, 404), "Job not found");
    }
  } finally {
    t.close();
  }
});

test("[surveyor jobs] signed out goes to sign in; clients, admins and technicians get the forbidden page", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    await assign(t, f.admin.cookie, f.survey.id, f.ortiz.surveyor.id);
    await move(t, f.ortiz.cookie, f.survey.id, f.ortiz.surveyor.id, "accepted");
    const path = jobPath(f.survey.id);
    await assertRedirectsToAuth(await getPage(t, path), path);
    const cookies: Record<string, string> = {
      client: f.cookie,
      admin: f.admin.cookie,
      technician: (await createSignedInUser(t, { role: "technician" })).cookie,
    };
    for (const role of ROLES.filter((r) => r !== "surveyor")) {
      const cookie = cookies[role] ?? (await createSignedInUser(t, { role })).cookie;
      const html = await assertForbiddenPage(await getPage(t, path, cookie), role);
      assertNoPersonalData(html, role);
    }
  } finally {
    t.close();
  }
});

test("[surveyor jobs] a lead's survey assigned to a non-buyer: locked until accepted; dashboard links the job", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    await addLeadTo(t, f.survey);
    await assign(t, f.admin.cookie, f.survey.id, f.ortiz.surveyor.id);

    const offered = await jobHtml(t, f.survey.id, f.ortiz.cookie);
    assertNoPersonalData(offered, "offered on a lead");
    assert(!offered.includes("/surveyor/purchased-leads/"), "no purchased lead to link to");

    const dashboard = await pageText(await getPage(t, "/surveyor-dashboard", f.ortiz.cookie));
    assertStringIncludes(dashboard, `href="${jobPath(f.survey.id)}"`);
    assertNoPersonalData(dashboard, "dashboard");

    await move(t, f.ortiz.cookie, f.survey.id, f.ortiz.surveyor.id, "accepted");
    assertStringIncludes(await jobHtml(t, f.survey.id, f.ortiz.cookie), PERSONAL.name);
  } finally {
    t.close();
  }
});

test("[surveyor jobs] a declined or replaced assignment still has its page, without personal data", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    // Declined while offered.
    await assign(t, f.admin.cookie, f.survey.id, f.other.surveyor.id);
    await move(t, f.other.cookie, f.survey.id, f.other.surveyor.id, "declined");
    const declined = await jobHtml(t, f.survey.id, f.other.cookie);
    assertNoPersonalData(declined, "declined");
    assertStringIncludes(declined, "You declined this job.");
    assertEquals(islandProps<AssignmentActionsProps>(declined, "AssignmentActions").allowed, []);

    // Accepted, then Meridian gives the job to someone else: the details are no longer theirs.
    await assign(t, f.admin.cookie, f.survey.id, f.ortiz.surveyor.id);
    await move(t, f.ortiz.cookie, f.survey.id, f.ortiz.surveyor.id, "accepted");
    assertStringIncludes(await jobHtml(t, f.survey.id, f.ortiz.cookie), PERSONAL.name);
    await assign(t, f.admin.cookie, f.survey.id, f.other.surveyor.id);
    const replaced = await jobHtml(t, f.survey.id, f.ortiz.cookie);
    assertNoPersonalData(replaced, "replaced");
    assertStringIncludes(replaced, "no longer yours");
    const [ended] = (await notificationsOf(t, f.ortiz.user!.id))
      .filter((n) => n.title === "Your assignment was ended");
    assertEquals(ended.link, jobPath(f.survey.id));

    // The surveyor offered the job now sees it offered (their open one, not the declined one).
    const reoffered = await jobHtml(t, f.survey.id, f.other.cookie);
    assertEquals(
      islandProps<AssignmentActionsProps>(reoffered, "AssignmentActions").status,
      "offered",
    );
  } finally {
    t.close();
  }
});

test("[surveyor jobs] a buyer of the lead offered the job sees the client already, and their lead is linked", async () => {
  const t = await createTestApp();
  try {
    const f = await setup(t);
    const leadId = await addLeadTo(t, f.survey);
    await t.sql`insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents)
      values (${leadId}, ${f.ortiz.surveyor.id}, 'buy', 2500)`;
    await assign(t, f.admin.cookie, f.survey.id, f.ortiz.surveyor.id);

    const html = await jobHtml(t, f.survey.id, f.ortiz.cookie);
    assertStringIncludes(html, PERSONAL.name);
    assertStringIncludes(html, PERSONAL.phone);
    assertStringIncludes(html, `href="/surveyor/purchased-leads/${leadId}"`);
    assertEquals(islandProps<AssignmentActionsProps>(html, "AssignmentActions").status, "offered");
  } finally {
    t.close();
  }
});
