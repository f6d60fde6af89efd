/**
 * Proposals on the pages (issue 22): the buyer's card on the purchased lead's page, the
 * client's comparison on /survey/{id} and the dashboard, the tracker's "Proposals received"
 * step, and what each state says (none, one, three, accepted, declined, withdrawn, cancelled).
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { addBuyer, addPurchase, addSurveyWithLead, type Buyer } from "../_refund_fixtures.ts";
import { todayInUs } from "../../lib/proposal_schema.ts";
import { PROPOSAL_MESSAGES } from "../../lib/proposal_constants.ts";
import type { ProposalFormProps } from "../../islands/ProposalForm.tsx";
import type { SurveyProposalsProps } from "../../islands/SurveyProposals.tsx";
import { ASSIGNED_TO_YOU } from "../../components/Proposals.tsx";

function daysAhead(days: number): string {
  const d = new Date(`${todayInUs()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function setup(buyers: number) {
  const t = await createTestApp();
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const { survey, lead } = await addSurveyWithLead(t, client.cookie);
  await t.sql`update surveys set status = 'surveyors_notified' where id = ${survey.id}`;
  const firms: Buyer[] = [];
  for (const name of ["Alpha Surveying", "Bravo Surveying", "Charlie Surveying"].slice(0, buyers)) {
    const buyer = await addBuyer(t, name);
    await addPurchase(t, lead, buyer);
    firms.push(buyer);
  }
  return { t, client, survey, lead, firms };
}

async function send(t: TestApp, leadId: string, buyer: Buyer, priceCents = 1150_00) {
  const res = await t.request("POST", `/api/purchased-leads/${leadId}/proposal`, {
    cookie: buyer.cookie,
    body: {
      priceCents,
      earliestVisitDate: daysAhead(7),
      turnaroundDays: 5,
      message: "Four corners set, signed plat.",
    },
  });
  return (await expectJson(res, 201)).proposal;
}

/** The tracker's step marked current, as text. */
function currentStep(html: string): string {
  const match = html.match(/aria-current="step"[^>]*>(.*?)<\/li>/s);
  assert(match, "no current step");
  return match[1].replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").trim();
}

test("[proposal pages] the buyer's lead page offers the proposal form instead of 'tell Meridian'", async () => {
  const { t, lead, firms: [alpha] } = await setup(1);
  try {
    const path = `/surveyor/purchased-leads/${lead.id}`;
    const before = await loadPage(t, path, alpha.cookie);
    assertEquals(before.res.status, 200);
    assert(!before.html.includes("tell Meridian"));
    assertStringIncludes(before.html, "Your proposal");
    const props = islandProps<ProposalFormProps>(before.html, "ProposalForm");
    assertEquals([props.leadId, props.proposal, props.closedReason], [lead.id, null, null]);
    assertEquals(props.minDate, todayInUs());
    assertStringIncludes(before.html, "Send proposal");

    await send(t, lead.id, alpha);
    const after = await loadPage(t, path, alpha.cookie);
    const sent = islandProps<ProposalFormProps>(after.html, "ProposalForm");
    assertEquals(sent.proposal?.status, "pending");
    assertStringIncludes(after.html, "Edit proposal");
    assertStringIncludes(after.html, "Withdraw");

    await t.sql`update lead_purchases set refunded_at = now() where lead_id = ${lead.id}`;
    const refunded = islandProps<ProposalFormProps>(
      (await loadPage(t, path, alpha.cookie)).html,
      "ProposalForm",
    );
    assertEquals(refunded.closedReason, PROPOSAL_MESSAGES.refunded);
  } finally {
    t.close();
  }
});

test("[proposal pages] no proposals yet: the client's page says so and the tracker waits at notified", async () => {
  const { t, client, survey } = await setup(1);
  try {
    const { res, html } = await loadPage(t, `/survey/${survey.id}`, client.cookie);
    assertEquals(res.status, 200);
    assertStringIncludes(html, 'id="proposals-title"');
    const props = islandProps<SurveyProposalsProps>(html, "SurveyProposals");
    assertEquals([props.proposals, props.canAnswer], [[], true]);
    assertStringIncludes(html, "No proposals yet.");
    assertStringIncludes(html, "Your instant quote");
    assertStringIncludes(html, "Proposals received");
    assertMatch(currentStep(html), /^Surveyors notified/);
  } finally {
    t.close();
  }
});

test("[proposal pages] three proposals: side by side with the quote, the tracker at 'Proposals received', also on the dashboard", async () => {
  const { t, client, survey, lead, firms } = await setup(3);
  try {
    for (const [i, firm] of firms.entries()) await send(t, lead.id, firm, (1000 + i * 100) * 100);
    const { html } = await loadPage(t, `/survey/${survey.id}`, client.cookie);
    const props = islandProps<SurveyProposalsProps>(html, "SurveyProposals");
    assertEquals(props.proposals.length, 3);
    assertStringIncludes(html, "3 proposals are waiting for your answer.");
    for (const name of ["Alpha Surveying", "Bravo Surveying", "Charlie Surveying"]) {
      assertStringIncludes(html, name);
    }
    assertStringIncludes(html, "$1,000");
    assertStringIncludes(html, "5 business days after the visit");
    assertMatch(currentStep(html), /^Proposals received/);
    assertEquals((html.match(/>Accept<span/g) ?? []).length, 3);

    const dash = await loadPage(t, "/client-dashboard", client.cookie);
    const compact = islandProps<SurveyProposalsProps>(dash.html, "SurveyProposals");
    assertEquals([compact.proposals.length, compact.isCompact], [3, true]);
    assertMatch(currentStep(dash.html), /^Proposals received/);

    // Admins see them, without Accept.
    const admin = await createSignedInUser(t, { role: "admin" });
    const adminPage = await loadPage(t, `/survey/${survey.id}`, admin.cookie);
    assertEquals(
      islandProps<SurveyProposalsProps>(adminPage.html, "SurveyProposals").canAnswer,
      false,
    );
    assert(!adminPage.html.includes(">Accept<span"));
  } finally {
    t.close();
  }
});

test("[proposal pages] accepted, declined and withdrawn each say what is true", async () => {
  const { t, client, survey, lead, firms: [alpha, bravo, charlie] } = await setup(3);
  try {
    const a = await send(t, lead.id, alpha);
    await send(t, lead.id, bravo);
    await send(t, lead.id, charlie);
    await t.request("DELETE", `/api/purchased-leads/${lead.id}/proposal`, {
      cookie: charlie.cookie,
    });
    const accepted = await t.request(
      "POST",
      `/api/surveys/${survey.id}/proposals/${a.id}/accept`,
      { cookie: client.cookie },
    );
    assertEquals(accepted.status, 200);

    const { html } = await loadPage(t, `/survey/${survey.id}`, client.cookie);
    assertStringIncludes(html, "You accepted Alpha Surveying&#x27;s proposal");
    assertStringIncludes(html, "The surveyor withdrew this proposal.");
    assertStringIncludes(html, "Declined: The client accepted another surveyor&#x27;s proposal.");
    assert(!html.includes(">Accept<span"));
    assertMatch(currentStep(html), /^Surveyor assigned/);
    assertMatch(html, /survey-tracker__step--done[^"]*"[^>]*>.*?Proposals received/s);
    // The agreed price says the client accepted the proposal, on the page and the dashboard
    // card alike: Meridian assigned nobody.
    const dashboard = (await loadPage(t, "/client-dashboard", client.cookie)).html;
    for (const page of [html, dashboard]) {
      assertStringIncludes(
        page,
        "the price in Alpha Surveying&#x27;s proposal, which you accepted.",
      );
      assert(!page.includes("Meridian assigned"), "no assignment by Meridian is claimed");
    }

    const winner = islandProps<ProposalFormProps>(
      (await loadPage(t, `/surveyor/purchased-leads/${lead.id}`, alpha.cookie)).html,
      "ProposalForm",
    );
    assertEquals([winner.proposal?.status, winner.closedReason], ["accepted", null]);
    const loserPage = await loadPage(t, `/surveyor/purchased-leads/${lead.id}`, bravo.cookie);
    const loser = islandProps<ProposalFormProps>(loserPage.html, "ProposalForm");
    assertEquals(loser.proposal?.status, "declined");
    assertEquals(loser.closedReason, PROPOSAL_MESSAGES.surveyTaken);
    assertStringIncludes(loserPage.html, "The client declined your proposal");
  } finally {
    t.close();
  }
});

test("[proposal pages] a cancelled survey: its proposals can no longer be accepted", async () => {
  const { t, client, survey, lead, firms: [alpha] } = await setup(1);
  try {
    await send(t, lead.id, alpha);
    const res = await t.request("DELETE", `/api/surveys/${survey.id}`, { cookie: client.cookie });
    assertEquals(res.status, 200);
    const { html } = await loadPage(t, `/survey/${survey.id}`, client.cookie);
    assertStringIncludes(html, "This request was cancelled, so it takes no new proposals");
    assertStringIncludes(html, "Start a new request");
    assert(!html.includes(">Accept<span"));
    const buyer = islandProps<ProposalFormProps>(
      (await loadPage(t, `/surveyor/purchased-leads/${lead.id}`, alpha.cookie)).html,
      "ProposalForm",
    );
    assert(buyer.closedReason !== null);
  } finally {
    t.close();
  }
});

test("[proposal pages] an expired lead: the client is told it is no longer offered (proposals stand), the buyer that nobody else can buy it", async () => {
  const { t, client, survey, lead, firms: [alpha, bravo] } = await setup(2);
  try {
    // Before the window closes, nothing is said about it.
    const open = islandProps<SurveyProposalsProps>(
      (await loadPage(t, `/survey/${survey.id}`, client.cookie)).html,
      "SurveyProposals",
    );
    assertEquals(open.leadExpiredAt, null);
    await send(t, lead.id, alpha);
    await t.sql`update leads set expires_at = now() - interval '1 hour' where id = ${lead.id}`;
    const { html } = await loadPage(t, `/survey/${survey.id}`, client.cookie);
    const props = islandProps<SurveyProposalsProps>(html, "SurveyProposals");
    assert(props.leadExpiredAt, "the page passes when the lead stopped being offered");
    assertStringIncludes(html, "stopped being offered to new surveyors");
    assertStringIncludes(html, "the proposal below still stands");
    assertStringIncludes(html, "Write to Meridian support");
    // The sweep closes it as expired: the same.
    await t.sql`update leads set status = 'closed', closed_reason = 'expired', closed_at = now()
      where id = ${lead.id}`;
    const swept = islandProps<SurveyProposalsProps>(
      (await loadPage(t, `/survey/${survey.id}`, client.cookie)).html,
      "SurveyProposals",
    );
    assertEquals(swept.leadExpiredAt, props.leadExpiredAt);

    // Bravo bought it but has not proposed: they are told the window closed and may still send.
    const bravoPage = await loadPage(t, `/surveyor/purchased-leads/${lead.id}`, bravo.cookie);
    const form = islandProps<ProposalFormProps>(bravoPage.html, "ProposalForm");
    assert(form.leadExpiredAt);
    assertEquals(form.closedReason, null);
    assertStringIncludes(bravoPage.html, "This lead&#x27;s offer window closed on");
    await send(t, lead.id, bravo);
  } finally {
    t.close();
  }
});

test("[proposal pages] the dashboard card of a request whose lead expired unsold says it is no longer offered and to write to support; an open one says nothing of it", async () => {
  const { t, client, survey, lead } = await setup(0);
  try {
    const before = await loadPage(t, "/client-dashboard", client.cookie);
    assertEquals(before.res.status, 200);
    assert(!before.html.includes("stopped being offered"), "an open lead is not called expired");
    assert(!before.html.includes('data-island="SurveyProposals"'), "nothing to compare yet");

    await t.sql`update leads set expires_at = now() - interval '1 hour' where id = ${lead.id}`;
    const { res, html } = await loadPage(t, "/client-dashboard", client.cookie);
    assertEquals(res.status, 200);
    const props = islandProps<SurveyProposalsProps>(html, "SurveyProposals");
    assertEquals(props.surveyId, survey.id);
    assert(props.leadExpiredAt, "the card knows when the lead stopped being offered");
    assertStringIncludes(
      html,
      "stopped being offered to new surveyors on",
    );
    assertStringIncludes(html, "without a proposal. Write to Meridian support");
    assertStringIncludes(html, 'href="/support/contact"');

    // A request no longer waiting for a surveyor (here cancelled) says nothing of the lead.
    await t.sql`update surveys set status = 'cancelled' where id = ${survey.id}`;
    const cancelled = await loadPage(t, "/client-dashboard", client.cookie);
    assert(!cancelled.html.includes("stopped being offered"));
  } finally {
    t.close();
  }
});

test("[proposal pages] a job claimed at the instant quote shows 'No proposals' as a skipped step", async () => {
  const { t, client, survey } = await setup(0);
  try {
    await t.sql`update surveys set status = 'assigned' where id = ${survey.id}`;
    const { html } = await loadPage(t, `/survey/${survey.id}`, client.cookie);
    assertMatch(html, /survey-tracker__step--skipped[^>]*>.*?No proposals.*?\(skipped\)/s);
  } finally {
    t.close();
  }
});

test("[proposal pages] a buyer who claimed the lead is told the job is already theirs", async () => {
  const { t, survey, lead, firms: [alpha] } = await setup(1);
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const res = await t.request("POST", `/api/surveys/${survey.id}/assign/${alpha.surveyorId}`, {
      cookie: admin.cookie,
      body: { agreedPrice: 400 },
    });
    assertEquals(res.status, 201);
    const { html } = await loadPage(t, `/surveyor/purchased-leads/${lead.id}`, alpha.cookie);
    assertEquals(
      islandProps<ProposalFormProps>(html, "ProposalForm").closedReason,
      ASSIGNED_TO_YOU,
    );
  } finally {
    t.close();
  }
});
