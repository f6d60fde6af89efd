/**
 * Proposals end to end (issue 22), keyboard only: a buyer sends a proposal from the purchased
 * lead's page; the client sees it beside the instant quote with a second firm's, accepts one
 * after the confirmation, and the request is assigned to that firm at that price. Both pages
 * at every supported width, with axe reporting nothing, in each state shown.
 */
import type { Page } from "playwright-core";
import { assertEquals, assertMatch } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { checkLayout } from "./_axe.ts";
import { createSignedInUser } from "../_auth.ts";
import { addBuyer, addPurchase, addSurveyWithLead } from "../_refund_fixtures.ts";
import { todayInUs } from "../../lib/proposal_schema.ts";

function daysAhead(days: number): string {
  const d = new Date(`${todayInUs()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function useCookie(page: Page, baseUrl: string, cookie: string) {
  const [name, value] = cookie.split(";")[0].split("=");
  await page.context().addCookies([{ name, value, url: baseUrl }]);
}

async function hydrated(page: Page, island: string) {
  await page.locator(`[data-island="${island}"][data-hydrated]`).first().waitFor();
}

e2e("proposals: a buyer proposes, the client compares and accepts, keyboard only", async (ctx) => {
  const { t, baseUrl } = ctx;
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const { survey, lead } = await addSurveyWithLead(t, client.cookie);
  await t.sql`update surveys set status = 'surveyors_notified' where id = ${survey.id}`;
  const alpha = await addBuyer(t, "Alpha Surveying");
  const bravo = await addBuyer(t, "Bravo Surveying");
  await addPurchase(t, lead, alpha);
  await addPurchase(t, lead, bravo);
  const bravoSent = await t.request("POST", `/api/purchased-leads/${lead.id}/proposal`, {
    cookie: bravo.cookie,
    body: {
      priceCents: 420_00,
      earliestVisitDate: daysAhead(10),
      turnaroundDays: 8,
      message: "Includes corner stakes.",
    },
  });
  assertEquals(bravoSent.status, 201);

  // The buyer: the empty form, then a proposal sent with the keyboard.
  const buyer = await ctx.newPage();
  await useCookie(buyer, baseUrl, alpha.cookie);
  await buyer.goto(`/surveyor/purchased-leads/${lead.id}`);
  await hydrated(buyer, "ProposalForm");
  await checkLayout(buyer, "purchased lead with the proposal form");
  await buyer.setViewportSize({ width: 1280, height: 900 });
  // The earliest visit starts at today; a date field's Tab walks its parts, so each field is
  // focused in turn and typed into, and Enter in a one-line field submits.
  await buyer.getByLabel("Message to the client").focus();
  await buyer.keyboard.type("Corners set and a signed plat. Please have the deed ready.");
  await buyer.getByLabel("Turnaround (business days after the visit)").focus();
  await buyer.keyboard.type("5");
  await buyer.getByLabel("Price (whole dollars)").focus();
  await buyer.keyboard.type("350");
  await buyer.keyboard.press("Enter");
  await buyer.locator(".toast", { hasText: "Proposal sent" }).waitFor();
  const [sent] = await t.sql<{ priceCents: number; date: string }[]>`
    select price_cents, earliest_visit_date::text as date from survey_proposals
    where surveyor_id = ${alpha.surveyorId}`;
  assertEquals(sent.priceCents, 350_00);
  assertMatch(sent.date, /^\d{4}-\d{2}-\d{2}$/);
  await buyer.getByRole("button", { name: "Edit proposal" }).waitFor();
  await checkLayout(buyer, "purchased lead with a pending proposal");

  // The client: both proposals beside the instant quote.
  const page = await ctx.newPage();
  await useCookie(page, baseUrl, client.cookie);
  await page.goto(`/survey/${survey.id}`);
  await hydrated(page, "SurveyProposals");
  await page.getByText("2 proposals are waiting for your answer.").waitFor();
  await checkLayout(page, "the client's request with two proposals");
  await page.setViewportSize({ width: 390, height: 900 });
  await page.getByRole("button", { name: "Accept Alpha Surveying" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await dialog.waitFor();
  await dialog.getByText("The other proposals are declined").waitFor();
  await checkLayout(page, "the accept confirmation");
  // "Not yet" has the focus; Tab reaches "Accept proposal".
  await page.keyboard.press("Tab");
  await Promise.all([
    page.waitForURL(new RegExp(`/survey/${survey.id}$`)),
    page.keyboard.press("Enter"),
  ]);
  await page.locator(".toast", { hasText: "Proposal accepted" }).waitFor();
  await page.getByText("You accepted Alpha Surveying's proposal").waitFor();
  const [row] = await t.sql<{ status: string; assignedSurveyorId: string }[]>`
    select status, assigned_surveyor_id from surveys where id = ${survey.id}`;
  assertEquals([row.status, row.assignedSurveyorId], ["assigned", alpha.surveyorId]);
  await checkLayout(page, "the client's request after accepting");
  assertEquals(ctx.consoleErrors, []);
});

e2e(
  "proposals: the client's request with three proposals, then its lead expired, axe 0 at every width",
  async (ctx) => {
    const { t, baseUrl } = ctx;
    const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
    const { survey, lead } = await addSurveyWithLead(t, client.cookie);
    await t.sql`update surveys set status = 'surveyors_notified' where id = ${survey.id}`;
    const firms = [];
    for (const [i, name] of ["Alpha Surveying", "Bravo Surveying", "Charlie Surveying"].entries()) {
      const firm = await addBuyer(t, name);
      await addPurchase(t, lead, firm);
      const sent = await t.request("POST", `/api/purchased-leads/${lead.id}/proposal`, {
        cookie: firm.cookie,
        body: {
          priceCents: (380 + i * 25) * 100,
          earliestVisitDate: daysAhead(3 + i * 4),
          turnaroundDays: 4 + i * 3,
          message: `Proposal ${i + 1}: field visit, corners and a sealed plat.`,
        },
      });
      assertEquals(sent.status, 201);
      firms.push(firm);
    }
    // The third firm is paused after proposing: named without a link to a page that is a 404.
    await t.sql`update surveyors set status = 'paused' where id = ${firms[2].surveyorId}`;

    const page = await ctx.newPage();
    await useCookie(page, baseUrl, client.cookie);
    await page.goto(`/survey/${survey.id}`);
    await hydrated(page, "SurveyProposals");
    await page.getByText("3 proposals are waiting for your answer.").waitFor();
    assertEquals(await page.getByRole("link", { name: "Charlie Surveying" }).count(), 0);
    assertEquals(await page.getByRole("button", { name: /^Accept/ }).count(), 3);
    await checkLayout(page, "the client's request with three proposals");

    await t.sql`update leads set expires_at = now() - interval '1 hour' where id = ${lead.id}`;
    await page.goto(`/survey/${survey.id}`);
    await hydrated(page, "SurveyProposals");
    await page.getByText("the 3 proposals below still stand", { exact: false }).waitFor();
    await checkLayout(page, "the client's request with three proposals after its lead expired");
  },
);
