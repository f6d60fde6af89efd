/**
 * The returns queue on /admin (islands/RefundQueue) and the buyer's return form
 * (islands/RefundRequestForm), hydrated on happy-dom with their requests answered by the real
 * app (tests/islands/_fetch.ts).
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import {
  addBuyer,
  addPurchase,
  addSurveyWithLead,
  LEAD_PRICE_CENTS,
  moneyOf,
} from "../_refund_fixtures.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: RefundQueue } = await import("../../islands/RefundQueue.tsx");
type RefundQueueProps = import("../../islands/RefundQueue.tsx").RefundQueueProps;
const { default: RefundRequestForm } = await import("../../islands/RefundRequestForm.tsx");
type RefundRequestFormProps = import("../../islands/RefundRequestForm.tsx").RefundRequestFormProps;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

/** A client's request with its lead, a buyer (Alpha Surveying), and their return request. */
async function queued(t: TestApp, { request = true }: { request?: boolean } = {}) {
  const client = await createSignedInUser(t, { role: "client" });
  const { lead } = await addSurveyWithLead(t, client.cookie);
  const buyer = await addBuyer(t, "Alpha Surveying");
  await addPurchase(t, lead, buyer, { daysAgo: 2 });
  let requestId = "";
  if (request) {
    const res = await t.request("POST", `/api/purchased-leads/${lead.id}/refund-request`, {
      cookie: buyer.cookie,
      body: { reason: "invalid_contact", note: "The phone number is disconnected." },
    });
    assertEquals(res.status, 201);
    requestId = (await res.json()).request.id;
  }
  return { lead, buyer, requestId };
}

/** The admin's returns tab as the server renders it, hydrated, fetch reaching the app. */
async function mountQueue(t: TestApp) {
  dismissToast();
  const admin = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const { html } = await loadPage(t, "/admin?tab=returns", admin.cookie);
  const props = islandProps<RefundQueueProps>(html, "RefundQueue");
  const api = useAppFetch(t, { cookie: admin.cookie });
  render(<RefundQueue {...props} />);
  return {
    html,
    api,
    admin,
    done() {
      cleanup();
      api.restore();
      dismissToast();
      t.close();
    },
  };
}

async function requestStatus(t: TestApp, id: string): Promise<string> {
  const [row] = await t.sql<{ status: string }[]>`
    select status from lead_refund_requests where id = ${id}`;
  return row.status;
}

test("[refund queue] /admin has a Lead returns tab with the pending count, and the queue lists the request", async () => {
  const t = await createTestApp();
  await queued(t);
  const ui = await mountQueue(t);
  try {
    assertMatch(
      ui.html,
      /href="\/admin\?tab=returns" aria-current="page">Lead returns<span class="badge badge--warning admin-tabs__count"><span aria-hidden="true">1<\/span><span class="visually-hidden">, 1 waiting<\/span>/,
    );
    const row = document.querySelector<HTMLElement>("tr[data-request-id]");
    assert(row, "a row per request");
    const text = row.textContent ?? "";
    assertStringIncludes(text, "Alpha Surveying");
    assertStringIncludes(text, "Boundary Survey");
    assertStringIncludes(text, "Austin, TX");
    assertStringIncludes(text, "$38.50");
    assertStringIncludes(text, "Invalid contact details");
    assertStringIncludes(text, "The phone number is disconnected.");
    assertStringIncludes(text, "Today");
  } finally {
    ui.done();
  }
});

test("[refund queue] approving credits the buyer, toasts the server's message and leaves the list", async () => {
  const t = await createTestApp();
  const { buyer, requestId } = await queued(t);
  const ui = await mountQueue(t);
  try {
    fireEvent.click(
      screen.getByRole("button", { name: "Approve the return of $38.50 to Alpha Surveying" }),
    );
    assertEquals(document.querySelector("dialog")!.open, true, "the dialog asks first");
    assertEquals(
      document.getElementById("refund-decision-title")?.textContent,
      "Return $38.50 to Alpha Surveying?",
    );
    assertEquals(await requestStatus(t, requestId), "pending", "nothing before confirming");
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Approve and credit $38.50" }));
      await ui.api.idle();
    });
    await waitFor(() => assertEquals(getToasts()[0]?.title, "Return approved — $38.50 credited"));
    assertEquals(await requestStatus(t, requestId), "approved");
    assertEquals((await moneyOf(t, buyer.surveyorId)).refundCents, LEAD_PRICE_CENTS);
    assertEquals(document.querySelector("tr[data-request-id]"), null);
    assertStringIncludes(
      document.body.textContent ?? "",
      "No return requests are waiting for a decision.",
    );
  } finally {
    ui.done();
  }
});

test("[refund queue] denying asks why first, then toasts 'Return denied'", async () => {
  const t = await createTestApp();
  const { requestId } = await queued(t);
  const ui = await mountQueue(t);
  try {
    fireEvent.click(screen.getByRole("button", { name: "Deny the return to Alpha Surveying" }));
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Deny the return" }));
      await ui.api.idle();
    });
    assertEquals(screen.getByRole("alert").textContent, "Say why the return is denied");
    assertEquals(ui.api.calls.length, 0, "no request without a reason");
    fireEvent.change(screen.getByLabelText("Why is it denied?"), {
      target: { value: "The client answered our call." },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Deny the return" }));
      await ui.api.idle();
    });
    await waitFor(() => assertEquals(getToasts()[0]?.title, "Return denied"));
    assertEquals(await requestStatus(t, requestId), "denied");
  } finally {
    ui.done();
  }
});

test("[refund queue] a request decided elsewhere meanwhile: the error toast says so and the list reloads", async () => {
  const t = await createTestApp();
  const { requestId } = await queued(t);
  const ui = await mountQueue(t);
  try {
    // Another admin approves it first.
    const res = await t.request("POST", `/api/admin/refund-requests/${requestId}/decision`, {
      cookie: ui.admin.cookie,
      body: { decision: "deny", note: "Checked by phone." },
    });
    assertEquals(res.status, 200);
    fireEvent.click(
      screen.getByRole("button", { name: "Approve the return of $38.50 to Alpha Surveying" }),
    );
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Approve and credit $38.50" }));
      await ui.api.idle();
    });
    await waitFor(() => {
      const [toast] = getToasts();
      assertEquals(toast?.title, "Failed to decide the return");
      assertEquals(toast?.variant, "destructive");
      assertEquals(toast?.description, "This return request was already decided.");
    });
    await act(() => ui.api.idle());
    assertEquals(document.querySelector("tr[data-request-id]"), null, "reloaded: none pending");
    assertEquals(await requestStatus(t, requestId), "denied");
  } finally {
    ui.done();
  }
});

test("[refund queue] the empty state, and the decided requests by status", async () => {
  const t = await createTestApp();
  const ui = await mountQueue(t);
  try {
    assert(!/admin-tabs__count/.test(ui.html), "no count when nothing waits");
    assertStringIncludes(
      document.body.textContent ?? "",
      "No return requests are waiting for a decision.",
    );
    await act(async () => {
      fireEvent.change(screen.getByLabelText("Show"), { target: { value: "approved" } });
      await ui.api.idle();
    });
    assertStringIncludes(document.body.textContent ?? "", "No approved returns yet.");
  } finally {
    ui.done();
  }
});

// ---------------------------------------------------------------------------------------------
// The buyer's form.

async function mountForm(t: TestApp, props: Partial<RefundRequestFormProps> = {}) {
  dismissToast();
  const { lead, buyer } = await queued(t, { request: false });
  const api = useAppFetch(t, { cookie: buyer.cookie });
  const now = new Date();
  render(
    <RefundRequestForm
      leadId={lead.id}
      chargedCents={LEAD_PRICE_CENTS}
      purchasedAt={new Date(now.getTime() - 2 * 86_400_000).toISOString()}
      refundedAt={null}
      request={null}
      now={now.toISOString()}
      {...props}
    />,
  );
  return {
    api,
    lead,
    done() {
      cleanup();
      api.restore();
      dismissToast();
      t.close();
    },
  };
}

test("[refund form] a buyer picks a reason, says what happened, and sees the request waiting", async () => {
  const t = await createTestApp();
  const ui = await mountForm(t);
  try {
    fireEvent.click(screen.getByRole("button", { name: "Request a return" }));
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Request a return" }));
      await ui.api.idle();
    });
    assertEquals(ui.api.calls.length, 0, "nothing sent without a reason and a note");
    assertEquals(
      screen.getAllByRole("alert").map((e) => e.textContent),
      ["Choose a reason", "Say what happened"],
    );
    fireEvent.click(screen.getByLabelText("Duplicate request"));
    fireEvent.change(screen.getByLabelText("What happened?"), {
      target: { value: "Same client as last week's lead." },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Request a return" }));
      await ui.api.idle();
    });
    await waitFor(() => assertEquals(getToasts()[0]?.title, "Return requested"));
    assertEquals(
      screen.getByRole("status").textContent,
      "Return requested (Duplicate request). An admin will decide; you will be notified either way.",
    );
    const [row] = await t.sql<{ reason: string; note: string }[]>`
      select reason, note from lead_refund_requests`;
    assertEquals(row, { reason: "duplicate", note: "Same client as last week's lead." });
  } finally {
    ui.done();
  }
});

test("[refund form] a refusal from the server is a destructive toast with its message", async () => {
  const t = await createTestApp();
  const ui = await mountForm(t);
  try {
    // The purchase was returned meanwhile (the client cancelled): the server refuses.
    await t.sql`update lead_purchases set refunded_at = now()`;
    fireEvent.click(screen.getByRole("button", { name: "Request a return" }));
    fireEvent.click(screen.getByLabelText("Invalid contact details"));
    fireEvent.change(screen.getByLabelText("What happened?"), {
      target: { value: "Disconnected." },
    });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Request a return" }));
      await ui.api.idle();
    });
    await waitFor(() => {
      const [toast] = getToasts();
      assertEquals(toast?.title, "Failed to request a return");
      assertEquals(toast?.variant, "destructive");
      assertEquals(toast?.description, "This lead was already returned to your balance.");
    });
  } finally {
    ui.done();
  }
});

test("[refund form] states instead of a form: returned, free claim, decided, past 14 days", async () => {
  const cases: [Partial<RefundRequestFormProps>, RegExp][] = [
    [
      { refundedAt: "2026-03-02T12:00:00.000Z" },
      /^Returned: \$38\.50 went back to your balance on Mar 2, 2026\.$/,
    ],
    [{ chargedCents: 0 }, /free welcome claim, so there is nothing to return/],
    [
      {
        request: {
          id: "r",
          reason: "duplicate",
          status: "denied",
          decisionNote: "The client confirmed it is new.",
        },
      },
      /^Your return request was denied\. The client confirmed it is new\.$/,
    ],
    [
      {
        purchasedAt: "2026-03-01T00:00:00.000Z",
        now: "2026-03-15T00:00:00.000Z",
      },
      /within 14 days of buying a lead; the last day for this one was Mar 15, 2026\./,
    ],
  ];
  for (const [props, expected] of cases) {
    const t = await createTestApp();
    const ui = await mountForm(t, props);
    try {
      assertMatch(screen.getByRole("status").textContent ?? "", expected);
      assertEquals(screen.queryByRole("button", { name: "Request a return" }), null);
    } finally {
      ui.done();
    }
  }
});
