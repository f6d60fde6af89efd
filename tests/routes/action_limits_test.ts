/**
 * Limits on actions that cost money or send email (issue 20, routes/_limits.ts): buying and
 * claiming leads, Stripe Checkout, technician and surveyor invitations. The attempt over a
 * limit is a 429 with `Retry-After` and a message saying when to try again, and nothing is
 * charged, stored or queued; everyone else is unaffected.
 */
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { countRows, expectJson } from "../_fixtures.ts";
import { addLead, addMarketSurveyor, balanceAndLedger } from "../_lead_fixtures.ts";
import { addSurveyor, emailsOf } from "../_assignment_fixtures.ts";
import { addTechnician } from "../_technician_fixtures.ts";
import { fakeStripeProvider, startFakeStripe } from "../_stripe_fake.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import { hitRateLimit } from "../../db/kv.ts";
import { ACTION_LIMITS, type ActionLimit } from "../../routes/_limits.ts";

/** Asserts a 429 whose message and Retry-After say when to try again (at most `limit`'s window). */
async function expectLimited(res: Response, what: string, limit: ActionLimit) {
  const body = await expectJson(res, 429);
  assertMatch(
    body.message,
    new RegExp(`^Too many ${what}\\. Please try again in \\d+ (minutes?|seconds?)\\.$`),
  );
  const retryAfter = Number(res.headers.get("retry-after"));
  assert(
    retryAfter >= 1 && retryAfter <= limit.windowMs / 1000,
    `Retry-After: ${retryAfter}`,
  );
}

/**
 * Uses up `limit` for (bucket, subject) as that many earlier attempts would have: for limits
 * too high to reach through the API in a test (each invitation hashes a password).
 */
async function useUp(t: TestApp, bucket: string, subject: string, limit: ActionLimit) {
  for (let i = 0; i < limit.limit; i++) {
    assert((await hitRateLimit(t.kv, { bucket, subject, ...limit })).allowed);
  }
}

test("[limits] buying and claiming leads: the attempt over the per-account limit is a 429, nothing bought or charged; other surveyors still buy", async () => {
  const t = await createTestApp();
  try {
    const client = await createSignedInUser(t, { role: "client" });
    const { lead } = await addLead(t, client.cookie);
    const me = await addMarketSurveyor(t, "Able Survey", { balanceCents: 100_00 });
    const limit = ACTION_LIMITS.leadTakes;
    // A script hammering the market: every attempt counts, found or not.
    for (let i = 0; i < limit.limit; i++) {
      const action = i % 2 ? "claim" : "buy";
      const res = await t.request("POST", `/api/leads/${crypto.randomUUID()}/${action}`, {
        cookie: me.cookie,
      });
      assertEquals(res.status, 404, `attempt ${i + 1}`);
      await res.body?.cancel();
    }
    for (const action of ["buy", "claim"]) {
      const res = await t.request("POST", `/api/leads/${lead.id}/${action}`, { cookie: me.cookie });
      await expectLimited(res, "lead purchases", limit);
    }
    assertEquals(await countRows(t, "lead_purchases"), 0);
    assertEquals((await balanceAndLedger(t, me.surveyor.id)).balance, 100_00);

    const other = await addMarketSurveyor(t, "Baker Survey", { balanceCents: 100_00 });
    const bought = await t.request("POST", `/api/leads/${lead.id}/buy`, { cookie: other.cookie });
    await expectJson(bought, 201);
    assertEquals(await countRows(t, "lead_purchases"), 1);
  } finally {
    t.close();
  }
});

test("[limits] Stripe Checkout: the session over the per-account limit is a 429; Stripe is not called and nothing is stored", async () => {
  const fake = startFakeStripe();
  const t = await createTestApp({ deps: { payments: fakeStripeProvider(fake) } });
  try {
    const surveyor = async (name: string) => {
      const { user, cookie } = await createSignedInUser(t, { role: "surveyor" });
      await insertSurveyor(t.sql, { companyName: name, userId: user.id, status: "active" });
      return cookie;
    };
    const me = await surveyor("Barton Surveying");
    const checkout = (cookie: string) =>
      t.request("POST", "/api/billing/checkout", { cookie, body: { amountCents: 5_000 } });
    const limit = ACTION_LIMITS.checkouts;
    for (let i = 0; i < limit.limit; i++) await expectJson(await checkout(me), 201);
    await expectLimited(await checkout(me), "checkout attempts", limit);
    assertEquals(fake.requests.length, limit.limit);
    assertEquals(await countRows(t, "stripe_checkout_sessions"), limit.limit);

    await expectJson(await checkout(await surveyor("Carver Surveying")), 201);
  } finally {
    t.close();
    await fake.close();
  }
});

test("[limits] technician invitations: one address gets at most the per-recipient limit, then 429 and nothing is queued", async () => {
  const t = await createTestApp();
  try {
    const ortiz = await addSurveyor(t, "Ortiz Surveying");
    const invited = await t.request("POST", "/api/technicians", {
      cookie: ortiz.cookie,
      body: { fullName: "Jamie Field", email: "Jamie@Crew.test" },
    });
    const { technician } = await expectJson(invited, 201);
    const path = `/api/technicians/${technician.id}/invite`;
    const limit = ACTION_LIMITS.invitesPerRecipient;
    for (let i = 1; i < limit.limit; i++) {
      await expectJson(await t.request("POST", path, { cookie: ortiz.cookie }), 200);
    }
    await expectLimited(
      await t.request("POST", path, { cookie: ortiz.cookie }),
      "invitations",
      limit,
    );
    assertEquals((await emailsOf(t, "technician_invitation")).length, limit.limit);
    // The address counts however it is typed: a new invitation to it is refused first.
    const users = await countRows(t, "users");
    const again = await t.request("POST", "/api/technicians", {
      cookie: ortiz.cookie,
      body: { fullName: "Jamie Again", email: " jamie@crew.TEST" },
    });
    assertEquals(again.status, 429);
    assertEquals(await countRows(t, "users"), users);

    // Another address is unaffected.
    const sam = await addTechnician(t, ortiz.surveyor.id, "Sam Stake");
    await t.sql`update users set last_login = null where id = ${sam.user.id}`;
    await expectJson(
      await t.request("POST", `/api/technicians/${sam.user.id}/invite`, { cookie: ortiz.cookie }),
      200,
    );
  } finally {
    t.close();
  }
});

test("[limits] technician invitations: the one over the per-account limit is a 429; no account, crew row or email", async () => {
  const t = await createTestApp();
  try {
    const ortiz = await addSurveyor(t, "Ortiz Surveying");
    await useUp(t, "technician_invites", ortiz.user!.id, ACTION_LIMITS.technicianInvites);
    const before = [await countRows(t, "users"), await countRows(t, "technicians")];
    const res = await t.request("POST", "/api/technicians", {
      cookie: ortiz.cookie,
      body: { fullName: "Jamie Field", email: "jamie@crew.test" },
    });
    await expectLimited(res, "invitations", ACTION_LIMITS.technicianInvites);
    assertEquals([await countRows(t, "users"), await countRows(t, "technicians")], before);
    assertEquals((await emailsOf(t, "technician_invitation")).length, 0);

    // Another firm invites as usual.
    const other = await addSurveyor(t, "Other Survey Co");
    await expectJson(
      await t.request("POST", "/api/technicians", {
        cookie: other.cookie,
        body: { fullName: "Jamie Field", email: "jamie@crew.test" },
      }),
      201,
    );
  } finally {
    t.close();
  }
});

test("[limits] surveyor invitations: per recipient and per admin; the one over is a 429 and no account, link or email is made", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const target = await insertSurveyor(t.sql, {
      companyName: "Ortiz Land Surveying",
      principalName: "Sam Ortiz",
      email: "sam@ortiz.example",
      status: "prospect",
    });
    const invite = (cookie: string, id: string) =>
      t.request("POST", `/api/surveyors/${id}/invite`, { cookie });
    const limit = ACTION_LIMITS.invitesPerRecipient;
    await expectJson(await invite(admin.cookie, target.id), 201);
    for (let i = 1; i < limit.limit; i++) {
      await expectJson(await invite(admin.cookie, target.id), 200);
    }
    const tokens = await countRows(t, "password_reset_tokens");
    await expectLimited(await invite(admin.cookie, target.id), "invitations", limit);
    assertEquals((await emailsOf(t, "surveyor_invitation")).length, limit.limit);
    assertEquals(await countRows(t, "password_reset_tokens"), tokens);

    // One admin over their own limit; another admin is not.
    const busy = await createSignedInUser(t, { role: "admin" });
    await useUp(t, "surveyor_invites", busy.user.id, ACTION_LIMITS.surveyorInvites);
    const fresh = await insertSurveyor(t.sql, {
      companyName: "Fresh Survey Co",
      email: "office@fresh.example",
      status: "prospect",
    });
    const users = await countRows(t, "users");
    await expectLimited(await invite(busy.cookie, fresh.id), "invitations", {
      ...ACTION_LIMITS.surveyorInvites,
    });
    assertEquals(await countRows(t, "users"), users);
    await expectJson(await invite(admin.cookie, fresh.id), 201);
  } finally {
    t.close();
  }
});
