/**
 * The public lead page (/lead/{id} and /leads/{id}): the job without any personal data for
 * every viewer, noindex, the way in per viewer (a signed-in surveyor is sent to their lead
 * page; signed out, "Join Meridian as a surveyor" with the invitation's link or how to ask),
 * the "no longer available" page for closed, expired, unknown and malformed leads, never
 * cached, never in the sitemap.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { expectJson, submitSurvey } from "../_fixtures.ts";
import { assertHtml, assertRedirect, getPage, loadPage } from "../_pages.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import { LEAD_UNAVAILABLE } from "../../routes/public_leads.tsx";

// Values only the client's request holds: none may reach the public page.
const SECRETS = {
  contactName: "Zebulon Quagmire",
  contactPhone: "(512) 555-0199",
  contactEmail: "zq.private@example.test",
  address: "98761 Xylophone Lane, Austin, TX 78704",
  formattedAddress: "98761 Xylophone Lane, Austin, TX 78704, USA",
  accessNotes: "Gate code Wombat-4455",
  notes: "Beware of the llama Persephone",
};
const PARCEL_OWNER = "Ozymandias Parcelholder";
const PERSONAL = [
  ...Object.values(SECRETS),
  "98761",
  "Xylophone",
  "Quagmire",
  "555-0199",
  "Wombat",
  "Persephone",
  PARCEL_OWNER,
];

/** A survey offered as a lead to one in-network surveyor and one prospect with an email. */
async function setupLead(t: TestApp) {
  const admin = await createSignedInUser(t, { role: "admin" });
  const client = await createSignedInUser(t, { role: "client" });
  const survey = await submitSurvey(t, client.cookie, {
    ...SECRETS,
    surveyType: "boundary",
    propertyType: "residential",
    acreage: 2.5,
    rush: "expedited",
    neededBy: "2099-01-15",
  });
  await t.sql`update surveys set parcel = ${
    t.sql.json({ owner: PARCEL_OWNER, apn: "0001" })
  } where id = ${survey.id}`;
  const near = { lat: 30.3, lng: -97.76, licenseStates: ["TX" as const] };
  await insertSurveyor(t.sql, {
    companyName: "Network Surveying",
    email: "network@surveying.example",
    ...near,
    surveyTypes: ["boundary"],
    status: "active",
    inNetwork: true,
  });
  await insertSurveyor(t.sql, {
    companyName: "Prospect Land Surveys",
    email: "prospect@surveying.example",
    ...near,
    surveyTypes: ["boundary"],
  });
  const res = await t.request("POST", `/api/surveys/${survey.id}/notify-surveyors`, {
    cookie: admin.cookie,
  });
  const body = await expectJson(res, 200);
  return { admin, client, survey, leadId: body.leadId as string };
}

/** The lead page link and the join link of the prospect's invitation email. */
async function invitationLinks(t: TestApp) {
  const [email] = await t.sql<{ html: string }[]>`
    select html from email_outbox where template = 'lead_invitation'`;
  const lead = email.html.match(
    /href="http:\/\/localhost(\/lead\/[^"?]+\?token=[A-Za-z0-9_-]{43})"/,
  );
  const claim = email.html.match(
    /href="http:\/\/localhost(\/surveyor\/claim\?token=([A-Za-z0-9_-]{43}))"/,
  );
  assert(lead && claim, "the invitation has the lead link and the join link");
  return { leadPath: lead[1], claimPath: claim[1], token: claim[2] };
}

function assertNoPersonalData(html: string, who: string) {
  for (const value of PERSONAL) {
    assert(!html.includes(value), `${who}: "${value}" is on the page`);
  }
}

test("[public lead] the job is shown without any personal data, to every viewer, noindex", async () => {
  const t = await createTestApp();
  const { admin, client, leadId } = await setupLead(t);
  const { leadPath } = await invitationLinks(t);
  const viewers: [string, string | undefined, string][] = [
    ["signed out", undefined, `/lead/${leadId}`],
    ["signed out (/leads)", undefined, `/leads/${leadId}`],
    ["signed out with the invitation link", undefined, leadPath],
    ["the request's own client", client.cookie, `/lead/${leadId}`],
    ["an admin", admin.cookie, `/leads/${leadId}`],
    ["a technician", await signInAs(t, "technician"), `/lead/${leadId}`],
  ];
  for (const [who, cookie, path] of viewers) {
    const { res, html } = await loadPage(t, path, cookie);
    assertEquals(res.status, 200, who);
    assertHtml(res, who);
    assertEquals(res.headers.get("cache-control"), "private, no-store", who);
    assertStringIncludes(html, `<meta name="robots" content="noindex">`, who);
    const text = html.replaceAll("<!-- -->", "");
    for (
      const fact of [
        "Boundary Survey in Austin, TX 78704",
        "2.5 acres",
        "Residential",
        "Expedited",
        "Jan 15, 2099",
        "0 of 3 bought",
        "How the lead price is set:",
      ]
    ) assertStringIncludes(text, fact, `${who}: ${fact}`);
    assertNoPersonalData(html, who);
  }
  t.close();
});

test("[public lead] a signed-in surveyor goes to their own lead page, open or closed", async () => {
  const t = await createTestApp();
  const { leadId } = await setupLead(t);
  const cookie = await signInAs(t, "surveyor");
  for (const path of [`/lead/${leadId}`, `/leads/${leadId}`]) {
    assertRedirect(await getPage(t, path, cookie), `/surveyor/leads/${leadId}`);
  }
  await t.sql`update leads set status = 'closed', closed_reason = 'sold_out' where id = ${leadId}`;
  assertRedirect(await getPage(t, `/lead/${leadId}`, cookie), `/surveyor/leads/${leadId}`);
  // An unknown lead is not sent anywhere: it is the same "no longer available" page.
  const unknown = await getPage(t, `/lead/${crypto.randomUUID()}`, cookie);
  assertEquals(unknown.status, 404);
  assertStringIncludes(await unknown.text(), LEAD_UNAVAILABLE);
  t.close();
});

test("[public lead] signed out: the invitation's link leads to the join page, else how to ask and 'Sign in'", async () => {
  const t = await createTestApp();
  const { leadId } = await setupLead(t);
  const { leadPath, claimPath } = await invitationLinks(t);
  const invited = (await loadPage(t, leadPath)).html.replaceAll("&amp;", "&");
  assertStringIncludes(invited, "Join Meridian as a surveyor");
  assertStringIncludes(invited, `href="${claimPath}"`);
  assertStringIncludes(invited, "Your first claimed job has no claim fee");

  const signIn = `/auth?returnTo=${encodeURIComponent(`/surveyor/leads/${leadId}`)}`;
  const badTokens = [
    "",
    "?token=not-a-token",
    `?token=${"A".repeat(43)}`,
    `?token=${leadPath.split("token=")[1]}&token=again`,
  ];
  for (const query of badTokens) {
    const { res, html } = await loadPage(t, `/lead/${leadId}${query}`);
    assertEquals(res.status, 200, query);
    assertStringIncludes(html, "Join Meridian as a surveyor", query);
    assert(!html.includes("/surveyor/claim"), `${query}: no join link without a valid token`);
    assertStringIncludes(html, `href="/support/contact"`, query);
    assertStringIncludes(html.replaceAll("&amp;", "&"), `href="${signIn}"`, query);
  }

  // A used link (the firm joined) no longer offers the join form.
  await t.sql`update surveyor_claim_tokens set used_at = now()`;
  assert(!(await loadPage(t, leadPath)).html.includes("/surveyor/claim"));
  t.close();
});

test("[public lead] signed in without the surveyor role: the job with a note, no join link", async () => {
  const t = await createTestApp();
  await setupLead(t);
  const { leadPath } = await invitationLinks(t);
  const { res, html } = await loadPage(t, leadPath, await signInAs(t, "client"));
  assertEquals(res.status, 200);
  assertStringIncludes(html, "This lead is for surveyors");
  assert(!html.includes("/surveyor/claim"), "no join link for a signed-in user");
  t.close();
});

test("[public lead] closed, expired, sold-out, cancelled, unknown and malformed leads say only that it is no longer available", async () => {
  const t = await createTestApp();
  const { survey, leadId } = await setupLead(t);
  const unavailable = async (path: string, status: number, what: string) => {
    const { res, html } = await loadPage(t, path);
    assertEquals(res.status, status, what);
    assertHtml(res, what);
    assertStringIncludes(html, LEAD_UNAVAILABLE, what);
    assertStringIncludes(html, `<meta name="robots" content="noindex">`, what);
    for (const fact of ["Boundary Survey in", "Austin", "78704", "bought", "Lead price"]) {
      assert(!html.includes(fact), `${what}: "${fact}" is shown`);
    }
    assertNoPersonalData(html, what);
  };
  await unavailable(`/lead/${crypto.randomUUID()}`, 404, "unknown");
  await unavailable("/leads/not-a-uuid", 404, "malformed");
  await unavailable("/lead/%00", 404, "NUL");

  await t.sql`update leads set expires_at = now() - interval '1 minute' where id = ${leadId}`;
  await unavailable(`/lead/${leadId}`, 410, "expired");
  await t.sql`update leads set expires_at = now() + interval '7 days' where id = ${leadId}`;

  await t.sql`update leads set buyers_count = max_buyers where id = ${leadId}`;
  await unavailable(`/leads/${leadId}`, 410, "sold out");
  await t.sql`update leads set buyers_count = 0 where id = ${leadId}`;

  await t.sql`update surveys set status = 'cancelled' where id = ${survey.id}`;
  await unavailable(`/lead/${leadId}`, 410, "request cancelled");
  await t.sql`update surveys set status = 'surveyors_notified' where id = ${survey.id}`;

  await t.sql`update leads set status = 'closed', closed_reason = 'claimed' where id = ${leadId}`;
  await unavailable(`/lead/${leadId}`, 410, "claimed");
  t.close();
});

test("[public lead] never served from the page cache: a sale shows on the next visit", async () => {
  const t = await createTestApp();
  const { leadId } = await setupLead(t);
  const first = await loadPage(t, `/lead/${leadId}`);
  assertStringIncludes(first.html, "0 of 3 bought");
  assertEquals(first.res.headers.get("etag"), null);
  await t.sql`update leads set buyers_count = 2 where id = ${leadId}`;
  assertStringIncludes((await loadPage(t, `/lead/${leadId}`)).html, "2 of 3 bought");
  await t.sql`update leads set status = 'closed', closed_reason = 'sold_out' where id = ${leadId}`;
  assertEquals((await getPage(t, `/lead/${leadId}`)).status, 410);
  t.close();
});

test("[public lead] lead pages and the join page are not in the sitemap", async () => {
  const t = await createTestApp();
  const { leadId } = await setupLead(t);
  const res = await t.request("GET", "/sitemap.xml");
  assertEquals(res.status, 200);
  const xml = await res.text();
  assertMatch(xml, /<urlset/);
  for (const part of ["/lead/", "/leads/", leadId, "/surveyor/claim"]) {
    assert(!xml.includes(part), `${part} in the sitemap`);
  }
  t.close();
});
