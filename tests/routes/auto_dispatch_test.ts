/**
 * Automatic dispatch (AUTO_DISPATCH): a client's request is committed with its dispatch job,
 * and the job worker (lib/jobs.ts APP_JOB_HANDLERS, run here one pass at a time as the
 * worker in main.ts would) matches the request and notifies the nearby in-network surveyors,
 * or tells the admins that nobody covers it. Nothing is dispatched inside the request itself.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser } from "../_auth.ts";
import { countRows, submitSurvey, surveyRequest } from "../_fixtures.ts";
import { insertSurveyor, type InsertSurveyorInput } from "../../db/surveyors.ts";
import { enqueueJob, getJob } from "../../db/jobs.ts";
import { nextStepText } from "../../lib/mail/templates/NewSurveyRequestAdmin.tsx";
import {
  APP_JOB_HANDLERS,
  enqueueSurveyDispatch,
  runDueJobsOnce,
  startJobWorker,
} from "../../lib/jobs.ts";

// The request tests/_fixtures.ts submits: a boundary survey at 1200 Barton Springs Rd, Austin.
const AUSTIN = { lat: 30.2669, lng: -97.7428 };
const DALLAS = { lat: 32.7767, lng: -96.797 };

/** An active in-network boundary surveyor in Austin covering 50 miles, with `overrides`. */
function surveyor(
  t: TestApp,
  overrides: Partial<InsertSurveyorInput> = {},
): ReturnType<typeof insertSurveyor> {
  return insertSurveyor(t.sql, {
    companyName: "Lone Star Land Surveying",
    licenseStates: ["TX"],
    state: "TX",
    ...AUSTIN,
    serviceRadiusMiles: 50,
    surveyTypes: ["boundary", "topographic"],
    inNetwork: true,
    status: "active",
    ...overrides,
  } as InsertSurveyorInput);
}

/** An admin, a client, and the network around the client's property. */
async function setup(env: Record<string, string> = {}) {
  const t = await createTestApp({ env });
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await createSignedInUser(t, { role: "client" });
  return { t, admin, client };
}

async function statusOf(t: TestApp, id: string): Promise<string> {
  const [row] = await t.sql<{ status: string }[]>`select status from surveys where id = ${id}`;
  return row.status;
}

async function recipients(t: TestApp, surveyId: string) {
  return await t.sql<{ surveyorId: string; kind: string }[]>`
    select r.surveyor_id, r.kind from lead_recipients r join leads l on l.id = r.lead_id
    where l.survey_id = ${surveyId} order by r.surveyor_id`;
}

async function notificationsOf(t: TestApp, userId: string, kind: string) {
  return await t.sql<{ title: string; link: string | null }[]>`
    select title, link from notifications where user_id = ${userId} and kind = ${kind}`;
}

test("[auto dispatch] a new request is committed with its job, and the job notifies the nearby in-network surveyors", async () => {
  const { t, client } = await setup();
  const account = await createUser(t.sql, { role: "surveyor" });
  const linked = await surveyor(t, { companyName: "Barton Creek Surveying", userId: account.id });
  const unlinked = await surveyor(t, {
    companyName: "Hill Country Land Co",
    email: "hc@example.test",
  });
  const far = await surveyor(t, { companyName: "Dallas Plats", ...DALLAS, serviceRadiusMiles: 20 });
  const paused = await surveyor(t, { companyName: "Paused Surveys", status: "paused" });
  const otherType = await surveyor(t, { companyName: "ALTA Only", surveyTypes: ["alta"] });

  const survey = await submitSurvey(t, client.cookie);
  // Nothing happened inside the client's request: the job waits for the worker.
  const jobs = await t.sql<{ id: string; kind: string; payload: unknown; dedupeKey: string }[]>`
    select id, kind, payload, dedupe_key from jobs`;
  assertEquals(jobs.map((j) => [j.kind, j.payload, j.dedupeKey]), [
    ["dispatch_survey", { surveyId: survey.id }, `dispatch:${survey.id}`],
  ]);
  assertEquals(await countRows(t, "leads"), 0);
  assertEquals(await statusOf(t, survey.id), "requested");

  assertEquals(await runDueJobsOnce(t.deps, APP_JOB_HANDLERS), {
    done: 1,
    retrying: 0,
    failed: 0,
  });
  assert((await getJob(t.sql, { id: jobs[0].id }))!.doneAt instanceof Date);
  const offered = await recipients(t, survey.id);
  assertEquals(
    offered.map((r) => [r.surveyorId, r.kind]).sort(),
    [[linked.id, "notified"], [unlinked.id, "notified"]].sort(),
  );
  for (const left of [far, paused, otherType]) {
    assert(!offered.some((r) => r.surveyorId === left.id), left.companyName);
  }
  // The surveyor with an account hears of it in the app; the one without, by email only.
  const [note] = await notificationsOf(t, account.id, "lead_offered");
  assert(note, "the linked surveyor got an in-app notification");
  const [{ n }] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from notifications where kind = 'lead_offered'`;
  assertEquals(n, 1, "nobody else was notified in the app");
  assertEquals(await statusOf(t, survey.id), "surveyors_notified");
  const [event] = await t.sql<{ fromStatus: string; toStatus: string }[]>`
    select from_status, to_status from survey_events
    where survey_id = ${survey.id} and from_status is not null`;
  assertEquals([event.fromStatus, event.toStatus], ["requested", "surveyors_notified"]);
  t.close();
});

test("[auto dispatch] running the dispatch again notifies nobody twice", async () => {
  const { t, client } = await setup();
  const account = await createUser(t.sql, { role: "surveyor" });
  await surveyor(t, { userId: account.id });
  const survey = await submitSurvey(t, client.cookie);
  await runDueJobsOnce(t.deps, APP_JOB_HANDLERS);
  const snapshot = async () => ({
    recipients: await countRows(t, "lead_recipients"),
    leads: await countRows(t, "leads"),
    notifications: await countRows(t, "notifications"),
    events: await countRows(t, "survey_events"),
    emails: await countRows(t, "email_outbox"),
    status: await statusOf(t, survey.id),
  });
  const first = await snapshot();
  assertEquals([first.recipients, first.leads, first.status], [1, 1, "surveyors_notified"]);

  // The key is free once the first job is done: a second job for the same survey runs.
  assert(await enqueueSurveyDispatch(t.sql, { surveyId: survey.id }));
  assertEquals(await runDueJobsOnce(t.deps, APP_JOB_HANDLERS), {
    done: 1,
    retrying: 0,
    failed: 0,
  });
  assertEquals(await snapshot(), first);
  t.close();
});

test("[auto dispatch] when nobody covers the property the admins are told and the request stays requested", async () => {
  const { t, admin, client } = await setup();
  // Someone in the network, but too far away to reach Austin.
  await surveyor(t, { ...DALLAS, serviceRadiusMiles: 20 });
  const survey = await submitSurvey(t, client.cookie);
  assertEquals((await runDueJobsOnce(t.deps, APP_JOB_HANDLERS)).done, 1);
  const notes = await notificationsOf(t, admin.user.id, "dispatch_unmatched");
  assertEquals(notes.length, 1);
  assertMatch(notes[0].title, /^No surveyor covers /);
  assertEquals(notes[0].link, `/survey/${survey.id}`);
  assertEquals(await statusOf(t, survey.id), "requested");
  assertEquals(await countRows(t, "leads"), 0);
  t.close();
});

test("[auto dispatch] with AUTO_DISPATCH off a request gets no job", async () => {
  for (const value of ["0", "false"]) {
    const { t, client } = await setup({ AUTO_DISPATCH: value });
    assertEquals(t.deps.config.AUTO_DISPATCH, false);
    await surveyor(t);
    const survey = await submitSurvey(t, client.cookie);
    assertEquals(await countRows(t, "jobs"), 0, value);
    assertEquals(await runDueJobsOnce(t.deps, APP_JOB_HANDLERS), {
      done: 0,
      retrying: 0,
      failed: 0,
    });
    assertEquals(await statusOf(t, survey.id), "requested");
    t.close();
  }
});

test("[auto dispatch] a retried submission does not add a second job", async () => {
  const { t, client } = await setup();
  const body = { requestId: crypto.randomUUID() };
  const first = await submitSurvey(t, client.cookie, body);
  const again = await t.request("POST", "/api/surveys", {
    cookie: client.cookie,
    body: surveyRequest(body),
  });
  assertEquals(again.status, 200);
  assertEquals((await again.json()).survey.id, first.id);
  assertEquals(await countRows(t, "jobs"), 1);
  t.close();
});

test("[auto dispatch] a dispatch job without a valid survey id fails at once", async () => {
  const { t } = await setup();
  const id = (await enqueueJob(t.sql, {
    kind: "dispatch_survey",
    payload: { surveyId: "not-a-survey" },
  }))!;
  const error = console.error;
  console.error = () => {};
  try {
    assertEquals((await runDueJobsOnce(t.deps, APP_JOB_HANDLERS)).failed, 1);
  } finally {
    console.error = error;
  }
  const job = (await getJob(t.sql, { id }))!;
  assertEquals([job.attempts, job.lastError], [
    1,
    "PermanentJobError: The dispatch job has no valid surveyId",
  ]);
  t.close();
});

test("[auto dispatch] the worker main.ts starts dispatches a new request on its own", async () => {
  const { t, client } = await setup();
  const account = await createUser(t.sql, { role: "surveyor" });
  await surveyor(t, { userId: account.id });
  const stop = startJobWorker(t.deps, { handlers: APP_JOB_HANDLERS, intervalMs: 20 });
  try {
    const survey = await submitSurvey(t, client.cookie);
    // Wait for the worker (a generous bound only so a broken worker fails instead of hanging).
    for (let i = 0; i < 500 && (await statusOf(t, survey.id)) === "requested"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assertEquals(await statusOf(t, survey.id), "surveyors_notified");
    assertEquals((await notificationsOf(t, account.id, "lead_offered")).length, 1);
  } finally {
    await stop();
  }
  t.close();
});

test("[auto dispatch] the admins' new-request email says who dispatches it: the app, or them", async () => {
  for (const [value, isAuto] of [["1", true], ["0", false]] as const) {
    const { t, admin, client } = await setup({ AUTO_DISPATCH: value });
    await submitSurvey(t, client.cookie);
    const [email] = await t.sql<{ text: string }[]>`
      select text from email_outbox
      where template = 'new_survey_request_admin' and to_address = ${admin.user.email}`;
    const said = email.text.replace(/\s+/g, " ");
    assertStringIncludes(said, nextStepText(isAuto), value);
    assertEquals(said.includes("notified automatically"), isAuto, value);
    assertEquals(said.includes("Automatic dispatch is off"), !isAuto, value);
    t.close();
  }
});
