import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen } = await import("@testing-library/react");
const { default: AdminSurveys, filtersQuery } = await import("../../islands/AdminSurveys.tsx");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

type Row = {
  id: string;
  status: "requested" | "in_fieldwork" | "completed";
  surveyType: "boundary";
  address: string;
  clientName: string;
  quotedPriceCents: number | null;
  createdAt: string;
};

const A = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa";
const B = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb";

function row(id: string, overrides: Partial<Row> = {}): Row {
  return {
    id,
    status: "requested",
    surveyType: "boundary",
    address: `${id.slice(0, 4)} Main St, Austin, TX`,
    clientName: "Dana Client",
    quotedPriceCents: 38_500,
    createdAt: "2026-11-20T15:00:00.000Z",
    ...overrides,
  };
}

const NO_FILTERS = { status: "", surveyType: "", from: "", to: "", q: "" };

/** Routes fetch by "METHOD /path" and records calls. */
function stubFetch(handlers: Record<string, (body: unknown, url: URL) => Response>) {
  const calls: { method: string; path: string; search: string; body: unknown }[] = [];
  const original = globalThis.fetch;
  globalThis.fetch = ((input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input), "http://localhost/");
    const method = (init?.method ?? "GET").toUpperCase();
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: url.pathname, search: url.search, body });
    const key = Object.keys(handlers).find((k) => {
      const [m, p] = k.split(" ");
      return m === method && new RegExp(`^${p}$`).test(url.pathname);
    });
    return Promise.resolve(
      key ? handlers[key](body, url) : Response.json({ message: "Not found" }, { status: 404 }),
    );
  }) as typeof fetch;
  return { calls, restore: () => (globalThis.fetch = original) };
}

function wait(ms = 10) {
  return act(() => new Promise<void>((resolve) => setTimeout(resolve, ms)));
}

function mount(rows: Row[], total = rows.length) {
  return render(
    <AdminSurveys initial={{ rows, total, page: 1, pageSize: 20 }} filters={NO_FILTERS} />,
  );
}

function done(restore: () => void) {
  cleanup();
  restore();
  dismissToast();
}

function apiSurvey(r: Row) {
  return { ...r, formattedAddress: null, quote: {}, altaItems: [] };
}

test("[admin surveys] filtersQuery leaves out empty filters and page 1", () => {
  assertEquals(filtersQuery(NO_FILTERS, 1), "");
  assertEquals(
    filtersQuery({ ...NO_FILTERS, status: "requested", q: " elm " }, 3, 20),
    "status=requested&q=elm&page=3&pageSize=20",
  );
});

test("[admin surveys] a status change offers only legal next statuses and asks for the date", async () => {
  const { calls, restore } = stubFetch({
    "PATCH /api/surveys/[^/]+/status": (body) =>
      Response.json({
        message: "Status updated",
        survey: apiSurvey(row(A, { status: (body as { status: Row["status"] }).status })),
      }),
  });
  try {
    mount([row(A, { status: "in_fieldwork" }), row(B, { status: "completed" })]);
    const select = document.getElementById(`status-${A}`) as HTMLSelectElement;
    const offered = [...select.options].map((o) => o.value).filter(Boolean);
    assertEquals(offered, ["surveyed", "completed", "cancelled"]);
    assertMatch(
      document.querySelector(`tr[data-survey-id="${B}"]`)!.textContent ?? "",
      /No further changes/,
    );

    await act(() => void fireEvent.change(select, { target: { value: "surveyed" } }));
    const date = document.getElementById(`date-${A}`) as HTMLInputElement;
    assert(date, "marking surveyed asks for the surveyed date");
    assertMatch(date.value, /^\d{4}-\d{2}-\d{2}$/);
    await act(() => void fireEvent.change(date, { target: { value: "2026-11-19" } }));
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Update" })));
    await wait();
    const patch = calls.find((c) => c.method === "PATCH");
    assertEquals(patch?.path, `/api/surveys/${A}/status`);
    assertEquals(patch?.body, { status: "surveyed", surveyedDate: "2026-11-19" });
    assertEquals(getToasts()[0]?.title, "Status updated");
    assertMatch(document.querySelector(`tr[data-survey-id="${A}"]`)!.textContent ?? "", /Surveyed/);
  } finally {
    done(restore);
  }
});

test("[admin surveys] a refused status change toasts 'Error updating status' with the reason", async () => {
  const { restore } = stubFetch({
    "PATCH /api/surveys/[^/]+/status": () =>
      Response.json({ message: "This survey's status changed in the meantime." }, { status: 409 }),
  });
  try {
    mount([row(A)]);
    const select = document.getElementById(`status-${A}`) as HTMLSelectElement;
    await act(() => void fireEvent.change(select, { target: { value: "assigned" } }));
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Update" })));
    await wait();
    assertEquals(getToasts()[0]?.title, "Error updating status");
    assertEquals(getToasts()[0]?.description, "This survey's status changed in the meantime.");
    assertEquals(getToasts()[0]?.variant, "destructive");
  } finally {
    done(restore);
  }
});

test("[admin surveys] a status change may carry a note, internal unless 'Visible to client' is ticked", async () => {
  const { calls, restore } = stubFetch({
    "PATCH /api/surveys/[^/]+/status": (body) =>
      Response.json({
        message: "Status updated",
        survey: apiSurvey(row(A, { status: (body as { status: Row["status"] }).status })),
      }),
  });
  try {
    mount([row(A), row(B)]);
    assertEquals(document.getElementById(`note-${A}`), null, "no note field before a status");
    for (const [id, isVisible] of [[A, false], [B, true]] as const) {
      const select = document.getElementById(`status-${id}`) as HTMLSelectElement;
      await act(() => void fireEvent.change(select, { target: { value: "assigned" } }));
      const address = row(id).address;
      const note = screen.getByLabelText(`Note for ${address} (optional)`);
      await act(() => void fireEvent.change(note, { target: { value: `  Note for ${id}  ` } }));
      const box = document.getElementById(`note-visible-${id}`) as HTMLInputElement;
      assertEquals(box.checked, false, "internal by default");
      assertEquals(box.labels?.[0]?.textContent?.trim(), "Visible to client");
      if (isVisible) await act(() => void fireEvent.click(box));
      const update = select.closest("td")!.querySelector("button")!;
      await act(() => void fireEvent.click(update));
      await wait();
    }
    const patches = calls.filter((c) => c.method === "PATCH").map((c) => [c.path, c.body]);
    assertEquals(patches, [
      [`/api/surveys/${A}/status`, {
        status: "assigned",
        note: `Note for ${A}`,
        isNoteVisibleToClient: false,
      }],
      [`/api/surveys/${B}/status`, {
        status: "assigned",
        note: `Note for ${B}`,
        isNoteVisibleToClient: true,
      }],
    ]);
  } finally {
    done(restore);
  }
});

test("[admin surveys] a blank note is not sent", async () => {
  const { calls, restore } = stubFetch({
    "PATCH /api/surveys/[^/]+/status": () => Response.json({ message: "Status updated" }),
  });
  try {
    mount([row(A)]);
    const select = document.getElementById(`status-${A}`) as HTMLSelectElement;
    await act(() => void fireEvent.change(select, { target: { value: "assigned" } }));
    const note = document.getElementById(`note-${A}`) as HTMLTextAreaElement;
    await act(() => void fireEvent.change(note, { target: { value: "   " } }));
    await act(() => void fireEvent.click(document.getElementById(`note-visible-${A}`)!));
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Update" })));
    await wait();
    assertEquals(calls.find((c) => c.method === "PATCH")?.body, { status: "assigned" });
  } finally {
    done(restore);
  }
});

test("[admin surveys] deleting the selected requests asks first, then posts their ids", async () => {
  const { calls, restore } = stubFetch({
    "POST /api/surveys/delete-multiple": () =>
      Response.json({ message: "2 surveys deleted", deleted: 2 }),
    "GET /api/surveys": () => Response.json({ surveys: [], total: 0, page: 1, pageSize: 20 }),
  });
  try {
    mount([row(A), row(B)]);
    const deleteSelected = screen.getByRole("button", { name: "Delete selected" });
    assert((deleteSelected as HTMLButtonElement).disabled, "nothing selected yet");
    await act(() =>
      void fireEvent.click(
        screen.getByRole("checkbox", { name: "Select all requests on this page" }),
      )
    );
    assertMatch(document.querySelector(".admin-surveys__count")!.textContent ?? "", /2 selected/);
    await act(() => void fireEvent.click(deleteSelected));
    assertEquals(calls.length, 0, "nothing is deleted before confirming");
    assertEquals(
      document.getElementById("admin-delete-title")!.textContent,
      "Delete 2 survey requests?",
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Delete", hidden: true }))
    );
    await wait();
    const post = calls.find((c) => c.method === "POST");
    assertEquals(post?.body, { ids: [A, B] });
    assertEquals(getToasts()[0]?.title, "Survey deleted");
    assertEquals(getToasts()[0]?.description, "2 surveys deleted");
    assertMatch(document.body.textContent ?? "", /No survey requests yet/);
  } finally {
    done(restore);
  }
});

test("[admin surveys] failed deletes toast 'Error deleting survey' or 'Error deleting surveys'", async () => {
  const { restore } = stubFetch({
    "DELETE /api/surveys/[^/]+": () =>
      Response.json({ message: "Survey not found" }, { status: 404 }),
    "POST /api/surveys/delete-multiple": () =>
      Response.json({ message: "None of the selected surveys exist." }, { status: 404 }),
  });
  try {
    mount([row(A), row(B)]);
    await act(() =>
      void fireEvent.click(
        screen.getByRole("button", { name: `Delete request for ${row(A).address}` }),
      )
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Delete", hidden: true }))
    );
    await wait();
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
    await wait();
    assertEquals(getToasts()[0]?.title, "Error deleting surveys");
    assertEquals(getToasts()[0]?.description, "None of the selected surveys exist.");
  } finally {
    done(restore);
  }
});

test("[admin surveys] a filter loads page 1 from the API and puts the filter in the URL", async () => {
  const { calls, restore } = stubFetch({
    "GET /api/surveys": () =>
      Response.json({
        surveys: [apiSurvey(row(B, { status: "completed" }))],
        total: 41,
        page: 1,
        pageSize: 20,
      }),
  });
  try {
    mount([row(A)]);
    await act(() =>
      void fireEvent.change(document.getElementById("admin-filter-status")!, {
        target: { value: "completed" },
      })
    );
    await wait();
    assertEquals(calls[0].search, "?status=completed&pageSize=20");
    assertEquals(location.search, "?status=completed");
    assertMatch(document.querySelector(".admin-surveys__count")!.textContent ?? "", /41 requests/);
    assertMatch(document.querySelector(".survey-pager")!.textContent ?? "", /Page 1 of 3/);
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Next" })));
    await wait();
    assertEquals(calls[1].search, "?status=completed&page=2&pageSize=20");
  } finally {
    history.replaceState(null, "", "/");
    done(restore);
  }
});
