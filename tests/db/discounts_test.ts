/**
 * Discount codes against the database. The race tests are meaningful on real Postgres
 * (DATABASE_URL set: a pool of 10 connections, transactions truly overlap); on PGlite the pool
 * is one connection, so the same tests check the logic with the transactions serialised.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import {
  checkDiscountCode,
  insertDiscountCode,
  listDiscountCodes,
  type NewDiscountCode,
  redeemDiscountCode,
  setDiscountCodeActive,
} from "../../db/discounts.ts";
import type { Sql } from "../../db/client.ts";
import { makeOlder } from "../_row_order.ts";

const isRealPostgres = Boolean(Deno.env.get("DATABASE_URL"));
const DAY = 24 * 60 * 60 * 1000;

async function setup() {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const client = await createUser(t.sql, { role: "client" });
  const other = await createUser(t.sql, { role: "client" });
  const code = (input: Partial<NewDiscountCode> & { code: string }) =>
    insertDiscountCode(t.sql, { kind: "percent", value: 10, createdBy: admin.id, ...input });
  return { t, admin, client, other, code };
}

async function uses(sql: Sql, code: string) {
  const [row] = await sql<{ uses: number; rows: number }[]>`
    select d.uses, (select count(*)::int from discount_code_uses u where u.code_id = d.id) as rows
    from discount_codes d where lower(d.code) = lower(${code})`;
  return row;
}

/** Resolves once `n` callers have arrived, so overlapping transactions start together. */
function barrier(n: number) {
  let arrived = 0;
  let release!: () => void;
  const all = new Promise<void>((resolve) => (release = resolve));
  return () => {
    if (++arrived === n) release();
    return all;
  };
}

/** Runs `count` transactions that each redeem `code`, overlapping them on real Postgres. */
async function redeemConcurrently(
  sql: Sql,
  code: string,
  clientIds: string[],
) {
  const wait = barrier(clientIds.length);
  return await Promise.all(clientIds.map((clientId) =>
    sql.begin(async (tx) => {
      await tx`select 1`;
      // On PGlite the pool has one connection: transactions cannot overlap, so no barrier.
      if (isRealPostgres) await wait();
      const result = await redeemDiscountCode(tx, { code, clientId });
      if (!result.ok) throw Object.assign(new Error(result.reason), { result });
      return result;
    }).catch((err) => err.result)
  ));
}

test("[discounts] an unknown code is refused as unknown", async () => {
  const { t } = await setup();
  const result = await checkDiscountCode(t.sql, { code: "NOPE123" });
  assertEquals(result.ok, false);
  assertEquals(!result.ok && result.reason, "unknown");
  assertEquals(
    !result.ok && result.message,
    "This discount code doesn't exist. Check the spelling and try again.",
  );
  t.close();
});

test("[discounts] codes match whatever the case, and cannot be created twice", async () => {
  const { t, code } = await setup();
  assert(await code({ code: "Spring25", value: 25 }));
  const result = await checkDiscountCode(t.sql, { code: "  sPrInG25 " });
  assertEquals(result.ok && result.discount.code, "Spring25");
  assertEquals(result.ok && result.discount.value, 25);
  assertEquals(await code({ code: "SPRING25" }), undefined);
  assertEquals((await listDiscountCodes(t.sql)).total, 1);
  t.close();
});

test("[discounts] an expired code says it has expired", async () => {
  const { t, code } = await setup();
  const now = new Date();
  await code({ code: "OLD10", validUntil: new Date(now.getTime() - DAY) });
  const result = await checkDiscountCode(t.sql, { code: "old10", now });
  assertEquals(!result.ok && result.reason, "expired");
  assertEquals(!result.ok && result.message, "This discount code has expired.");
  const redeem = await redeemDiscountCode(t.sql, { code: "OLD10", clientId: crypto.randomUUID() });
  assertEquals(!redeem.ok && redeem.reason, "expired");
  assertEquals(await uses(t.sql, "OLD10"), { uses: 0, rows: 0 });
  t.close();
});

test("[discounts] a code before its start date is not valid yet", async () => {
  const { t, code, client } = await setup();
  const now = new Date();
  await code({ code: "SOON10", validFrom: new Date(now.getTime() + DAY) });
  const result = await checkDiscountCode(t.sql, { code: "SOON10", now });
  assertEquals(!result.ok && result.reason, "not_yet_valid");
  assertEquals(!result.ok && result.message, "This discount code is not valid yet.");
  const later = await checkDiscountCode(t.sql, {
    code: "SOON10",
    now: new Date(now.getTime() + 2 * DAY),
  });
  assertEquals(later.ok, true);
  const redeem = await redeemDiscountCode(t.sql, { code: "SOON10", clientId: client.id, now });
  assertEquals(!redeem.ok && redeem.reason, "not_yet_valid");
  t.close();
});

test("[discounts] a deactivated code is refused as inactive and can come back", async () => {
  const { t, code, client } = await setup();
  const created = (await code({ code: "PAUSE5" }))!;
  const off = await setDiscountCodeActive(t.sql, { id: created.id, active: false });
  assertEquals(off?.active, false);
  const result = await checkDiscountCode(t.sql, { code: "PAUSE5" });
  assertEquals(!result.ok && result.reason, "inactive");
  assertEquals(!result.ok && result.message, "This discount code is no longer active.");
  const redeem = await redeemDiscountCode(t.sql, { code: "PAUSE5", clientId: client.id });
  assertEquals(!redeem.ok && redeem.reason, "inactive");
  await setDiscountCodeActive(t.sql, { id: created.id, active: true });
  assertEquals((await checkDiscountCode(t.sql, { code: "PAUSE5" })).ok, true);
  assertEquals(
    await setDiscountCodeActive(t.sql, { id: crypto.randomUUID(), active: false }),
    undefined,
  );
  t.close();
});

test("[discounts] a code is used up after its maximum uses", async () => {
  const { t, code, client, other } = await setup();
  await code({ code: "TWICE", maxUses: 2 });
  const third = await createUser(t.sql, { role: "client" });
  assertEquals((await redeemDiscountCode(t.sql, { code: "TWICE", clientId: client.id })).ok, true);
  assertEquals((await redeemDiscountCode(t.sql, { code: "twice", clientId: other.id })).ok, true);
  const check = await checkDiscountCode(t.sql, { code: "TWICE" });
  assertEquals(!check.ok && check.reason, "used_up");
  assertEquals(!check.ok && check.message, "This discount code has reached its usage limit.");
  const redeem = await redeemDiscountCode(t.sql, { code: "TWICE", clientId: third.id });
  assertEquals(!redeem.ok && redeem.reason, "used_up");
  assertEquals(await uses(t.sql, "TWICE"), { uses: 2, rows: 2 });
  t.close();
});

test("[discounts] a once-per-client code cannot be used twice by the same client", async () => {
  const { t, code, client, other } = await setup();
  await code({ code: "WELCOME", oncePerClient: true });
  const surveyId = crypto.randomUUID();
  const first = await redeemDiscountCode(t.sql, { code: "WELCOME", clientId: client.id, surveyId });
  assertEquals(first.ok, true);
  const check = await checkDiscountCode(t.sql, { code: "WELCOME", clientId: client.id });
  assertEquals(!check.ok && check.reason, "already_used");
  assertEquals(!check.ok && check.message, "You have already used this discount code.");
  // Without a client (a signed-out quote) the code still checks out.
  assertEquals((await checkDiscountCode(t.sql, { code: "WELCOME" })).ok, true);
  assertEquals((await checkDiscountCode(t.sql, { code: "WELCOME", clientId: other.id })).ok, true);
  const again = await redeemDiscountCode(t.sql, { code: "WELCOME", clientId: client.id });
  assertEquals(!again.ok && again.reason, "already_used");
  // The failed attempt changed nothing.
  assertEquals(await uses(t.sql, "WELCOME"), { uses: 1, rows: 1 });
  const [row] = await t.sql`select survey_id from discount_code_uses`;
  assertEquals(row.surveyId, surveyId);
  t.close();
});

test("[discounts] a multi-use code may be used repeatedly by one client", async () => {
  const { t, code, client } = await setup();
  await code({ code: "LOYAL", oncePerClient: false });
  for (let i = 0; i < 3; i++) {
    assertEquals(
      (await redeemDiscountCode(t.sql, { code: "LOYAL", clientId: client.id })).ok,
      true,
    );
  }
  assertEquals((await checkDiscountCode(t.sql, { code: "LOYAL", clientId: client.id })).ok, true);
  assertEquals(await uses(t.sql, "LOYAL"), { uses: 3, rows: 3 });
  t.close();
});

test("[discounts] a failed redemption inside a transaction leaves the transaction usable", async () => {
  const { t, code, client } = await setup();
  await code({ code: "ONCE", maxUses: 1 });
  assertEquals((await redeemDiscountCode(t.sql, { code: "ONCE", clientId: client.id })).ok, true);
  const other = await createUser(t.sql, { role: "client" });
  const after = await t.sql.begin(async (tx) => {
    const result = await redeemDiscountCode(tx, { code: "ONCE", clientId: other.id });
    const [{ n }] = await tx`select 1 as n`;
    return { result, n };
  });
  assertEquals(!after.result.ok && after.result.reason, "used_up");
  assertEquals(after.n, 1);
  t.close();
});

test("[discounts] RACE: a code with one use left redeemed twice at once succeeds once", async () => {
  const { t, code, client, other } = await setup();
  await code({ code: "LASTONE", maxUses: 1 });
  const results = await redeemConcurrently(t.sql, "LASTONE", [client.id, other.id]);
  assertEquals(results.filter((r) => r.ok).length, 1, JSON.stringify(results));
  const loser = results.find((r) => !r.ok);
  assertEquals(loser?.reason, "used_up");
  assertEquals(await uses(t.sql, "LASTONE"), { uses: 1, rows: 1 });
  t.close();
});

test("[discounts] RACE: ten clients racing for three uses get exactly three", async () => {
  const { t, code } = await setup();
  await code({ code: "THREE", maxUses: 3 });
  const clients = await Promise.all(
    Array.from({ length: 10 }, () => createUser(t.sql, { role: "client" })),
  );
  const results = await redeemConcurrently(t.sql, "THREE", clients.map((c) => c.id));
  assertEquals(results.filter((r) => r.ok).length, 3);
  assertEquals(results.filter((r) => !r.ok && r.reason === "used_up").length, 7);
  assertEquals(await uses(t.sql, "THREE"), { uses: 3, rows: 3 });
  t.close();
});

test("[discounts] RACE: one client submitting twice at once uses a once-per-client code once", async () => {
  const { t, code, client } = await setup();
  await code({ code: "JUSTONCE" });
  const results = await redeemConcurrently(t.sql, "JUSTONCE", [client.id, client.id]);
  assertEquals(results.filter((r) => r.ok).length, 1);
  assertEquals(results.find((r) => !r.ok)?.reason, "already_used");
  assertEquals(await uses(t.sql, "JUSTONCE"), { uses: 1, rows: 1 });
  t.close();
});

test("[discounts] codes list newest first with their use counts", async () => {
  const { t, code, client } = await setup();
  await code({ code: "FIRST1" });
  // A minute older: two inserts in a row can share a timestamp (PGlite's clock), and ties
  // are ordered by id, which says nothing of which came first.
  await makeOlder(t.sql, "discount_codes", { where: t.sql`lower(code) = 'first1'` });
  await code({ code: "SECOND2", kind: "fixed", value: 2_500 });
  await redeemDiscountCode(t.sql, { code: "FIRST1", clientId: client.id });
  const { codes, total } = await listDiscountCodes(t.sql);
  assertEquals(total, 2);
  assertEquals(codes.map((c) => [c.code, c.kind, c.value, c.uses]), [
    ["SECOND2", "fixed", 2_500, 0],
    ["FIRST1", "percent", 10, 1],
  ]);
  // Past the last page: no codes, and still the total.
  const past = await listDiscountCodes(t.sql, { page: 2, pageSize: 2 });
  assertEquals([past.codes, past.total], [[], 2]);
  t.close();
});
