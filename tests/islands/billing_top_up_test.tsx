/**
 * The billing islands against the real app: the surveyor's top-up form and the admin's
 * Balance card on /surveyor-detail/{id}. The payment provider is an in-process stand-in: the
 * stripe package's request events do not survive happy-dom's Event globals, and the real
 * provider against the fake Stripe API is tests/routes/billing_test.ts's and
 * tests/lib/payments_stripe_test.ts's.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import {
  type CheckoutRequest,
  PaymentProviderError,
  type PaymentsProvider,
} from "../../lib/payments/provider.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: BillingTopUp, CHECKOUT_FAILED_TITLE } = await import(
  "../../islands/BillingTopUp.tsx"
);
const { default: BalanceAdjustment, ADJUSTMENT_FAILED_TITLE } = await import(
  "../../islands/BalanceAdjustment.tsx"
);
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");
const { dollarsToCents } = await import("../../islands/_billing.ts");
type TopUpProps = import("../../islands/BillingTopUp.tsx").BillingTopUpProps;
type CardProps = import("../../islands/BalanceAdjustment.tsx").BalanceAdjustmentProps;

function shown(text: string | RegExp) {
  return waitFor(() => {
    if (!screen.queryByText(text)) throw new Error(`"${text}" not shown`);
  });
}

function type(label: string | RegExp, value: string) {
  act(() => void fireEvent.change(screen.getByLabelText(label), { target: { value } }));
}

function click(element: HTMLElement) {
  act(() => void fireEvent.click(element));
}

async function balanceOf(t: TestApp, surveyorId: string): Promise<number> {
  const [row] = await t.sql<{ balanceCents: string }[]>`
    select balance_cents from surveyors where id = ${surveyorId}`;
  return Number(row.balanceCents);
}

/** Card payments that record each request and answer like Stripe, or fail when told to. */
function standInPayments() {
  const requests: CheckoutRequest[] = [];
  let failNext = false;
  const payments: PaymentsProvider = {
    name: "stand-in",
    isEnabled: true,
    createCheckoutSession(input) {
      requests.push(input);
      if (failNext) {
        failNext = false;
        return Promise.reject(new PaymentProviderError("Stripe answered 500"));
      }
      const id = `cs_test_${crypto.randomUUID().replaceAll("-", "")}`;
      return Promise.resolve({ id, url: `https://checkout.stripe.com/c/pay/${id}` });
    },
    parseWebhook: () => Promise.reject(new Error("not used")),
  };
  return { payments, requests, failNext: () => (failNext = true) };
}

/** A surveyor on /surveyor/billing with card payments configured, the form rendered. */
async function openBilling() {
  dismissToast();
  const fake = standInPayments();
  const t = await createTestApp({ deps: { payments: fake.payments } });
  const { user, cookie } = await createSignedInUser(t, { role: "surveyor" });
  const record = await insertSurveyor(t.sql, {
    companyName: "Ortiz Land Surveying",
    userId: user.id,
  });
  const { html } = await loadPage(t, "/surveyor/billing", cookie);
  const props = islandProps<TopUpProps>(html, "BillingTopUp");
  const api = useAppFetch(t, { cookie });
  const visits: string[] = [];
  render(
    <>
      <BillingTopUp {...props} navigate={(url) => visits.push(url)} />
      <Toaster />
    </>,
  );
  return {
    t,
    fake,
    record,
    visits,
    api,
    done() {
      api.restore();
      cleanup();
      t.close();
    },
  };
}

test("[top-up island] dollars as typed become whole cents; anything else is not an amount", () => {
  assertEquals(dollarsToCents("150"), 15_000);
  assertEquals(dollarsToCents("$1,250.50"), 125_050);
  assertEquals(dollarsToCents(" 20.5 "), 2_050);
  for (const bad of ["", "abc", "-20", "20.505", "1e3", "20,00.1.2"]) {
    assertEquals(dollarsToCents(bad), undefined, bad);
  }
});

test("[top-up island] a chosen amount opens Stripe's page for exactly that amount", async () => {
  const ui = await openBilling();
  try {
    click(screen.getByLabelText("$250"));
    click(screen.getByRole("button", { name: "Continue to payment" }));
    await waitFor(() => assertEquals(ui.visits.length, 1));
    const [session] = await ui.t.sql<{ id: string; amountCents: number }[]>`
      select id, amount_cents from stripe_checkout_sessions`;
    assertEquals(session.amountCents, 25_000);
    assertEquals(ui.visits[0], `https://checkout.stripe.com/c/pay/${session.id}`);
    // Nothing is credited by opening the page.
    assertEquals(await balanceOf(ui.t, ui.record.id), 0);
  } finally {
    ui.done();
  }
});

test("[top-up island] another amount must be between $20 and $2,000, checked before anything is sent", async () => {
  const ui = await openBilling();
  try {
    click(screen.getByLabelText("Other amount"));
    type(/^Other amount \(US dollars\)/, "15");
    click(screen.getByRole("button", { name: "Continue to payment" }));
    await shown("Choose an amount between $20 and $2,000");
    type(/^Other amount \(US dollars\)/, "twenty");
    click(screen.getByRole("button", { name: "Continue to payment" }));
    await shown("Enter an amount in dollars, between $20 and $2,000");
    assertEquals(ui.api.calls.length, 0);
    type(/^Other amount \(US dollars\)/, "75.50");
    click(screen.getByRole("button", { name: "Continue to payment" }));
    await waitFor(() => assertEquals(ui.visits.length, 1));
    assertEquals(ui.fake.requests[0].amountCents, 7_550);
  } finally {
    ui.done();
  }
});

test("[top-up island] when Stripe fails the surveyor sees why and stays on the page", async () => {
  const ui = await openBilling();
  const error = console.error;
  console.error = () => {};
  try {
    ui.fake.failNext();
    click(screen.getByRole("button", { name: "Continue to payment" }));
    await shown(CHECKOUT_FAILED_TITLE);
    assert(screen.getByText(/Nothing was charged/));
    assertEquals(ui.visits.length, 0);
    const button = screen.getByRole("button", { name: "Continue to payment" }) as HTMLButtonElement;
    assertEquals(button.disabled, false);
  } finally {
    console.error = error;
    ui.done();
  }
});

/** An admin on a surveyor record with `balanceCents`, the Balance card rendered. */
async function openBalanceCard(balanceCents: number) {
  dismissToast();
  const t = await createTestApp();
  const { cookie } = await createSignedInUser(t, { role: "admin", fullName: "Alex Admin" });
  const record = await insertSurveyor(t.sql, { companyName: "Ortiz Land Surveying" });
  if (balanceCents) {
    await t.sql`update surveyors set balance_cents = ${balanceCents} where id = ${record.id}`;
    await t.sql`
      insert into surveyor_ledger (surveyor_id, kind, amount_cents, balance_after_cents, note)
      values (${record.id}, 'adjustment', ${balanceCents}, ${balanceCents}, 'Opening credit')`;
  }
  const { html } = await loadPage(t, `/surveyor-detail/${record.id}`, cookie);
  const props = islandProps<CardProps>(html, "BalanceAdjustment");
  const api = useAppFetch(t, { cookie });
  render(
    <>
      <BalanceAdjustment {...props} />
      <Toaster />
    </>,
  );
  return {
    t,
    record,
    api,
    done() {
      api.restore();
      cleanup();
      t.close();
    },
  };
}

test("[balance card] an admin adds credit with a note; the balance and history update", async () => {
  const ui = await openBalanceCard(1_000);
  try {
    const balance = () => document.querySelector(".billing-balance__value")?.textContent;
    assertEquals(balance(), "$10");
    type("Amount (US dollars)", "40");
    type(/^Note/, "Paid by check #1042");
    click(screen.getByRole("button", { name: "Add credit" }));
    await shown("Added $40 to the balance");
    assertEquals(balance(), "$50");
    assert(screen.getByText("+$40"));
    assert(screen.getByText("Paid by check #1042"));
    assert(screen.getByText("by Alex Admin"));
    assertEquals(await balanceOf(ui.t, ui.record.id), 5_000);
  } finally {
    ui.done();
  }
});

test("[balance card] a note is required, and removing more than the balance is refused", async () => {
  const ui = await openBalanceCard(1_000);
  try {
    type("Amount (US dollars)", "5");
    click(screen.getByRole("button", { name: "Add credit" }));
    await shown("Add a note saying why");
    assertEquals(ui.api.calls.length, 0);
    click(screen.getByLabelText("Remove credit"));
    type("Amount (US dollars)", "12");
    type(/^Note/, "Correction");
    click(screen.getByRole("button", { name: "Remove credit" }));
    await shown("The balance is $10: remove at most that");
    assertEquals(ui.api.calls.length, 0);
    assertEquals(await balanceOf(ui.t, ui.record.id), 1_000);
  } finally {
    ui.done();
  }
});

test("[balance card] the server's refusal is shown when the balance changed meanwhile", async () => {
  const ui = await openBalanceCard(1_000);
  try {
    // Spent elsewhere after the page loaded.
    await ui.t.sql`update surveyors set balance_cents = 200 where id = ${ui.record.id}`;
    click(screen.getByLabelText("Remove credit"));
    type("Amount (US dollars)", "5");
    type(/^Note/, "Correction");
    click(screen.getByRole("button", { name: "Remove credit" }));
    await shown(ADJUSTMENT_FAILED_TITLE);
    assert(screen.getByText("The balance is $2: an adjustment cannot take it below zero."));
    assertEquals(await balanceOf(ui.t, ui.record.id), 200);
  } finally {
    ui.done();
  }
});
