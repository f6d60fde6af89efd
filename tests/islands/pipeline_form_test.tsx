/**
 * islands/PipelineForm against the real app: rendered with the props the purchased lead's page
 * gives it, its PATCH /api/purchased-leads/{id} goes to the app in-process as the buyer.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { addLead, addMarketSurveyor } from "../_lead_fixtures.ts";
import { postLedgerEntry } from "../../db/ledger.ts";
import { PIPELINE_LABELS, PIPELINE_STATUSES } from "../../lib/lead_market_schema.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: PipelineForm, PIPELINE_CHOICES } = await import(
  "../../islands/PipelineForm.tsx"
);
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
type Props = import("../../islands/PipelineForm.tsx").PipelineFormProps;

/**
 * A surveyor who bought a lead (pipeline `contacted`, a note), the form rendered with the
 * props of its page, and its requests going to the real app as that surveyor.
 */
async function openLead(t: TestApp) {
  dismissToast();
  const me = await addMarketSurveyor(t, "Ortiz Land Surveying", { balanceCents: 10_000 });
  const { lead } = await addLead(t, await signInAs(t, "client"));
  await t.sql.begin(async (tx) => {
    const [p] = await tx<{ id: string }[]>`
      insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents, pipeline_status,
        pipeline_note)
      values (${lead.id}, ${me.surveyor.id}, 'buy', 2500, 'contacted', 'Left a voicemail')
      returning id`;
    await postLedgerEntry(tx, {
      surveyorId: me.surveyor.id,
      kind: "lead_purchase",
      amountCents: -2500,
      leadPurchaseId: p.id,
    });
  });
  const { html } = await loadPage(t, `/surveyor/purchased-leads/${lead.id}`, me.cookie);
  const props = islandProps<Props>(html, "PipelineForm");
  const api = useAppFetch(t, { cookie: me.cookie });
  render(
    <>
      <PipelineForm {...props} />
      <Toaster />
    </>,
  );
  return {
    leadId: lead.id,
    props,
    api,
    async stored() {
      const [row] = await t.sql<{ pipelineStatus: string; pipelineNote: string | null }[]>`
        select pipeline_status, pipeline_note from lead_purchases where lead_id = ${lead.id}`;
      return row;
    },
    done() {
      api.restore();
      cleanup();
      dismissToast();
      t.close();
    },
  };
}

function note(): HTMLTextAreaElement {
  return screen.getByLabelText(/^Note/) as HTMLTextAreaElement;
}

async function save() {
  await act(() => void fireEvent.click(screen.getByRole("button", { name: "Save" })));
}

test("[pipeline form] its statuses are the API's, in order, with the same labels", () => {
  assertEquals(PIPELINE_CHOICES.map((c) => c.id), [...PIPELINE_STATUSES]);
  assertEquals(
    PIPELINE_CHOICES.map((c) => c.label),
    PIPELINE_STATUSES.map((s) => PIPELINE_LABELS[s]),
  );
});

test("[pipeline form] saving sends only what changed and shows 'Saved'", async () => {
  const t = await createTestApp();
  const page = await openLead(t);
  try {
    assertEquals(page.props, {
      leadId: page.leadId,
      pipelineStatus: "contacted",
      pipelineNote: "Left a voicemail",
    });
    assert((screen.getByLabelText("Contacted") as HTMLInputElement).checked);
    assertEquals(note().value, "Left a voicemail");

    await act(() => void fireEvent.click(screen.getByLabelText("Won")));
    await save();
    await waitFor(() => assertEquals(getToasts()[0]?.title, "Saved"));
    await act(() => page.api.idle());
    assertEquals(page.api.calls.map((c) => [c.method, c.path, c.body]), [
      ["PATCH", `/api/purchased-leads/${page.leadId}`, { pipelineStatus: "won" }],
    ]);
    assertEquals(getToasts()[0].description, "Pipeline status: Won.");
    assertEquals(await page.stored(), { pipelineStatus: "won", pipelineNote: "Left a voicemail" });

    // Clearing the note sends null and clears it; the status, unchanged, is not sent.
    await act(() => void fireEvent.change(note(), { target: { value: "   " } }));
    await save();
    await waitFor(() => assertEquals(page.api.calls.length, 2));
    await act(() => page.api.idle());
    assertEquals(page.api.calls[1].body, { pipelineNote: null });
    assertEquals(await page.stored(), { pipelineStatus: "won", pipelineNote: null });
    assertEquals(note().value, "");
  } finally {
    page.done();
  }
});

test("[pipeline form] with nothing changed it sends nothing and says so", async () => {
  const t = await createTestApp();
  const page = await openLead(t);
  try {
    await save();
    assertEquals(getToasts()[0]?.title, "Nothing to save");
    assertEquals(page.api.calls.length, 0);
  } finally {
    page.done();
  }
});

test("[pipeline form] a refused save keeps the edits, shows the server's reason, changes nothing", async () => {
  const t = await createTestApp();
  const page = await openLead(t);
  try {
    // The purchase is gone by the time the buyer saves (say, the request was removed).
    await t.sql`delete from lead_purchases where lead_id = ${page.leadId}`;
    await act(() => void fireEvent.click(screen.getByLabelText("Lost")));
    await act(() => void fireEvent.change(note(), { target: { value: "Went with another firm" } }));
    await save();
    await waitFor(() => assertEquals(getToasts()[0]?.variant, "destructive"));
    await act(() => page.api.idle());
    assertEquals(getToasts()[0].title, "Could not save the pipeline");
    assertEquals(getToasts()[0].description, "Lead not found");
    assert((screen.getByLabelText("Lost") as HTMLInputElement).checked, "the choice stays");
    assertEquals(note().value, "Went with another firm");
    assertEquals(await page.stored(), undefined);
  } finally {
    page.done();
  }
});

test("[pipeline form] a note over 2,000 characters is refused before sending", async () => {
  const t = await createTestApp();
  const page = await openLead(t);
  try {
    await act(() => void fireEvent.change(note(), { target: { value: "x".repeat(2001) } }));
    await save();
    await waitFor(() => screen.getByText("Note must be at most 2000 characters"));
    assertEquals(page.api.calls.length, 0);
    assertEquals(note().getAttribute("aria-invalid"), "true");
    assertEquals(await page.stored(), {
      pipelineStatus: "contacted",
      pipelineNote: "Left a voicemail",
    });
  } finally {
    page.done();
  }
});
