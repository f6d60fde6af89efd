/**
 * DeliverableUpload against the real app: uploads go through an XMLHttpRequest stand-in that
 * hands the island's FormData to the app in-process (reporting progress as a browser would),
 * removals through fetch. Checks the list, the refusals' texts, and the count announced to the
 * page.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, ORIGIN, test, type TestApp } from "../_helpers.ts";
import { fileFixture, FILES } from "../_file_fixtures.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";
import { DELIVERABLES_EVENT, MAX_FILE_BYTES } from "../../lib/survey_file_types.ts";

setupDom();
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: DeliverableUpload } = await import("../../islands/DeliverableUpload.tsx");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

/**
 * Installs an XMLHttpRequest that sends to `t`'s app with `cookie`; returns the sent paths.
 * `hold()` keeps the next uploads from reaching the app until `release()`.
 */
function useAppXhr(t: TestApp, cookie: string) {
  const sent: string[] = [];
  let gate: Promise<void> = Promise.resolve();
  let open = () => {};
  class AppXhr {
    upload: { onprogress: ((e: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    status = 0;
    responseText = "";
    #method = "GET";
    #url = "";
    open(method: string, url: string) {
      this.#method = method;
      this.#url = url;
    }
    send(body: FormData) {
      sent.push(`${this.#method} ${this.#url}`);
      (async () => {
        this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 2 } as ProgressEvent);
        await gate;
        try {
          const res = await t.app.request(`${ORIGIN}${this.#url}`, {
            method: this.#method,
            headers: { origin: ORIGIN, cookie },
            body,
          });
          this.status = res.status;
          this.responseText = await res.text();
          this.onload?.();
        } catch {
          this.onerror?.();
        }
      })();
    }
  }
  const original = (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest;
  (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = AppXhr;
  return {
    sent,
    hold() {
      gate = new Promise((resolve) => open = resolve);
    },
    release: () => open(),
    restore() {
      (globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = original;
    },
  };
}

/**
 * Records the deliverable counts the island announces: its CustomEvent is happy-dom's and
 * globalThis's dispatcher Deno's, so what is dispatched is recorded instead of listened to.
 */
function recordCounts(surveyId: string) {
  const counts: number[] = [];
  const dispatch = globalThis.dispatchEvent;
  globalThis.dispatchEvent = (e: Event) => {
    if (e.type === DELIVERABLES_EVENT) {
      const detail = (e as CustomEvent).detail;
      assertEquals(detail.surveyId, surveyId);
      counts.push(detail.count);
    }
    return true;
  };
  return { counts, restore: () => void (globalThis.dispatchEvent = dispatch) };
}

/** The surveyor's deliverables card over the real app, with its uploads, calls and counts. */
async function surveyorCard() {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const xhr = useAppXhr(t, f.cookies.surveyor);
  const api = useAppFetch(t, { cookie: f.cookies.surveyor });
  const { counts, restore } = recordCounts(f.survey.id);
  render(<DeliverableUpload surveyId={f.survey.id} files={[]} canChange />);
  return {
    t,
    xhr,
    api,
    counts,
    done() {
      restore();
      xhr.restore();
      api.restore();
      dismissToast();
      cleanup();
      t.close();
    },
  };
}

function choose(files: File[]) {
  const input = screen.getByLabelText("Add deliverables") as HTMLInputElement;
  return act(() => void fireEvent.change(input, { target: { files } }));
}

test("[deliverable upload] uploads, lists, announces the count, and removes", async () => {
  const { t, xhr, api, counts, done } = await surveyorCard();
  try {
    screen.getByText("No deliverables uploaded yet.");
    await choose([
      new File([FILES.pdf], "Lot 7 plat.pdf", { type: "application/pdf" }),
      new File([FILES.csv], "points.csv", { type: "text/csv" }),
    ]);
    const link = await screen.findByRole("link", { name: "points.csv" });
    const plat = screen.getByRole("link", { name: "Lot 7 plat.pdf" });
    const [row] = await t.sql<{ id: string }[]>`
      select id from survey_files where file_name = 'Lot 7 plat.pdf'`;
    assertEquals(plat.getAttribute("href"), `/api/files/${row.id}`);
    assert(link.closest("li")!.textContent!.includes("CSV points"));
    assertEquals(xhr.sent.length, 2);
    assertEquals(counts, [1, 2]);
    assertEquals(getToasts()[0]?.title, "File uploaded");

    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Remove points.csv" }))
    );
    await waitFor(() => assertEquals(screen.queryByRole("link", { name: "points.csv" }), null));
    assertEquals(api.calls.map((c) => c.method), ["DELETE"]);
    assertEquals(counts, [1, 2, 1]);
    const [{ n }] = await t.sql<{ n: number }[]>`select count(*)::int as n from survey_files`;
    assertEquals(n, 1);
  } finally {
    done();
  }
});

test("[deliverable upload] a file removed while another uploads stays removed, and the upload stays listed", async () => {
  const { t, xhr, api, counts, done } = await surveyorCard();
  try {
    await choose([new File([FILES.pdf], "Lot 7 plat.pdf", { type: "application/pdf" })]);
    await screen.findByRole("link", { name: "Lot 7 plat.pdf" });

    // The points file is on its way when the plat is removed.
    xhr.hold();
    await choose([new File([FILES.csv], "points.csv", { type: "text/csv" })]);
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Remove Lot 7 plat.pdf" }))
    );
    await waitFor(() => assertEquals(screen.queryByRole("link", { name: "Lot 7 plat.pdf" }), null));
    xhr.release();
    await screen.findByRole("link", { name: "points.csv" });
    await act(() => api.idle());
    assertEquals(screen.queryByRole("link", { name: "Lot 7 plat.pdf" }), null);
    assertEquals(screen.getAllByRole("link").map((a) => a.textContent), ["points.csv"]);
    // What the page was told matches what is stored: one file.
    assertEquals(counts, [1, 0, 1]);
    const names = await t.sql<{ fileName: string }[]>`
      select file_name from survey_files`;
    assertEquals(names.map((r) => r.fileName), ["points.csv"]);
  } finally {
    done();
  }
});

test("[deliverable upload] a renamed program shows the 415 text; an oversized file is refused unsent", async () => {
  const t = await createTestApp();
  const f = await fileFixture(t);
  const xhr = useAppXhr(t, f.cookies.surveyor);
  try {
    render(<DeliverableUpload surveyId={f.survey.id} files={[]} canChange />);
    await choose([new File([FILES.exe], "plat.pdf", { type: "application/pdf" })]);
    const alert = await screen.findByRole("alert");
    assert(alert.textContent!.includes("This file is a Windows program, which is not accepted."));
    assert(alert.textContent!.includes("PDF, DWG, DXF, CSV point files, JPEG or PNG"));
    await choose([new File([new Uint8Array(MAX_FILE_BYTES + 1)], "huge.pdf")]);
    const alerts = await screen.findAllByRole("alert");
    assertEquals(alerts.map((a) => a.textContent), ["File is too large: the limit is 25 MB."]);
    assertEquals(xhr.sent.length, 1, "the oversized file was never sent");
    screen.getByText("No deliverables uploaded yet.");
  } finally {
    xhr.restore();
    cleanup();
    t.close();
  }
});

test("[deliverable upload] after completion the list stays, with no upload or remove", async () => {
  const t = await createTestApp();
  try {
    render(
      <DeliverableUpload
        surveyId="00000000-0000-4000-8000-000000000001"
        canChange={false}
        files={[{
          id: "00000000-0000-4000-8000-000000000002",
          surveyId: "00000000-0000-4000-8000-000000000001",
          kind: "deliverable",
          checklistItemId: null,
          fileName: "Final plat.pdf",
          contentType: "application/pdf",
          sizeBytes: 2_400_000,
          sha256: "a".repeat(64),
          uploadedBy: null,
          uploadedByName: "Sam Surveyor",
          createdAt: "2026-03-02T15:04:00.000Z",
        }]}
      />,
    );
    const item = screen.getByRole("link", { name: "Final plat.pdf" }).closest("li")!;
    assert(item.textContent!.includes("PDF · 2.3 MB · uploaded"));
    assert(item.textContent!.includes("by Sam Surveyor"));
    assertEquals(screen.queryByLabelText("Add deliverables"), null);
    assertEquals(screen.queryByRole("button"), null);
    screen.getByText("The survey is completed: its deliverables are final.");
  } finally {
    cleanup();
    t.close();
  }
});
