/**
 * islands/EmailTemplateEditor against the real app: rendered with the props of
 * /admin/email-templates/{id}; its preview, save, test and reset requests go to the API
 * in-process as an admin.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";
import { changedFields } from "../../islands/_email_diff.tsx";
import { diffWords } from "../../lib/mail/template_copy.ts";

setupDom();
const { act, cleanup, fireEvent, render, screen, waitFor, within } = await import(
  "@testing-library/react"
);
const { default: EmailTemplateEditor, EDITOR_TOASTS, PREVIEW_WIDTHS } = await import(
  "../../islands/EmailTemplateEditor.tsx"
);
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
type Props = import("../../islands/_email_template.ts").EmailTemplateEditorProps;

const ID = "password_reset";

async function openEditor(t: TestApp) {
  dismissToast();
  const { user, cookie } = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const { html } = await loadPage(t, `/admin/email-templates/${ID}`, cookie);
  const props = islandProps<Props>(html, "EmailTemplateEditor");
  const api = useAppFetch(t, { cookie });
  render(
    <>
      <EmailTemplateEditor {...props} />
      <Toaster />
    </>,
  );
  const block = props.shape.blocks.find((b) => b.isMultiline) ?? props.shape.blocks[0];
  return {
    user,
    props,
    api,
    block,
    variable: props.variables[0],
    subject: () => screen.getByLabelText("Subject") as HTMLInputElement,
    field: () =>
      screen.getByLabelText(
        new RegExp(`^${block.label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`),
      ) as HTMLTextAreaElement,
    frame: () => document.querySelector("iframe")!,
    done() {
      api.restore();
      cleanup();
      dismissToast();
      t.close();
    },
  };
}

async function type(el: HTMLElement, value: string) {
  await act(() => void fireEvent.change(el, { target: { value } }));
}

test("[email editor] word diff: removed before added, runs merged, spaces kept", () => {
  assertEquals(diffWords("Reset your password now", "Choose your new password now"), [
    { kind: "del", text: "Reset" },
    { kind: "ins", text: "Choose" },
    { kind: "same", text: " your " },
    { kind: "ins", text: "new " },
    { kind: "same", text: "password now" },
  ]);
  assertEquals(diffWords("same", "same"), [{ kind: "same", text: "same" }]);
  assertEquals(diffWords("", "new words"), [{ kind: "ins", text: "new words" }]);
  const shape = {
    variables: [],
    defaultSubject: "S",
    blocks: [{ key: "a", label: "Intro", isMultiline: true, defaultText: "x" }],
  };
  assertEquals(
    changedFields(shape, { subject: "S", blocks: { a: "x" } }, {
      subject: "S",
      blocks: { a: "y" },
    }).map((c) => c.label),
    ["Intro"],
  );
});

test("[email editor] an unknown variable is marked as typed and the save is refused at the field", async () => {
  const t = await createTestApp();
  const page = await openEditor(t);
  try {
    await waitFor(() => assert(document.querySelector(".email-editor[data-hydrated]")));
    const save = screen.getByRole("button", { name: "Save as version 1" }) as HTMLButtonElement;
    assertEquals(save.disabled, true, "nothing to save yet");
    await type(page.subject(), "Hello {clientName}");
    assertEquals(page.subject().getAttribute("aria-invalid"), "true");
    assertStringIncludes(
      document.getElementById(`${page.subject().id}-error`)!.textContent!,
      "Subject uses an unknown variable: {clientName}",
    );
    await act(() => void fireEvent.click(save));
    await waitFor(() => assertEquals(getToasts()[0]?.title, EDITOR_TOASTS.saveFailed));
    assertEquals(document.activeElement, page.subject(), "focus moves to the bad field");
    assertEquals(
      page.api.calls.filter((c) => c.path.endsWith("/versions")).length,
      0,
      "never sent",
    );
  } finally {
    page.done();
  }
});

test("[email editor] the preview follows the draft, at phone and desktop width", async () => {
  const t = await createTestApp();
  const page = await openEditor(t);
  try {
    assertEquals(page.frame().getAttribute("sandbox"), "", "no scripts in the preview");
    // The saved words come from their preview address; a draft's rendering as srcdoc.
    assertEquals(page.frame().getAttribute("src"), page.props.previewSrc);
    assertEquals(page.frame().getAttribute("srcdoc"), null);
    await type(page.field(), `A brand new paragraph for {${page.variable.name}}.`);
    await waitFor(
      () => assertStringIncludes(page.frame().srcdoc, "A brand new paragraph for"),
      { timeout: 3000 },
    );
    assertStringIncludes(
      document.querySelector(".email-preview__text")!.textContent!,
      `A brand new paragraph for ${page.variable.sample}.`,
    );
    assertEquals(page.frame().style.width, `${PREVIEW_WIDTHS.desktop}px`);
    const phone = screen.getByRole("button", { name: /^Phone/ });
    await act(() => void fireEvent.click(phone));
    assertEquals(phone.getAttribute("aria-pressed"), "true");
    assertEquals(page.frame().style.width, `${PREVIEW_WIDTHS.phone}px`);
    assertEquals(await t.sql`select 1 from email_template_versions`.then((r) => r.length), 0);
  } finally {
    page.done();
  }
});

test("[email editor] save, the history with who and when, the diff, a test and a confirmed reset", async () => {
  const t = await createTestApp();
  const page = await openEditor(t);
  try {
    await waitFor(() => assert(document.querySelector(".email-editor[data-hydrated]")));
    const old = page.field().value;
    await type(page.field(), `${old} Extra words here.`);
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Save as version 1" }))
    );
    await waitFor(() => assertEquals(getToasts()[0]?.title, EDITOR_TOASTS.saved));
    await act(() => page.api.idle());
    const history = document.querySelector(".email-editor__history")!.textContent!;
    assertStringIncludes(history, "Version 1");
    assertStringIncludes(history, "Saved by Ada Admin");
    // The diff of version 1 against the defaults: the added words, labelled for screen readers.
    const ins = document.querySelector(".email-diff__ins")!;
    assertEquals(ins.textContent!.replace(/\s+/g, " "), "Added: Extra words here. (end added) ");
    assertEquals(document.querySelector(".email-diff dt")!.textContent, page.block.label);
    screen.getByRole("button", { name: "Save as version 2" });

    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Send me a test" })));
    await waitFor(() => assertEquals(getToasts()[0]?.title, EDITOR_TOASTS.testQueued));
    assertStringIncludes(getToasts()[0].description ?? "", page.user.email);
    const [mail] = await t.sql<{ toAddress: string }[]>`select to_address from email_outbox`;
    assertEquals(mail.toAddress, page.user.email);

    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Reset to default" })));
    assertEquals(document.querySelector("dialog")!.open, true, "asks first");
    const dialog = document.querySelector("dialog")!;
    await act(() =>
      void fireEvent.click(
        within(dialog).getByRole("button", { name: "Reset to default", hidden: true }),
      )
    );
    await waitFor(() => assertEquals(getToasts()[0]?.title, EDITOR_TOASTS.reset));
    await act(() => page.api.idle());
    assertEquals(page.field().value, page.block.defaultText, "the defaults are back");
    assertStringIncludes(
      document.querySelector(".email-editor__history")!.textContent!,
      "Version 2 · Reset to default",
    );
    const rows = await t.sql<{ version: number; isReset: boolean }[]>`
      select version, is_reset from email_template_versions order by version`;
    assertEquals([...rows], [{ version: 1, isReset: false }, { version: 2, isReset: true }]);
  } finally {
    page.done();
  }
});
