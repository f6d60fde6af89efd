/**
 * Bench set-up shared by the proposal pages' benches: firms named `names` each buy `lead` and
 * send its client a proposal (prices $1,000, $1,100, …, a visit a week from today, an
 * eight-sentence message) through the app's own API. Import it after NODE_ENV is set (it loads
 * the app).
 */
import type { TestApp } from "../tests/_helpers.ts";
import { addBuyer, addPurchase, type Buyer } from "../tests/_refund_fixtures.ts";
import { todayInUs } from "../lib/proposal_schema.ts";

export async function addProposingBuyers(
  t: TestApp,
  lead: Parameters<typeof addPurchase>[1],
  names: readonly string[],
): Promise<Buyer[]> {
  const visit = new Date(`${todayInUs()}T00:00:00Z`);
  visit.setUTCDate(visit.getUTCDate() + 7);
  const buyers: Buyer[] = [];
  for (const [i, name] of names.entries()) {
    const buyer = await addBuyer(t, name);
    await addPurchase(t, lead, buyer);
    buyers.push(buyer);
    const res = await t.request("POST", `/api/purchased-leads/${lead.id}/proposal`, {
      cookie: buyer.cookie,
      body: {
        priceCents: (1000 + 100 * i) * 100,
        earliestVisitDate: visit.toISOString().slice(0, 10),
        turnaroundDays: 5 + i,
        message: "Field visit, corners set, signed plat as a PDF. ".repeat(8).trim(),
      },
    });
    if (res.status !== 201) throw new Error(`proposal ${i}: ${res.status} ${await res.text()}`);
    await res.body?.cancel();
  }
  return buyers;
}
