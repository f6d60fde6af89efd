/**
 * The surveyor's balance history on /surveyor/billing names the lead of a purchase or a
 * return, never Meridian's internal references (issue 21: "refund_request:…" was shown).
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { loadPage } from "../_pages.ts";
import { addBuyer, addPurchase, addSurveyWithLead } from "../_refund_fixtures.ts";
import { refundPurchase } from "../../lib/refunds.ts";

test("[billing page] a returned purchase links the lead and shows no internal reference", async () => {
  const t = await createTestApp();
  try {
    const buyer = await addBuyer(t, "Barton Creek Surveying");
    const { lead } = await addSurveyWithLead(t, await signInAs(t, "client"));
    const purchaseId = await addPurchase(t, lead, buyer);
    const requestId = crypto.randomUUID();
    const outcome = await t.sql.begin((tx) =>
      refundPurchase(tx, { purchaseId, reason: "invalid_contact", actorId: null, requestId })
    );
    assertEquals(outcome.status, "refunded");
    const { res, html } = await loadPage(t, "/surveyor/billing", buyer.cookie);
    assertEquals(res.status, 200);
    assert(!html.includes("refund_request:"), "no internal reference");
    assert(!html.includes(requestId), "no request id");
    assert(!html.includes("test-"), "no payment reference");
    const links = html.match(new RegExp(`href="/surveyor/purchased-leads/${lead.id}"`, "g"));
    assertEquals(links?.length, 2, "the purchase and the refund both link the lead");
    assertStringIncludes(html, "Returned: the client&#x27;s contact details were invalid");
  } finally {
    t.close();
  }
});
