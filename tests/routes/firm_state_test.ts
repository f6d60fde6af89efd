/**
 * "Active" firms can buy (issue 19): a firm is made active the ways an admin does it — added
 * as active on /surveyors, or set active in its profile — and its surveyor can then buy leads;
 * one waiting for its licence check has a Verify button that works; the directory's counts per
 * status are what the lead market lets each firm do; and every message about it is true.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { addLead, north } from "../_lead_fixtures.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { postLedgerEntry } from "../../db/ledger.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import { LEAD_MARKET_MESSAGES } from "../../db/lead_market.ts";
import type { SurveyorStatus } from "../../lib/surveyor_constants.ts";

async function setup() {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  return { t, admin, client };
}

/**
 * What an admin does on /surveyors: "Add surveyor" with `status` (as the form sends it), then
 * links a new surveyor account to it; the firm gets $100 of credit. Returns the firm's id and
 * the surveyor's session cookie.
 */
async function adminAddsFirm(
  t: TestApp,
  adminCookie: string,
  name: string,
  status: SurveyorStatus,
): Promise<{ id: string; cookie: string }> {
  const created = await expectJson(
    await t.request("POST", "/api/surveyors", {
      cookie: adminCookie,
      body: {
        companyName: name,
        licenseNumber: "RPLS 6012",
        licenseStates: ["TX"],
        surveyTypes: ["boundary"],
        ...north(5),
        status,
        inNetwork: true,
      },
    }),
    201,
  );
  const id: string = created.surveyor.id;
  const account = await createSignedInUser(t, { role: "surveyor", fullName: `${name} Owner` });
  await expectJson(
    await t.request("POST", `/api/surveyors/${id}/link-user`, {
      cookie: adminCookie,
      body: { email: account.user.email },
    }),
    200,
  );
  await t.sql.begin((tx) =>
    postLedgerEntry(tx, {
      surveyorId: id,
      kind: "top_up",
      amountCents: 100_00,
      reference: `test-${crypto.randomUUID()}`,
    })
  );
  return { id, cookie: account.cookie };
}

function buy(t: TestApp, cookie: string, leadId: string) {
  return t.request("POST", `/api/leads/${leadId}/buy`, { cookie });
}

/** The licence card's text on the admin's record page, and whether it offers Verify. */
async function licenceCard(t: TestApp, adminCookie: string, id: string) {
  const { res, html } = await loadPage(t, `/surveyor-detail/${id}`, adminCookie);
  assertEquals(res.status, 200);
  const text = html.replaceAll("<!-- -->", "");
  const start = text.indexOf('id="surveyor-licence-title"');
  assert(start > 0, "licence card on the page");
  return {
    text: text.slice(start, text.indexOf("</section>", start)),
    canVerify: islandProps<{ canVerify: boolean }>(html, "VerifySurveyor").canVerify,
  };
}

test("[firm state] an admin adds an active firm: its surveyor sees the leads and buys one", async () => {
  const { t, admin, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const firm = await adminAddsFirm(t, admin.cookie, "Barton Creek Surveying", "active");

  const leads = await loadPage(t, "/leads", firm.cookie);
  assertEquals(leads.res.status, 200);
  assert(!leads.html.includes("Licence check in progress"), "no licence check for an active firm");
  assertEquals(
    islandProps<{ initial: { total: number } }>(leads.html, "AvailableLeads").initial.total,
    1,
  );
  const dashboard = (await loadPage(t, "/surveyor-dashboard", firm.cookie)).html;
  assert(!dashboard.includes("Your licence is being checked"), "dashboard: not in licence check");

  const bought = await expectJson(await buy(t, firm.cookie, lead.id), 201);
  assert(bought.purchase ?? bought.lead, JSON.stringify(bought));

  // The admin's record says who verified it, offers no Verify, and Verify says so truly.
  const card = await licenceCard(t, admin.cookie, firm.id);
  assertEquals(card.canVerify, false);
  assertMatch(card.text, /Licence verified on [^<]+ by Ada Admin\./);
  const again = await expectJson(
    await t.request("POST", `/api/surveyors/${firm.id}/verify`, { cookie: admin.cookie }),
    409,
  );
  assertEquals(again.message, "Barton Creek Surveying's licence is already verified");
  t.close();
});

test("[firm state] a firm added for a licence check shows Verify; verifying lets it buy; the admin's edit to Active does the same", async () => {
  const { t, admin, client } = await setup();
  const { lead } = await addLead(t, client.cookie, { maxBuyers: 3 });
  const first = await adminAddsFirm(t, admin.cookie, "First Check Surveying", "pending");
  const second = await adminAddsFirm(t, admin.cookie, "Second Check Surveying", "pending");

  for (const firm of [first, second]) {
    const html = (await loadPage(t, "/leads", firm.cookie)).html.replaceAll("<!-- -->", "");
    assertStringIncludes(html, "Licence check in progress");
    const refused = await expectJson(await buy(t, firm.cookie, lead.id), 409);
    assertEquals(refused.message, LEAD_MARKET_MESSAGES.unverified);
    const card = await licenceCard(t, admin.cookie, firm.id);
    assertEquals(card.canVerify, true);
    assertStringIncludes(card.text, "is waiting for a licence check: RPLS 6012 (TX)");
  }

  // Verify licence.
  await expectJson(
    await t.request("POST", `/api/surveyors/${first.id}/verify`, { cookie: admin.cookie }),
    200,
  );
  await expectJson(await buy(t, first.cookie, lead.id), 201);

  // Or the admin sets the status to Active in the profile: the same verification, told the same.
  const patched = await expectJson(
    await t.request("PATCH", `/api/surveyors/${second.id}`, {
      cookie: admin.cookie,
      body: { status: "active" },
    }),
    200,
  );
  assertEquals(patched.surveyor.status, "active");
  assertMatch((await licenceCard(t, admin.cookie, second.id)).text, /by Ada Admin\./);
  const [note] = await t.sql<{ title: string }[]>`
    select n.title from notifications n join surveyors s on s.user_id = n.user_id
    where s.id = ${second.id}`;
  assertEquals(note?.title, "Licence verified");
  await expectJson(await buy(t, second.cookie, lead.id), 201);

  // Sent back to the licence check: it cannot buy, and Verify is offered again.
  await expectJson(
    await t.request("PATCH", `/api/surveyors/${second.id}`, {
      cookie: admin.cookie,
      body: { status: "pending" },
    }),
    200,
  );
  const { lead: next } = await addLead(t, client.cookie);
  const refused = await expectJson(await buy(t, second.cookie, next.id), 409);
  assertEquals(refused.message, LEAD_MARKET_MESSAGES.unverified);
  assertEquals((await licenceCard(t, admin.cookie, second.id)).canVerify, true);
  t.close();
});

test("[firm state] the directory's counts per status are what the market lets each firm do", async () => {
  const { t, admin, client } = await setup();
  const { lead } = await addLead(t, client.cookie, { maxBuyers: 10 });
  const statuses: SurveyorStatus[] = ["active", "active", "pending", "paused", "invited"];
  const firms = [];
  for (const [i, status] of statuses.entries()) {
    firms.push({ status, ...await adminAddsFirm(t, admin.cookie, `Firm ${i}`, status) });
  }
  // A command made this one active (as the demo seed does): it is verified too.
  const seededUser = await createSignedInUser(t, { role: "surveyor" });
  const seeded = await insertSurveyor(t.sql, {
    companyName: "Seeded Firm",
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
    ...north(5),
    status: "active",
    inNetwork: true,
    userId: seededUser.user.id,
  });
  await t.sql.begin((tx) =>
    postLedgerEntry(tx, {
      surveyorId: seeded.id,
      kind: "top_up",
      amountCents: 100_00,
      reference: "seeded",
    })
  );
  firms.push({ status: "active" as const, id: seeded.id, cookie: seededUser.cookie });

  let bought = 0;
  let inLicenceCheck = 0;
  for (const firm of firms) {
    const res = await buy(t, firm.cookie, lead.id);
    const body = await res.json();
    if (res.status === 201) bought++;
    else if (body.message === LEAD_MARKET_MESSAGES.unverified) inLicenceCheck++;
  }
  const { counts } = await expectJson(
    await t.request("GET", "/api/surveyors", { cookie: admin.cookie }),
    200,
  );
  assertEquals([bought, inLicenceCheck], [3, 1]);
  assertEquals(counts.byStatus.active, bought);
  assertEquals(counts.byStatus.pending, inLicenceCheck);

  // The seeded firm's record says what happened: no one checked it in Meridian.
  assertStringIncludes(
    (await licenceCard(t, admin.cookie, seeded.id)).text,
    "by a command that made the record active (demo or imported data)",
  );
  t.close();
});

test("[firm state] a paused firm: Verify says what to do, and the card says whether it was ever verified", async () => {
  const { t, admin } = await setup();
  const never = await adminAddsFirm(t, admin.cookie, "Never Checked Surveying", "paused");
  const refused = await expectJson(
    await t.request("POST", `/api/surveyors/${never.id}/verify`, { cookie: admin.cookie }),
    409,
  );
  assertEquals(
    refused.message,
    "Never Checked Surveying is paused; set their status to Active to resume them (a licence never verified is then recorded as verified by you)",
  );
  const card = await licenceCard(t, admin.cookie, never.id);
  assertEquals(card.canVerify, false);
  assertStringIncludes(
    card.text,
    "Paused before its licence was verified. Setting its status to Active records the licence as verified by you.",
  );

  // Paused after being verified: the card keeps who verified it.
  const checked = await adminAddsFirm(t, admin.cookie, "Checked Surveying", "active");
  await expectJson(
    await t.request("PATCH", `/api/surveyors/${checked.id}`, {
      cookie: admin.cookie,
      body: { status: "paused" },
    }),
    200,
  );
  assertMatch((await licenceCard(t, admin.cookie, checked.id)).text, /by Ada Admin\./);
  t.close();
});
