import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { submitSurvey } from "../_fixtures.ts";
import { findIslandProps, islandProps, loadPage } from "../_pages.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { acceptJob, addTechnician, assignPath, crewFixture } from "../_technician_fixtures.ts";
import {
  endTechnicianAssignment,
  getCurrentTechnicianAssignment,
  insertTechnicianAssignment,
  listTechnicianJobs,
} from "../../db/technicians.ts";
import { instantiateChecklist } from "../../db/checklists.ts";
import { groupOpenJobs, localToday } from "../../lib/technicians.ts";
import type { AssignTechnicianProps } from "../../islands/AssignTechnician.tsx";
import type { TechnicianTeamProps } from "../../islands/TechnicianTeam.tsx";

/** `date` (YYYY-MM-DD) moved by `days`. */
function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** A request at `street` in Austin, worked by `surveyorId`, given to `technicianId`. */
async function job(
  t: TestApp,
  cookie: string,
  { street, surveyorId, technicianId, status, scheduledDate = null }: {
    street: string;
    surveyorId: string;
    technicianId: string;
    status: string;
    scheduledDate?: string | null;
  },
): Promise<string> {
  const address = `${street}, Austin, TX 78704`;
  const survey = await submitSurvey(t, cookie, {
    address,
    formattedAddress: address,
    accessNotes: `Access for ${street}`,
  });
  await acceptJob(t, survey.id, surveyorId);
  await t.sql.begin(async (tx) => {
    await insertTechnicianAssignment(tx, {
      surveyId: survey.id,
      technicianId,
      notes: null,
      assignedBy: null,
    });
    await instantiateChecklist(tx, { surveyId: survey.id });
  });
  await t.sql`update surveys set status = ${status}, scheduled_date = ${scheduledDate},
      completed_date = case when ${status} = 'completed' then current_date end
    where id = ${survey.id}`;
  return survey.id;
}

test("[technician dashboard] a technician with no jobs is told what will appear and how they hear of it", async () => {
  const t = await createTestApp();
  try {
    const ortiz = await addSurveyor(t, "Ortiz Surveying");
    const tech = await addTechnician(t, ortiz.surveyor.id, "Riley Chen", { phone: null });
    const { res, html } = await loadPage(t, "/technician-dashboard", tech.cookie);
    assertEquals(res.status, 200);
    const text = html.replaceAll("<!-- -->", "");
    assertStringIncludes(text, "Welcome, Riley");
    assertStringIncludes(text, "No jobs assigned yet");
    assertStringIncludes(text, "the address, the visit day, access notes, the client");
    assertStringIncludes(text, "Add your phone number");
    assert(!text.includes('id="today-title"'), "no empty sections");
  } finally {
    t.close();
  }
});

test("[technician dashboard] today's jobs, then upcoming by visit day, then past; reassigned and cancelled jobs are gone", async () => {
  const t = await createTestApp();
  try {
    const client = await createSignedInUser(t, { role: "client" });
    const ortiz = await addSurveyor(t, "Ortiz Surveying");
    const riley = await addTechnician(t, ortiz.surveyor.id, "Riley Chen");
    const sam = await addTechnician(t, ortiz.surveyor.id, "Sam Park");
    const today = localToday("TX");
    const base = { surveyorId: ortiz.surveyor.id, technicianId: riley.user.id };
    const ids = {
      later: await job(t, client.cookie, {
        ...base,
        street: "30 Later St",
        status: "scheduled",
        scheduledDate: addDays(today, 3),
      }),
      unscheduled: await job(t, client.cookie, {
        ...base,
        street: "40 Someday St",
        status: "assigned",
      }),
      today: await job(t, client.cookie, {
        ...base,
        street: "10 Today St",
        status: "scheduled",
        scheduledDate: today,
      }),
      tomorrow: await job(t, client.cookie, {
        ...base,
        street: "20 Tomorrow St",
        status: "scheduled",
        scheduledDate: addDays(today, 1),
      }),
      overdue: await job(t, client.cookie, {
        ...base,
        street: "5 Missed St",
        status: "scheduled",
        scheduledDate: addDays(today, -2),
      }),
      fieldwork: await job(t, client.cookie, {
        ...base,
        street: "15 Busy St",
        status: "in_fieldwork",
        scheduledDate: addDays(today, -1),
      }),
      done: await job(t, client.cookie, {
        ...base,
        street: "50 Done St",
        status: "completed",
        scheduledDate: addDays(today, -10),
      }),
      cancelled: await job(t, client.cookie, {
        ...base,
        street: "60 Cancelled St",
        status: "cancelled",
      }),
      reassigned: await job(t, client.cookie, {
        ...base,
        street: "70 Elsewhere St",
        status: "scheduled",
        scheduledDate: today,
      }),
      samsJob: await job(t, client.cookie, {
        ...base,
        technicianId: sam.user.id,
        street: "80 Sams St",
        status: "scheduled",
        scheduledDate: today,
      }),
    };
    const current = await getCurrentTechnicianAssignment(t.sql, { surveyId: ids.reassigned });
    await endTechnicianAssignment(t.sql, { id: current!.id });
    await insertTechnicianAssignment(t.sql, {
      surveyId: ids.reassigned,
      technicianId: sam.user.id,
      notes: null,
      assignedBy: null,
    });

    const { res, html } = await loadPage(t, "/technician-dashboard", riley.cookie);
    assertEquals(res.status, 200);
    const at = (id: string) => html.indexOf(`data-job="${id}"`);
    const sections = ["today-title", "upcoming-title", "past-title"].map((s) =>
      html.indexOf(`id="${s}"`)
    );
    const sectionOf = (id: string) => sections.filter((s) => s < at(id)).length;
    // Today: visit day passed first (earliest date), then in fieldwork, then today's visit.
    assertEquals([ids.overdue, ids.fieldwork, ids.today].map(sectionOf), [1, 1, 1]);
    assert(at(ids.overdue) < at(ids.fieldwork) && at(ids.fieldwork) < at(ids.today));
    assertEquals([ids.tomorrow, ids.later, ids.unscheduled].map(sectionOf), [2, 2, 2]);
    assert(at(ids.tomorrow) < at(ids.later) && at(ids.later) < at(ids.unscheduled));
    assertEquals(sectionOf(ids.done), 3);
    for (const gone of [ids.cancelled, ids.reassigned, ids.samsJob]) {
      assertEquals(at(gone), -1, `job ${gone} is not Riley's`);
    }
    const text = html.replaceAll("<!-- -->", "");
    assertStringIncludes(text, 'data-testid="today-count">3<');
    assertStringIncludes(text, 'data-testid="upcoming-count">3<');
    assertStringIncludes(text, "Visit day passed");
    // What a crew needs on the road: a maps link, the visit day, access, whom to call.
    assertStringIncludes(
      html,
      'href="https://www.google.com/maps/search/?api=1&amp;query=10%20Today%20St%2C%20Austin%2C%20TX%2078704"',
    );
    assertStringIncludes(html, 'href="tel:5125550100"');
    assertStringIncludes(text, "Access for 10 Today St");
    assertStringIncludes(text, "Dana Client");
    assertStringIncludes(text, "Not scheduled yet");
    assertStringIncludes(html, `href="/technician-survey-detail/${ids.today}"`);
    assertStringIncludes(text, "Boundary Survey");
    assertStringIncludes(text, "Ortiz Surveying");
    assertStringIncludes(text, "0 of ");
    assertStringIncludes(text, " required done");
  } finally {
    t.close();
  }
});

test("[technician dashboard] past jobs are paged; a page past the end keeps the total", async () => {
  const t = await createTestApp();
  try {
    const client = await createSignedInUser(t, { role: "client" });
    const ortiz = await addSurveyor(t, "Ortiz Surveying");
    const riley = await addTechnician(t, ortiz.surveyor.id, "Riley Chen");
    const base = { surveyorId: ortiz.surveyor.id, technicianId: riley.user.id };
    for (const street of ["1 A St", "2 B St", "3 C St"]) {
      await job(t, client.cookie, { ...base, street, status: "completed" });
    }
    await job(t, client.cookie, { ...base, street: "9 Open St", status: "assigned" });
    const first = await listTechnicianJobs(t.sql, {
      technicianId: riley.user.id,
      pastPage: 1,
      pastPageSize: 2,
    });
    assertEquals([first.open.length, first.past.length, first.pastTotal], [1, 2, 3]);
    const second = await listTechnicianJobs(t.sql, {
      technicianId: riley.user.id,
      pastPage: 2,
      pastPageSize: 2,
    });
    assertEquals([second.open.length, second.past.length, second.pastTotal], [1, 1, 3]);
    const beyond = await listTechnicianJobs(t.sql, {
      technicianId: riley.user.id,
      pastPage: 5,
      pastPageSize: 2,
    });
    assertEquals([beyond.past.length, beyond.pastTotal], [0, 3]);
    // A page number nobody made is page 1, not an error.
    const { res } = await loadPage(t, "/technician-dashboard?page=abc", riley.cookie);
    assertEquals(res.status, 200);
  } finally {
    t.close();
  }
});

test("[technician dashboard] 'today' is the property's day: a visit in Honolulu is not today in New York's evening", () => {
  // 2030-06-02 05:00 UTC: 01:00 on June 2 in New York, 19:00 on June 1 in Honolulu.
  const now = new Date("2030-06-02T05:00:00Z");
  assertEquals(localToday("NY", now), "2030-06-02");
  assertEquals(localToday("HI", now), "2030-06-01");
  const jobOn = (state: string) => ({
    surveyId: state,
    status: "scheduled" as const,
    surveyType: "boundary" as const,
    address: "x",
    state,
    scheduledDate: "2030-06-02",
    surveyedDate: null,
    completedDate: null,
    accessNotes: null,
    contactName: "x",
    contactPhone: "1",
    crewNotes: null,
    companyName: null,
    assignedAt: now.toISOString(),
  });
  const grouped = groupOpenJobs([jobOn("NY"), jobOn("HI")], now);
  assertEquals(grouped.today.map((j) => j.state), ["NY"]);
  assertEquals(grouped.upcoming.map((j) => j.state), ["HI"]);
});

test("[technician pages] the crew on its own page (linked from the dashboard), the assign form on the job page and the admin's request page", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    const crewPage = await loadPage(t, "/surveyor/crew", f.ortiz.cookie);
    assertEquals(crewPage.res.status, 200);
    assertStringIncludes(crewPage.html, "Your crew");
    const team = islandProps<TechnicianTeamProps>(crewPage.html, "TechnicianTeam");
    assertEquals(team.members.map((m) => m.fullName), ["Riley Chen", "Sam Park"]);
    assertEquals(team.total, 2);
    // The dashboard keeps to what changed: a link to the crew with its size, not the crew form.
    const dash = await loadPage(t, "/surveyor-dashboard", f.ortiz.cookie);
    assertEquals(dash.res.status, 200);
    assertEquals(findIslandProps(dash.html, "TechnicianTeam"), undefined);
    assertStringIncludes(dash.html, 'href="/surveyor/crew"');
    assertStringIncludes(dash.html, "2 technicians.");
    // A surveyor account without a firm record has no crew yet.
    const loose = await createSignedInUser(t, { role: "surveyor" });
    const bare = await loadPage(t, "/surveyor/crew", loose.cookie);
    assertEquals(bare.res.status, 200);
    assertEquals(findIslandProps(bare.html, "TechnicianTeam"), undefined);

    const page = await loadPage(t, `/surveyor/jobs/${f.survey.id}`, f.ortiz.cookie);
    assertEquals(page.res.status, 200);
    const props = islandProps<AssignTechnicianProps>(page.html, "AssignTechnician");
    assertEquals(props.technicians.map((x) => x.name), ["Riley Chen", "Sam Park"]);
    assertEquals(props.technicians.map((x) => x.detail), ["", ""], "their own crew: no firm");
    assertEquals([props.current, props.invitePath], [null, "/surveyor/crew#crew-title"]);

    const admin = await loadPage(t, `/survey/${f.survey.id}`, f.admin.cookie);
    const adminProps = islandProps<AssignTechnicianProps>(admin.html, "AssignTechnician");
    assertEquals(adminProps.technicians.map((x) => x.detail), [
      "Ortiz Surveying",
      "Ortiz Surveying",
      "Meridian staff",
    ]);
    assertEquals(adminProps.invitePath, null);
    // The client's page has no crew form and names no technician.
    await t.request("PATCH", assignPath(f.survey.id), {
      cookie: f.ortiz.cookie,
      body: { technicianId: f.riley.user.id, notes: "Internal: watch the dog" },
    });
    const own = await loadPage(t, `/survey/${f.survey.id}`, f.client.cookie);
    assertEquals(findIslandProps(own.html, "AssignTechnician"), undefined);
    assert(!own.html.includes("watch the dog"), "crew notes are not the client's");
    const after = await loadPage(t, `/survey/${f.survey.id}`, f.admin.cookie);
    const current = islandProps<AssignTechnicianProps>(after.html, "AssignTechnician").current;
    assertEquals(current, {
      technicianId: f.riley.user.id,
      name: "Riley Chen",
      notes: "Internal: watch the dog",
    });
    // A completed survey takes no technician: no form.
    await t.sql`update surveys set status = 'completed' where id = ${f.survey.id}`;
    const closed = await loadPage(t, `/survey/${f.survey.id}`, f.admin.cookie);
    assertEquals(findIslandProps(closed.html, "AssignTechnician"), undefined);
  } finally {
    t.close();
  }
});

test("[technician pages] an offered job has no crew form until the surveyor accepts it", async () => {
  const t = await createTestApp();
  try {
    const client = await createSignedInUser(t, { role: "client" });
    const survey = await submitSurvey(t, client.cookie);
    const firm = await addSurveyor(t, "Barton Creek Surveying");
    await addTechnician(t, firm.surveyor.id, "Bea Barton");
    await t.sql`insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, source)
      values (${survey.id}, ${firm.surveyor.id}, 1000, 'admin')`;
    await t.sql`update surveys set status = 'assigned' where id = ${survey.id}`;
    const offered = await loadPage(t, `/surveyor/jobs/${survey.id}`, firm.cookie);
    assertEquals(offered.res.status, 200);
    assertEquals(findIslandProps(offered.html, "AssignTechnician"), undefined);
    await t.sql`update survey_assignments set status = 'accepted' where survey_id = ${survey.id}`;
    const accepted = await loadPage(t, `/surveyor/jobs/${survey.id}`, firm.cookie);
    const props = islandProps<AssignTechnicianProps>(accepted.html, "AssignTechnician");
    assertEquals(props.technicians.map((x) => x.name), ["Bea Barton"]);
  } finally {
    t.close();
  }
});

test("[technician pages] /admin/technicians: Meridian staff to manage, the firms' crews to see", async () => {
  const t = await createTestApp();
  try {
    const f = await crewFixture(t);
    const { res, html } = await loadPage(t, "/admin/technicians", f.admin.cookie);
    assertEquals(res.status, 200);
    const staff = islandProps<TechnicianTeamProps>(html, "TechnicianTeam");
    assertEquals(staff.members.map((m) => m.fullName), ["Stacy Staff"]);
    assertEquals(staff.surveyorId, null);
    const text = html.replaceAll("<!-- -->", "");
    for (const name of ["Olive Other", "Riley Chen", "Sam Park"]) assertStringIncludes(text, name);
    assertStringIncludes(html, `href="/surveyor-detail/${f.ortiz.surveyor.id}"`);
    const forbidden = await loadPage(t, "/admin/technicians", f.ortiz.cookie);
    assertEquals(forbidden.res.status, 403);
  } finally {
    t.close();
  }
});

test("[technician pages] an empty crew says an invitation is emailed only when a mail server sends it", async () => {
  // The default test app has no SMTP_URL, as a newcomer's Meridian has none.
  for (const smtpUrl of [undefined, "smtp://127.0.0.1:2525"]) {
    const t = await createTestApp(smtpUrl ? { env: { SMTP_URL: smtpUrl } } : {});
    try {
      const firm = await addSurveyor(t, "Lone Surveying");
      const page = await loadPage(t, "/surveyor/crew", firm.cookie);
      assertEquals(page.res.status, 200);
      const team = islandProps<TechnicianTeamProps>(page.html, "TechnicianTeam");
      assertEquals(team.total, 0);
      if (smtpUrl) {
        assertStringIncludes(page.html, "each gets an email to choose a password");
      } else {
        assertEquals(page.html.includes("gets an email"), false, "no email is promised");
        assertStringIncludes(
          page.html,
          "no mail server is configured, so it is not emailed (an administrator can pass its link on)",
        );
      }
    } finally {
      await t.close();
    }
  }
});
