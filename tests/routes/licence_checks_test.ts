/**
 * Licence states and numbers are verified facts (issue 20): what a verified surveyor adds on
 * their own profile waits for the admins' licence check, and only verified states open leads
 * (listing, reading, buying, claiming, dispatch). Admins decide in the licence check queue; the
 * surveyor is told; nobody else may decide.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson } from "../_fixtures.ts";
import { addLead, addMarketSurveyor } from "../_lead_fixtures.ts";
import { findCandidateSurveyors } from "../../lib/matching.ts";
import { VERIFIED_NUMBER_REQUIRED } from "../../lib/surveyor_licence.ts";
import {
  LICENCE_REQUEST_REJECTED_TITLE,
  LICENCE_REQUEST_VERIFIED_TITLE,
} from "../../lib/surveyor_verification.ts";

// A firm in El Paso, TX; leads across the line in Sunland Park, NM, and in El Paso.
const EL_PASO = { lat: 31.7619, lng: -106.485 };
const NM_SITE = {
  address: "5000 McNutt Rd, Sunland Park, NM 88063",
  formattedAddress: "5000 McNutt Rd, Sunland Park, NM 88063, USA",
  lat: 31.7965,
  lng: -106.5795,
  state: "NM",
};
const TX_SITE = {
  address: "300 N Campbell St, El Paso, TX 79901",
  formattedAddress: "300 N Campbell St, El Paso, TX 79901, USA",
  lat: 31.76,
  lng: -106.487,
  state: "TX",
};

async function setup() {
  const t = await createTestApp();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const firm = await addMarketSurveyor(t, "Border Surveying", {
    ...EL_PASO,
    licenseNumber: "RPLS 1000",
    licenseStates: ["TX"],
    balanceCents: 1000_00,
  });
  return { t, admin, client, firm };
}

function leadIds(body: { leads: { id: string }[] }): string[] {
  return body.leads.map((l) => l.id);
}

async function isDispatchedTo(t: TestApp, surveyorId: string, site: typeof NM_SITE) {
  const candidates = await findCandidateSurveyors(t.sql, {
    lat: site.lat,
    lng: site.lng,
    state: site.state,
    surveyType: "boundary",
  });
  return candidates.some((c) => c.surveyorId === surveyorId && c.kind === "match");
}

async function notificationsOf(t: TestApp, userId: string) {
  return await t.sql<{ title: string; body: string; link: string }[]>`
    select title, body, link from notifications where user_id = ${userId} order by created_at`;
}

test("[licence checks] a state a verified surveyor adds waits for the check: no lead there is listed, read, bought, claimed or dispatched", async () => {
  const { t, admin, client, firm } = await setup();
  const nmLead = await addLead(t, client.cookie, { overrides: NM_SITE });
  const txLead = await addLead(t, client.cookie, { overrides: TX_SITE });

  const saved = await expectJson(
    await t.request("PATCH", "/api/surveyor/profile", {
      cookie: firm.cookie,
      body: { licenseStates: ["NM", "TX"] },
    }),
    200,
  );
  assertStringIncludes(
    saved.message,
    "Your licence in New Mexico will be checked by Meridian before you can buy or claim leads there.",
  );
  assertEquals(saved.surveyor.licenseStates, ["TX"]);
  assertEquals(saved.surveyor.pendingLicenseStates, ["NM"]);

  const list = await expectJson(await t.request("GET", "/api/leads", { cookie: firm.cookie }), 200);
  assertEquals(leadIds(list), [txLead.lead.id]);
  await expectJson(
    await t.request("GET", `/api/leads/${nmLead.lead.id}`, { cookie: firm.cookie }),
    404,
  );
  for (const action of ["buy", "claim"]) {
    const refused = await expectJson(
      await t.request("POST", `/api/leads/${nmLead.lead.id}/${action}`, { cookie: firm.cookie }),
      409,
    );
    assertStringIncludes(refused.message, "waiting for Meridian's licence check");
    assert(!/coverage|add the state|add it/i.test(refused.message), refused.message);
  }
  assertEquals(await isDispatchedTo(t, firm.surveyor.id, NM_SITE), false);
  const [{ n: purchases }] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from lead_purchases where surveyor_id = ${firm.surveyor.id}`;
  assertEquals(purchases, 0);

  // Texas, verified before, keeps working.
  assertEquals(await isDispatchedTo(t, firm.surveyor.id, TX_SITE), true);
  await expectJson(
    await t.request("POST", `/api/leads/${txLead.lead.id}/buy`, { cookie: firm.cookie }),
    201,
  );

  // The admins hear of it and see it in their queue; the request is audited.
  const adminNotes = await notificationsOf(t, admin.user.id);
  assert(
    adminNotes.some((n) =>
      n.title === "Border Surveying asked for a licence check" && n.link === "/admin?tab=licences"
    ),
    JSON.stringify(adminNotes),
  );
  const queue = await expectJson(
    await t.request("GET", "/api/licence-checks", { cookie: admin.cookie }),
    200,
  );
  assertEquals(queue.total, 1);
  assertEquals(queue.checks[0].surveyorId, firm.surveyor.id);
  assertEquals(queue.checks[0].pendingStates.map((s: { state: string }) => s.state), ["NM"]);
  assertEquals(queue.checks[0].pendingStates[0].licenceNumber, "RPLS 1000");
  const [audit] = await t.sql<{ details: Record<string, unknown> }[]>`
    select details from audit_log where event = 'surveyor_licence_requested'`;
  assertEquals(audit.details.states, "NM");
  t.close();
});

test("[licence checks] once an admin verifies the state its leads open: listed, bought and dispatched; the surveyor is told", async () => {
  const { t, admin, client, firm } = await setup();
  const nmLead = await addLead(t, client.cookie, { overrides: NM_SITE });
  await expectJson(
    await t.request("PATCH", "/api/surveyor/profile", {
      cookie: firm.cookie,
      body: { licenseStates: ["TX", "NM"] },
    }),
    200,
  );
  const approved = await expectJson(
    await t.request("POST", `/api/surveyors/${firm.surveyor.id}/licence-states/NM`, {
      cookie: admin.cookie,
      body: { decision: "verify" },
    }),
    200,
  );
  assertStringIncludes(approved.message, "New Mexico licence is verified");

  const list = await expectJson(await t.request("GET", "/api/leads", { cookie: firm.cookie }), 200);
  assertEquals(leadIds(list), [nmLead.lead.id]);
  assertEquals(await isDispatchedTo(t, firm.surveyor.id, NM_SITE), true);
  await expectJson(
    await t.request("POST", `/api/leads/${nmLead.lead.id}/buy`, { cookie: firm.cookie }),
    201,
  );
  const profile = await expectJson(
    await t.request("GET", "/api/surveyor/profile", { cookie: firm.cookie }),
    200,
  );
  assertEquals(profile.surveyor.licenseStates, ["NM", "TX"]);
  assertEquals(profile.surveyor.pendingLicenseStates, []);
  const told = await notificationsOf(t, firm.userId!);
  assert(
    told.some((n) => n.title === LICENCE_REQUEST_VERIFIED_TITLE && n.body.includes("New Mexico")),
    JSON.stringify(told),
  );
  const [record] = await t.sql<{ status: string; verifiedVia: string; decidedBy: string }[]>`
    select status, verified_via, decided_by from surveyor_licence_states
    where surveyor_id = ${firm.surveyor.id} and state = 'NM'`;
  assertEquals({ ...record }, {
    status: "verified",
    verifiedVia: "admin",
    decidedBy: admin.user.id,
  });
  const [decided] = await t.sql<{ details: Record<string, unknown> }[]>`
    select details from audit_log where event = 'surveyor_licence_decided'`;
  assertEquals(decided.details.decision, "verify");
  assertEquals(
    (await expectJson(await t.request("GET", "/api/licence-checks", { cookie: admin.cookie }), 200))
      .total,
    0,
  );
  t.close();
});

test("[licence checks] a rejected state stays closed and the surveyor is told why", async () => {
  const { t, admin, client, firm } = await setup();
  const nmLead = await addLead(t, client.cookie, { overrides: NM_SITE });
  await t.request("PATCH", "/api/surveyor/profile", {
    cookie: firm.cookie,
    body: { licenseStates: ["NM", "TX"] },
  });
  await expectJson(
    await t.request("POST", `/api/surveyors/${firm.surveyor.id}/licence-states/NM`, {
      cookie: admin.cookie,
      body: { decision: "reject" },
    }),
    200,
  );
  const list = await expectJson(await t.request("GET", "/api/leads", { cookie: firm.cookie }), 200);
  assertEquals(leadIds(list), []);
  const refused = await expectJson(
    await t.request("POST", `/api/leads/${nmLead.lead.id}/buy`, { cookie: firm.cookie }),
    409,
  );
  assertStringIncludes(refused.message, "where Meridian has not verified a licence of yours");
  assertEquals(await isDispatchedTo(t, firm.surveyor.id, NM_SITE), false);
  const told = await notificationsOf(t, firm.userId!);
  assert(
    told.some((n) => n.title === LICENCE_REQUEST_REJECTED_TITLE && n.body.includes("New Mexico")),
    JSON.stringify(told),
  );
  const profile = await expectJson(
    await t.request("GET", "/api/surveyor/profile", { cookie: firm.cookie }),
    200,
  );
  assertEquals(profile.surveyor.rejectedLicenseStates, ["NM"]);
  assertEquals(profile.surveyor.licenseStates, ["TX"]);
  // Deciding again finds nothing waiting.
  await expectJson(
    await t.request("POST", `/api/surveyors/${firm.surveyor.id}/licence-states/NM`, {
      cookie: admin.cookie,
      body: { decision: "verify" },
    }),
    409,
  );
  t.close();
});

test("[licence checks] only admins decide: the surveyor, a client and a technician get 404 (the queue 403), signed out 401, and nothing changes", async () => {
  const { t, firm } = await setup();
  await t.request("PATCH", "/api/surveyor/profile", {
    cookie: firm.cookie,
    body: { licenseStates: ["NM", "TX"], licenseNumber: "RPLS 2000" },
  });
  const client = await createSignedInUser(t, { role: "client" });
  const technician = await createSignedInUser(t, { role: "technician" });
  for (const cookie of [firm.cookie, client.cookie, technician.cookie, undefined]) {
    const status = cookie ? 404 : 401;
    await expectJson(
      await t.request("POST", `/api/surveyors/${firm.surveyor.id}/licence-states/NM`, {
        cookie,
        body: { decision: "verify" },
      }),
      status,
    );
    await expectJson(
      await t.request("POST", `/api/surveyors/${firm.surveyor.id}/licence-number`, {
        cookie,
        body: { decision: "verify", licenseNumber: "RPLS 2000" },
      }),
      status,
    );
    await expectJson(
      await t.request("GET", "/api/licence-checks", { cookie }),
      cookie ? 403 : 401,
    );
  }
  const profile = await expectJson(
    await t.request("GET", "/api/surveyor/profile", { cookie: firm.cookie }),
    200,
  );
  assertEquals(profile.surveyor.licenseStates, ["TX"]);
  assertEquals(profile.surveyor.pendingLicenseStates, ["NM"]);
  assertEquals(profile.surveyor.licenseNumber, "RPLS 1000");
  assertEquals(profile.surveyor.pendingLicenseNumber, "RPLS 2000");
  t.close();
});

test("[licence checks] a new licence number waits for the check; the firm keeps working under the verified one", async () => {
  const { t, admin, client, firm } = await setup();
  const txLead = await addLead(t, client.cookie, { overrides: TX_SITE });
  const saved = await expectJson(
    await t.request("PATCH", "/api/surveyor/profile", {
      cookie: firm.cookie,
      body: { licenseNumber: "RPLS 2000", phone: "(915) 555-0101" },
    }),
    200,
  );
  assertStringIncludes(
    saved.message,
    "Your new licence number RPLS 2000 will be checked by Meridian; until then your verified number RPLS 1000 stays on your profile.",
  );
  assertEquals(saved.surveyor.licenseNumber, "RPLS 1000");
  assertEquals(saved.surveyor.pendingLicenseNumber, "RPLS 2000");
  assertEquals(saved.surveyor.phone, "(915) 555-0101");
  // Verified Texas still counts.
  await expectJson(
    await t.request("POST", `/api/leads/${txLead.lead.id}/buy`, { cookie: firm.cookie }),
    201,
  );
  // A verified number cannot be cleared here.
  const cleared = await expectJson(
    await t.request("PATCH", "/api/surveyor/profile", {
      cookie: firm.cookie,
      body: { licenseNumber: "" },
    }),
    400,
  );
  assertEquals(cleared.message, VERIFIED_NUMBER_REQUIRED);
  assertEquals(cleared.errors.licenseNumber, VERIFIED_NUMBER_REQUIRED);

  // The admin's decision names the number checked: a stale one is refused.
  await expectJson(
    await t.request("POST", `/api/surveyors/${firm.surveyor.id}/licence-number`, {
      cookie: admin.cookie,
      body: { decision: "verify", licenseNumber: "RPLS 1999" },
    }),
    409,
  );
  await expectJson(
    await t.request("POST", `/api/surveyors/${firm.surveyor.id}/licence-number`, {
      cookie: admin.cookie,
      body: { decision: "verify", licenseNumber: "RPLS 2000" },
    }),
    200,
  );
  const profile = await expectJson(
    await t.request("GET", "/api/surveyor/profile", { cookie: firm.cookie }),
    200,
  );
  assertEquals(profile.surveyor.licenseNumber, "RPLS 2000");
  assertEquals(profile.surveyor.pendingLicenseNumber, null);
  const told = await notificationsOf(t, firm.userId!);
  assert(told.some((n) => n.title === LICENCE_REQUEST_VERIFIED_TITLE), JSON.stringify(told));

  // A rejected number leaves the verified one in place.
  await t.request("PATCH", "/api/surveyor/profile", {
    cookie: firm.cookie,
    body: { licenseNumber: "FAKE 1" },
  });
  await expectJson(
    await t.request("POST", `/api/surveyors/${firm.surveyor.id}/licence-number`, {
      cookie: admin.cookie,
      body: { decision: "reject", licenseNumber: "FAKE 1" },
    }),
    200,
  );
  const after = await expectJson(
    await t.request("GET", "/api/surveyor/profile", { cookie: firm.cookie }),
    200,
  );
  assertEquals(after.surveyor.licenseNumber, "RPLS 2000");
  assertEquals(after.surveyor.pendingLicenseNumber, null);
  t.close();
});

test("[licence checks] removing a verified state takes effect at once; removing a pending one withdraws it", async () => {
  const { t, admin, firm } = await setup();
  await t.request("PATCH", "/api/surveyor/profile", {
    cookie: firm.cookie,
    body: { licenseStates: ["NM", "TX"] },
  });
  const saved = await expectJson(
    await t.request("PATCH", "/api/surveyor/profile", {
      cookie: firm.cookie,
      body: { licenseStates: ["TX"] },
    }),
    200,
  );
  assertEquals(saved.message, "Coverage saved");
  assertEquals(saved.surveyor.pendingLicenseStates, []);
  const queue = await expectJson(
    await t.request("GET", "/api/licence-checks", { cookie: admin.cookie }),
    200,
  );
  assertEquals(queue.total, 0);
  const dropped = await expectJson(
    await t.request("PATCH", "/api/surveyor/profile", {
      cookie: firm.cookie,
      body: { licenseStates: [] },
    }),
    200,
  );
  assertEquals(dropped.surveyor.licenseStates, []);
  assertEquals(await isDispatchedTo(t, firm.surveyor.id, TX_SITE), false);
  t.close();
});

test("[licence checks] a firm waiting for its first licence check edits its states directly: the check verifies them all", async () => {
  const { t } = await setup();
  const waiting = await addMarketSurveyor(t, "Newcomer Surveying", {
    ...EL_PASO,
    status: "pending",
    licenseStates: ["TX"],
  });
  const saved = await expectJson(
    await t.request("PATCH", "/api/surveyor/profile", {
      cookie: waiting.cookie,
      body: { licenseStates: ["NM", "TX"], licenseNumber: "RPLS 3000" },
    }),
    200,
  );
  assertEquals(saved.message, "Coverage saved");
  assertEquals(saved.surveyor.licenseStates, ["NM", "TX"]);
  assertEquals(saved.surveyor.licenseNumber, "RPLS 3000");
  assertEquals(saved.surveyor.pendingLicenseStates, []);
  t.close();
});

test("[licence checks] states an admin puts on a verified record are recorded verified; a firm moved back to its check has none", async () => {
  const { t, admin, firm } = await setup();
  await expectJson(
    await t.request("PATCH", `/api/surveyors/${firm.surveyor.id}`, {
      cookie: admin.cookie,
      body: { licenseStates: ["NM", "TX"] },
    }),
    200,
  );
  const rows = await t.sql<{ state: string; status: string; verifiedVia: string }[]>`
    select state, status, verified_via from surveyor_licence_states
    where surveyor_id = ${firm.surveyor.id} order by state`;
  assertEquals([...rows], [
    { state: "NM", status: "verified", verifiedVia: "record" },
    { state: "TX", status: "verified", verifiedVia: "record" },
  ]);
  await expectJson(
    await t.request("PATCH", `/api/surveyors/${firm.surveyor.id}`, {
      cookie: admin.cookie,
      body: { status: "pending" },
    }),
    200,
  );
  const [{ n }] = await t.sql<{ n: number }[]>`
    select count(*)::int as n from surveyor_licence_states
    where surveyor_id = ${firm.surveyor.id} and status = 'verified'`;
  assertEquals(n, 0);
  t.close();
});

test("[licence checks] the pages say it: the surveyor's coverage form, the admins' Licence checks tab and the firm's page", async () => {
  const { t, admin, firm } = await setup();
  await t.request("PATCH", "/api/surveyor/profile", {
    cookie: firm.cookie,
    body: { licenseStates: ["NM", "TX"], licenseNumber: "RPLS 2000" },
  });
  const own = await t.request("GET", "/profile", { cookie: firm.cookie });
  assertEquals(own.status, 200);
  const ownHtml = await own.text();
  assertStringIncludes(
    ownHtml,
    "Waiting for Meridian&#x27;s licence check: New Mexico. You can buy and claim leads there once an admin has verified it.",
  );
  assertStringIncludes(ownHtml, "Your new licence number RPLS 2000 is waiting for Meridian");

  const queue = await t.request("GET", "/admin?tab=licences", { cookie: admin.cookie });
  assertEquals(queue.status, 200);
  const queueHtml = await queue.text();
  assertStringIncludes(queueHtml, 'data-island="LicenceChecks"');
  assertStringIncludes(queueHtml, "Border Surveying");
  assertStringIncludes(queueHtml, "Verify New Mexico");
  assertStringIncludes(queueHtml, "Reject New Mexico");
  assertStringIncludes(queueHtml, "Verify RPLS 2000");
  assert(
    /href="\/admin\?tab=licences"[^>]*>Licence checks<span class="badge badge--warning admin-tabs__count"><span aria-hidden="true">1<\/span>/
      .test(queueHtml),
    "the tab shows how many firms wait",
  );

  const detail = await t.request("GET", `/surveyor-detail/${firm.surveyor.id}`, {
    cookie: admin.cookie,
  });
  assertStringIncludes(
    await detail.text(),
    "Waiting for a licence check: licence in New Mexico and new licence number RPLS 2000.",
  );
  // Not for surveyors.
  const refused = await t.request("GET", "/admin?tab=licences", { cookie: firm.cookie });
  assertEquals(refused.status, 403);
  await refused.body?.cancel();
  t.close();
});
