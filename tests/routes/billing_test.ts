/**
 * Balances and payments: Stripe Checkout top-ups against a local fake Stripe API, the webhook
 * with real signatures (credited exactly once whatever Stripe replays or reorders), the
 * offline provider's honest refusal, admin adjustments, the low-balance notice and the pages.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, ORIGIN, test, type TestApp, testDatabase } from "../_helpers.ts";
import { createSignedInUser, type TestUser } from "../_auth.ts";
import { assertHtml, islandProps, loadPage } from "../_pages.ts";
import {
  checkoutEvent,
  type FakeStripe,
  fakeStripeProvider,
  signPayload,
  startFakeStripe,
} from "../_stripe_fake.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import { postLedgerEntry } from "../../db/ledger.ts";
import type { Sql } from "../../db/client.ts";
import {
  LOW_BALANCE_THRESHOLD_CENTS,
  noteLowBalance,
  TOP_UPS_DISABLED_MESSAGE,
} from "../../lib/billing.ts";
import {
  TOP_UP_CANCELLED_TEXT,
  TOP_UP_EXPIRED_TEXT,
  TOP_UP_PENDING_TEXT,
  TOP_UP_UNKNOWN_TEXT,
} from "../../routes/billing_pages.tsx";
import { UNAVAILABLE_MESSAGE } from "../../lib/unavailable.ts";

/** A surveyor account linked to a record, with `balanceCents` of credit already on it. */
async function surveyorWithBalance(t: TestApp, balanceCents = 0, name = "Barton Surveying") {
  const { user, cookie } = await createSignedInUser(t, { role: "surveyor" });
  const record = await insertSurveyor(t.sql, {
    companyName: name,
    userId: user.id,
    status: "active",
  });
  if (balanceCents > 0) {
    await t.sql.begin((tx) =>
      postLedgerEntry(tx, {
        surveyorId: record.id,
        kind: "adjustment",
        amountCents: balanceCents,
        note: "Opening credit",
      })
    );
  }
  return { user, cookie, surveyorId: record.id };
}

async function balanceOf(t: TestApp, surveyorId: string): Promise<number> {
  const [row] = await t.sql<{ balanceCents: string }[]>`
    select balance_cents from surveyors where id = ${surveyorId}`;
  return Number(row.balanceCents);
}

async function ledgerRows(t: TestApp, surveyorId: string) {
  return await t.sql<{ kind: string; amountCents: string; reference: string | null }[]>`
    select kind, amount_cents, reference from surveyor_ledger
    where surveyor_id = ${surveyorId} order by id`;
}

/** A test app whose payments go to the fake Stripe API. */
async function stripeApp(): Promise<{ t: TestApp; fake: FakeStripe; done(): Promise<void> }> {
  const fake = startFakeStripe();
  const t = await createTestApp({ deps: { payments: fakeStripeProvider(fake) } });
  return {
    t,
    fake,
    async done() {
      t.close();
      await fake.close();
    },
  };
}

/** Starts a top-up as the surveyor; returns the stored session id. */
async function startTopUp(t: TestApp, cookie: string, amountCents: number): Promise<string> {
  const res = await t.request("POST", "/api/billing/checkout", { cookie, body: { amountCents } });
  assertEquals(res.status, 201, await res.clone().text());
  const { url } = await res.json();
  const id = /\/(cs_test_\w+)$/.exec(url)?.[1];
  assert(id, url);
  return id;
}

/** Posts a webhook as Stripe does: no Origin, no cookie, the signature over the raw body. */
function deliver(t: TestApp, body: string, signature: string | null) {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  if (signature !== null) headers["stripe-signature"] = signature;
  return Promise.resolve(
    t.app.request(`${ORIGIN}/api/stripe/webhook`, { method: "POST", headers, body }),
  );
}

async function deliverSigned(t: TestApp, body: string) {
  return deliver(t, body, await signPayload(body));
}

function paidEvent(
  sessionId: string,
  amountCents: number,
  extra: Partial<Parameters<typeof checkoutEvent>[0]> = {},
) {
  return checkoutEvent({ type: "checkout.session.completed", sessionId, amountCents, ...extra });
}

// ------------------------------------------------------------------------------- checkout

test("[billing] a surveyor's top-up stores the Checkout session and sends them to Stripe; nothing is credited yet", async () => {
  const { t, fake, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    const res = await t.request("POST", "/api/billing/checkout", {
      cookie: s.cookie,
      body: { amountCents: 25_000 },
    });
    assertEquals(res.status, 201);
    const { url } = await res.json();
    assertMatch(url, /^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_\w+$/);
    const [stored] = await t.sql`
      select id, surveyor_id, amount_cents, status, created_by from stripe_checkout_sessions`;
    assertEquals(url.endsWith(stored.id), true);
    assertEquals(stored.surveyorId, s.surveyorId);
    assertEquals(stored.amountCents, 25_000);
    assertEquals(stored.status, "open");
    assertEquals(stored.createdBy, s.user.id);
    const sent = fake.requests[0].form;
    assertEquals(sent["line_items[0][price_data][unit_amount]"], "25000");
    assertEquals(sent.client_reference_id, s.surveyorId);
    assertEquals(sent.customer_email, s.user.email);
    assertEquals(
      sent.success_url,
      `${ORIGIN}/surveyor/billing?topup=success&session_id={CHECKOUT_SESSION_ID}`,
    );
    assertEquals(sent.cancel_url, `${ORIGIN}/surveyor/billing?topup=cancelled`);
    assertEquals(await balanceOf(t, s.surveyorId), 0);
    assertEquals((await ledgerRows(t, s.surveyorId)).length, 0);
  } finally {
    await done();
  }
});

test("[billing] top-up amounts outside $20–$2,000 or not whole cents are refused and nothing is stored", async () => {
  const { t, fake, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    for (const amountCents of [1_999, 200_001, 0, -5_000, 50.5, "5000", null]) {
      const res = await t.request("POST", "/api/billing/checkout", {
        cookie: s.cookie,
        body: { amountCents },
      });
      assertEquals(res.status, 400, `${amountCents}`);
      const body = await res.json();
      assert(typeof body.message === "string" && body.message, JSON.stringify(body));
    }
    const smallest = await t.request("POST", "/api/billing/checkout", {
      cookie: s.cookie,
      body: { amountCents: 1_999 },
    });
    assertEquals((await smallest.json()).errors.amountCents, "The smallest top-up is $20");
    assertEquals(fake.requests.length, 0);
    assertEquals((await t.sql`select 1 from stripe_checkout_sessions`).length, 0);
  } finally {
    await done();
  }
});

test("[billing] when Stripe fails the surveyor is told nothing was charged and no session is stored", async () => {
  const { t, fake, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    fake.failNext(500);
    const error = console.error;
    const logged: string[] = [];
    console.error = (line: string) => void logged.push(line);
    const res = await t.request("POST", "/api/billing/checkout", {
      cookie: s.cookie,
      body: { amountCents: 5_000 },
    }).finally(() => (console.error = error));
    // The operator's log says what Stripe said; the surveyor is not shown it.
    assertStringIncludes(logged.join("\n"), "Something went wrong on Stripe's end");
    assertEquals(res.status, 502);
    assertStringIncludes((await res.json()).message, "Nothing was charged");
    assertEquals((await t.sql`select 1 from stripe_checkout_sessions`).length, 0);
  } finally {
    await done();
  }
});

test("[billing] without Stripe, checkout is a 409 saying how to get credit, and nothing is stored", async () => {
  const t = await createTestApp();
  try {
    const s = await surveyorWithBalance(t);
    const res = await t.request("POST", "/api/billing/checkout", {
      cookie: s.cookie,
      body: { amountCents: 5_000 },
    });
    assertEquals(res.status, 409);
    assertEquals(await res.json(), { message: TOP_UPS_DISABLED_MESSAGE });
    assertEquals((await t.sql`select 1 from stripe_checkout_sessions`).length, 0);
    const billing = await (await t.request("GET", "/api/billing", { cookie: s.cookie })).json();
    assertEquals(billing.topUpsEnabled, false);
  } finally {
    t.close();
  }
});

test("[billing] a surveyor account with no linked record has no billing (404)", async () => {
  const { t, done } = await stripeApp();
  try {
    const { cookie } = await createSignedInUser(t, { role: "surveyor" });
    for (
      const [method, body] of [["GET", undefined], ["POST", { amountCents: 5_000 }]] as const
    ) {
      const path = method === "GET" ? "/api/billing" : "/api/billing/checkout";
      const res = await t.request(method, path, { cookie, body });
      assertEquals(res.status, 404, path);
      assertEquals((await res.json()).message, "No surveyor profile is linked to your account yet");
    }
    assertEquals((await t.sql`select 1 from stripe_checkout_sessions`).length, 0);
  } finally {
    await done();
  }
});

// -------------------------------------------------------------------------------- webhook

test("[webhook] a paid Checkout session credits the balance once; the replayed event changes nothing", async () => {
  const { t, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t, 1_000);
    const sessionId = await startTopUp(t, s.cookie, 10_000);
    const body = paidEvent(sessionId, 10_000, { eventId: "evt_test_paid" });
    const signature = await signPayload(body);
    const first = await deliver(t, body, signature);
    assertEquals(first.status, 200);
    assertEquals((await first.json()).outcome, "credited");
    assertEquals(await balanceOf(t, s.surveyorId), 11_000);
    for (let i = 0; i < 3; i++) {
      const replay = await deliver(t, body, signature);
      assertEquals(replay.status, 200);
      assertEquals((await replay.json()).outcome, "duplicate");
    }
    assertEquals(await balanceOf(t, s.surveyorId), 11_000);
    const rows = await ledgerRows(t, s.surveyorId);
    assertEquals(rows.map((r) => [r.kind, Number(r.amountCents), r.reference]), [
      ["adjustment", 1_000, null],
      ["top_up", 10_000, sessionId],
    ]);
    const [session] = await t.sql`
      select status, completed_at from stripe_checkout_sessions where id = ${sessionId}`;
    assertEquals(session.status, "paid");
    assert(session.completedAt, "completion time recorded");
    // The surveyor sees it in their billing.
    const billing = await (await t.request("GET", "/api/billing", { cookie: s.cookie })).json();
    assertEquals(billing.balanceCents, 11_000);
    assertEquals(billing.topUpsEnabled, true);
    assertEquals(billing.entries[0].kind, "top_up");
    assertEquals(billing.entries[0].amountCents, 10_000);
    assertEquals(billing.entries[0].balanceAfterCents, 11_000);
  } finally {
    await done();
  }
});

test("[webhook] two different events for one session (completed, then async payment succeeded) credit it once", async () => {
  const { t, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    const sessionId = await startTopUp(t, s.cookie, 5_000);
    const completed = await deliverSigned(t, paidEvent(sessionId, 5_000));
    assertEquals((await completed.json()).outcome, "credited");
    const succeeded = await deliverSigned(
      t,
      checkoutEvent({
        type: "checkout.session.async_payment_succeeded",
        sessionId,
        amountCents: 5_000,
      }),
    );
    assertEquals(succeeded.status, 200);
    assertEquals((await succeeded.json()).outcome, "ignored");
    const again = await deliverSigned(t, paidEvent(sessionId, 5_000));
    assertEquals(again.status, 200);
    assertEquals(await balanceOf(t, s.surveyorId), 5_000);
    assertEquals((await ledgerRows(t, s.surveyorId)).length, 1);
    // Every event is recorded as handled.
    assertEquals((await t.sql`select id from stripe_events`).length, 3);
  } finally {
    await done();
  }
});

test("[webhook] concurrent deliveries of one event and of other events for the same session credit once", async () => {
  const { t, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    const sessionId = await startTopUp(t, s.cookie, 25_000);
    const same = paidEvent(sessionId, 25_000, { eventId: "evt_test_same" });
    const bodies = [
      ...Array.from({ length: 6 }, () => same),
      ...Array.from({ length: 6 }, () => paidEvent(sessionId, 25_000)),
    ];
    const answers = await Promise.all(bodies.map((body) => deliverSigned(t, body)));
    const outcomes = await Promise.all(
      answers.map(async (res) => {
        assertEquals(res.status, 200);
        return (await res.json()).outcome;
      }),
    );
    assertEquals(outcomes.filter((o) => o === "credited").length, 1, outcomes.join(", "));
    assertEquals(await balanceOf(t, s.surveyorId), 25_000);
    const rows = await ledgerRows(t, s.surveyorId);
    assertEquals(rows.length, 1);
    assertEquals(Number(rows[0].amountCents), 25_000);
  } finally {
    await done();
  }
});

test("[webhook] a bad, missing or foreign signature is a 400 {message} and changes nothing", async () => {
  const { t, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    const sessionId = await startTopUp(t, s.cookie, 5_000);
    const body = paidEvent(sessionId, 5_000);
    const forged = body.replace('"amount_total":5000', '"amount_total":5001');
    const cases: [string, string, string | null][] = [
      ["no signature", body, null],
      ["garbage", body, "not a signature"],
      ["another endpoint's secret", body, await signPayload(body, { secret: "whsec_other" })],
      ["a body changed after signing", forged, await signPayload(body)],
      [
        "a ten-minute-old signature",
        body,
        await signPayload(body, { timestamp: Math.floor(Date.now() / 1000) - 600 }),
      ],
    ];
    for (const [label, payload, signature] of cases) {
      const res = await deliver(t, payload, signature);
      assertEquals(res.status, 400, label);
      assertMatch(res.headers.get("content-type") ?? "", /^application\/json/);
      const json = await res.json();
      assert(typeof json.message === "string" && json.message.length > 0, label);
    }
    assertEquals(await balanceOf(t, s.surveyorId), 0);
    assertEquals((await t.sql`select 1 from stripe_events`).length, 0);
    const [session] = await t.sql`select status from stripe_checkout_sessions`;
    assertEquals(session.status, "open");
  } finally {
    await done();
  }
});

test("[webhook] only the webhook skips the same-origin check; the surveyor's checkout still needs it", async () => {
  const { t, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    const crossSite = await t.app.request(`${ORIGIN}/api/billing/checkout`, {
      method: "POST",
      headers: { cookie: s.cookie, "content-type": "application/json" },
      body: JSON.stringify({ amountCents: 5_000 }),
    });
    assertEquals(crossSite.status, 403);
    assertEquals((await crossSite.json()).message, "Cross-site request refused");
    assertEquals((await t.sql`select 1 from stripe_checkout_sessions`).length, 0);
  } finally {
    await done();
  }
});

test("[webhook] a session Meridian never created is acknowledged (200) and credits nobody", async () => {
  const { t, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    const res = await deliverSigned(
      t,
      paidEvent("cs_test_notours", 50_000, { surveyorId: s.surveyorId }),
    );
    assertEquals(res.status, 200);
    assertEquals(await res.json(), { received: true, outcome: "ignored" });
    assertEquals(await balanceOf(t, s.surveyorId), 0);
    assertEquals((await t.sql`select 1 from surveyor_ledger`).length, 0);
  } finally {
    await done();
  }
});

test("[webhook] a paid amount or currency other than the session's is ignored and nothing is credited", async () => {
  const { t, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    const sessionId = await startTopUp(t, s.cookie, 5_000);
    for (
      const extra of [{ amountCents: 500_000 }, { amountCents: 4_999 }, { currency: "eur" }]
    ) {
      const res = await deliverSigned(t, paidEvent(sessionId, 5_000, extra));
      assertEquals(res.status, 200);
      assertEquals((await res.json()).outcome, "ignored");
    }
    // Nor is a completion whose payment has not gone through yet.
    const unpaid = await deliverSigned(
      t,
      paidEvent(sessionId, 5_000, { paymentStatus: "unpaid" }),
    );
    assertEquals((await unpaid.json()).outcome, "ignored");
    assertEquals(await balanceOf(t, s.surveyorId), 0);
    const [session] = await t.sql`select status from stripe_checkout_sessions`;
    assertEquals(session.status, "open");
  } finally {
    await done();
  }
});

test("[webhook] an expiry after the payment changes nothing; an expiry of an open session marks it expired", async () => {
  const { t, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    const paid = await startTopUp(t, s.cookie, 5_000);
    await deliverSigned(t, paidEvent(paid, 5_000));
    const late = await deliverSigned(
      t,
      checkoutEvent({ type: "checkout.session.expired", sessionId: paid, amountCents: 5_000 }),
    );
    assertEquals(late.status, 200);
    assertEquals((await late.json()).outcome, "ignored");
    const open = await startTopUp(t, s.cookie, 10_000);
    const expired = await deliverSigned(
      t,
      checkoutEvent({
        type: "checkout.session.expired",
        sessionId: open,
        amountCents: 10_000,
        paymentStatus: "unpaid",
      }),
    );
    assertEquals((await expired.json()).outcome, "expired");
    const statuses = await t.sql<{ id: string; status: string }[]>`
      select id, status from stripe_checkout_sessions`;
    assertEquals(
      Object.fromEntries(statuses.map((r) => [r.id, r.status])),
      { [paid]: "paid", [open]: "expired" },
    );
    assertEquals(await balanceOf(t, s.surveyorId), 5_000);
    assertEquals((await ledgerRows(t, s.surveyorId)).length, 1);
  } finally {
    await done();
  }
});

test("[webhook] other event types are acknowledged and change nothing", async () => {
  const { t, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    const sessionId = await startTopUp(t, s.cookie, 5_000);
    const body = JSON.stringify({
      id: "evt_test_pi",
      object: "event",
      type: "payment_intent.succeeded",
      data: { object: { id: "pi_test_1", object: "payment_intent", amount: 5_000 } },
    });
    const res = await deliverSigned(t, body);
    assertEquals(res.status, 200);
    assertEquals((await res.json()).outcome, "ignored");
    assertEquals(await balanceOf(t, s.surveyorId), 0);
    const [session] = await t
      .sql`select status from stripe_checkout_sessions where id = ${sessionId}`;
    assertEquals(session.status, "open");
  } finally {
    await done();
  }
});

/** `sql` whose transactions fail, while `down.is` is set, as postgres.js does when Postgres is gone. */
function switchableTransactions(sql: Sql) {
  const down = { is: false };
  const proxy = new Proxy(sql, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (prop !== "begin") return value;
      return (...args: unknown[]) =>
        down.is
          ? Promise.reject(
            Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" }),
          )
          : Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
    },
  });
  return { sql: proxy, down };
}

test("[webhook] with the database down the webhook answers 503 so Stripe retries, and the retry credits", async () => {
  const fake = startFakeStripe();
  const db = switchableTransactions((await testDatabase()).sql);
  const t = await createTestApp({ deps: { payments: fakeStripeProvider(fake), sql: db.sql } });
  const error = console.error;
  try {
    const s = await surveyorWithBalance(t);
    const sessionId = await startTopUp(t, s.cookie, 5_000);
    const body = paidEvent(sessionId, 5_000);
    const signature = await signPayload(body);
    db.down.is = true;
    console.error = () => {};
    const res = await deliver(t, body, signature);
    console.error = error;
    assertEquals(res.status, 503);
    assertEquals(await res.json(), { message: UNAVAILABLE_MESSAGE });
    assert(res.headers.get("retry-after"), "Retry-After tells Stripe when to retry");
    assertEquals(await balanceOf(t, s.surveyorId), 0);
    assertEquals((await t.sql`select 1 from stripe_events`).length, 0);
    db.down.is = false;
    const retry = await deliver(t, body, signature);
    assertEquals((await retry.json()).outcome, "credited");
    assertEquals(await balanceOf(t, s.surveyorId), 5_000);
  } finally {
    console.error = error;
    t.close();
    await fake.close();
  }
});

// ---------------------------------------------------------------------- ledger and admin

test("[billing] a surveyor sees only their own ledger, newest first, a page at a time", async () => {
  const t = await createTestApp();
  try {
    const mine = await surveyorWithBalance(t, 0, "Mine Surveying");
    const other = await surveyorWithBalance(t, 7_777, "Other Surveying");
    await t.sql.begin(async (tx) => {
      for (let i = 1; i <= 30; i++) {
        await postLedgerEntry(tx, {
          surveyorId: mine.surveyorId,
          kind: "adjustment",
          amountCents: i * 100,
          note: `Credit ${i}`,
        });
      }
    });
    const first = await t.request("GET", "/api/billing", { cookie: mine.cookie });
    assertEquals(first.status, 200);
    assertMatch(first.headers.get("cache-control") ?? "", /no-store/);
    const page1 = await first.json();
    assertEquals(page1.balanceCents, 46_500);
    assertEquals(page1.entries.length, 25);
    assertEquals(page1.entries[0].note, "Credit 30");
    assertEquals(page1.entries[0].balanceAfterCents, 46_500);
    assert(page1.nextBefore, "a second page");
    const page2 = await (await t.request("GET", `/api/billing?before=${page1.nextBefore}`, {
      cookie: mine.cookie,
    })).json();
    assertEquals(page2.entries.map((e: { note: string }) => e.note), [
      "Credit 5",
      "Credit 4",
      "Credit 3",
      "Credit 2",
      "Credit 1",
    ]);
    assertEquals(page2.nextBefore, null);
    const all = [...page1.entries, ...page2.entries];
    assert(all.every((e) => e.note !== "Opening credit"), "another surveyor's entry leaked");
    // Another surveyor's ledger by id is an admin route.
    const theirs = await t.request("GET", `/api/surveyors/${other.surveyorId}/ledger`, {
      cookie: mine.cookie,
    });
    assertEquals(theirs.status, 403);
  } finally {
    t.close();
  }
});

async function adjust(
  t: TestApp,
  cookie: string,
  surveyorId: string,
  body: Record<string, unknown>,
) {
  return await t.request("POST", `/api/surveyors/${surveyorId}/balance-adjustments`, {
    cookie,
    body,
  });
}

test("[adjustments] an admin adds and removes credit with a note, recorded in their name", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin", fullName: "Alex Admin" });
    const s = await surveyorWithBalance(t);
    const added = await adjust(t, admin.cookie, s.surveyorId, {
      amountCents: 20_000,
      note: "Paid by check #1042",
    });
    assertEquals(added.status, 201);
    const body = await added.json();
    assertEquals(body.message, "Added $200 to the balance");
    assertEquals(body.balanceCents, 20_000);
    assertEquals(body.entry.kind, "adjustment");
    assertEquals(body.entry.note, "Paid by check #1042");
    assertEquals(body.entry.actorName, "Alex Admin");
    const removed = await adjust(t, admin.cookie, s.surveyorId, {
      amountCents: -2_550,
      note: "Refunded by check",
    });
    assertEquals((await removed.json()).message, "Took $25.50 from the balance");
    assertEquals(await balanceOf(t, s.surveyorId), 17_450);
    const ledger = await (await t.request("GET", `/api/surveyors/${s.surveyorId}/ledger`, {
      cookie: admin.cookie,
    })).json();
    assertEquals(ledger.balanceCents, 17_450);
    assertEquals(
      ledger.entries.map((e: { amountCents: number }) => e.amountCents),
      [-2_550, 20_000],
    );
    // The surveyor sees the adjustment with its note.
    const own = await (await t.request("GET", "/api/billing", { cookie: s.cookie })).json();
    assertEquals(own.entries[1].note, "Paid by check #1042");
  } finally {
    t.close();
  }
});

test("[adjustments] only admins adjust; a note is required; zero is refused; an unknown surveyor is 404", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const s = await surveyorWithBalance(t, 5_000);
    for (const role of ["surveyor", "client", "technician"] as const) {
      const { cookie } = await createSignedInUser(t, { role });
      const res = await adjust(t, cookie, s.surveyorId, { amountCents: 10_000, note: "Gift" });
      assertEquals(res.status, 403, role);
    }
    const own = await adjust(t, s.cookie, s.surveyorId, { amountCents: 10_000, note: "Me" });
    assertEquals(own.status, 403);
    for (const note of [undefined, "", "   "]) {
      const res = await adjust(t, admin.cookie, s.surveyorId, { amountCents: 1_000, note });
      assertEquals(res.status, 400, JSON.stringify(note));
      assertEquals((await res.json()).errors.note, "Add a note saying why");
    }
    const zero = await adjust(t, admin.cookie, s.surveyorId, { amountCents: 0, note: "Nothing" });
    assertEquals(zero.status, 400);
    assertEquals((await zero.json()).errors.amountCents, "The amount cannot be zero");
    const unknown = await adjust(t, admin.cookie, crypto.randomUUID(), {
      amountCents: 1_000,
      note: "Who?",
    });
    assertEquals(unknown.status, 404);
    assertEquals(await balanceOf(t, s.surveyorId), 5_000);
    assertEquals((await ledgerRows(t, s.surveyorId)).length, 1);
  } finally {
    t.close();
  }
});

test("[adjustments] removing more than the balance is a 409 naming the balance, and nothing is written", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const s = await surveyorWithBalance(t, 3_250);
    const res = await adjust(t, admin.cookie, s.surveyorId, {
      amountCents: -3_251,
      note: "Too much",
    });
    assertEquals(res.status, 409);
    assertEquals(
      (await res.json()).message,
      "The balance is $32.50: an adjustment cannot take it below zero.",
    );
    assertEquals(await balanceOf(t, s.surveyorId), 3_250);
    assertEquals((await ledgerRows(t, s.surveyorId)).length, 1);
    // Exactly the balance is allowed.
    const all = await adjust(t, admin.cookie, s.surveyorId, { amountCents: -3_250, note: "All" });
    assertEquals(all.status, 201);
    assertEquals(await balanceOf(t, s.surveyorId), 0);
  } finally {
    t.close();
  }
});

// ---------------------------------------------------------------------------- low balance

async function lowBalanceNotices(t: TestApp, user: TestUser) {
  const notes = await t.sql<{ title: string; link: string }[]>`
    select title, link from notifications where user_id = ${user.id} and kind = 'low_balance'`;
  const emails = await t.sql<{ subject: string; text: string }[]>`
    select subject, text from email_outbox where to_address = ${user.email}
      and template = 'low_balance'`;
  return { notes, emails };
}

test("[low balance] a debit that takes the balance below $50 notifies and emails the surveyor, once a day", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const s = await surveyorWithBalance(t, 12_000);
    // Still above the threshold: nothing.
    await adjust(t, admin.cookie, s.surveyorId, { amountCents: -6_000, note: "Lead" });
    assertEquals((await lowBalanceNotices(t, s.user)).notes.length, 0);
    // $60 → $35: crosses it.
    await adjust(t, admin.cookie, s.surveyorId, { amountCents: -2_500, note: "Lead" });
    const first = await lowBalanceNotices(t, s.user);
    assertEquals([...first.notes], [{
      title: "Your balance is low: $35",
      link: "/surveyor/billing",
    }]);
    assertEquals(first.emails.length, 1);
    assertEquals(first.emails[0].subject, "Your Meridian balance is low ($35)");
    assertStringIncludes(first.emails[0].text, `${ORIGIN}/surveyor/billing`);
    // Topped up and crossing again the same day: no second notice.
    await adjust(t, admin.cookie, s.surveyorId, { amountCents: 10_000, note: "Check" });
    await adjust(t, admin.cookie, s.surveyorId, { amountCents: -10_000, note: "Lead" });
    const again = await lowBalanceNotices(t, s.user);
    assertEquals(again.notes.length, 1);
    assertEquals(again.emails.length, 1);
    // A day later it may say so again.
    await t.sql`
      update notifications set created_at = now() - interval '25 hours'
      where user_id = ${s.user.id} and kind = 'low_balance'`;
    await adjust(t, admin.cookie, s.surveyorId, { amountCents: 10_000, note: "Check" });
    await adjust(t, admin.cookie, s.surveyorId, { amountCents: -10_000, note: "Lead" });
    assertEquals((await lowBalanceNotices(t, s.user)).notes.length, 2);
  } finally {
    t.close();
  }
});

test("[low balance] noteLowBalance says nothing for a balance that was already low, a credit, or no account", async () => {
  const t = await createTestApp();
  try {
    const s = await surveyorWithBalance(t, LOW_BALANCE_THRESHOLD_CENTS - 1_000);
    const publicUrl = ORIGIN;
    const debit = (surveyorId: string, amountCents: number) =>
      t.sql.begin(async (tx) => {
        const entry = await postLedgerEntry(tx, {
          surveyorId,
          kind: "lead_purchase",
          amountCents,
        });
        return await noteLowBalance(tx, {
          surveyorId,
          balanceAfterCents: entry!.balanceAfterCents,
          publicUrl,
        });
      });
    // $40 → $30: it was already low.
    assertEquals(await debit(s.surveyorId, -1_000), false);
    // A record with no account: nobody to tell.
    const unlinked = await insertSurveyor(t.sql, { companyName: "No Account Surveying" });
    await t.sql.begin((tx) =>
      postLedgerEntry(tx, {
        surveyorId: unlinked.id,
        kind: "adjustment",
        amountCents: 6_000,
      })
    );
    assertEquals(await debit(unlinked.id, -2_000), false);
    // A credit never is.
    const credited = await t.sql.begin(async (tx) => {
      const entry = await postLedgerEntry(tx, {
        surveyorId: s.surveyorId,
        kind: "adjustment",
        amountCents: 100,
      });
      return await noteLowBalance(tx, {
        surveyorId: s.surveyorId,
        balanceAfterCents: entry!.balanceAfterCents,
        publicUrl,
      });
    });
    assertEquals(credited, false);
    assertEquals((await t.sql`select 1 from notifications where kind = 'low_balance'`).length, 0);
    // Crossing from exactly $50 counts.
    const edge = await surveyorWithBalance(t, LOW_BALANCE_THRESHOLD_CENTS, "Edge Surveying");
    assertEquals(await debit(edge.surveyorId, -1), true);
  } finally {
    t.close();
  }
});

// ---------------------------------------------------------------------------------- pages

test("[billing page] shows the balance, the history and, without Stripe, how to get credit", async () => {
  const t = await createTestApp();
  try {
    const s = await surveyorWithBalance(t, 3_000);
    const { res, html } = await loadPage(t, "/surveyor/billing", s.cookie);
    assertEquals(res.status, 200);
    assertHtml(res);
    const text = html.replaceAll("<!-- -->", "");
    assertStringIncludes(text, "<h1>Billing</h1>");
    assertStringIncludes(text, "$30");
    assertStringIncludes(text, "Your balance is below $50");
    assertStringIncludes(text, TOP_UPS_DISABLED_MESSAGE);
    assertStringIncludes(text, "Opening credit");
    assertStringIncludes(text, "+$30");
    assert(!text.includes('data-island="BillingTopUp"'), "no card form without Stripe");
    assertStringIncludes(text, 'href="/surveyor/billing" aria-current="page"');
  } finally {
    t.close();
  }
});

test("[billing page] with Stripe it offers the amounts; back from Stripe it never claims credit the webhook has not posted", async () => {
  const { t, done } = await stripeApp();
  try {
    const s = await surveyorWithBalance(t);
    const form = islandProps<{ choicesCents: number[]; minCents: number; maxCents: number }>(
      (await loadPage(t, "/surveyor/billing", s.cookie)).html,
      "BillingTopUp",
    );
    assertEquals(form, {
      choicesCents: [5_000, 10_000, 25_000, 50_000],
      minCents: 2_000,
      maxCents: 200_000,
    });
    const sessionId = await startTopUp(t, s.cookie, 10_000);
    const back = `/surveyor/billing?topup=success&session_id=${sessionId}`;
    const pending = (await loadPage(t, back, s.cookie)).html.replaceAll("<!-- -->", "");
    assertStringIncludes(pending, TOP_UP_PENDING_TEXT);
    assert(!pending.includes("was added to your balance"), "claimed credit before the webhook");
    await deliverSigned(t, paidEvent(sessionId, 10_000));
    const credited = (await loadPage(t, back, s.cookie)).html.replaceAll("<!-- -->", "");
    assertStringIncludes(credited, "Payment received — $100 was added to your balance.");
    // Someone else's session id says nothing about theirs.
    const other = await surveyorWithBalance(t, 0, "Other Surveying");
    const foreign = (await loadPage(
      t,
      back,
      other.cookie,
    )).html.replaceAll("<!-- -->", "");
    assertStringIncludes(foreign, TOP_UP_UNKNOWN_TEXT);
    assert(!foreign.includes("Payment received"), "another surveyor's payment shown");
    const cancelled = (await loadPage(t, "/surveyor/billing?topup=cancelled", s.cookie)).html;
    assertStringIncludes(cancelled, TOP_UP_CANCELLED_TEXT);
    // A checkout that ran out unpaid, or an address naming none: no payment is claimed.
    const unpaid = await startTopUp(t, s.cookie, 5_000);
    await deliverSigned(
      t,
      checkoutEvent({
        type: "checkout.session.expired",
        sessionId: unpaid,
        amountCents: 5_000,
        paymentStatus: "unpaid",
      }),
    );
    for (
      const [path, text] of [
        [`/surveyor/billing?topup=success&session_id=${unpaid}`, TOP_UP_EXPIRED_TEXT],
        ["/surveyor/billing?topup=success&session_id=cs_test_nothing", TOP_UP_UNKNOWN_TEXT],
        ["/surveyor/billing?topup=success", TOP_UP_UNKNOWN_TEXT],
      ]
    ) {
      const html = (await loadPage(t, path, s.cookie)).html.replaceAll("<!-- -->", "");
      assertStringIncludes(html, text, path);
      assert(!html.includes("Payment received"), `${path} claims a payment`);
    }
  } finally {
    await done();
  }
});

test("[billing page] a surveyor account with no record is told so; other roles get the 403 page", async () => {
  const t = await createTestApp();
  try {
    const { cookie } = await createSignedInUser(t, { role: "surveyor" });
    const { res, html } = await loadPage(t, "/surveyor/billing", cookie);
    assertEquals(res.status, 200);
    assertStringIncludes(html, "No surveyor profile yet");
    const client = await createSignedInUser(t, { role: "client" });
    assertEquals((await loadPage(t, "/surveyor/billing", client.cookie)).res.status, 403);
  } finally {
    t.close();
  }
});

test("[admin page] a surveyor record shows its Balance card with the newest entries", async () => {
  const t = await createTestApp();
  try {
    const admin = await createSignedInUser(t, { role: "admin" });
    const s = await surveyorWithBalance(t, 4_200);
    const { res, html } = await loadPage(t, `/surveyor-detail/${s.surveyorId}`, admin.cookie);
    assertEquals(res.status, 200);
    const props = islandProps<
      { surveyorId: string; balanceCents: number; entries: { note: string }[] }
    >(html, "BalanceAdjustment");
    assertEquals(props.surveyorId, s.surveyorId);
    assertEquals(props.balanceCents, 4_200);
    assertEquals(props.entries.map((e) => e.note), ["Opening credit"]);
  } finally {
    t.close();
  }
});
