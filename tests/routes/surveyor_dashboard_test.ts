/**
 * The surveyor dashboard (routes/surveyor_dashboard.tsx): who may open it, the figures a
 * surveyor sees for their own purchases and assignments (this month against older, won and
 * lost, open assignments with their next step, the balance), the newest leads near them, and
 * the honest states of an account without a record, waiting for its licence check, or paused.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { ROLES } from "../_fixtures.ts";
import {
  assertForbiddenPage,
  assertHtml,
  assertRedirectsToAuth,
  getPage,
  pageText,
} from "../_pages.ts";
import { addLead, addMarketSurveyor } from "../_lead_fixtures.ts";
import { postLedgerEntry } from "../../db/ledger.ts";
import { getSurveyorDashboardFigures } from "../../db/surveyor_dashboard.ts";
import { DASHBOARD_LEADS_SHOWN, nextStep, winRate } from "../../routes/surveyor_dashboard.tsx";
import type { PipelineStatus } from "../../lib/lead_market_schema.ts";

const PATH = "/surveyor-dashboard";

async function requestWithLead(t: TestApp, overrides: Record<string, unknown> = {}) {
  return await addLead(t, await signInAs(t, "client"), { overrides });
}

/** A purchase as buying does it (row, ledger debit), `daysAgo` in the past. */
async function seedPurchase(
  t: TestApp,
  { surveyorId, leadId, chargedCents = 2500, daysAgo = 0, pipelineStatus = "new" }: {
    surveyorId: string;
    leadId: string;
    chargedCents?: number;
    daysAgo?: number;
    pipelineStatus?: PipelineStatus;
  },
): Promise<string> {
  return await t.sql.begin(async (tx) => {
    const [row] = await tx<{ id: string }[]>`
      insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents, pipeline_status,
        created_at)
      values (${leadId}, ${surveyorId}, 'buy', ${chargedCents}, ${pipelineStatus},
        now() - make_interval(days => ${daysAgo}::int))
      returning id`;
    await postLedgerEntry(tx, {
      surveyorId,
      kind: "lead_purchase",
      amountCents: -chargedCents,
      leadPurchaseId: row.id,
    });
    await tx`update leads set buyers_count = buyers_count + 1 where id = ${leadId}`;
    return row.id;
  });
}

async function assign(
  t: TestApp,
  { surveyId, surveyorId, status, scheduledDate = null, cents = 40_000, minutesAgo = 0 }: {
    surveyId: string;
    surveyorId: string;
    status: string;
    scheduledDate?: string | null;
    cents?: number;
    /** How long ago it was made (the clock may not tell two inserts apart). */
    minutesAgo?: number;
  },
) {
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source,
      scheduled_date, created_at)
    values (${surveyId}, ${surveyorId}, ${cents}, ${status}, 'admin', ${scheduledDate},
      now() - make_interval(mins => ${minutesAgo}::int))`;
}

function figure(html: string, testId: string): string {
  const match = html.match(new RegExp(`data-testid="${testId}">([^<]*)<`));
  assert(match, `figure ${testId} on the page`);
  return match[1];
}

test("[surveyor dashboard] only surveyors open it", async () => {
  const t = await createTestApp();
  await assertRedirectsToAuth(await getPage(t, PATH), PATH);
  for (const role of ROLES.filter((r) => r !== "surveyor")) {
    await assertForbiddenPage(await getPage(t, PATH, await signInAs(t, role)), role);
  }
  t.close();
});

test("[surveyor dashboard] the figures count this month's purchases, won and lost, open jobs and the balance", async () => {
  const t = await createTestApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", { balanceCents: 100_000 });
  const other = await addMarketSurveyor(t, "Other Surveying", { balanceCents: 100_000 });
  const leads = [];
  for (let i = 0; i < 6; i++) leads.push(await requestWithLead(t));
  // This month: two purchases ($25 won, $30 new) and one refunded ($40).
  await seedPurchase(t, {
    surveyorId: me.surveyor.id,
    leadId: leads[0].lead.id,
    pipelineStatus: "won",
  });
  await seedPurchase(t, {
    surveyorId: me.surveyor.id,
    leadId: leads[1].lead.id,
    chargedCents: 3000,
  });
  const refunded = await seedPurchase(t, {
    surveyorId: me.surveyor.id,
    leadId: leads[2].lead.id,
    chargedCents: 4000,
    pipelineStatus: "lost",
  });
  await t.sql.begin(async (tx) => {
    await postLedgerEntry(tx, {
      surveyorId: me.surveyor.id,
      kind: "refund",
      amountCents: 4000,
      leadPurchaseId: refunded,
    });
    await tx`update lead_purchases set refunded_at = now() where id = ${refunded}`;
  });
  // Older (40 days ago is always before the first of this month): won, lost.
  await seedPurchase(t, {
    surveyorId: me.surveyor.id,
    leadId: leads[3].lead.id,
    daysAgo: 40,
    pipelineStatus: "won",
  });
  await seedPurchase(t, {
    surveyorId: me.surveyor.id,
    leadId: leads[4].lead.id,
    daysAgo: 40,
    pipelineStatus: "won",
  });
  // Another surveyor's purchase and job count for them only.
  await seedPurchase(t, {
    surveyorId: other.surveyor.id,
    leadId: leads[0].lead.id,
    pipelineStatus: "lost",
  });
  await assign(t, {
    surveyId: leads[5].survey.id,
    surveyorId: other.surveyor.id,
    status: "offered",
  });
  // My jobs: offered and scheduled are in progress; a completed one is not.
  await assign(t, {
    surveyId: leads[0].survey.id,
    surveyorId: me.surveyor.id,
    status: "offered",
    cents: 41_000,
    minutesAgo: 10,
  });
  await assign(t, {
    surveyId: leads[3].survey.id,
    surveyorId: me.surveyor.id,
    status: "scheduled",
    scheduledDate: "2099-12-03",
  });
  await assign(t, {
    surveyId: leads[4].survey.id,
    surveyorId: me.surveyor.id,
    status: "completed",
  });

  const figures = await getSurveyorDashboardFigures(t.sql, { surveyorId: me.surveyor.id });
  assertEquals(
    { ...figures, jobs: figures?.jobs.map((j) => [j.status, j.leadId, j.scheduledDate]) },
    {
      status: "active",
      verifiedAt: figures!.verifiedAt,
      // 1,000 − 25 − 30 − 40 + 40 − 25 − 25
      balanceCents: 100_000 - 2500 - 3000 - 4000 + 4000 - 2500 - 2500,
      leadsThisMonth: 3,
      spentThisMonthCents: 5500,
      won: 3,
      lost: 1,
      openJobs: 2,
      crewTotal: 0,
      jobs: [
        ["scheduled", leads[3].lead.id, "2099-12-03"],
        ["offered", leads[0].lead.id, null],
      ],
    },
  );
  assert(figures!.verifiedAt, "verified");
  // The dashboard reads them by the account, without reading the record first.
  assertEquals(await getSurveyorDashboardFigures(t.sql, { userId: me.userId! }), figures);

  const res = await getPage(t, PATH, me.cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  const html = await pageText(res);
  assertEquals(figure(html, "balance"), "$895");
  assertEquals(figure(html, "leads-this-month"), "3");
  assertStringIncludes(html, "$55 spent");
  assertEquals(figure(html, "win-rate"), "75%");
  assertStringIncludes(html, "3 won, 1 lost");
  assertEquals(figure(html, "open-jobs"), "2");
  assertMatch(html, /href="\/surveyor\/billing"/);
  // Jobs in progress with their next step, linked to the job's page.
  assertStringIncludes(html, "Accept or decline");
  assertStringIncludes(html, "Visit on Dec 3, 2099");
  assertStringIncludes(html, `href="/surveyor/jobs/${leads[0].survey.id}"`);
  assertStringIncludes(html, `href="/surveyor/jobs/${leads[3].survey.id}"`);
  assertStringIncludes(html, "agreed $410");
  assert(!html.includes("Schedule the visit"), "no accepted job");
  // Settings have their own pages: the dashboard links to them instead of holding their forms.
  assert(!html.includes('data-island="SurveyorCoverageForm"'), "no coverage form");
  assert(!html.includes('data-island="TechnicianTeam"'), "no crew form");
  assertStringIncludes(html, 'href="/profile#coverage-heading"');
  assertStringIncludes(html, 'href="/surveyor/crew"');
  t.close();
});

test("[surveyor dashboard] new leads near you: the count and the newest few, linked", async () => {
  const t = await createTestApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", { balanceCents: 10_000 });
  const open = [];
  for (let i = 0; i < DASHBOARD_LEADS_SHOWN + 1; i++) {
    const made = await requestWithLead(t);
    // Posted a minute apart, oldest first (the clock may not tell two inserts apart).
    await t.sql`
      update leads set created_at = now() - make_interval(mins => ${60 - i}::int)
      where id = ${made.lead.id}`;
    open.push(made);
  }
  const bought = await requestWithLead(t);
  await seedPurchase(t, { surveyorId: me.surveyor.id, leadId: bought.lead.id });

  const html = await pageText(await getPage(t, PATH, me.cookie));
  assertEquals(figure(html, "new-leads-count"), String(DASHBOARD_LEADS_SHOWN + 1));
  assertStringIncludes(html, `${DASHBOARD_LEADS_SHOWN + 1} open leads match your coverage.`);
  const links = [...html.matchAll(/href="\/surveyor\/leads\/([0-9a-f-]+)"/g)].map((m) => m[1]);
  // The newest five, newest first; the oldest and the bought one are not listed.
  assertEquals(links, open.slice(1).reverse().map((l) => l.lead.id));
  // No personal data of a lead not bought.
  assert(!html.includes("Dana Client"), "no client name");
  assert(!html.includes("Barton Springs"), "no street");
  // Nothing decided yet: no win rate.
  assertEquals(figure(html, "win-rate"), "—");
  assertStringIncludes(html, "Mark your leads won or lost to see it");
  assertStringIncludes(html, "No jobs assigned to you.");
  t.close();
});

test("[surveyor dashboard] no record, licence check pending, paused: each says so and lists no leads", async () => {
  const t = await createTestApp();
  await requestWithLead(t);
  const { cookie: noRecord } = await createSignedInUser(t, { role: "surveyor" });
  const pending = await addMarketSurveyor(t, "Pending Surveying", { status: "pending" });
  const paused = await addMarketSurveyor(t, "Paused Surveying", { status: "paused" });
  const cases = [
    { cookie: noRecord, text: "Your surveyor profile is not set up yet.", figures: false },
    { cookie: pending.cookie, text: "Your licence is being checked.", figures: true },
    { cookie: paused.cookie, text: "Your account is paused.", figures: true },
  ];
  for (const { cookie, text, figures } of cases) {
    const res = await getPage(t, PATH, cookie);
    assertEquals(res.status, 200, text);
    const html = await pageText(res);
    assertStringIncludes(html, text);
    assert(!html.includes("/surveyor/leads/"), `${text}: no lead listed`);
    assert(!html.includes("open leads match"), `${text}: no lead count`);
    assertEquals(html.includes('data-testid="balance"'), figures, `${text}: figures`);
    assertStringIncludes(html, "Coverage and profile");
  }
  t.close();
});

test("[surveyor dashboard] an account missing its company or phone is asked for them", async () => {
  const t = await createTestApp();
  const bare = await signInAs(t, { role: "surveyor" });
  assertStringIncludes(
    await pageText(await getPage(t, PATH, bare)),
    "Add your company and phone number so clients and our team can reach you.",
  );
  const complete = await signInAs(t, { role: "surveyor", companyName: "Acme", phone: "555-0100" });
  assert(!(await pageText(await getPage(t, PATH, complete))).includes("Add your"));
  t.close();
});

test("[surveyor dashboard] win rate and next steps in words", () => {
  assertEquals(winRate({ won: 0, lost: 0 }), "—");
  assertEquals(winRate({ won: 2, lost: 1 }), "67%");
  assertEquals(winRate({ won: 0, lost: 3 }), "0%");
  assertEquals(nextStep({ status: "offered", scheduledDate: null }), "Accept or decline");
  assertEquals(nextStep({ status: "accepted", scheduledDate: null }), "Schedule the visit");
  assertEquals(
    nextStep({ status: "scheduled", scheduledDate: "2026-12-03" }),
    "Visit on Dec 3, 2026",
  );
});
