/**
 * Buy and claim exactly once, also when things fail (issue 20): a buy whose answer is lost and
 * is retried with the same `Idempotency-Key` answers the first purchase's 201 and charges once;
 * two requests with one key at once charge once; a database fault after the commit no longer
 * turns a stored purchase into an error. Runs on PGlite, and on real Postgres when
 * DATABASE_URL is set (there the same-key requests truly overlap: a pool of 10).
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, type TestApp } from "../_helpers.ts";
import { test } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { countRows, expectJson } from "../_fixtures.ts";
import { addLead, addMarketSurveyor, balanceAndLedger } from "../_lead_fixtures.ts";
import { LEAD_MARKET_MESSAGES } from "../../db/lead_market.ts";
import type { Sql } from "../../db/client.ts";

async function setup(t?: TestApp) {
  t ??= await createTestApp();
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  return { t, client };
}

function take(t: TestApp, cookie: string, path: string, key?: string) {
  return t.request("POST", path, {
    cookie,
    headers: key === undefined ? {} : { "idempotency-key": key },
  });
}

test("[lead take once] a buy retried with its key after a lost answer gets the same 201 and is charged once", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const me = await addMarketSurveyor(t, "Able Survey", { balanceCents: 100_00 });
  const key = crypto.randomUUID();
  const path = `/api/leads/${lead.id}/buy`;
  // The first answer is lost on the way (a 502, a dropped connection): the client never sees it.
  const lost = await expectJson(await take(t, me.cookie, path, key), 201);
  const retried = await expectJson(await take(t, me.cookie, path, key), 201);
  assertEquals(retried, lost);
  assertEquals(retried.message, "Lead purchased");
  assertEquals(retried.balanceCents, 100_00 - lead.priceCents);
  assertEquals(retried.lead.client.name, "Dana Client");
  assertEquals(await balanceAndLedger(t, me.surveyor.id), {
    balance: 100_00 - lead.priceCents,
    ledger: 100_00 - lead.priceCents,
    entries: 2,
  });
  assertEquals(await countRows(t, "lead_purchases"), 1);
  const [row] = await t.sql`select buyers_count from leads where id = ${lead.id}`;
  assertEquals(row.buyersCount, 1);
  // A new intent (a new key, or none) on a lead already bought is still the plain refusal.
  const again = await expectJson(await take(t, me.cookie, path, crypto.randomUUID()), 409);
  assertEquals(again.message, LEAD_MARKET_MESSAGES.alreadyBought);
  assertEquals((await expectJson(await take(t, me.cookie, path), 409)).message, again.message);
  t.close();
});

test("[lead take once] a claim retried with its key gets the same 201: one fee, one assignment", async () => {
  const { t, client } = await setup();
  const { lead } = await addLead(t, client.cookie);
  const me = await addMarketSurveyor(t, "Able Survey", { balanceCents: 100_00 });
  const key = crypto.randomUUID();
  const path = `/api/leads/${lead.id}/claim`;
  const lost = await expectJson(await take(t, me.cookie, path, key), 201);
  const retried = await expectJson(await take(t, me.cookie, path, key), 201);
  assertEquals(retried, lost);
  assertEquals(retried.message, "Lead claimed — you are assigned to this survey");
  const fee = lost.lead.chargedCents;
  assert(fee > 0);
  assertEquals(await balanceAndLedger(t, me.surveyor.id), {
    balance: 100_00 - fee,
    ledger: 100_00 - fee,
    entries: 2,
  });
  assertEquals(await countRows(t, "lead_purchases"), 1);
  assertEquals(await countRows(t, "survey_assignments"), 1);
  t.close();
});

test("[lead take once] requests with one key at the same time charge once and all answer the same 201", async () => {
  const { t, client } = await setup();
  const rounds = Deno.env.get("DATABASE_URL") ? 4 : 1;
  for (let round = 0; round < rounds; round++) {
    const { lead } = await addLead(t, client.cookie);
    const me = await addMarketSurveyor(t, `Able Survey ${round}`, { balanceCents: 100_00 });
    const key = crypto.randomUUID();
    const path = `/api/leads/${lead.id}/buy`;
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => take(t, me.cookie, path, key)),
    );
    const bodies = [];
    for (const res of answers) bodies.push(await expectJson(res, 201));
    for (const body of bodies) assertEquals(body, bodies[0]);
    assertEquals(bodies[0].balanceCents, 100_00 - lead.priceCents);
    assertEquals(await balanceAndLedger(t, me.surveyor.id), {
      balance: 100_00 - lead.priceCents,
      ledger: 100_00 - lead.priceCents,
      entries: 2,
    });
    const [row] = await t.sql`select buyers_count,
        (select count(*)::int from lead_purchases p where p.lead_id = l.id) as purchases
      from leads l where l.id = ${lead.id}`;
    assertEquals([row.buyersCount, row.purchases], [1, 1]);
  }
  t.close();
});

test("[lead take once] a key reused for another lead or action is a 422; a key that is not a UUID a 400; nothing charged", async () => {
  const { t, client } = await setup();
  const first = await addLead(t, client.cookie);
  const second = await addLead(t, client.cookie);
  const me = await addMarketSurveyor(t, "Able Survey", { balanceCents: 100_00 });
  const key = crypto.randomUUID();
  await expectJson(await take(t, me.cookie, `/api/leads/${first.lead.id}/buy`, key), 201);
  const before = await balanceAndLedger(t, me.surveyor.id);
  for (const path of [`/api/leads/${second.lead.id}/buy`, `/api/leads/${first.lead.id}/claim`]) {
    const refused = await expectJson(await take(t, me.cookie, path, key), 422);
    assertEquals(refused.message, LEAD_MARKET_MESSAGES.requestKeyReused);
  }
  for (const bad of ["", "abc", "12345678-1234-1234-1234-1234567890123"]) {
    const res = await take(t, me.cookie, `/api/leads/${second.lead.id}/buy`, bad);
    const body = await expectJson(res, 400);
    assertEquals(body.message, "Idempotency-Key must be a UUID");
  }
  assertEquals(await balanceAndLedger(t, me.surveyor.id), before);
  assertEquals(await countRows(t, "lead_purchases"), 1);
  t.close();
});

/** Whether the fault is armed, and whether it has struck (the database is down). */
interface Fault {
  isArmed: boolean;
  isDown: boolean;
}

/**
 * `sql` whose every query fails once a transaction has committed while `fault.isArmed`: the
 * database going away right after the commit (a restart, a dropped connection).
 */
function failingAfterCommit(sql: Sql, fault: Fault): Sql {
  return new Proxy(sql, {
    apply(target, self, args) {
      // Lazy like a postgres.js query: it fails when awaited, not when built.
      if (fault.isDown) {
        return {
          then: (ok: () => unknown, fail: (err: Error) => unknown) =>
            Promise.reject(new Error("connection to the database was lost")).then(ok, fail),
        };
      }
      return Reflect.apply(target, self, args);
    },
    get(target, prop, receiver) {
      if (prop !== "begin") return Reflect.get(target, prop, receiver);
      return async (...args: unknown[]) => {
        const out = await (target.begin as (...a: unknown[]) => Promise<unknown>)(...args);
        if (fault.isArmed) fault.isDown = true;
        return out;
      };
    },
  });
}

test("[lead take once] a buy or claim that committed answers 201 even if the database fails right after the commit", async () => {
  const base = await createTestApp();
  const fault: Fault = { isArmed: false, isDown: false };
  const t = await createTestApp({ deps: { sql: failingAfterCommit(base.sql, fault) } });
  base.close();
  const { client } = await setup(t);
  const me = await addMarketSurveyor(t, "Able Survey", { balanceCents: 200_00 });
  for (const action of ["buy", "claim"]) {
    const { lead } = await addLead(t, client.cookie);
    Object.assign(fault, { isArmed: true, isDown: false });
    const res = await take(t, me.cookie, `/api/leads/${lead.id}/${action}`, crypto.randomUUID());
    const hasStruck = fault.isDown;
    Object.assign(fault, { isArmed: false, isDown: false });
    assert(hasStruck, "the fault struck after the commit");
    const body = await expectJson(res, 201);
    assertEquals(body.lead.id, lead.id);
    assertEquals(body.lead.kind, action);
    assertEquals(body.lead.client.name, "Dana Client");
    const [row] = await t.sql`select count(*)::int as n from lead_purchases
      where lead_id = ${lead.id} and surveyor_id = ${me.surveyor.id}`;
    assertEquals(row.n, 1);
  }
  t.close();
});
