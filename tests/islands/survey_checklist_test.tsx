/**
 * islands/SurveyChecklist against the real app: the technician's answers go to
 * POST /api/surveys/{id}/checklist/answers in-process. Offline is a network error for every
 * request (what fetch does without a connection); the device's outbox is the in-memory store
 * (happy-dom has no IndexedDB), kept across a remount like IndexedDB across a reload. Photo
 * uploads are answered by a stand-in for POST /api/surveys/{id}/files that stores the file row
 * as that API does (tests/routes for files cover the API itself).
 */
import { renderToString } from "react-dom/server";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { answerRows, checklistJob, itemRows } from "../_checklist_fixtures.ts";
import { getChecklist } from "../../db/checklists.ts";
import { putSurveyInStatus } from "../_fixtures.ts";
import { forwardWindowEvents, NativeEvent, setupDom } from "./_dom.ts";
import { type Call, useAppFetch } from "./_fetch.ts";

// The browser's `online` event reaches globalThis, and the island tells the page's other
// islands its progress there (a CustomEvent): see forwardWindowEvents.
setupDom();
forwardWindowEvents();
const { act, cleanup, fireEvent, render, screen, waitFor, within } = await import(
  "@testing-library/react"
);
const {
  default: SurveyChecklist,
  DRAFT_TEXT,
  NOT_KEPT_TEXT,
  PENDING_TEXT,
  SAVED_TEXT,
  WRITING_TEXT,
} = await import(
  "../../islands/SurveyChecklist.tsx"
);
const { memoryStore, setChecklistStore } = await import("../../islands/_checklist_store.ts");

/** A scheduled boundary job with its checklist, the island's props and the app as the technician. */
async function openChecklist(t: TestApp) {
  const job = await checklistJob(t);
  const checklist = await getChecklist(t.sql, { surveyId: job.survey.id });
  const props = { surveyId: job.survey.id, items: checklist!.items, canEdit: true };
  let isOffline = false;
  const uploads: Call[] = [];
  const offlineAware = (_call: Call, app: () => Promise<Response>) => {
    if (isOffline) throw new TypeError("Failed to fetch");
    return app();
  };
  const api = useAppFetch(t, {
    cookie: job.technicianCookie,
    canned: {
      [`POST /api/surveys/${job.survey.id}/checklist/answers`]: offlineAware,
      // Stand-in for the files API (see the file's comment): stores the row, answers its shape.
      [`POST /api/surveys/${job.survey.id}/files`]: async (call) => {
        if (isOffline) throw new TypeError("Failed to fetch");
        uploads.push(call);
        const form = call.body as FormData;
        const opId = String(form.get("opId"));
        const [row] = await t.sql<{ id: string }[]>`
          insert into survey_files (survey_id, kind, checklist_item_id, file_name, content_type,
            size_bytes, sha256, storage, storage_key, op_id, uploaded_by)
          values (${job.survey.id}, 'photo', ${String(form.get("checklistItemId"))},
            ${(form.get("file") as File).name}, 'image/jpeg', 3, ${"b".repeat(64)}, 'postgres',
            ${crypto.randomUUID()}, ${opId}, ${job.technician.id})
          on conflict (op_id) do update set op_id = excluded.op_id
          returning id`;
        return Response.json({ message: "Photo uploaded", file: { id: row.id } }, { status: 201 });
      },
    },
  });
  return {
    job,
    props,
    api,
    uploads,
    setOffline(value: boolean) {
      isOffline = value;
    },
    done() {
      api.restore();
      cleanup();
      t.close();
    },
  };
}

function item(key: string): HTMLElement {
  return document.querySelector(`[data-key="${key}"]`) as HTMLElement;
}

function status(): string {
  return screen.getByRole("status").textContent ?? "";
}

/** Waits for the controls to come alive (hydrated, and the device's queue shown). */
async function ready() {
  await waitFor(() =>
    assert(
      !(within(item("deed_research")).getByRole("checkbox") as HTMLInputElement).disabled,
      "the checklist's controls are enabled",
    )
  );
}

/** The checklist rendered offline over an in-memory outbox, controls alive. */
async function offlineChecklist() {
  const t = await createTestApp();
  const store = memoryStore();
  setChecklistStore(store);
  const page = await openChecklist(t);
  page.setOffline(true);
  const view = render(<SurveyChecklist {...page.props} />);
  await ready();
  /** The values of the answers waiting in the outbox, oldest first. */
  const queued = async () =>
    (await store.listOps(page.props.surveyId)).map((op) => op.type === "answer" && op.value);
  return { page, view, queued };
}

/** The sync state's headline alone ("Saved" is also the start of the pending text). */
function syncState(): string {
  return document.querySelector(".checklist-sync__state")?.textContent ?? "";
}

test("[survey checklist] the server render lists every item by kind with required marks and progress", async () => {
  const t = await createTestApp();
  try {
    const job = await checklistJob(t);
    const checklist = await getChecklist(t.sql, { surveyId: job.survey.id });
    const required = checklist!.items.filter((i) => i.isRequired).length;
    const html = renderToString(
      <SurveyChecklist surveyId={job.survey.id} items={checklist!.items} canEdit />,
    );
    assertStringIncludes(html, `0 of ${required} required done`);
    assertStringIncludes(html, "Deed of record and adjoiners&#x27; deeds researched");
    assertStringIncludes(html, 'type="checkbox"');
    assertStringIncludes(html, 'inputMode="decimal"');
    assertStringIncludes(html, 'capture="environment"');
    assertStringIncludes(html, 'accept="image/*"');
    assertEquals(html.match(/>Required</g)?.length, required);
    // Nothing works before hydration, so nothing is typed into a dead page.
    assert(/<input[^>]*type="checkbox"[^>]*disabled=""/.test(html));
  } finally {
    t.close();
  }
});

test("[survey checklist] online, each edit is sent once and the island says Saved", async () => {
  const t = await createTestApp();
  setChecklistStore(memoryStore());
  const page = await openChecklist(t);
  try {
    render(<SurveyChecklist {...page.props} />);
    await ready();
    const required = page.props.items.filter((i) => i.isRequired).length;
    await act(() => void fireEvent.click(within(item("deed_research")).getByRole("checkbox")));
    await waitFor(() => assertEquals(syncState(), SAVED_TEXT));
    assert(!status().includes(PENDING_TEXT));
    assertStringIncludes(document.body.textContent!, `1 of ${required} required done`);

    const found = within(item("monuments_found")).getByRole("textbox", { name: /Monuments found/ });
    await act(() => void fireEvent.change(found, { target: { value: "4" } }));
    await act(() => void fireEvent.blur(found));
    const notes = within(item("encroachments")).getByRole("textbox");
    await act(() => void fireEvent.change(notes, { target: { value: "None observed" } }));
    await act(() => void fireEvent.blur(notes));
    await act(() => page.api.idle());
    await waitFor(async () => {
      const rows = await itemRows(t, page.job.survey.id);
      assertEquals(rows.get("monuments_found")!.value, 4);
      assertEquals(rows.get("encroachments")!.value, "None observed");
    });
    assertEquals((await answerRows(t, page.job.survey.id)).length, 3);
    await waitFor(() => assertStringIncludes(item("deed_research").textContent!, "Toni Tech"));
  } finally {
    page.done();
  }
});

test("[survey checklist] offline edits wait on the device, survive a remount and sync once back online", async () => {
  const t = await createTestApp();
  setChecklistStore(memoryStore());
  const page = await openChecklist(t);
  try {
    page.setOffline(true);
    const view = render(<SurveyChecklist {...page.props} />);
    await ready();
    await act(() => void fireEvent.click(within(item("plat_research")).getByRole("checkbox")));
    const set = within(item("monuments_set")).getByRole("textbox");
    await act(() => void fireEvent.change(set, { target: { value: "2" } }));
    await act(() => void fireEvent.keyDown(set, { key: "Enter" }));
    await waitFor(() => assertEquals(syncState(), PENDING_TEXT));
    assertStringIncludes(status(), "2 changes waiting");
    assertStringIncludes(item("plat_research").textContent!, "Not synced yet");
    assertEquals((await answerRows(t, page.job.survey.id)).length, 0);

    // The page goes away (reload, closed tab) and comes back, still offline.
    view.unmount();
    render(<SurveyChecklist {...page.props} />);
    await ready();
    await waitFor(() => assertEquals(syncState(), PENDING_TEXT));
    assert((within(item("plat_research")).getByRole("checkbox") as HTMLInputElement).checked);
    assertEquals(
      (within(item("monuments_set")).getByRole("textbox") as HTMLInputElement).value,
      "2",
    );

    // Back online: the browser's `online` event sends the queue.
    page.setOffline(false);
    await act(() => void globalThis.dispatchEvent(new NativeEvent("online")));
    await waitFor(() => assertEquals(syncState(), SAVED_TEXT));
    await act(() => page.api.idle());
    const rows = await answerRows(t, page.job.survey.id);
    assertEquals(rows.map((r) => [r.key, r.value, r.isApplied]).sort(), [
      ["monuments_set", 2, true],
      ["plat_research", true, true],
    ]);
    assert(!item("plat_research").textContent!.includes("Not synced yet"));
  } finally {
    page.done();
  }
});

test("[survey checklist] an edit says it is saved on the device only once the device has written it", async () => {
  const t = await createTestApp();
  const store = memoryStore();
  // The device's write is held until the test lets it land (IndexedDB commits asynchronously).
  let land = () => {};
  const landed = new Promise<void>((resolve) => land = resolve);
  setChecklistStore({
    ...store,
    addOp: async (op) => {
      await landed;
      return store.addOp(op);
    },
  });
  const page = await openChecklist(t);
  try {
    page.setOffline(true);
    render(<SurveyChecklist {...page.props} />);
    await ready();
    const box = within(item("plat_research")).getByRole("checkbox") as HTMLInputElement;
    await act(() => void fireEvent.click(box));
    // Shown ticked at once, but not claimed as kept: a reload now would lose it.
    assert(box.checked);
    assertEquals(syncState(), WRITING_TEXT);
    assert(!status().includes(PENDING_TEXT));
    await act(async () => {
      land();
      await landed;
    });
    await waitFor(() => assertEquals(syncState(), PENDING_TEXT));
    assertStringIncludes(status(), "1 change waiting");
    assertEquals((await store.listOps(page.props.surveyId)).length, 1);
  } finally {
    page.done();
  }
});

test("[survey checklist] an edit the device cannot keep is undone with a message, and nothing is queued", async () => {
  const t = await createTestApp();
  const store = memoryStore();
  setChecklistStore({
    ...store,
    addOp: () => Promise.reject(new DOMException("quota", "QuotaExceededError")),
  });
  const page = await openChecklist(t);
  try {
    render(<SurveyChecklist {...page.props} />);
    await ready();
    const box = within(item("plat_research")).getByRole("checkbox") as HTMLInputElement;
    await act(() => void fireEvent.click(box));
    const alert = await screen.findByRole("alert");
    assertStringIncludes(alert.textContent!, NOT_KEPT_TEXT);
    await waitFor(() => assert(!box.checked));
    assert(!status().includes("Saved"));
    await act(() => page.api.idle());
    assertEquals(page.api.calls.filter((c) => c.method === "POST").length, 0);
  } finally {
    page.done();
  }
});

test("[survey checklist] a typed answer is kept when the phone is locked mid-word, and never called saved before", async () => {
  const { page, queued } = await offlineChecklist();
  try {
    const notes = within(item("encroachments")).getByRole("textbox");
    await act(() =>
      void fireEvent.change(notes, { target: { value: "Fence 2 ft over the east line" } })
    );
    // Still typing: on screen only, and said so.
    assertEquals(syncState(), DRAFT_TEXT);
    assertStringIncludes(item("encroachments").textContent!, "Not saved yet");
    assertEquals(await queued(), []);
    // The phone is locked before the typing pause (no blur): the answer goes to the device.
    const visibility = Object.getOwnPropertyDescriptor(document, "visibilityState");
    Object.defineProperty(document, "visibilityState", { value: "hidden", configurable: true });
    try {
      await act(() => void document.dispatchEvent(new Event("visibilitychange")));
    } finally {
      if (visibility) Object.defineProperty(document, "visibilityState", visibility);
      else delete (document as { visibilityState?: string }).visibilityState;
    }
    await waitFor(() => assertEquals(syncState(), PENDING_TEXT));
    assertEquals(await queued(), ["Fence 2 ft over the east line"]);
  } finally {
    page.done();
  }
});

test("[survey checklist] a typed answer is kept when the page goes away before the pause", async () => {
  const { page, view, queued } = await offlineChecklist();
  try {
    const found = within(item("monuments_found")).getByRole("textbox");
    await act(() => void fireEvent.change(found, { target: { value: "3" } }));
    view.unmount();
    await waitFor(async () => assertEquals(await queued(), [3]));
    render(<SurveyChecklist {...page.props} />);
    await ready();
    assertEquals(
      (within(item("monuments_found")).getByRole("textbox") as HTMLInputElement).value,
      "3",
    );
  } finally {
    page.done();
  }
});

test("[survey checklist] the controls come alive even when the device's storage never answers", async () => {
  const t = await createTestApp();
  const store = memoryStore();
  const never = new Promise<never>(() => {});
  setChecklistStore({ ...store, listOps: () => never, listPhotos: () => never });
  const page = await openChecklist(t);
  try {
    render(<SurveyChecklist {...page.props} />);
    const box = within(item("deed_research")).getByRole("checkbox") as HTMLInputElement;
    assert(box.disabled, "waiting for the device's queue");
    await waitFor(() => assert(!box.disabled, "alive after the wait"), { timeout: 5_000 });
  } finally {
    page.done();
  }
});

test("[survey checklist] a photo taken offline is kept, uploaded once online and becomes the item's answer", async () => {
  const t = await createTestApp();
  setChecklistStore(memoryStore());
  const page = await openChecklist(t);
  try {
    page.setOffline(true);
    render(<SurveyChecklist {...page.props} />);
    await ready();
    const input = item("corner_photos").querySelector('input[type="file"]') as HTMLInputElement;
    assertEquals(input.getAttribute("capture"), "environment");
    const photo = new File([new Uint8Array([0xff, 0xd8, 0xff])], "ne-corner.jpg", {
      type: "image/jpeg",
    });
    await act(() => void fireEvent.change(input, { target: { files: [photo] } }));
    await waitFor(() => assertEquals(syncState(), PENDING_TEXT));
    await waitFor(() =>
      assert(within(item("corner_photos")).queryByText(/No photos yet/) === null)
    );
    assertEquals(page.uploads.length, 0);

    page.setOffline(false);
    await act(() => void globalThis.dispatchEvent(new NativeEvent("online")));
    await waitFor(() => assertEquals(syncState(), SAVED_TEXT));
    await act(() => page.api.idle());
    assertEquals(page.uploads.length, 1);
    const form = page.uploads[0].body as FormData;
    assertEquals(form.get("kind"), "photo");
    assertEquals(
      form.get("checklistItemId"),
      page.props.items.find((i) => i.key === "corner_photos")!.id,
    );
    const [file] = await t.sql<{ id: string }[]>`select id from survey_files`;
    assertEquals((await itemRows(t, page.job.survey.id)).get("corner_photos")!.value, [file.id]);
    const img = within(item("corner_photos")).getByRole("img") as HTMLImageElement;
    assertEquals(img.getAttribute("src"), `/api/files/${file.id}`);
    assertEquals(img.getAttribute("alt"), "Photos of each corner with its monument, photo 1");
  } finally {
    page.done();
  }
});

test("[survey checklist] an edit the server refuses for good is dropped with its message", async () => {
  const t = await createTestApp();
  setChecklistStore(memoryStore());
  const page = await openChecklist(t);
  try {
    await putSurveyInStatus(t, page.job.survey.id, "completed");
    render(<SurveyChecklist {...page.props} />);
    await ready();
    await act(() => void fireEvent.click(within(item("deed_research")).getByRole("checkbox")));
    const alert = await screen.findByRole("alert");
    assertStringIncludes(alert.textContent!, "Some changes could not be saved");
    assertStringIncludes(alert.textContent!, "can no longer be changed");
    await waitFor(() => assert(!status().includes(PENDING_TEXT)));
    // The server does not have the edit: nothing says "Saved".
    assertEquals(syncState(), "");
  } finally {
    page.done();
  }
});

test("[survey checklist] a number item refuses what is not a number and queues nothing", async () => {
  const t = await createTestApp();
  setChecklistStore(memoryStore());
  const page = await openChecklist(t);
  try {
    render(<SurveyChecklist {...page.props} />);
    await ready();
    const field = within(item("monuments_found")).getByRole("textbox");
    await act(() => void fireEvent.change(field, { target: { value: "four" } }));
    await act(() => void fireEvent.blur(field));
    assertEquals(field.getAttribute("aria-invalid"), "true");
    assertStringIncludes(item("monuments_found").textContent!, "Enter a number");
    await act(() => page.api.idle());
    assertEquals(page.api.calls.filter((c) => c.method === "POST").length, 0);
  } finally {
    page.done();
  }
});

test("[survey checklist] read-only shows the answers without controls to change them", async () => {
  const t = await createTestApp();
  setChecklistStore(memoryStore());
  const page = await openChecklist(t);
  try {
    const items = page.props.items.map((i) =>
      i.key === "field_notes"
        ? {
          ...i,
          value: "Cleared brush on the west line",
          answeredByName: "Toni Tech",
          answeredAt: "2024-06-01T10:00:00.000Z",
        }
        : i
    );
    render(<SurveyChecklist surveyId={page.props.surveyId} items={items} canEdit={false} />);
    assertEquals(
      (within(item("field_notes")).getByRole("textbox") as HTMLTextAreaElement).value,
      "Cleared brush on the west line",
    );
    assert((within(item("field_notes")).getByRole("textbox") as HTMLTextAreaElement).readOnly);
    assertEquals(document.querySelectorAll('input[type="file"]').length, 0);
    assertEquals(screen.queryByRole("status"), null);
  } finally {
    page.done();
  }
});
