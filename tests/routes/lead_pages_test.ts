/**
 * The surveyor's lead pages (routes/lead_pages.tsx): /leads and /surveyor/available-leads
 * (the same list, filters from the address, the map) and /surveyor/leads/{id} (the lead in
 * full before buying, with its actions): who may open them, the honest empty states, and the
 * personal-data rule on the HTML — nothing that names or reaches the client before a purchase.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { ROLES } from "../_fixtures.ts";
import {
  assertForbiddenPage,
  assertHtml,
  assertRedirectsToAuth,
  getPage,
  islandProps,
  loadPage,
  pageText,
} from "../_pages.ts";
import { addLead, addMarketSurveyor, north, SITE } from "../_lead_fixtures.ts";
import { buyLead, LEADS_PAGE_SIZE, listAvailableLeads } from "../../db/lead_market.ts";
import { insertLeadRecipients } from "../../db/leads.ts";
import AvailableLeads, { type AvailableLeadsProps } from "../../islands/AvailableLeads.tsx";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type { LeadActionsProps } from "../../islands/LeadActions.tsx";
import { makeOlder } from "../_row_order.ts";

const UNKNOWN = "0b6c1f8e-2f43-4c8a-9d1e-5a7b3c2d1e0f";

// Distinctive personal data on the request: none of it may reach a surveyor who has not
// bought the lead, in the page text or in an island's props.
const PRIVATE = {
  contactName: "Zebediah Quartermaine",
  contactPhone: "(512) 555-0199",
  contactEmail: "zebediah.q@private.example",
  address: "7319 Wildflower Hollow Ln, Austin, TX 78704",
  formattedAddress: "7319 Wildflower Hollow Ln, Austin, TX 78704, USA",
  accessNotes: "Lockbox code 8812",
  notes: "Neighbour disputes the east fence",
};

/** Each private value, as the HTML could spell it, and where it would come from. */
function privateLeaks(html: string): string[] {
  const text = html.replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
  const leaks: string[] = [];
  for (
    const fragment of [
      "Zebediah",
      "Quartermaine",
      "555-0199",
      "5550199",
      "zebediah.q",
      "private.example",
      "Wildflower",
      "Lockbox",
      "Neighbour",
      // The exact point: only the rounded one may be shown.
      String(SITE.lat),
      String(SITE.lng),
    ]
  ) {
    if (text.includes(fragment)) leaks.push(fragment);
  }
  // The street number and the lockbox code as numbers of their own (not a digit run inside a
  // map path, an id or an asset's hashed name).
  if (/(?<![\d.])7319(?![\d.])/.test(text)) leaks.push("7319");
  if (/(?<![\w.-])8812(?![\w.-])/.test(text)) leaks.push("8812");
  return leaks;
}

/** A client, an eligible surveyor 5 miles north of the site with $100, and a lead at the site. */
async function market(
  t: TestApp,
  { overrides = {} }: { overrides?: Record<string, unknown> } = {},
) {
  const client = await signInAs(t, "client");
  const buyer = await addMarketSurveyor(t, "Barton Creek Surveying", {
    balanceCents: 100_00,
    surveyTypes: ["boundary", "topographic"],
  });
  const { survey, lead } = await addLead(t, client, { overrides: { ...PRIVATE, ...overrides } });
  return { client, buyer, survey, lead };
}

/** The ids of the lead cards the list shows, in order. */
function listedLeadIds(html: string): string[] {
  return [...html.matchAll(/<article class="lead-card"[^>]* data-lead-id="([^"]+)"/g)].map((m) =>
    m[1]
  );
}

/** How many markers of `kind` the page's map draws. */
function mapMarks(html: string, kind: string): number {
  const group = html.match(new RegExp(`<g class="us-map__mark us-map__mark--${kind}">(.*?)</g>`));
  return group ? group[1].split("<use ").length - 1 : 0;
}

test("[lead pages] signed out: every lead page sends to sign-in with returnTo", async () => {
  const t = await createTestApp();
  for (
    const path of [
      "/leads",
      "/leads?surveyType=boundary&maxDistance=25",
      "/surveyor/available-leads",
      `/surveyor/leads/${UNKNOWN}`,
    ]
  ) {
    await assertRedirectsToAuth(await getPage(t, path), path);
  }
  t.close();
});

test("[lead pages] other roles get the 403 page and nothing of the lead", async () => {
  const t = await createTestApp();
  const { lead } = await market(t);
  for (const role of ROLES.filter((r) => r !== "surveyor")) {
    const cookie = await signInAs(t, role);
    for (const path of ["/leads", "/surveyor/available-leads", `/surveyor/leads/${lead.id}`]) {
      const html = await assertForbiddenPage(await getPage(t, path, cookie), `${role} ${path}`);
      assert(!html.includes(lead.id), `${role} ${path}`);
      assert(!html.includes("Lead price"), `${role} ${path}`);
    }
  }
  t.close();
});

test("[lead pages] an eligible surveyor sees the lead on /leads and the same list on /surveyor/available-leads", async () => {
  const t = await createTestApp();
  const { buyer, lead } = await market(t);
  for (const path of ["/leads", "/surveyor/available-leads"]) {
    const res = await getPage(t, path, buyer.cookie);
    assertEquals(res.status, 200, path);
    assertHtml(res);
    assertEquals(res.headers.get("cache-control"), "private, no-store");
    const html = await pageText(res);
    const props = islandProps<AvailableLeadsProps>(html, "AvailableLeads");
    assertEquals(listedLeadIds(html), [lead.id], path);
    // The cards reach the browser once, as HTML: not again in the island's props.
    assertEquals(props.initial.leads, undefined);
    assertEquals(props.initial.total, 1);
    assertEquals(props.filters, { surveyType: "", maxDistance: "" });
    const [summary] = (await listAvailableLeads(t.sql, {
      surveyorId: buyer.surveyor.id,
      page: 1,
      pageSize: LEADS_PAGE_SIZE,
    })).leads;
    // The card: type and place, distance, the price with its formula, places sold, age.
    assertStringIncludes(html, "Boundary Survey in Austin, TX 78704");
    assertMatch(html, /5(\.\d)? mi from your office/);
    assertStringIncludes(html, `$${(lead.priceCents / 100).toFixed(2)}`);
    assertStringIncludes(html, summary.formula);
    assertStringIncludes(html, "0 of 3 bought");
    assertStringIncludes(html, "Posted <time");
    assertStringIncludes(html, "just now");
    // The balance, with the way to add credit.
    assertStringIncludes(html, '<strong data-testid="balance">$100.00</strong>');
    assertStringIncludes(html, 'href="/surveyor/billing"');
    // The map: the lead as a property and the surveyor's office, with its table.
    assertEquals(mapMarks(html, "property"), 1, path);
    // The office is its own kind ("Your office"), not an in-network surveyor.
    assertEquals(mapMarks(html, "office"), 1, path);
    assertEquals(mapMarks(html, "in_network"), 0, path);
    assertMatch(html, /Your office<span class="muted"> \(1\)<\/span>/);
    assert(!html.includes("In-network surveyor"), "the office is not an in-network surveyor");
    assertStringIncludes(html, "Your office (Barton Creek Surveying)");
    assertStringIncludes(html, "Show the map&#x27;s data as a table");
    // Both list the leads under the one nav entry.
    assertMatch(html, /href="\/leads" aria-current="page">Available leads</);
  }
  t.close();
});

test("[lead pages] the list's cards are the island's own markup, and a change to a lead or its age shows on the next load", async () => {
  const t = await createTestApp();
  const { buyer, lead } = await market(t);
  const client = await signInAs(t, "client");
  const { lead: older } = await addLead(t, client, { overrides: { surveyType: "topographic" } });
  await t.sql`update leads set created_at = now() - interval '3 hours' where id = ${older.id}`;
  /** The list as /leads sends it, and as the island renders it from the same page of leads. */
  async function lists() {
    const html = await pageText(await getPage(t, "/leads", buyer.cookie));
    const props = islandProps<AvailableLeadsProps>(html, "AvailableLeads");
    const { leads } = await listAvailableLeads(t.sql, {
      surveyorId: buyer.surveyor.id,
      page: 1,
      pageSize: LEADS_PAGE_SIZE,
    });
    const island = renderToString(
      createElement(AvailableLeads, {
        ...props,
        initial: { ...props.initial, leads },
        now: new Date().toISOString(),
      }),
    );
    // From the list's start to the end of its last card (each card holds a list of its own).
    const list = (markup: string) =>
      markup.match(/<ul class="lead-list"[^>]*>.*?<\/article><\/li><\/ul>/s)?.[0];
    return { sent: list(html), rendered: list(island) };
  }
  const first = await lists();
  assert(first.sent && first.sent.includes("3 hours ago"), first.sent);
  assertEquals(listedLeadIds(first.sent), [lead.id, older.id]);
  assertEquals(first.sent, first.rendered);
  // Read again unchanged: the same bytes.
  assertEquals((await lists()).sent, first.sent);
  // A place sold, and the older lead a day older: both show at once.
  await t.sql`update leads set buyers_count = 1 where id = ${lead.id}`;
  await t.sql`update leads set created_at = now() - interval '27 hours' where id = ${older.id}`;
  const changed = await lists();
  assertEquals(changed.sent, changed.rendered);
  assertStringIncludes(changed.sent!, "1 of 3 bought");
  assertStringIncludes(changed.sent!, "1 day ago");
  assert(!changed.sent!.includes("3 hours ago"));
  t.close();
});

test("[lead pages] no client name, phone, email, street or notes on /leads or /surveyor/leads/{id}", async () => {
  const t = await createTestApp();
  const { buyer, lead } = await market(t);
  for (const path of ["/leads", `/surveyor/leads/${lead.id}`]) {
    const { res, html } = await loadPage(t, path, buyer.cookie);
    assertEquals(res.status, 200, path);
    assertStringIncludes(html, lead.id, path);
    assertEquals(privateLeaks(html), [], path);
  }
  t.close();
});

test("[lead pages] filters come from the address: type and distance narrow the list, bad values are ignored", async () => {
  const t = await createTestApp();
  const { client, buyer, lead: near } = await market(t);
  // A topographic request 40 miles north of the site: 35 miles from the office, posted a minute
  // after the first (leads made back to back can share a timestamp).
  const far = north(40);
  await makeOlder(t.sql, "leads");
  const { lead: farLead } = await addLead(t, client, {
    overrides: {
      surveyType: "topographic",
      address: "100 Main St, Georgetown, TX 78626",
      formattedAddress: "100 Main St, Georgetown, TX 78626, USA",
      ...far,
    },
  });
  async function listed(query: string) {
    const { res, html } = await loadPage(t, `/leads${query}`, buyer.cookie);
    assertEquals(res.status, 200, query);
    const props = islandProps<AvailableLeadsProps>(html, "AvailableLeads");
    return { ids: listedLeadIds(html), filters: props.filters, html };
  }
  // Newest first.
  assertEquals((await listed("")).ids, [farLead.id, near.id]);
  const within10 = await listed("?maxDistance=10");
  assertEquals(within10.ids, [near.id]);
  assertEquals(within10.filters, { surveyType: "", maxDistance: "10" });
  assertStringIncludes(within10.html, '<option value="10" selected="">Within 10 miles</option>');
  assertEquals((await listed("?maxDistance=50")).ids, [farLead.id, near.id]);
  const topo = await listed("?surveyType=topographic");
  assertEquals(topo.ids, [farLead.id]);
  assertStringIncludes(topo.html, "Topographic Survey in Georgetown, TX 78626");
  assertEquals((await listed("?surveyType=topographic&maxDistance=25")).ids, []);
  // The map is drawn for the same filters.
  assertEquals(mapMarks(topo.html, "property"), 1);
  // Unknown values are dropped, never a 400 page.
  const bad = await listed("?surveyType=castle&maxDistance=7&page=zero");
  assertEquals(bad.ids, [farLead.id, near.id]);
  assertEquals(bad.filters, { surveyType: "", maxDistance: "" });
  t.close();
});

test("[lead pages] honest empty states: no record, licence check, paused, no office, nothing nearby", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  await addLead(t, client);
  async function page(cookie: string) {
    const { res, html } = await loadPage(t, "/leads", cookie);
    assertEquals(res.status, 200);
    return html.replaceAll("<!-- -->", "");
  }
  const noRecord = await page(await signInAs(t, "surveyor"));
  assertStringIncludes(noRecord, "Your surveyor profile is being set up");
  assert(!noRecord.includes('data-island="AvailableLeads"'));

  const pending = await addMarketSurveyor(t, "Pending Surveying", { status: "pending" });
  assertStringIncludes(
    await page(pending.cookie),
    "Meridian is checking your licence; you can buy leads once it is verified",
  );

  const paused = await addMarketSurveyor(t, "Paused Surveying", { status: "paused" });
  assertStringIncludes(await page(paused.cookie), "Your surveyor record is paused");

  const noOffice = await addMarketSurveyor(t, "Nowhere Surveying", { lat: null, lng: null });
  const noOfficeHtml = await page(noOffice.cookie);
  assertStringIncludes(noOfficeHtml, "Add your office location");
  assertStringIncludes(noOfficeHtml, 'href="/profile#coverage-heading"');

  // Active and verified, but 200 miles away from the only lead.
  const faraway = await addMarketSurveyor(t, "Faraway Surveying", { miles: 200 });
  const empty = await page(faraway.cookie);
  assertEquals(islandProps<AvailableLeadsProps>(empty, "AvailableLeads").initial.total, 0);
  assertStringIncludes(empty, "No open leads in your area right now");
  assertStringIncludes(empty, "Edit your coverage");
  t.close();
});

test("[lead pages] /surveyor/leads/{id}: the lead in full, its quote, what buying unlocks, and the actions", async () => {
  const t = await createTestApp();
  const { buyer, lead } = await market(t);
  const res = await getPage(t, `/surveyor/leads/${lead.id}`, buyer.cookie);
  assertEquals(res.status, 200);
  assertHtml(res);
  const html = await pageText(res);
  assertStringIncludes(html, "<h1>Boundary Survey in Austin, TX 78704</h1>");
  const props = islandProps<LeadActionsProps>(html, "LeadActions");
  assertEquals(props.lead.id, lead.id);
  assertEquals(props.balanceCents, 100_00);
  assertEquals(props.lead.canClaim, true);
  // The quote's lines (no personal data in them) and its total.
  assertStringIncludes(html, "The client&#x27;s quote");
  // The fixture's small lot is priced at the type's starting price.
  assertStringIncludes(html, "Boundary Survey starting price");
  assertStringIncludes(html, '<th scope="row">Total</th><td>$385</td>');
  assertStringIncludes(html, "Estimated turnaround: 5-10 business days");
  assertStringIncludes(
    html,
    "the client&#x27;s name, phone, email, exact address, parcel data and the full request",
  );
  assertStringIncludes(html, props.lead.formula);
  assertStringIncludes(html, "Buy lead · $");
  t.close();
});

test("[lead pages] unknown, malformed and not-eligible leads are the 404 page", async () => {
  const t = await createTestApp();
  const { client, buyer } = await market(t);
  // A lead in Oklahoma: this surveyor is licensed in Texas only, and it was never offered.
  const { lead: elsewhere } = await addLead(t, client, {
    overrides: { state: "OK", address: "1 Elm St, Tulsa, OK 74103", lat: 36.15, lng: -95.99 },
  });
  for (const id of [UNKNOWN, "not-a-uuid", elsewhere.id]) {
    const res = await getPage(t, `/surveyor/leads/${id}`, buyer.cookie);
    assertEquals(res.status, 404, id);
    assertHtml(res);
    const html = await res.text();
    assertStringIncludes(html, "404 Page Not Found", id);
    assert(!html.includes("Tulsa"), id);
  }
  t.close();
});

test("[lead pages] a closed lead says it is no longer available; a bought one links to the purchase", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const { lead } = await addLead(t, client, { maxBuyers: 1 });
  const viewer = await addMarketSurveyor(t, "Offered Surveying", { balanceCents: 100_00 });
  const winner = await addMarketSurveyor(t, "Quick Surveying", { balanceCents: 100_00 });
  // The viewer was offered it (so may still open it once closed); the winner buys the only place.
  await insertLeadRecipients(t.sql, {
    leadId: lead.id,
    recipients: [{ surveyorId: viewer.surveyor.id, kind: "notified", distanceMiles: 5 }],
  });
  await buyLead(t.sql, {
    leadId: lead.id,
    surveyorId: winner.surveyor.id,
    actorId: null,
    publicUrl: "http://localhost",
  });

  const closed = await pageText(await getPage(t, `/surveyor/leads/${lead.id}`, viewer.cookie));
  assertStringIncludes(closed, "This lead is no longer available.");
  assert(!closed.includes('data-island="LeadActions"'), "nothing to buy on a closed lead");
  assert(!closed.includes("/surveyor/purchased-leads/"), "the viewer did not buy it");

  const bought = await pageText(await getPage(t, `/surveyor/leads/${lead.id}`, winner.cookie));
  assertStringIncludes(bought, "You bought this lead.");
  assertStringIncludes(bought, `href="/surveyor/purchased-leads/${lead.id}"`);
  assert(!bought.includes('data-island="LeadActions"'));
  // Gone from both lists.
  for (const cookie of [viewer.cookie, winner.cookie]) {
    const { html } = await loadPage(t, "/leads", cookie);
    assertEquals(listedLeadIds(html), []);
    assertStringIncludes(html, "No open leads in your area right now");
  }
  t.close();
});

test("[lead pages] an offered surveyor whose licence is being checked sees the lead but no way to buy it yet", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const { lead } = await addLead(t, client);
  const pending = await addMarketSurveyor(t, "Pending Surveying", { status: "pending" });
  await insertLeadRecipients(t.sql, {
    leadId: lead.id,
    recipients: [{ surveyorId: pending.surveyor.id, kind: "notified", distanceMiles: 5 }],
  });
  const html = await pageText(await getPage(t, `/surveyor/leads/${lead.id}`, pending.cookie));
  assertStringIncludes(html, "Meridian is checking your licence");
  assert(!html.includes('data-island="LeadActions"'));
  t.close();
});
