import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { submitSurvey } from "../_fixtures.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { default: AdminSurveys, filtersQuery } = await import("../../islands/AdminSurveys.tsx");
type AdminSurveysProps = import("../../islands/AdminSurveys.tsx").AdminSurveysProps;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
const { localToday } = await import("../../islands/_field_status.ts");

const NO_FILTERS = { status: "", surveyType: "", from: "", to: "", q: "" };

/** An admin and two clients' requests, A and B (B the newer), as the app stores them. */
async function requests(t: TestApp) {
  const admin = await signInAs(t, "admin");
  const a = await submitSurvey(t, await signInAs(t, "client"), {
    address: "12 Elm St, Austin, TX 78704",
    formattedAddress: "12 Elm St, Austin, TX 78704, USA",
  });
  const b = await submitSurvey(t, await signInAs(t, "client"), {
    address: "34 Oak Ave, Austin, TX 78704",
    formattedAddress: "34 Oak Ave, Austin, TX 78704, USA",
  });
  return { admin, a, b };
}

/** Moves a request on as an admin would (steps may be skipped). */
async function moveTo(t: TestApp, admin: string, id: string, body: Record<string, unknown>) {
  const res = await t.request("PATCH", `/api/surveys/${id}/status`, { cookie: admin, body });
  assertEquals(res.status, 200, await res.text());
}

/** /admin-dashboard's table as the server renders it for `admin`, fetch reaching the app. */
async function mount(t: TestApp, admin: string) {
  const { html } = await loadPage(t, "/admin-dashboard", admin);
  const api = useAppFetch(t, { cookie: admin });
  render(<AdminSurveys {...islandProps<AdminSurveysProps>(html, "AdminSurveys")} />);
  return {
    api,
    done() {
      cleanup();
      api.restore();
      dismissToast();
      history.replaceState(null, "", "/");
      t.close();
    },
  };
}

function rowOf(id: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`tr[data-survey-id="${id}"]`);
  assert(el, `row ${id}`);
  return el;
}

async function statusOf(t: TestApp, id: string) {
  const [row] = await t.sql<{ status: string }[]>`select status from surveys where id = ${id}`;
  return row?.status;
}

test("[admin surveys] filtersQuery leaves out empty filters and page 1", () => {
  assertEquals(filtersQuery(NO_FILTERS, 1), "");
  assertEquals(
    filtersQuery({ ...NO_FILTERS, status: "requested", q: " elm " }, 3, 20),
    "status=requested&q=elm&page=3&pageSize=20",
  );
});

test("[admin surveys] a status change offers only legal next statuses and asks for the date", async () => {
  const t = await createTestApp();
  const { admin, a, b } = await requests(t);
  const c = await submitSurvey(t, await signInAs(t, "client"));
  await moveTo(t, admin, a.id, { status: "in_fieldwork" });
  await moveTo(t, admin, b.id, {
    status: "completed",
    surveyedDate: "2026-11-18",
    completedDate: "2026-11-19",
    // Completing without a deliverable is an admin override, which needs a note.
    note: "Plat delivered on paper at the closing.",
  });
  const ui = await mount(t, admin);
  try {
    const select = document.getElementById(`status-${a.id}`) as HTMLSelectElement;
    const offered = [...select.options].map((o) => o.value).filter(Boolean);
    assertEquals(offered, ["surveyed", "completed", "cancelled"]);
    // Notifying surveyors and assigning one are actions, not menu choices.
    const fresh = document.getElementById(`status-${c.id}`) as HTMLSelectElement;
    assertEquals([...fresh.options].map((o) => o.value).filter(Boolean), [
      "scheduled",
      "in_fieldwork",
      "surveyed",
      "completed",
      "cancelled",
    ]);
    assertMatch(rowOf(b.id).textContent ?? "", /No further changes/);

    await act(() => void fireEvent.change(select, { target: { value: "surveyed" } }));
    const date = document.getElementById(`date-${a.id}`) as HTMLInputElement;
    assert(date, "marking surveyed asks for the surveyed date");
    assertMatch(date.value, /^\d{4}-\d{2}-\d{2}$/);
    await act(() => void fireEvent.change(date, { target: { value: "2026-11-19" } }));
    await act(() => void fireEvent.click(select.closest("td")!.querySelector("button")!));
    await act(() => ui.api.idle());
    const patch = ui.api.calls.find((c) => c.method === "PATCH");
    assertEquals(patch?.path, `/api/surveys/${a.id}/status`);
    assertEquals(patch?.body, { status: "surveyed", surveyedDate: "2026-11-19" });
    assertEquals(getToasts()[0]?.title, "Status updated");
    assertMatch(rowOf(a.id).textContent ?? "", /Surveyed/);
    assertEquals(await statusOf(t, a.id), "surveyed");
  } finally {
    ui.done();
  }
});

test("[admin surveys] a refused status change toasts 'Error updating status' with the reason", async () => {
  const t = await createTestApp();
  const { admin, a } = await requests(t);
  const ui = await mount(t, admin);
  try {
    // Another admin cancels the request while this table is open.
    await moveTo(t, admin, a.id, { status: "cancelled" });
    const select = document.getElementById(`status-${a.id}`) as HTMLSelectElement;
    await act(() => void fireEvent.change(select, { target: { value: "scheduled" } }));
    const update = select.closest("td")!.querySelector("button")!;
    await act(() => void fireEvent.click(update));
    await act(() => ui.api.idle());
    assertEquals(getToasts()[0]?.title, "Error updating status");
    assertEquals(
      getToasts()[0]?.description,
      "This survey is cancelled; its status can no longer change.",
    );
    assertEquals(getToasts()[0]?.variant, "destructive");
    assertEquals(await statusOf(t, a.id), "cancelled");
  } finally {
    ui.done();
  }
});

test("[admin surveys] a status change may carry a note, internal unless 'Visible to client' is ticked", async () => {
  const t = await createTestApp();
  const { admin, a, b } = await requests(t);
  const ui = await mount(t, admin);
  try {
    assertEquals(document.getElementById(`note-${a.id}`), null, "no note field before a status");
    for (const [survey, isVisible] of [[a, false], [b, true]] as const) {
      const select = document.getElementById(`status-${survey.id}`) as HTMLSelectElement;
      await act(() => void fireEvent.change(select, { target: { value: "scheduled" } }));
      const note = screen.getByLabelText(`Note for ${survey.formattedAddress} (optional)`);
      await act(() =>
        void fireEvent.change(note, { target: { value: `  Note for ${survey.id}  ` } })
      );
      const box = document.getElementById(`note-visible-${survey.id}`) as HTMLInputElement;
      assertEquals(box.checked, false, "internal by default");
      assertEquals(box.labels?.[0]?.textContent?.trim(), "Visible to client");
      if (isVisible) await act(() => void fireEvent.click(box));
      const update = select.closest("td")!.querySelector("button")!;
      await act(() => void fireEvent.click(update));
      await act(() => ui.api.idle());
    }
    const patches = ui.api.calls.filter((c) => c.method === "PATCH").map((c) => [c.path, c.body]);
    assertEquals(patches, [
      [`/api/surveys/${a.id}/status`, {
        status: "scheduled",
        scheduledDate: localToday(),
        note: `Note for ${a.id}`,
        isNoteVisibleToClient: false,
      }],
      [`/api/surveys/${b.id}/status`, {
        status: "scheduled",
        scheduledDate: localToday(),
        note: `Note for ${b.id}`,
        isNoteVisibleToClient: true,
      }],
    ]);
    const stored = await t.sql<{ surveyId: string; note: string; visible: boolean }[]>`
      select survey_id, note, is_note_visible_to_client as visible from survey_events
      where note is not null order by note`;
    assertEquals(
      stored.map((e) => [e.surveyId, e.note, e.visible]).sort(),
      [[a.id, `Note for ${a.id}`, false], [b.id, `Note for ${b.id}`, true]].sort(),
    );
  } finally {
    ui.done();
  }
});

test("[admin surveys] a blank note is not sent", async () => {
  const t = await createTestApp();
  const { admin, a } = await requests(t);
  const ui = await mount(t, admin);
  try {
    const select = document.getElementById(`status-${a.id}`) as HTMLSelectElement;
    await act(() => void fireEvent.change(select, { target: { value: "scheduled" } }));
    const note = document.getElementById(`note-${a.id}`) as HTMLTextAreaElement;
    await act(() => void fireEvent.change(note, { target: { value: "   " } }));
    await act(() => void fireEvent.click(document.getElementById(`note-visible-${a.id}`)!));
    await act(() => void fireEvent.click(select.closest("td")!.querySelector("button")!));
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls.find((c) => c.method === "PATCH")?.body, {
      status: "scheduled",
      scheduledDate: localToday(),
    });
    assertEquals(await statusOf(t, a.id), "scheduled");
  } finally {
    ui.done();
  }
});

test("[admin surveys] deleting the selected requests asks first, then posts their ids", async () => {
  const t = await createTestApp();
  const { admin, a, b } = await requests(t);
  const ui = await mount(t, admin);
  try {
    const deleteSelected = screen.getByRole("button", { name: "Delete selected" });
    assert((deleteSelected as HTMLButtonElement).disabled, "nothing selected yet");
    await act(() =>
      void fireEvent.click(
        screen.getByRole("checkbox", { name: "Select all requests on this page" }),
      )
    );
    assertMatch(document.querySelector(".admin-surveys__count")!.textContent ?? "", /2 selected/);
    await act(() => void fireEvent.click(deleteSelected));
    assertEquals(ui.api.calls.length, 0, "nothing is deleted before confirming");
    assertEquals(
      document.getElementById("admin-delete-title")!.textContent,
      "Delete 2 survey requests?",
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Delete", hidden: true }))
    );
    await act(() => ui.api.idle());
    const post = ui.api.calls.find((c) => c.method === "POST");
    assertEquals((post?.body as { ids: string[] }).ids.sort(), [a.id, b.id].sort());
    assertEquals(getToasts()[0]?.title, "Survey deleted");
    assertEquals(getToasts()[0]?.description, "2 surveys deleted");
    assertMatch(document.body.textContent ?? "", /No survey requests yet/);
    assertEquals([await statusOf(t, a.id), await statusOf(t, b.id)], [undefined, undefined]);
  } finally {
    ui.done();
  }
});

// Issue 21: the one-request delete read "Survey deleted / Survey deleted".
test("[admin surveys] deleting one request toasts 'Survey deleted' once, not twice", async () => {
  const t = await createTestApp();
  const { admin, a } = await requests(t);
  const ui = await mount(t, admin);
  try {
    await act(() =>
      void fireEvent.click(
        screen.getByRole("button", { name: "Delete request for 12 Elm St, Austin, TX 78704, USA" }),
      )
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Delete", hidden: true }))
    );
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls.find((c) => c.method === "DELETE")?.path, `/api/surveys/${a.id}`);
    assertEquals(getToasts()[0]?.title, "Survey deleted");
    assertEquals(getToasts()[0]?.description, undefined);
  } finally {
    ui.done();
  }
});

test("[admin surveys] failed deletes toast 'Error deleting survey' or 'Error deleting surveys'", async () => {
  const t = await createTestApp();
  const { admin, a } = await requests(t);
  const ui = await mount(t, admin);
  try {
    // Another admin deletes both requests while this table is open.
    await t.sql`delete from surveys`;
    await act(() =>
      void fireEvent.click(
        screen.getByRole("button", { name: `Delete request for ${a.formattedAddress}` }),
      )
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Delete", hidden: true }))
    );
    await act(() => ui.api.idle());
    assertEquals(getToasts()[0]?.title, "Error deleting survey");
    assertEquals(getToasts()[0]?.description, "Survey not found");

    await act(() =>
      void fireEvent.click(
        screen.getByRole("checkbox", { name: "Select all requests on this page" }),
      )
    );
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Delete selected" })));
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Delete", hidden: true }))
    );
    await act(() => ui.api.idle());
    assertEquals(getToasts()[0]?.title, "Error deleting surveys");
    assertEquals(getToasts()[0]?.description, "None of the selected surveys exist.");
  } finally {
    ui.done();
  }
});

test("[admin surveys] a filter loads page 1 from the API and puts the filter in the URL", async () => {
  const t = await createTestApp();
  const admin = await signInAs(t, "admin");
  const client = await signInAs(t, "client");
  // 21 completed requests (two pages of 20) and one still open.
  for (let i = 0; i < 22; i++) await submitSurvey(t, client);
  await t.sql`update surveys set status = 'completed', surveyed_date = '2026-11-18',
    completed_date = '2026-11-19'
    where id in (select id from surveys order by created_at limit 21)`;
  const ui = await mount(t, admin);
  try {
    await act(() =>
      void fireEvent.change(document.getElementById("admin-filter-status")!, {
        target: { value: "completed" },
      })
    );
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls[0].path, "/api/surveys?status=completed&pageSize=20");
    assertEquals(location.search, "?status=completed");
    assertMatch(document.querySelector(".admin-surveys__count")!.textContent ?? "", /21 requests/);
    assertMatch(document.querySelector(".survey-pager")!.textContent ?? "", /Page 1 of 2/);
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Next" })));
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls[1].path, "/api/surveys?status=completed&page=2&pageSize=20");
    assertEquals(document.querySelectorAll("tbody tr[data-survey-id]").length, 1);
  } finally {
    ui.done();
  }
});
