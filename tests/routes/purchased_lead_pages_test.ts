/**
 * The surveyor's purchased leads (routes/purchased_lead_pages.tsx): /surveyor/purchased-leads
 * (everything unlocked, newest first, filtered by pipeline status, paginated) and
 * /surveyor/purchased-leads/{id} (the lead in full with the pipeline form, returns and the
 * assignment): who may open them, own versus another surveyor's lead, and what each shows.
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
  islandProps,
  pageText,
} from "../_pages.ts";
import { addLead, addMarketSurveyor } from "../_lead_fixtures.ts";
import { postLedgerEntry } from "../../db/ledger.ts";
import { PURCHASED_PAGE_SIZE } from "../../routes/purchased_lead_pages.tsx";
import type { PipelineFormProps } from "../../islands/PipelineForm.tsx";
import type { AssignmentActionsProps } from "../../islands/AssignmentActions.tsx";
import type { RefundRequestFormProps } from "../../islands/RefundRequestForm.tsx";
import type { PipelineStatus } from "../../lib/lead_market_schema.ts";

const UNKNOWN = "0b6c1f8e-2f43-4c8a-9d1e-5a7b3c2d1e0f";
const LIST = "/surveyor/purchased-leads";

/** A client's request (fixture values plus `overrides`) and its open lead. */
async function requestWithLead(t: TestApp, overrides: Record<string, unknown> = {}) {
  const client = await signInAs(t, "client");
  return await addLead(t, client, { overrides });
}

/**
 * A purchase stored as buying or claiming does it (the row, the charge through the ledger, the
 * place counted), `daysAgo` in the past.
 */
async function seedPurchase(
  t: TestApp,
  { surveyorId, leadId, kind = "buy", chargedCents = 2500, daysAgo = 0, pipelineStatus = "new" }: {
    surveyorId: string;
    leadId: string;
    kind?: "buy" | "claim";
    chargedCents?: number;
    daysAgo?: number;
    pipelineStatus?: PipelineStatus;
  },
): Promise<string> {
  return await t.sql.begin(async (tx) => {
    const [row] = await tx<{ id: string }[]>`
      insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents, pipeline_status,
        created_at)
      values (${leadId}, ${surveyorId}, ${kind}, ${chargedCents}, ${pipelineStatus},
        now() - make_interval(days => ${daysAgo}::int))
      returning id`;
    if (chargedCents > 0) {
      await postLedgerEntry(tx, {
        surveyorId,
        kind: kind === "buy" ? "lead_purchase" : "claim_fee",
        amountCents: -chargedCents,
        leadPurchaseId: row.id,
      });
    }
    await tx`update leads set buyers_count = buyers_count + 1 where id = ${leadId}`;
    return row.id;
  });
}

test("[purchased leads] the pages are for surveyors only", async () => {
  const t = await createTestApp();
  const { lead } = await requestWithLead(t);
  const paths = [LIST, `${LIST}?status=won&page=2`, `${LIST}/${lead.id}`];
  for (const path of paths) await assertRedirectsToAuth(await getPage(t, path), path);
  for (const role of ROLES.filter((r) => r !== "surveyor")) {
    const cookie = await signInAs(t, role);
    for (const path of paths) {
      const html = await assertForbiddenPage(await getPage(t, path, cookie), `${role} ${path}`);
      assert(!html.includes("Dana Client"), `${role} sees no client on ${path}`);
    }
  }
  t.close();
});

test("[purchased leads] the list shows everything unlocked of the surveyor's own leads, newest first", async () => {
  const t = await createTestApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", { balanceCents: 50_000 });
  const other = await addMarketSurveyor(t, "Other Surveying", { balanceCents: 50_000 });
  const older = await requestWithLead(t, {
    contactName: "Olive Older",
    contactPhone: "(512) 555-0111",
    contactEmail: "olive@older.example",
  });
  const newer = await requestWithLead(t, {
    surveyType: "topographic",
    contactName: "Nora Newer",
    contactPhone: "(512) 555-0122",
    contactEmail: undefined,
    address: "88 Rainey St, Austin, TX 78701",
    formattedAddress: "88 Rainey St, Austin, TX 78701, USA",
  });
  const theirs = await requestWithLead(t, { contactName: "Theo Theirs" });
  await seedPurchase(t, { surveyorId: me.surveyor.id, leadId: older.lead.id, daysAgo: 2 });
  await seedPurchase(t, {
    surveyorId: me.surveyor.id,
    leadId: newer.lead.id,
    kind: "claim",
    chargedCents: 0,
    pipelineStatus: "contacted",
  });
  await seedPurchase(t, { surveyorId: other.surveyor.id, leadId: theirs.lead.id });

  const res = await getPage(t, LIST, me.cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const html = await pageText(res);
  assertStringIncludes(html, "2 leads");
  // Newest purchase first.
  assert(html.indexOf("Nora Newer") < html.indexOf("Olive Older"), "newest first");
  // Contact links and the exact address with a maps link.
  assertStringIncludes(html, 'href="tel:5125550111"');
  assertStringIncludes(html, "(512) 555-0111");
  assertStringIncludes(html, 'href="mailto:olive@older.example"');
  assertStringIncludes(html, "1200 Barton Springs Rd, Austin, TX 78704, USA");
  assertStringIncludes(
    html,
    `href="https://www.google.com/maps/search/?api=1&amp;query=${
      encodeURIComponent("88 Rainey St, Austin, TX 78701, USA")
    }"`,
  );
  // Type, quote, what was paid, pipeline status, the link to the lead's page.
  assertStringIncludes(html, "Topographic Survey");
  assertStringIncludes(html, `Bought for $25`);
  assertStringIncludes(html, "Claimed without a fee (welcome lead)");
  assertStringIncludes(html, `$${(older.survey.quotedPriceCents! / 100).toLocaleString("en-US")}`);
  assertMatch(html, /badge badge--info">Contacted</);
  assertStringIncludes(html, `href="${LIST}/${newer.lead.id}"`);
  // Another surveyor's purchase is not among them.
  assert(!html.includes("Theo Theirs"), "no other surveyor's client");
  assert(!html.includes(theirs.lead.id), "no other surveyor's lead");
  t.close();
});

test("[purchased leads] the list filters by pipeline status and pages through", async () => {
  const t = await createTestApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", { balanceCents: 100_000 });
  const statuses: PipelineStatus[] = ["won", "lost", "new"];
  const names: string[] = [];
  for (let i = 0; i < PURCHASED_PAGE_SIZE + 2; i++) {
    const name = `Client Number${String.fromCharCode(65 + i)}`;
    names.push(name);
    const { lead } = await requestWithLead(t, { contactName: name });
    await seedPurchase(t, {
      surveyorId: me.surveyor.id,
      leadId: lead.id,
      daysAgo: PURCHASED_PAGE_SIZE + 2 - i,
      pipelineStatus: statuses[i % 3],
    });
  }
  // Page 1: the ten newest; page 2: the two oldest.
  const first = await pageText(await getPage(t, LIST, me.cookie));
  assertStringIncludes(first, `${PURCHASED_PAGE_SIZE + 2} leads`);
  assertStringIncludes(first, "Page 1 of 2");
  assert(first.includes(names.at(-1)!) && !first.includes(names[0] + "<"), "newest on page 1");
  assertStringIncludes(first, `href="${LIST}?page=2"`);
  const second = await pageText(await getPage(t, `${LIST}?page=2`, me.cookie));
  assertStringIncludes(second, names[0]);
  assertStringIncludes(second, names[1]);
  assertEquals((second.match(/class="purchased-card"/g) ?? []).length, 2);

  // Filtered: only the won ones (i = 0, 3, 6, 9), the filter link marked.
  const won = await pageText(await getPage(t, `${LIST}?status=won`, me.cookie));
  assertStringIncludes(won, "4 leads marked won");
  assertEquals((won.match(/class="purchased-card"/g) ?? []).length, 4);
  for (const i of [0, 3, 6, 9]) assertStringIncludes(won, names[i]);
  for (const i of [1, 2, 4]) assert(!won.includes(`${names[i]}<`), `${names[i]} is not won`);
  assertMatch(won, /href="\/surveyor\/purchased-leads\?status=won" aria-current="page"/);
  // A status nobody has: its own empty state, with the way back.
  const quoted = await pageText(await getPage(t, `${LIST}?status=quoted`, me.cookie));
  assertStringIncludes(quoted, "No leads marked quoted");
  assertStringIncludes(quoted, `href="${LIST}"`);
  // A filter or page that makes no sense is ignored, never an error page.
  const odd = await getPage(t, `${LIST}?status=bogus&page=-3`, me.cookie);
  assertEquals(odd.status, 200);
  assertStringIncludes(await pageText(odd), "Page 1 of 2");
  t.close();
});

test("[purchased leads] nothing bought yet, or no record: the empty state links to /leads", async () => {
  const t = await createTestApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying");
  const bare = await signInAs(t, "surveyor");
  for (const cookie of [me.cookie, bare]) {
    const res = await getPage(t, LIST, cookie);
    assertEquals(res.status, 200);
    const html = await pageText(res);
    assertStringIncludes(html, "No purchased leads yet");
    assertMatch(html, /href="\/leads"[^>]*>Browse available leads</);
  }
  t.close();
});

test("[purchased leads] another surveyor's lead, one only offered, or an unknown id is the 404 page", async () => {
  const t = await createTestApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", { balanceCents: 10_000 });
  const other = await addMarketSurveyor(t, "Other Surveying", { balanceCents: 10_000 });
  const { lead } = await requestWithLead(t, { contactName: "Priya Private" });
  const notBought = await requestWithLead(t, { contactName: "Ned Notbought" });
  await seedPurchase(t, { surveyorId: me.surveyor.id, leadId: lead.id });
  const { cookie: noRecord } = await createSignedInUser(t, { role: "surveyor" });

  const cases = [
    { cookie: other.cookie, path: `${LIST}/${lead.id}` },
    { cookie: noRecord, path: `${LIST}/${lead.id}` },
    { cookie: me.cookie, path: `${LIST}/${notBought.lead.id}` },
    { cookie: me.cookie, path: `${LIST}/${UNKNOWN}` },
    { cookie: me.cookie, path: `${LIST}/not-a-uuid` },
  ];
  for (const { cookie, path } of cases) {
    const res = await getPage(t, path, cookie);
    assertEquals(res.status, 404, path);
    assertHtml(res);
    const html = await pageText(res);
    assertStringIncludes(html, "Lead not found", path);
    for (const secret of ["Priya Private", "Ned Notbought", "555-0100", "Barton Springs"]) {
      assert(!html.includes(secret), `${path} shows nothing of the lead (${secret})`);
    }
  }
  // The buyer opens it.
  assertEquals((await getPage(t, `${LIST}/${lead.id}`, me.cookie)).status, 200);
  t.close();
});

test("[purchased leads] the lead's page has the client, the full request, the quote, the charge and the pipeline form", async () => {
  const t = await createTestApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", {
    balanceCents: 10_000,
    surveyTypes: ["boundary", "alta"],
  });
  const { survey, lead } = await requestWithLead(t, {
    surveyType: "alta",
    altaItems: ["1", "4"],
    neededBy: "2099-05-01",
    rush: "expedited",
    accessNotes: "Gate code 4321",
    notes: "Dog in the yard",
    purpose: "buying",
  });
  await seedPurchase(t, {
    surveyorId: me.surveyor.id,
    leadId: lead.id,
    chargedCents: 3_500,
    pipelineStatus: "quoted",
  });
  await t.sql`update lead_purchases set pipeline_note = 'Called Monday' where lead_id = ${lead.id}`;

  const res = await getPage(t, `${LIST}/${lead.id}`, me.cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  const html = await pageText(res);
  assertStringIncludes(html, "<h1>ALTA/NSPS Survey</h1>");
  // The client and the exact address.
  assertStringIncludes(html, "Dana Client");
  assertStringIncludes(html, 'href="tel:5125550100"');
  assertStringIncludes(html, 'href="mailto:dana@example.test"');
  assertStringIncludes(html, "1200 Barton Springs Rd, Austin, TX 78704, USA");
  assertStringIncludes(html, "https://www.google.com/maps/search/?api=1&amp;query=");
  // The request in full.
  for (
    const text of [
      "Gate code 4321",
      "Dog in the yard",
      "Buying",
      "May 1, 2099",
      "Expedited",
      "ALTA Table A items",
      "1. ",
      "4. ",
      "Flat",
      "Light",
    ]
  ) assertStringIncludes(html, text);
  // The quote breakdown and what was paid.
  assertStringIncludes(html, "The client&#x27;s quote breakdown");
  assertStringIncludes(html, `$${(survey.quotedPriceCents! / 100).toLocaleString("en-US")}`);
  assertMatch(html, /data-testid="charged">Bought for \$35</);
  // The pipeline form with the purchase's own status and note.
  assertEquals(islandProps<PipelineFormProps>(html, "PipelineForm"), {
    leadId: lead.id,
    pipelineStatus: "quoted",
    pipelineNote: "Called Monday",
  });
  // Not assigned yet, and a return can be asked for.
  assertStringIncludes(html, "Not assigned yet.");
  const returns = islandProps<RefundRequestFormProps>(html, "RefundRequestForm");
  assertEquals({ ...returns, purchasedAt: "", now: "" }, {
    leadId: lead.id,
    chargedCents: 3_500,
    purchasedAt: "",
    refundedAt: null,
    request: null,
    now: "",
    blocked: null,
  });
  assertMatch(html, /<button[^>]*>Request a return</);
  t.close();
});

test("[purchased leads] a return is not offered for a free claim, after 14 days, once refunded or requested, and the page says why", async () => {
  const t = await createTestApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", { balanceCents: 10_000 });
  const free = await requestWithLead(t);
  const old = await requestWithLead(t);
  const refunded = await requestWithLead(t);
  const pending = await requestWithLead(t);
  const denied = await requestWithLead(t);
  for (const [made, status] of [[pending, "pending"], [denied, "denied"]] as const) {
    const purchaseId = await seedPurchase(t, { surveyorId: me.surveyor.id, leadId: made.lead.id });
    await t.sql`
      insert into lead_refund_requests (lead_purchase_id, reason, note, status)
      values (${purchaseId}, 'invalid_contact', 'The number is disconnected', ${status})`;
  }
  await seedPurchase(t, {
    surveyorId: me.surveyor.id,
    leadId: free.lead.id,
    kind: "claim",
    chargedCents: 0,
  });
  await seedPurchase(t, { surveyorId: me.surveyor.id, leadId: old.lead.id, daysAgo: 15 });
  const refundedId = await seedPurchase(t, {
    surveyorId: me.surveyor.id,
    leadId: refunded.lead.id,
  });
  await t.sql.begin(async (tx) => {
    await postLedgerEntry(tx, {
      surveyorId: me.surveyor.id,
      kind: "refund",
      amountCents: 2500,
      leadPurchaseId: refundedId,
    });
    await tx`update lead_purchases set refunded_at = now() where id = ${refundedId}`;
  });

  const reasons = [
    [free.lead.id, "This lead was a free welcome claim, so there is nothing to return."],
    [old.lead.id, "Returns can be requested within 14 days of buying a lead"],
    [refunded.lead.id, "Returned: $25.00 went back to your balance on "],
    [pending.lead.id, "Return requested (Invalid contact details). An admin will decide"],
    [denied.lead.id, "Your return request was denied."],
  ];
  for (const [id, reason] of reasons) {
    const html = await pageText(await getPage(t, `${LIST}/${id}`, me.cookie));
    assertStringIncludes(html, reason, id);
    assert(!/<button[^>]*>Request a return</.test(html), `${id}: no way to ask for a return`);
  }
  const list = await pageText(await getPage(t, LIST, me.cookie));
  assertMatch(list, /badge badge--neutral">Refunded</);
  t.close();
});

test("[purchased leads] once assigned, the lead shows the agreed price, status and visit day", async () => {
  const t = await createTestApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", { balanceCents: 10_000 });
  const { survey, lead } = await requestWithLead(t);
  await seedPurchase(t, { surveyorId: me.surveyor.id, leadId: lead.id });
  await t.sql`
    insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source,
      scheduled_date)
    values (${survey.id}, ${me.surveyor.id}, 45000, 'scheduled', 'admin', '2099-12-03')`;

  const html = await pageText(await getPage(t, `${LIST}/${lead.id}`, me.cookie));
  // The assignment's actions, for this surveyor's moves from "scheduled".
  const actions = islandProps<AssignmentActionsProps>(html, "AssignmentActions");
  assertEquals(
    { ...actions, minDate: "" },
    {
      role: "surveyor",
      surveyId: survey.id,
      surveyorId: me.surveyor.id,
      status: "scheduled",
      scheduledDate: "2099-12-03",
      agreedPriceCents: 45000,
      // Rebooking only: the job completes with the survey's delivery (issue 12), not by hand.
      allowed: ["scheduled"],
      minDate: "",
    },
  );
  assertStringIncludes(html, "Agreed price $450");
  assertStringIncludes(html, "Dec 3, 2099");
  assertStringIncludes(html, "By Meridian, ");
  assert(!html.includes("Not assigned yet."), "the assignment replaces the note");
  const list = await pageText(await getPage(t, LIST, me.cookie));
  assertStringIncludes(list, "Assignment: Scheduled");
  assertStringIncludes(list, "Dec 3, 2099");
  t.close();
});

// Issue 21: the buy dialog and the lead email promise the client's email, yet a request sent
// without a contact email showed "Not given" although the client's account has one.
test("[purchased leads] a bought lead shows the client's account email when the request gave none", async () => {
  const t = await createTestApp();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", { balanceCents: 10_000 });
  const client = await createSignedInUser(t, { role: "client", email: "acct.owner@example.test" });
  const { lead } = await addLead(t, client.cookie, { overrides: { contactEmail: "" } });
  const [{ contact }] = await t.sql<{ contact: string | null }[]>`
    select s.contact_email as contact from surveys s join leads l on l.survey_id = s.id
    where l.id = ${lead.id}`;
  assertEquals(contact ?? "", "", "the request itself holds no email");
  await seedPurchase(t, { surveyorId: me.surveyor.id, leadId: lead.id });

  const html = await pageText(await getPage(t, `${LIST}/${lead.id}`, me.cookie));
  assertStringIncludes(html, 'href="mailto:acct.owner@example.test"');
  assert(!html.includes("Not given</span>"), "the email is given");
  const list = await pageText(await getPage(t, LIST, me.cookie));
  assertStringIncludes(list, "acct.owner@example.test");
  t.close();
});
