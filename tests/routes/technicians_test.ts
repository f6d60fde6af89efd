import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, sessionCookieFrom } from "../_auth.ts";
import { countRows, expectJson, putSurveyInStatus, submitSurvey } from "../_fixtures.ts";
import { addSurveyor, emailsOf, notificationsOf } from "../_assignment_fixtures.ts";
import {
  acceptJob,
  addTechnician,
  assignedTechnician,
  assignPath,
  crewFixture,
  technicianRows,
} from "../_technician_fixtures.ts";
import { makeOlder } from "../_row_order.ts";

async function assign(
  t: TestApp,
  cookie: string,
  surveyId: string,
  body: Record<string, unknown>,
): Promise<Response> {
  return await t.request("PATCH", assignPath(surveyId), { cookie, body });
}

/** The set-password token in the newest queued email of `template` to `to`. */
async function invitationToken(t: TestApp, to: string, template: string): Promise<string> {
  const mine = (await emailsOf(t, template)).filter((e) => e.toAddress === to);
  assert(mine.length > 0, `no ${template} email to ${to}`);
  const match = mine[mine.length - 1].text.match(/reset-password\?token=([A-Za-z0-9_-]+)/);
  assert(match, "the email holds a set-password link");
  return match[1];
}

// ---------------------------------------------------------------- assignment

test("[technicians] the working surveyor assigns their own technician: notified, emailed, checklist made", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    const res = await assign(t, f.ortiz.cookie, f.survey.id, {
      technicianId: f.riley.user.id,
      notes: "Gate code 1234.\nStart at the north-east corner.",
    });
    const body = await expectJson(res, 200);
    assertEquals(body.message, "Technician assigned");
    assertEquals(
      [body.assignment.technicianId, body.assignment.technicianName, body.assignment.notes],
      [f.riley.user.id, "Riley Chen", "Gate code 1234.\nStart at the north-east corner."],
    );
    assertEquals(await assignedTechnician(t, f.survey.id), f.riley.user.id);
    assertEquals(await countRows(t, "survey_checklists"), 1);
    assert((await countRows(t, "survey_checklist_items")) > 0, "the checklist has items");

    const [note] = await notificationsOf(t, f.riley.user.id);
    assertEquals([note.kind, note.link], [
      "technician_assigned",
      `/technician-survey-detail/${f.survey.id}`,
    ]);
    assertStringIncludes(note.body, "1200 Barton Springs Rd");
    const [email] = await emailsOf(t, "technician_job_assigned");
    assertEquals(email.toAddress, f.riley.user.email);
    assertStringIncludes(email.subject, "Boundary Survey at 1200 Barton Springs Rd");
    assertStringIncludes(email.text, "Not scheduled yet");
    assertStringIncludes(email.text, "Gate code 1234.");
    assertStringIncludes(email.text, `http://localhost/technician-survey-detail/${f.survey.id}`);

    // The technician now works on the survey (db/survey_access.ts reads the pointer).
    const page = await t.request("GET", "/technician-dashboard", {
      cookie: f.riley.cookie,
      headers: { accept: "text/html" },
    });
    assertStringIncludes(await page.text(), `/technician-survey-detail/${f.survey.id}`);
  } finally {
    t.close();
  }
});

test("[technicians] an admin assigns a firm's or a Meridian staff technician, with the visit day in the email", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    await t.sql`update surveys set status = 'scheduled', scheduled_date = '2031-03-04'
      where id = ${f.survey.id}`;
    const staff = await assign(t, f.admin.cookie, f.survey.id, {
      technicianId: f.staff.user.id,
      notes: null,
    });
    assertEquals((await expectJson(staff, 200)).assignment.technicianId, f.staff.user.id);
    const [email] = await emailsOf(t, "technician_job_assigned");
    assertStringIncludes(email.text, "Tuesday, March 4, 2031");
    assertStringIncludes(email.text, "Meridian");

    const firm = await assign(t, f.admin.cookie, f.survey.id, { technicianId: f.sam.user.id });
    assertEquals((await expectJson(firm, 200)).assignment.notes, null);
    assertEquals(await assignedTechnician(t, f.survey.id), f.sam.user.id);
    // Another firm's technician is not one to pick, even for an admin.
    const foreign = await assign(t, f.admin.cookie, f.survey.id, {
      technicianId: f.otherTech.user.id,
    });
    assertEquals((await expectJson(foreign, 404)).message, "Technician not found");
    assertEquals(await assignedTechnician(t, f.survey.id), f.sam.user.id);
  } finally {
    t.close();
  }
});

test("[technicians] a surveyor cannot pick another firm's or a staff technician (404), nor assign on another firm's job", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    const offered = await submitSurvey(t, f.client.cookie);
    const notifications = await countRows(t, "notifications");
    for (const technicianId of [f.otherTech.user.id, f.staff.user.id, f.client.client.id]) {
      const res = await assign(t, f.ortiz.cookie, f.survey.id, { technicianId });
      assertEquals((await expectJson(res, 404)).message, "Technician not found");
    }
    // The other firm does not work on this survey: it does not exist for them.
    const res = await assign(t, f.other.cookie, f.survey.id, { technicianId: f.otherTech.user.id });
    assertEquals((await expectJson(res, 404)).message, "Survey not found");
    // An offer not yet accepted gives no access either.
    await t.sql`insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, source)
      values (${offered.id}, ${f.other.surveyor.id}, 1000, 'admin')`;
    await putSurveyInStatus(t, offered.id, "assigned");
    const early = await assign(t, f.other.cookie, offered.id, {
      technicianId: f.otherTech.user.id,
    });
    assertEquals((await expectJson(early, 404)).message, "Survey not found");
    assertEquals(await countRows(t, "technician_assignments"), 0);
    assertEquals(await countRows(t, "notifications"), notifications);
  } finally {
    t.close();
  }
});

test("[technicians] clients and technicians may not assign (403); signed out is 401", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    const body = { technicianId: f.riley.user.id };
    for (const cookie of [f.client.cookie, f.riley.cookie]) {
      assertEquals((await assign(t, cookie, f.survey.id, body)).status, 403);
    }
    const res = await t.request("PATCH", assignPath(f.survey.id), { body });
    assertEquals(res.status, 401);
    assertEquals(await technicianRows(t, f.survey.id), []);
  } finally {
    t.close();
  }
});

test("[technicians] reassigning keeps the history, tells the previous technician; the same one again only saves notes", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    await expectJson(
      await assign(t, f.ortiz.cookie, f.survey.id, { technicianId: f.riley.user.id }),
      200,
    );
    const [{ n: items }] = await t.sql<{ n: number }[]>`
      select count(*)::int as n from survey_checklist_items where survey_id = ${f.survey.id}`;
    // The first assignment and its notice a minute older than the reassignment's (rows made in
    // a row can share a timestamp, and ties go by id).
    await makeOlder(t.sql, "technician_assignments", { where: t.sql`survey_id = ${f.survey.id}` });
    await makeOlder(t.sql, "notifications");
    await expectJson(
      await assign(t, f.ortiz.cookie, f.survey.id, {
        technicianId: f.sam.user.id,
        notes: "Bring the long tape",
      }),
      200,
    );
    assertEquals(await technicianRows(t, f.survey.id), [
      { technicianId: f.riley.user.id, notes: null, isCurrent: false, ended: true },
      { technicianId: f.sam.user.id, notes: "Bring the long tape", isCurrent: true, ended: false },
    ]);
    assertEquals(await assignedTechnician(t, f.survey.id), f.sam.user.id);
    const rileyNotes = await notificationsOf(t, f.riley.user.id);
    assertEquals(rileyNotes.map((n) => n.kind), ["technician_assigned", "technician_unassigned"]);
    assertStringIncludes(rileyNotes[1].body, "given to another technician");
    // The checklist is made once; reassigning keeps it (and its answers).
    const [{ n: after }] = await t.sql<{ n: number }[]>`
      select count(*)::int as n from survey_checklist_items where survey_id = ${f.survey.id}`;
    assertEquals(after, items);

    const again = await assign(t, f.ortiz.cookie, f.survey.id, {
      technicianId: f.sam.user.id,
      notes: "  Bring the long tape and the drone  ",
    });
    assertEquals(
      (await expectJson(again, 200)).assignment.notes,
      "Bring the long tape and the drone",
    );
    assertEquals((await technicianRows(t, f.survey.id)).length, 2);
    assertEquals((await emailsOf(t, "technician_job_assigned")).length, 2);
    assertEquals((await notificationsOf(t, f.sam.user.id)).length, 1);
    // The previous technician no longer sees the job.
    const old = await t.request("GET", "/technician-dashboard", {
      cookie: f.riley.cookie,
      headers: { accept: "text/html" },
    });
    assert(!(await old.text()).includes(`/technician-survey-detail/${f.survey.id}`));
  } finally {
    t.close();
  }
});

test("[technicians] a survey not assigned, scheduled or in fieldwork is refused with 409 and the reason", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    const cases: [string, RegExp][] = [
      ["requested", /requested; a technician can be assigned only while/],
      ["surveyed", /surveyed;/],
      ["completed", /completed;/],
      ["cancelled", /cancelled;/],
    ];
    for (const [status, message] of cases) {
      await putSurveyInStatus(t, f.survey.id, status);
      const res = await assign(t, f.admin.cookie, f.survey.id, { technicianId: f.riley.user.id });
      assertMatch((await expectJson(res, 409)).message, message);
    }
    await putSurveyInStatus(t, f.survey.id, "in_fieldwork");
    await expectJson(
      await assign(t, f.ortiz.cookie, f.survey.id, { technicianId: f.riley.user.id }),
      200,
    );
    assertEquals((await technicianRows(t, f.survey.id)).length, 1);
  } finally {
    t.close();
  }
});

test("[technicians] bad input to assign is a 4xx {message} and stores nothing", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    const cookie = f.admin.cookie;
    const emails = await countRows(t, "email_outbox");
    const cases: [unknown, number, RegExp][] = [
      [{}, 400, /Choose a technician/],
      [{ technicianId: 42 }, 400, /Choose a technician/],
      [{ technicianId: f.riley.user.id, notes: "x".repeat(2001) }, 400, /at most 2000/],
      [{ technicianId: f.riley.user.id, notes: "bad\u0000" }, 400, /not allowed/],
      [{ technicianId: f.riley.user.id, extra: 1 }, 400, /.+/],
      // Malformed is the validation error, not "not found" (issue 21).
      [{ technicianId: "not-a-uuid" }, 400, /^Choose a technician$/],
      [{ technicianId: "" }, 400, /^Choose a technician$/],
      [{ technicianId: crypto.randomUUID() }, 404, /Technician not found/],
    ];
    for (const [body, status, message] of cases) {
      const res = await t.request("PATCH", assignPath(f.survey.id), { cookie, body });
      assertMatch((await expectJson(res, status)).message, message, JSON.stringify(body));
    }
    for (const id of [crypto.randomUUID(), "not-a-uuid"]) {
      const res = await assign(t, cookie, id, { technicianId: f.riley.user.id });
      assertEquals((await expectJson(res, 404)).message, "Survey not found");
    }
    // A disabled technician is not one to pick.
    await t.sql`update users set disabled_at = now() where id = ${f.riley.user.id}`;
    const disabled = await assign(t, cookie, f.survey.id, { technicianId: f.riley.user.id });
    assertEquals((await expectJson(disabled, 404)).message, "Technician not found");
    assertEquals(await technicianRows(t, f.survey.id), []);
    assertEquals(await countRows(t, "survey_checklists"), 0);
    assertEquals(await countRows(t, "email_outbox"), emails);
  } finally {
    t.close();
  }
});

test("[technicians] GET a survey's technicians: the firm's crew for its surveyor, plus staff for admins", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    const path = `/api/surveys/${f.survey.id}/technicians`;
    const mine = await expectJson(await t.request("GET", path, { cookie: f.ortiz.cookie }), 200);
    assertEquals(mine.technicians.map((x: { name: string }) => x.name), ["Riley Chen", "Sam Park"]);
    assertEquals(mine.current, null);
    const admin = await expectJson(await t.request("GET", path, { cookie: f.admin.cookie }), 200);
    assertEquals(
      admin.technicians.map((x: { name: string; detail: string }) => `${x.name} (${x.detail})`),
      [
        "Riley Chen (Ortiz Surveying)",
        "Sam Park (Ortiz Surveying)",
        "Stacy Staff (Meridian staff)",
      ],
    );
    await expectJson(await t.request("GET", path, { cookie: f.other.cookie }), 404);
    assertEquals((await t.request("GET", path, { cookie: f.client.cookie })).status, 403);
    await assign(t, f.ortiz.cookie, f.survey.id, { technicianId: f.sam.user.id, notes: "Hi" });
    const after = await expectJson(await t.request("GET", path, { cookie: f.ortiz.cookie }), 200);
    assertEquals(after.current, { technicianId: f.sam.user.id, name: "Sam Park", notes: "Hi" });
  } finally {
    t.close();
  }
});

// ---------------------------------------------------------------- crew membership

test("[technicians] a surveyor invites a technician: account, crew row, a working set-password link", async () => {
  const t = await createTestApp();
  try {
    const ortiz = await addSurveyor(t, "Ortiz Surveying");
    const res = await t.request("POST", "/api/technicians", {
      cookie: ortiz.cookie,
      body: { fullName: "Jamie Field", email: "Jamie@Crew.test", phone: "(512) 555-0190" },
    });
    const body = await expectJson(res, 201);
    assertEquals(
      body.message,
      "The invitation to Jamie@Crew.test is queued. No mail server is configured on this Meridian, so it was not emailed; an administrator can pass the link on.",
    );
    assertEquals(
      [body.technician.fullName, body.technician.surveyorId, body.technician.companyName],
      ["Jamie Field", ortiz.surveyor.id, "Ortiz Surveying"],
    );
    const [user] = await t.sql<{ role: string; phone: string; lastLogin: Date | null }[]>`
      select role, phone, last_login from users where id = ${body.technician.id}`;
    assertEquals([user.role, user.phone, user.lastLogin], ["technician", "(512) 555-0190", null]);
    const [email] = await emailsOf(t, "technician_invitation");
    assertStringIncludes(email.subject, "Ortiz Surveying");
    assertStringIncludes(email.text, "Ortiz Surveying Owner added you");
    const token = await invitationToken(t, "Jamie@Crew.test", "technician_invitation");
    const verify = await t.request("GET", `/api/reset-password/verify?token=${token}`);
    assertEquals((await expectJson(verify, 200)).email, "Jamie@Crew.test");

    // The same address again, in any letter case, is a clear 409; nothing more is stored.
    const users = await countRows(t, "users");
    for (const email of ["jamie@crew.test", ortiz.user!.email]) {
      const again = await t.request("POST", "/api/technicians", {
        cookie: ortiz.cookie,
        body: { fullName: "Jamie Again", email },
      });
      assertEquals(
        (await expectJson(again, 409)).message,
        "An account with this email already exists",
      );
    }
    assertEquals(await countRows(t, "users"), users);
    assertEquals(await countRows(t, "technicians"), 1);
  } finally {
    t.close();
  }
});

test("[technicians] an invitation link reads 'Choose your password', signs the technician in and sends no 'password changed' email", async () => {
  const t = await createTestApp();
  try {
    const ortiz = await addSurveyor(t, "Ortiz Surveying");
    await expectJson(
      await t.request("POST", "/api/technicians", {
        cookie: ortiz.cookie,
        body: { fullName: "Jamie Field", email: "jamie@crew.test" },
      }),
      201,
    );
    const token = await invitationToken(t, "jamie@crew.test", "technician_invitation");
    const page = await t.request("GET", `/reset-password?token=${token}`);
    assertEquals(page.status, 200);
    const html = await page.text();
    assertMatch(html, /<title>Choose your password \| Meridian<\/title>/);
    assert(!html.includes("Reset your password"), "the invitation does not read as a reset");

    const res = await t.request("POST", "/api/reset-password", {
      body: { token, password: "my first password", confirmPassword: "my first password" },
    });
    const body = await expectJson(res, 200);
    assertEquals(body.redirectTo, "/technician-dashboard");
    assertEquals([body.user.email, body.user.role], ["jamie@crew.test", "technician"]);
    // Signed in: the answer carries a fresh session that opens the technician's dashboard.
    const cookie = sessionCookieFrom(t, res);
    assert(cookie, "the answer signs the technician in");
    const me = await expectJson(await t.request("GET", "/api/user", { cookie }), 200);
    assertEquals(me.email, "jamie@crew.test");
    const dashboard = await t.request("GET", "/technician-dashboard", { cookie });
    assertEquals(dashboard.status, 200);
    await dashboard.body?.cancel();
    const [user] = await t.sql<{ lastLogin: Date | null }[]>`
      select last_login from users where email = 'jamie@crew.test'`;
    assert(user.lastLogin, "the sign-in is recorded like any other");
    assertEquals(await emailsOf(t, "password_changed"), [], "no 'password changed' email");
    // The link works once.
    const again = await t.request("POST", "/api/reset-password", {
      body: { token, password: "another password", confirmPassword: "another password" },
    });
    assertEquals(again.status, 400);
    await again.body?.cancel();
  } finally {
    t.close();
  }
});

test("[technicians] admins invite to any firm or to Meridian staff; surveyors only to their own", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const ortiz = await addSurveyor(t, "Ortiz Surveying");
    const other = await addSurveyor(t, "Other Survey Co");
    const invite = (cookie: string, body: Record<string, unknown>) =>
      t.request("POST", "/api/technicians", { cookie, body });

    const staff = await expectJson(
      await invite(admin.cookie, { fullName: "Stacy Staff", email: "s@m.test", surveyorId: null }),
      201,
    );
    assertEquals([staff.technician.surveyorId, staff.technician.companyName], [null, null]);
    const [email] = await emailsOf(t, "technician_invitation");
    assertStringIncludes(email.subject, "Meridian");
    assertStringIncludes(email.text, "The Meridian team added you");
    const firm = await expectJson(
      await invite(admin.cookie, {
        fullName: "Fran Firm",
        email: "f@o.test",
        surveyorId: other.surveyor.id,
      }),
      201,
    );
    assertEquals(firm.technician.companyName, "Other Survey Co");

    const refusals: [string, Record<string, unknown>, number, string][] = [
      [
        admin.cookie,
        { fullName: "A", email: "a@x.test" },
        400,
        "Choose the firm, or Meridian staff",
      ],
      [
        admin.cookie,
        { fullName: "A", email: "a@x.test", surveyorId: crypto.randomUUID() },
        404,
        "Surveyor not found",
      ],
      [
        admin.cookie,
        { fullName: "A", email: "a@x.test", surveyorId: "nope" },
        404,
        "Surveyor not found",
      ],
      [
        ortiz.cookie,
        { fullName: "A", email: "a@x.test", surveyorId: other.surveyor.id },
        404,
        "Surveyor not found",
      ],
      [ortiz.cookie, { fullName: "", email: "a@x.test" }, 400, "Full name is required"],
      [ortiz.cookie, { fullName: "A", email: "not an email" }, 400, "Enter a valid email address"],
      [
        ortiz.cookie,
        { fullName: "A", email: "a@x.test", phone: "call me" },
        400,
        "Enter a valid phone number",
      ],
    ];
    for (const [cookie, body, status, message] of refusals) {
      assertEquals((await expectJson(await invite(cookie, body), status)).message, message);
    }
    // A surveyor account without a firm record has no crew to invite to.
    const loose = await createSignedInUser(t, { role: "surveyor" });
    const res = await invite(loose.cookie, { fullName: "A", email: "a@x.test" });
    assertEquals(
      (await expectJson(res, 404)).message,
      "No surveyor profile is linked to your account yet",
    );
    for (const role of ["client", "technician"] as const) {
      const { cookie } = await createSignedInUser(t, { role });
      assertEquals((await invite(cookie, { fullName: "A", email: "a@x.test" })).status, 403);
    }
    assertEquals(await countRows(t, "technicians"), 2);
  } finally {
    t.close();
  }
});

test("[technicians] crew lists: a surveyor sees their own firm; an admin any firm, staff or everyone", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    const list = async (cookie: string, query = "") =>
      (await expectJson(await t.request("GET", `/api/technicians${query}`, { cookie }), 200))
        .technicians.map((x: { fullName: string }) => x.fullName);
    assertEquals(await list(f.ortiz.cookie), ["Riley Chen", "Sam Park"]);
    assertEquals(await list(f.ortiz.cookie, `?surveyorId=${f.ortiz.surveyor.id}`), [
      "Riley Chen",
      "Sam Park",
    ]);
    const foreign = await t.request("GET", `/api/technicians?surveyorId=${f.other.surveyor.id}`, {
      cookie: f.ortiz.cookie,
    });
    await expectJson(foreign, 404);
    assertEquals(await list(f.admin.cookie, `?surveyorId=${f.other.surveyor.id}`), ["Olive Other"]);
    assertEquals(await list(f.admin.cookie, "?surveyorId=staff"), ["Stacy Staff"]);
    assertEquals(await list(f.admin.cookie), [
      "Olive Other",
      "Riley Chen",
      "Sam Park",
      "Stacy Staff",
    ]);
    await assign(t, f.ortiz.cookie, f.survey.id, { technicianId: f.riley.user.id });
    const [riley] = (await expectJson(
      await t.request("GET", "/api/technicians", { cookie: f.ortiz.cookie }),
      200,
    )).technicians;
    assertEquals([riley.fullName, riley.openJobs], ["Riley Chen", 1]);
  } finally {
    t.close();
  }
});

test("[technicians] removing a technician ends their open jobs, keeps history, disables the account", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    await expectJson(
      await assign(t, f.ortiz.cookie, f.survey.id, { technicianId: f.riley.user.id }),
      200,
    );
    // Another firm cannot remove Ortiz's technician; nor can a client.
    const path = `/api/technicians/${f.riley.user.id}`;
    assertEquals(
      (await expectJson(await t.request("DELETE", path, { cookie: f.other.cookie }), 404)).message,
      "Technician not found",
    );
    assertEquals((await t.request("DELETE", path, { cookie: f.client.cookie })).status, 403);

    const res = await t.request("DELETE", path, { cookie: f.ortiz.cookie });
    const body = await expectJson(res, 200);
    assertEquals([body.message, body.endedJobs], ["Technician removed", [f.survey.id]]);
    assertEquals(await technicianRows(t, f.survey.id), [
      { technicianId: f.riley.user.id, notes: null, isCurrent: false, ended: true },
    ]);
    assertEquals(await assignedTechnician(t, f.survey.id), null);
    const [user] = await t.sql<{ disabled: boolean }[]>`
      select disabled_at is not null as disabled from users where id = ${f.riley.user.id}`;
    assert(user.disabled, "the account is disabled");
    assertEquals((await t.request("GET", "/api/user", { cookie: f.riley.cookie })).status, 401);
    const list = await expectJson(
      await t.request("GET", "/api/technicians", { cookie: f.ortiz.cookie }),
      200,
    );
    assertEquals(list.technicians.map((x: { fullName: string }) => x.fullName), ["Sam Park"]);
    // Gone from the firm: no longer assignable, and a second removal finds nobody.
    const again = await assign(t, f.ortiz.cookie, f.survey.id, { technicianId: f.riley.user.id });
    await expectJson(again, 404);
    await expectJson(await t.request("DELETE", path, { cookie: f.ortiz.cookie }), 404);
    // An admin may remove anyone's technician.
    const other = `/api/technicians/${f.otherTech.user.id}`;
    await expectJson(await t.request("DELETE", other, { cookie: f.admin.cookie }), 200);
  } finally {
    t.close();
  }
});

test("[technicians] an invitation can be sent again until the technician has signed in", async () => {
  const t = await createTestApp();
  try {
    const ortiz = await addSurveyor(t, "Ortiz Surveying");
    const jamie = await addTechnician(t, ortiz.surveyor.id, "Jamie Field");
    await t.sql`update users set last_login = null where id = ${jamie.user.id}`;
    const path = `/api/technicians/${jamie.user.id}/invite`;
    const res = await t.request("POST", path, { cookie: ortiz.cookie });
    assertEquals(
      (await expectJson(res, 200)).message,
      `The invitation to ${jamie.user.email} is queued. No mail server is configured on this Meridian, so it was not emailed; an administrator can pass the link on.`,
    );
    await invitationToken(t, jamie.user.email, "technician_invitation");
    const other = await addSurveyor(t, "Other Survey Co");
    await expectJson(await t.request("POST", path, { cookie: other.cookie }), 404);
    await t.sql`update users set last_login = now() where id = ${jamie.user.id}`;
    const late = await t.request("POST", path, { cookie: ortiz.cookie });
    assertMatch((await expectJson(late, 409)).message, /already signed in/);
    assertEquals((await emailsOf(t, "technician_invitation")).length, 1);
  } finally {
    t.close();
  }
});

test("[technicians] a firm's job is assignable by the firm after an accepted assignment, with a visit booked", async () => {
  const t = await createTestApp();
  try {
    const client = await createSignedInUser(t, { role: "client" });
    const survey = await submitSurvey(t, client.cookie);
    const firm = await addSurveyor(t, "Barton Creek Surveying");
    const tech = await addTechnician(t, firm.surveyor.id, "Bea Barton");
    await acceptJob(t, survey.id, firm.surveyor.id, {
      status: "scheduled",
      scheduledDate: "2031-05-06",
    });
    const res = await assign(t, firm.cookie, survey.id, { technicianId: tech.user.id });
    await expectJson(res, 200);
    const [note] = await notificationsOf(t, tech.user.id);
    assertStringIncludes(note.body, "visit on Tuesday, May 6, 2031");
  } finally {
    t.close();
  }
});
