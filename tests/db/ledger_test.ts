/**
 * db/ledger.ts: credits and debits move the balance and write one entry each, a debit beyond
 * the balance writes nothing and leaves the transaction usable, concurrent debits never take
 * the balance below zero (real concurrency on Postgres with DATABASE_URL set: a pool of 10,
 * separate connections; on PGlite the same calls take turns), and the ledger is append-only.
 */
import { assert, assertEquals, assertRejects } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import {
  getBalance,
  InsufficientBalanceError,
  LEDGER_PAGE_SIZE,
  listLedgerEntries,
  postLedgerEntry,
} from "../../db/ledger.ts";

const isRealPostgres = Boolean(Deno.env.get("DATABASE_URL"));

async function newSurveyor(t: TestApp, name = "Ledger Surveying") {
  return (await insertSurveyor(t.sql, { companyName: name })).id;
}

async function ledgerSum(t: TestApp, surveyorId: string): Promise<number> {
  const [row] = await t.sql<{ sum: string | null }[]>`
    select sum(amount_cents) as sum from surveyor_ledger where surveyor_id = ${surveyorId}`;
  return Number(row.sum ?? 0);
}

test("[ledger] a credit and a debit move the balance and record who, why and what it left", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin", fullName: "Ada Admin" });
  const id = await newSurveyor(t);
  const credit = await t.sql.begin((tx) =>
    postLedgerEntry(tx, {
      surveyorId: id,
      kind: "top_up",
      amountCents: 50_00,
      reference: "cs_test_1",
    })
  );
  assertEquals(credit?.balanceAfterCents, 50_00);
  const debit = await t.sql.begin((tx) =>
    postLedgerEntry(tx, {
      surveyorId: id,
      kind: "adjustment",
      amountCents: -12_50,
      note: "Correction",
      actorId: admin.id,
    })
  );
  assertEquals(debit?.balanceAfterCents, 37_50);
  assertEquals(await getBalance(t.sql, { surveyorId: id }), 37_50);
  assertEquals(await ledgerSum(t, id), 37_50);
  const entries = await listLedgerEntries(t.sql, { surveyorId: id });
  assertEquals(entries.map((e) => [e.kind, e.amountCents, e.balanceAfterCents]), [
    ["adjustment", -12_50, 37_50],
    ["top_up", 50_00, 50_00],
  ]);
  assertEquals(entries[0].actorName, "Ada Admin");
  assertEquals(entries[0].note, "Correction");
  assertEquals(entries[1].reference, "cs_test_1");
  assertEquals(entries[1].actorName, null);
  // Keyset paging: before the newest, only the older one.
  const older = await listLedgerEntries(t.sql, { surveyorId: id, before: entries[0].id });
  assertEquals(older.map((e) => e.id), [entries[1].id]);
  t.close();
});

test("[ledger] a debit beyond the balance throws InsufficientBalanceError and writes nothing", async () => {
  const t = await createTestApp();
  const id = await newSurveyor(t);
  await t.sql.begin((tx) =>
    postLedgerEntry(tx, { surveyorId: id, kind: "top_up", amountCents: 12_00, reference: "a" })
  );
  const after = await t.sql.begin(async (tx) => {
    const err = await assertRejects(() =>
      postLedgerEntry(tx, { surveyorId: id, kind: "lead_purchase", amountCents: -38_50 })
    );
    assert(err instanceof InsufficientBalanceError, String(err));
    assertEquals(err.balanceCents, 12_00);
    assertEquals(err.neededCents, 38_50);
    // The transaction is still usable: a smaller debit in it goes through.
    return await postLedgerEntry(tx, { surveyorId: id, kind: "adjustment", amountCents: -2_00 });
  });
  assertEquals(after?.balanceAfterCents, 10_00);
  assertEquals(await getBalance(t.sql, { surveyorId: id }), 10_00);
  const entries = await listLedgerEntries(t.sql, { surveyorId: id });
  assertEquals(entries.map((e) => e.amountCents), [-2_00, 12_00]);
  t.close();
});

test("[ledger] zero, fractional and unknown-surveyor entries are refused; the balance never reads for a stranger", async () => {
  const t = await createTestApp();
  const id = await newSurveyor(t);
  for (const amountCents of [0, 1.5, Number.NaN]) {
    await assertRejects(() =>
      t.sql.begin((tx) => postLedgerEntry(tx, { surveyorId: id, kind: "top_up", amountCents }))
    );
  }
  const stranger = crypto.randomUUID();
  assertEquals(
    await t.sql.begin((tx) =>
      postLedgerEntry(tx, { surveyorId: stranger, kind: "top_up", amountCents: 5_00 })
    ),
    undefined,
  );
  assertEquals(await getBalance(t.sql, { surveyorId: stranger }), undefined);
  const [{ n }] = await t.sql`select count(*)::int as n from surveyor_ledger`;
  assertEquals(n, 0);
  t.close();
});

test("[ledger] concurrent debits never take the balance below zero, and the ledger always sums to it", async () => {
  const t = await createTestApp();
  for (let round = 0; round < (isRealPostgres ? 5 : 1); round++) {
    const id = await newSurveyor(t, `Racer ${round}`);
    await t.sql.begin((tx) =>
      postLedgerEntry(tx, {
        surveyorId: id,
        kind: "top_up",
        amountCents: 100_00,
        reference: `r${round}`,
      })
    );
    // 12 debits of $15 against $100: exactly 6 fit.
    const results = await Promise.allSettled(
      Array.from(
        { length: 12 },
        () =>
          t.sql.begin((tx) =>
            postLedgerEntry(tx, { surveyorId: id, kind: "lead_purchase", amountCents: -15_00 })
          ),
      ),
    );
    const ok = results.filter((r) => r.status === "fulfilled").length;
    const refused = results.filter((r) =>
      r.status === "rejected" && r.reason instanceof InsufficientBalanceError
    ).length;
    assertEquals([ok, refused], [6, 6], `round ${round}`);
    assertEquals(await getBalance(t.sql, { surveyorId: id }), 10_00);
    assertEquals(await ledgerSum(t, id), 10_00);
    const entries = await listLedgerEntries(t.sql, { surveyorId: id, limit: LEDGER_PAGE_SIZE });
    // Each entry's balance-after is the running sum in the order they were written.
    let running = 0;
    for (const entry of [...entries].reverse()) {
      running += entry.amountCents;
      assertEquals(entry.balanceAfterCents, running);
      assert(entry.balanceAfterCents >= 0);
    }
  }
  t.close();
});

test("[ledger] entries are append-only, and one Stripe reference credits once", async () => {
  const t = await createTestApp();
  const id = await newSurveyor(t);
  const entry = await t.sql.begin((tx) =>
    postLedgerEntry(tx, {
      surveyorId: id,
      kind: "top_up",
      amountCents: 20_00,
      reference: "evt_1",
    })
  );
  await assertRejects(() =>
    t.sql`update surveyor_ledger set amount_cents = 1_000_00 where id = ${entry!.id}`
  );
  // The same Stripe reference cannot credit twice; the balance stays as it was.
  await assertRejects(() =>
    t.sql.begin((tx) =>
      postLedgerEntry(tx, {
        surveyorId: id,
        kind: "top_up",
        amountCents: 20_00,
        reference: "evt_1",
      })
    )
  );
  assertEquals(await getBalance(t.sql, { surveyorId: id }), 20_00);
  const entries = await listLedgerEntries(t.sql, { surveyorId: id });
  assertEquals(entries.map((e) => e.amountCents), [20_00]);
  t.close();
});
