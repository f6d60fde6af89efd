/**
 * islands/ChecklistTemplateEditor against the real app: rendered with the props of
 * /admin/checklists/{type}, its save goes to POST /api/checklist-templates/{type} in-process as
 * an admin.
 */
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
const { act, cleanup, fireEvent, render, screen, waitFor, within } = await import(
  "@testing-library/react"
);
const { default: ChecklistTemplateEditor, keyFromLabel, TEMPLATE_SAVED, TEMPLATE_SAVE_FAILED } =
  await import("../../islands/ChecklistTemplateEditor.tsx");
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
type Props = import("../../islands/ChecklistTemplateEditor.tsx").ChecklistTemplateEditorProps;

async function openEditor(t: TestApp, type = "construction") {
  dismissToast();
  const cookie = await signInAs(t, "admin");
  const { html } = await loadPage(t, `/admin/checklists/${type}`, cookie);
  const props = islandProps<Props>(html, "ChecklistTemplateEditor");
  const api = useAppFetch(t, { cookie });
  render(
    <>
      <ChecklistTemplateEditor {...props} />
      <Toaster />
    </>,
  );
  return {
    props,
    api,
    async stored(version: number) {
      const [row] = await t.sql<{ items: { key: string }[] }[]>`
        select items from checklist_templates where survey_type = ${type} and version = ${version}`;
      return row?.items;
    },
    done() {
      api.restore();
      cleanup();
      dismissToast();
      t.close();
    },
  };
}

function items(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>(".template-editor__item")];
}

function legends(): string[] {
  return items().map((li) => li.querySelector("legend")!.textContent!);
}

test("[template editor] keys follow a new item's label", () => {
  assertEquals(keyFromLabel("Lowest floor (C2.a)"), "lowest_floor_c2_a");
  assertEquals(keyFromLabel("  811 ticket number "), "item_811_ticket_number");
  assertEquals(keyFromLabel("!!!"), "item");
});

test("[template editor] add, reorder, remove and save make a new version with the new order", async () => {
  const t = await createTestApp();
  const page = await openEditor(t);
  try {
    const count = page.props.template.items.length;
    assertEquals(items().length, count);
    const [first, second] = page.props.template.items;
    assertEquals(legends().slice(0, 2), [`Item 1: ${first.label}`, `Item 2: ${second.label}`]);

    // Move the second item up: focus stays on the moved item's Down button (Up is now disabled).
    const up = screen.getByRole("button", { name: "Move item 2 up" });
    await act(() => void fireEvent.click(up));
    assertEquals(legends().slice(0, 2), [`Item 1: ${second.label}`, `Item 2: ${first.label}`]);
    assertEquals(
      document.activeElement,
      screen.getByRole("button", { name: "Move item 1 down" }),
    );

    // Remove the (now) last item.
    const lastName = page.props.template.items[count - 1].label;
    await act(() =>
      void fireEvent.click(
        screen.getByRole("button", { name: `Remove item ${count}: ${lastName}` }),
      )
    );
    assertEquals(items().length, count - 1);

    // Add a number item with a unit; its key follows the label.
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Add item" })));
    const added = items().at(-1)!;
    assertEquals(document.activeElement, within(added).getByLabelText("Label"));
    await act(() =>
      void fireEvent.change(within(added).getByLabelText("Label"), {
        target: { value: "Stakes reset" },
      })
    );
    await act(() =>
      void fireEvent.change(within(added).getByLabelText("Kind"), { target: { value: "number" } })
    );
    await act(() =>
      void fireEvent.change(within(added).getByLabelText(/^Unit/), { target: { value: "ea" } })
    );
    await act(() => void fireEvent.click(within(added).getByLabelText("Required")));
    assertEquals((within(added).getByLabelText("Key") as HTMLInputElement).value, "stakes_reset");

    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Save as version 2" }))
    );
    await waitFor(() => assertEquals(getToasts()[0]?.title, TEMPLATE_SAVED));
    await act(() => page.api.idle());
    const stored = await page.stored(2);
    assert(stored, "version 2 saved");
    assertEquals(stored.map((i) => i.key), [
      second.key,
      first.key,
      ...page.props.template.items.slice(2, count - 1).map((i) => i.key),
      "stakes_reset",
    ]);
    assertEquals(stored.at(-1), {
      key: "stakes_reset",
      label: "Stakes reset",
      kind: "number",
      unit: "ea",
      isRequired: false,
    });
    assert(screen.getByRole("button", { name: "Save as version 3" }));
  } finally {
    page.done();
  }
});

test("[template editor] a blank label or a duplicate key is shown at the field and nothing is sent", async () => {
  const t = await createTestApp();
  const page = await openEditor(t);
  try {
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Add item" })));
    const added = items().at(-1)!;
    const firstKey = page.props.template.items[0].key;
    await act(() =>
      void fireEvent.change(within(added).getByLabelText("Key"), { target: { value: firstKey } })
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Save as version 2" }))
    );
    const label = within(added).getByLabelText("Label");
    await waitFor(() => assertEquals(label.getAttribute("aria-invalid"), "true"));
    assertEquals(document.activeElement, label);
    assert(within(added).getByText("Label is required"));
    assert(within(added).getByText(`Another item has the key ${firstKey}`));
    assertEquals(page.api.calls.length, 0);
    assertEquals(await page.stored(2), undefined);
  } finally {
    page.done();
  }
});

test("[template editor] the server's refusal is toasted and lands on the field", async () => {
  const t = await createTestApp();
  const page = await openEditor(t);
  try {
    // A label of 200 characters of spaces passes here (trimmed: blank is caught, so use a
    // control character the server refuses).
    const first = items()[0];
    await act(() =>
      void fireEvent.change(within(first).getByLabelText("Label"), {
        target: { value: "Bad\u0007label" },
      })
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Save as version 2" }))
    );
    await waitFor(() => assertEquals(getToasts()[0]?.title, TEMPLATE_SAVE_FAILED));
    assertEquals(getToasts()[0].description, "Label contains characters that are not allowed");
    await waitFor(() =>
      assertEquals(within(first).getByLabelText("Label").getAttribute("aria-invalid"), "true")
    );
    assertEquals(await page.stored(2), undefined);
  } finally {
    page.done();
  }
});
