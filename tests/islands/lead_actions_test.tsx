import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { countRows } from "../_fixtures.ts";
import {
  addLead,
  addMarketSurveyor,
  balanceAndLedger,
  type MarketSurveyorOptions,
} from "../_lead_fixtures.ts";
import { buyLead } from "../../db/lead_market.ts";
import { postLedgerEntry } from "../../db/ledger.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor, within } = await import(
  "@testing-library/react"
);
const { default: LeadActions } = await import("../../islands/LeadActions.tsx");
type LeadActionsProps = import("../../islands/LeadActions.tsx").LeadActionsProps;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");

/** A $38.50 boundary lead (10% of the $385 quote) and a surveyor who may buy it. */
async function setup(
  t: TestApp,
  { surveyor: options = {}, maxBuyers = 3 }: {
    surveyor?: MarketSurveyorOptions;
    maxBuyers?: number;
  } = {},
) {
  const client = await signInAs(t, "client");
  const { lead } = await addLead(t, client, { maxBuyers });
  const buyer = await addMarketSurveyor(t, "Barton Creek Surveying", {
    balanceCents: 100_00,
    ...options,
  });
  return { lead, buyer };
}

/**
 * /surveyor/leads/{id} as the server renders it for `cookie`, fetch reaching the app (but for
 * `canned` answers).
 */
async function mount(
  t: TestApp,
  leadId: string,
  cookie: string,
  canned: Record<string, Answer> = {},
) {
  const { res, html } = await loadPage(t, `/surveyor/leads/${leadId}`, cookie);
  assertEquals(res.status, 200);
  const props = islandProps<LeadActionsProps>(html, "LeadActions");
  const api = useAppFetch(t, { cookie, canned });
  const navigations: string[] = [];
  const restoreNavigate = setNavigateHandler((url) => navigations.push(url));
  render(<LeadActions {...props} />);
  await waitFor(() => assert(document.querySelector(".lead-actions[data-hydrated]")));
  return {
    api,
    props,
    navigations,
    done() {
      cleanup();
      api.restore();
      restoreNavigate();
      dismissToast();
      try {
        sessionStorage.clear();
      } catch {
        // No storage: nothing to clear.
      }
      t.close();
    },
  };
}

function dialog(): HTMLDialogElement {
  return document.querySelector("dialog")!;
}

async function press(name: string | RegExp, inside?: HTMLElement) {
  const scope = inside ? within(inside) : screen;
  await act(() => void fireEvent.click(scope.getByRole("button", { name })));
}

test("[lead actions] Buy asks first with the price and the balance after, then buys and opens the purchased lead", async () => {
  const t = await createTestApp();
  const { lead, buyer } = await setup(t);
  const m = await mount(t, lead.id, buyer.cookie);
  try {
    assertEquals(lead.priceCents, 38_50);
    await press("Buy lead · $38.50");
    assertEquals(dialog().open, true);
    assertEquals(
      within(dialog()).getByRole("heading").textContent,
      "Buy this lead for $38.50?",
    );
    assertMatch(dialog().textContent ?? "", /Your balance after: \$61\.50\./);
    assertMatch(
      dialog().textContent ?? "",
      /the client's name, phone, email, exact address, parcel data and the full request/,
    );
    assertEquals(m.api.calls, [], "nothing is sent before the confirmation");

    await press("Buy lead", dialog());
    await waitFor(() =>
      assertEquals(m.navigations, [`/surveyor/purchased-leads/${encodeURIComponent(lead.id)}`])
    );
    assertEquals(m.api.calls.map((c) => `${c.method} ${c.path}`), [
      `POST /api/leads/${lead.id}/buy`,
    ]);
    assertEquals(await balanceAndLedger(t, buyer.surveyor.id), {
      balance: 61_50,
      ledger: 61_50,
      entries: 2,
    });
    assert(getToasts()[0]?.title, "a toast says what happened");
  } finally {
    m.done();
  }
});

test("[lead actions] Cancel closes the dialog and nothing is bought", async () => {
  const t = await createTestApp();
  const { lead, buyer } = await setup(t);
  const m = await mount(t, lead.id, buyer.cookie);
  try {
    await press("Buy lead · $38.50");
    await press("Cancel", dialog());
    assertEquals(dialog().open, false);
    assertEquals(m.api.calls, []);
    assertEquals(await countRows(t, "lead_purchases"), 0);
  } finally {
    m.done();
  }
});

test("[lead actions] a balance too low says so in the dialog, links to billing and offers no Buy", async () => {
  const t = await createTestApp();
  const { lead, buyer } = await setup(t, { surveyor: { balanceCents: 20_00 } });
  const m = await mount(t, lead.id, buyer.cookie);
  try {
    await press("Buy lead · $38.50");
    const text = dialog().textContent ?? "";
    assertMatch(text, /Your balance is \$20\.00, \$18\.50 short of the \$38\.50 this costs/);
    const link = within(dialog()).getByRole("link", { name: "Add credit" });
    assertEquals(link.getAttribute("href"), "/surveyor/billing");
    assertEquals(within(dialog()).queryByRole("button", { name: "Buy lead" }), null);
    assertEquals(m.api.calls, []);
  } finally {
    m.done();
  }
});

test("[lead actions] a 402 (the balance fell meanwhile) shows the server's low-balance message and the billing link", async () => {
  const t = await createTestApp();
  const { lead, buyer } = await setup(t);
  const m = await mount(t, lead.id, buyer.cookie);
  try {
    // Spent elsewhere after the page loaded: $5 left.
    await t.sql.begin((tx) =>
      postLedgerEntry(tx, {
        surveyorId: buyer.surveyor.id,
        kind: "adjustment",
        amountCents: -95_00,
        note: "test",
      })
    );
    await press("Buy lead · $38.50");
    await press("Buy lead", dialog());
    await waitFor(() => assert(within(dialog()).queryByRole("alert")));
    const alert = within(dialog()).getByRole("alert");
    assertEquals(
      alert.querySelector("p")?.textContent,
      "Your balance is $5.00; this lead costs $38.50. Add credit to buy it.",
    );
    assertEquals(
      within(alert).getByRole("link", { name: "Add credit" }).getAttribute("href"),
      "/surveyor/billing",
    );
    assertEquals(within(dialog()).queryByRole("button", { name: "Buy lead" }), null);
    assertEquals(m.navigations, []);
    assertEquals(await countRows(t, "lead_purchases"), 0);
    assertEquals((await balanceAndLedger(t, buyer.surveyor.id)).balance, 5_00);
  } finally {
    m.done();
  }
});

test("[lead actions] a lead sold out meanwhile: the dialog gives the reason and nothing is charged", async () => {
  const t = await createTestApp();
  const { lead, buyer } = await setup(t, { maxBuyers: 1 });
  const m = await mount(t, lead.id, buyer.cookie);
  try {
    const rival = await addMarketSurveyor(t, "Quick Surveying", { balanceCents: 100_00 });
    await buyLead(t.sql, {
      leadId: lead.id,
      surveyorId: rival.surveyor.id,
      actorId: null,
      publicUrl: "http://localhost",
    });
    await press("Buy lead · $38.50");
    await press("Buy lead", dialog());
    await waitFor(() => assert(within(dialog()).queryByRole("alert")));
    const alert = within(dialog()).getByRole("alert");
    assertEquals(
      alert.querySelector("p")?.textContent,
      "This lead is sold out: every place has been bought.",
    );
    assertEquals(
      within(alert).getByRole("link", { name: "Back to available leads" }).getAttribute("href"),
      "/leads",
    );
    assertEquals(m.navigations, []);
    assertEquals((await balanceAndLedger(t, buyer.surveyor.id)).balance, 100_00);
  } finally {
    m.done();
  }
});

test("[lead actions] Claim states the client's quote, the fee and the balance after; a welcome claim is free and assigns at once", async () => {
  const t = await createTestApp();
  const client = await signInAs(t, "client");
  const { lead } = await addLead(t, client);
  const veteran = await addMarketSurveyor(t, "Veteran Surveying", { balanceCents: 100_00 });
  const m = await mount(t, lead.id, veteran.cookie);
  try {
    const fee = m.props.lead.claimFeeCents;
    assert(fee > 0, "the welcome claim is used: a fee");
    const dollars = (c: number) =>
      `$${(c / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
    await press(`Claim job · ${dollars(fee)} fee`);
    assertEquals(
      within(dialog()).getByRole("heading").textContent,
      "Claim this job at the client's quote of $385.00?",
    );
    assertMatch(
      dialog().textContent ?? "",
      new RegExp(
        `Claim fee \\${dollars(fee)}\\. Your balance after: \\${dollars(100_00 - fee)}\\.`,
      ),
    );
    await press("Cancel", dialog());
  } finally {
    m.done();
  }

  const t2 = await createTestApp();
  const client2 = await signInAs(t2, "client");
  const { lead: lead2 } = await addLead(t2, client2);
  const newcomer = await addMarketSurveyor(t2, "New Surveying", {
    balanceCents: 10_00,
    welcomeUsed: false,
  });
  const m2 = await mount(t2, lead2.id, newcomer.cookie);
  try {
    assertEquals(m2.props.lead.claimFeeCents, 0);
    await press("Claim job · free welcome claim");
    assertMatch(
      dialog().textContent ?? "",
      /Your welcome claim is free\. Your balance after: \$10\.00\./,
    );
    await press("Claim job", dialog());
    await waitFor(() =>
      assertEquals(m2.navigations, [`/surveyor/purchased-leads/${encodeURIComponent(lead2.id)}`])
    );
    const [closed] = await t2.sql<{ status: string; claimedBy: string }[]>`
      select status, claimed_by from leads where id = ${lead2.id}`;
    assertEquals(closed, { status: "closed", claimedBy: newcomer.surveyor.id });
    assertEquals((await balanceAndLedger(t2, newcomer.surveyor.id)).balance, 10_00);
  } finally {
    m2.done();
  }
});

test("[lead actions] Not interested asks first, hides the lead at no cost and goes back to the list", async () => {
  const t = await createTestApp();
  const { lead, buyer } = await setup(t);
  const m = await mount(t, lead.id, buyer.cookie);
  try {
    await press("Not interested");
    assertMatch(dialog().textContent ?? "", /Nothing is charged/);
    await press("Hide lead", dialog());
    await waitFor(() => assertEquals(m.navigations, ["/leads"]));
    assertEquals(m.api.calls.map((c) => `${c.method} ${c.path}`), [
      `POST /api/leads/${lead.id}/dismiss`,
    ]);
    assertEquals(await countRows(t, "lead_dismissals"), 1);
    assertEquals((await balanceAndLedger(t, buyer.surveyor.id)).balance, 100_00);
  } finally {
    m.done();
  }
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Answers the first `lost` buys like a network that loses the answer: the app gets the
 * request (and commits it), the island gets a network error, then a 502.
 */
function losingAnswers(lost: number): Answer {
  let n = 0;
  return async (_call, app) => {
    const res = await app();
    n++;
    if (n > lost) return res;
    // Canned: a dropped connection or a proxy's 502 cannot come from the app itself.
    if (n % 2 === 1) throw new TypeError("Failed to fetch");
    return new Response("Bad Gateway", { status: 502 });
  };
}

test("[lead actions] a buy whose answer is lost is retried with the same key: charged once, the purchased lead opens", async () => {
  const t = await createTestApp();
  const { lead, buyer } = await setup(t);
  const path = `/api/leads/${lead.id}/buy`;
  const m = await mount(t, lead.id, buyer.cookie, { [`POST ${path}`]: losingAnswers(2) });
  try {
    await press("Buy lead · $38.50");
    await press("Buy lead", dialog());
    await waitFor(() =>
      assertEquals(m.navigations, [`/surveyor/purchased-leads/${encodeURIComponent(lead.id)}`])
    );
    const keys = m.api.calls.map((c) => c.headers.get("idempotency-key"));
    assertEquals(keys.length, 3);
    assertMatch(keys[0] ?? "", UUID);
    assertEquals(new Set(keys).size, 1, "every retry carries the first key");
    assertEquals(await balanceAndLedger(t, buyer.surveyor.id), {
      balance: 61_50,
      ledger: 61_50,
      entries: 2,
    });
    assertEquals(await countRows(t, "lead_purchases"), 1);
  } finally {
    m.done();
  }
});

test("[lead actions] when the retries run out, pressing Buy again is the same intent: same key, charged once", async () => {
  const t = await createTestApp();
  const { lead, buyer } = await setup(t);
  const path = `/api/leads/${lead.id}/buy`;
  const m = await mount(t, lead.id, buyer.cookie, { [`POST ${path}`]: losingAnswers(3) });
  try {
    await press("Buy lead · $38.50");
    await press("Buy lead", dialog());
    await waitFor(() => assertEquals(getToasts()[0]?.title, "Error"));
    assertEquals(m.navigations, []);
    assertEquals(m.api.calls.length, 3);
    await press("Buy lead · $38.50");
    await press("Buy lead", dialog());
    await waitFor(() =>
      assertEquals(m.navigations, [`/surveyor/purchased-leads/${encodeURIComponent(lead.id)}`])
    );
    const keys = m.api.calls.map((c) => c.headers.get("idempotency-key"));
    assertEquals(keys.length, 4);
    assertEquals(new Set(keys).size, 1);
    assertEquals((await balanceAndLedger(t, buyer.surveyor.id)).balance, 61_50);
    assertEquals(await countRows(t, "lead_purchases"), 1);
  } finally {
    m.done();
  }
});
