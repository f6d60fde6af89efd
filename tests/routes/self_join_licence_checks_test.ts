/**
 * Firms that join by themselves (issue 22) wait in the admins' Licence checks tab
 * (/admin?tab=licences) with Verify and Reject (POST /api/surveyors/{id}/licence); deciding
 * tells the surveyor by bell and email, and the admin's answer never says an email left when no
 * mail server is configured.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { countRows, expectJson } from "../_fixtures.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { emailsOf, notificationsOf } from "../_assignment_fixtures.ts";
import type { LicenceChecksProps } from "../../islands/LicenceChecks.tsx";
import { LICENCE_CHECK_MESSAGES } from "../../routes/licence_checks.ts";

function signUpBody(overrides: Record<string, unknown> = {}) {
  return {
    companyName: "Lone Star Land Surveying LLC",
    principalName: "Sam Surveyor",
    email: "sam@lonestar.example",
    password: "secret1",
    confirmPassword: "secret1",
    phone: "(512) 555-0188",
    licenseNumber: "RPLS 6543",
    licenseStates: ["TX"],
    address: "500 Congress Ave, Austin, TX 78701, USA",
    city: "Austin",
    state: "TX",
    zip: "78701",
    lat: 30.2682,
    lng: -97.7429,
    serviceRadiusMiles: 60,
    surveyTypes: ["boundary", "topographic"],
    ...overrides,
  };
}

async function joined(t: TestApp, overrides: Record<string, unknown> = {}) {
  const body = await expectJson(
    await t.request("POST", "/api/surveyors/join", { body: signUpBody(overrides) }),
    201,
  );
  const [firm] = await t.sql<{ id: string; status: string }[]>`
    select id, status from surveyors where user_id = ${body.user.id}`;
  return { userId: body.user.id as string, firmId: firm.id };
}

async function firmStatus(t: TestApp, id: string) {
  const [row] = await t.sql<{ status: string; verifiedAt: Date | null }[]>`
    select status, verified_at from surveyors where id = ${id}`;
  return row;
}

test("[self-join checks] a firm that joined waits in Licence checks with Verify and Reject", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const { firmId } = await joined(t);
    const { html } = await loadPage(t, "/admin?tab=licences", admin.cookie);
    const props = islandProps<LicenceChecksProps>(html, "LicenceChecks");
    assertEquals(props.initial.total, 1);
    const [check] = props.initial.checks;
    assertEquals(
      [check.surveyorId, check.companyName, check.awaitingFirstCheck, check.licenseNumber],
      [firmId, "Lone Star Land Surveying LLC", true, "RPLS 6543"],
    );
    assertEquals([check.principalName, check.city, check.state], ["Sam Surveyor", "Austin", "TX"]);
    assertStringIncludes(html, "waits for the first licence check");
    assertStringIncludes(html, "Verify licence");
    assertStringIncludes(html, "Reject licence");
  } finally {
    t.close();
  }
});

test("[self-join checks] Verify opens leads and emails the surveyor; the notice says it was not sent without a mail server", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const { userId, firmId } = await joined(t);
    const res = await expectJson(
      await t.request("POST", `/api/surveyors/${firmId}/licence`, {
        cookie: admin.cookie,
        body: { decision: "verify" },
      }),
      200,
    );
    assertEquals(res.message, "Licence verified — Lone Star Land Surveying LLC can now buy leads");
    assertEquals(res.email.delivery, "none");
    assertStringIncludes(res.email.text, "sam@lonestar.example");
    assertStringIncludes(res.email.text, "so it was not sent");
    assert(res.email.href.startsWith("/admin/email-outbox/"));
    const after = await firmStatus(t, firmId);
    assertEquals(after.status, "active");
    assert(after.verifiedAt);
    assertEquals((await emailsOf(t, "licence_verified")).map((e) => e.toAddress), [
      "sam@lonestar.example",
    ]);
    assertEquals(
      (await notificationsOf(t, userId)).map((n) => n.title).includes("Licence verified"),
      true,
    );
    // It left the queue; a second decision is a 409 that changes nothing.
    const queue = await expectJson(
      await t.request("GET", "/api/licence-checks", { cookie: admin.cookie }),
      200,
    );
    assertEquals(queue.total, 0);
    const again = await expectJson(
      await t.request("POST", `/api/surveyors/${firmId}/licence`, {
        cookie: admin.cookie,
        body: { decision: "reject" },
      }),
      409,
    );
    assertEquals(again.message, LICENCE_CHECK_MESSAGES.noFirstCheck);
    assertEquals((await firmStatus(t, firmId)).status, "active");
  } finally {
    t.close();
  }
});

test("[self-join checks] Reject pauses the firm (no leads, no public page) and tells the surveyor by bell and email", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const { userId, firmId } = await joined(t);
    const res = await expectJson(
      await t.request("POST", `/api/surveyors/${firmId}/licence`, {
        cookie: admin.cookie,
        body: { decision: "reject" },
      }),
      200,
    );
    assertStringIncludes(res.message, "licence was rejected: the firm is paused");
    assert(!/\bemailed\b/.test(res.message), "the message claims no email");
    assertStringIncludes(res.email.text, "so it was not sent");
    assertEquals((await firmStatus(t, firmId)).status, "paused");
    const [email] = await emailsOf(t, "surveyor_join_decided");
    assertEquals(email.toAddress, "sam@lonestar.example");
    assertEquals(email.subject, "We could not verify the licence of Lone Star Land Surveying LLC");
    const notes = await notificationsOf(t, userId);
    const note = notes.find((n) => n.title === "Licence not verified");
    assert(note, JSON.stringify(notes));
    assertEquals(note.link, "/support/contact");
    const queue = await expectJson(
      await t.request("GET", "/api/licence-checks", { cookie: admin.cookie }),
      200,
    );
    assertEquals(queue.total, 0);
  } finally {
    t.close();
  }
});

test("[self-join checks] only admins decide; bad input is a 400 and changes nothing", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const { firmId } = await joined(t);
    const path = `/api/surveyors/${firmId}/licence`;
    for (const role of ["surveyor", "client", "technician"] as const) {
      const other = await createSignedInUser(t, { role });
      await expectJson(
        await t.request("POST", path, { cookie: other.cookie, body: { decision: "verify" } }),
        404,
      );
    }
    await expectJson(await t.request("POST", path, { body: { decision: "verify" } }), 401);
    await expectJson(
      await t.request("POST", path, { cookie: admin.cookie, body: { decision: "maybe" } }),
      400,
    );
    await expectJson(
      await t.request("POST", `/api/surveyors/${crypto.randomUUID()}/licence`, {
        cookie: admin.cookie,
        body: { decision: "verify" },
      }),
      404,
    );
    assertEquals((await firmStatus(t, firmId)).status, "pending");
    assertEquals(await countRows(t, "email_outbox"), 0);
  } finally {
    t.close();
  }
});
