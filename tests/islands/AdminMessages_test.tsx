import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { signInAs } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { insertContactMessage } from "../../db/contact_messages.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: AdminMessages, replyHref } = await import("../../islands/AdminMessages.tsx");
type AdminMessagesProps = import("../../islands/AdminMessages.tsx").AdminMessagesProps;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

/** Stores a contact message as sent at `at` (ISO) and returns its id. */
async function sent(
  t: TestApp,
  at: string,
  fields: { name: string; topic?: string; phone?: string; readAt?: string },
): Promise<string> {
  const email = `${fields.name.split(" ")[0].toLowerCase()}@example.com`;
  const { id } = await insertContactMessage(t.sql, {
    name: fields.name,
    email,
    phone: fields.phone ?? null,
    topic: fields.topic ?? "quote",
    message: `Full text from ${fields.name}.\nSecond line.`,
    ip: null,
  });
  await t.sql`update contact_messages set created_at = ${at}, read_at = ${fields.readAt ?? null}
    where id = ${id}`;
  return id;
}

/** Nia's new quote question and Rex's billing message, already read. */
async function inbox(t: TestApp) {
  const rex = await sent(t, "2026-03-01T15:04:00.000Z", {
    name: "Rex Read",
    topic: "billing",
    readAt: "2026-03-01T16:00:00.000Z",
  });
  const nia = await sent(t, "2026-03-01T15:05:00.000Z", {
    name: "Nia New",
    phone: "512-555-0100",
  });
  return { nia, rex };
}

/** The admin's messages tab as the server renders it, hydrated, with fetch reaching the app. */
async function mount(t: TestApp, canned: Record<string, Answer> = {}) {
  dismissToast();
  const cookie = await signInAs(t, "admin");
  const { html } = await loadPage(t, "/admin?tab=messages", cookie);
  const props = islandProps<AdminMessagesProps>(html, "AdminMessages");
  const api = useAppFetch(t, { cookie, canned });
  render(<AdminMessages {...props} />);
  return {
    api,
    done() {
      cleanup();
      api.restore();
      dismissToast();
      t.close();
    },
  };
}

function item(id: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`li[data-message-id="${id}"]`);
  assert(el, `message ${id}`);
  return el;
}

async function readAt(t: TestApp, id: string) {
  const [row] = await t.sql<{ readAt: Date | null }[]>`
    select read_at from contact_messages where id = ${id}`;
  return row.readAt;
}

test("[admin messages] the list shows sender, topic, time and an unread marker", async () => {
  const t = await createTestApp();
  const { nia, rex } = await inbox(t);
  const ui = await mount(t);
  try {
    const names = [...document.querySelectorAll(".admin-message__from")].map((e) => e.textContent);
    assertEquals(names, ["Nia New", "Rex Read"]);
    assertEquals(item(nia).querySelector(".badge")?.textContent, "New");
    assertMatch(item(nia).textContent ?? "", /A quote or survey request/);
    assertMatch(item(nia).textContent ?? "", /Mar 1, 2026/);
    assert(item(nia).classList.contains("admin-message--unread"));
    assert(!item(rex).classList.contains("admin-message--unread"));
    assertEquals(item(rex).querySelector(".badge"), null, "no marker on a read message");
    assertMatch(item(rex).textContent ?? "", /Pricing and payment/);
    assertMatch(document.querySelector(".admin-messages__count")?.textContent ?? "", /1 unread/);
    assertEquals(screen.queryByRole("button", { name: "Load older" }), null);
  } finally {
    ui.done();
  }
});

test("[admin messages] opening an unread message shows all of it, a reply link, and marks it read", async () => {
  const t = await createTestApp();
  const { nia } = await inbox(t);
  const ui = await mount(t);
  try {
    const summary = item(nia).querySelector("button")!;
    const body = item(nia).querySelector<HTMLElement>(".admin-message__body")!;
    assertEquals(summary.getAttribute("aria-expanded"), "false");
    assert(body.hidden, "the full text starts closed");
    await act(() => void fireEvent.click(summary));
    await act(() => ui.api.idle());
    assertEquals(summary.getAttribute("aria-expanded"), "true");
    assert(!body.hidden);
    assertMatch(body.textContent ?? "", /Full text from Nia New\.\nSecond line\./);
    assertMatch(body.textContent ?? "", /512-555-0100/);
    const reply = screen.getByRole("link", { name: "Reply to Nia New" });
    assertEquals(
      reply.getAttribute("href"),
      "mailto:nia@example.com?subject=Re%3A%20your%20message%20to%20Meridian",
    );
    assertEquals(ui.api.calls.map((c) => `${c.method} ${c.path}`), [
      `PATCH /api/admin/contact-messages/${nia}/read`,
    ]);
    assert(!item(nia).classList.contains("admin-message--unread"), "the marker goes");
    assertEquals(item(nia).querySelector(".badge"), null);
    assert(await readAt(t, nia), "stored as read");

    // Closing and opening again does not ask the server a second time.
    await act(() => void fireEvent.click(summary));
    await act(() => void fireEvent.click(summary));
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls.length, 1);
  } finally {
    ui.done();
  }
});

test("[admin messages] opening a message already read sends nothing", async () => {
  const t = await createTestApp();
  const { rex } = await inbox(t);
  const ui = await mount(t);
  try {
    await act(() => void fireEvent.click(item(rex).querySelector("button")!));
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls.length, 0);
    assert(!item(rex).querySelector<HTMLElement>(".admin-message__body")!.hidden);
  } finally {
    ui.done();
  }
});

test("[admin messages] a failed mark-read keeps the marker and toasts the server's message", async () => {
  const t = await createTestApp();
  const { nia } = await inbox(t);
  const ui = await mount(t);
  try {
    // The message is gone by the time it is opened.
    await t.sql`delete from contact_messages where id = ${nia}`;
    await act(() => void fireEvent.click(item(nia).querySelector("button")!));
    await act(() => ui.api.idle());
    assertEquals(getToasts()[0]?.title, "Error");
    assertEquals(getToasts()[0]?.description, "Message not found");
    assert(item(nia).classList.contains("admin-message--unread"));
  } finally {
    ui.done();
  }
});

test("[admin messages] 'Load older' fetches the next page with the cursor and appends it", async () => {
  const t = await createTestApp();
  const olga = await sent(t, "2026-02-01T09:00:00.000Z", { name: "Olga Older" });
  // One more than a page: the page ends with the 20th newest.
  for (let i = 0; i < 20; i++) {
    await sent(t, `2026-03-${String(i + 2).padStart(2, "0")}T09:00:00.000Z`, {
      name: `Sender ${i}`,
    });
  }
  const ui = await mount(t);
  try {
    assertEquals(document.querySelectorAll(".admin-message__from").length, 20);
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Load older" })));
    await waitFor(() => {
      if (!document.querySelector(`li[data-message-id="${olga}"]`)) throw new Error("not yet");
    });
    assertMatch(ui.api.calls[0].path, /^\/api\/admin\/contact-messages\?before=[^&]+$/);
    const names = [...document.querySelectorAll(".admin-message__from")].map((e) => e.textContent);
    assertEquals(names.length, 21);
    assertEquals(names.at(-1), "Olga Older");
    assertEquals(screen.queryByRole("button", { name: "Load older" }), null, "that was the last");
  } finally {
    ui.done();
  }
});

test("[admin messages] 'Unread only' reloads the list with the filter; failures toast", async () => {
  const t = await createTestApp();
  const { rex } = await inbox(t);
  let calls = 0;
  const ui = await mount(t, {
    // Canned on the second call only: the app cannot be made to fail on demand.
    "GET /api/admin/contact-messages": (_call, app) =>
      ++calls === 2 ? new Response("", { status: 503, statusText: "Service Unavailable" }) : app(),
  });
  try {
    await act(() => void fireEvent.click(screen.getByLabelText("Unread only")));
    await waitFor(() => {
      if (document.querySelector(`li[data-message-id="${rex}"]`)) throw new Error("not yet");
    });
    assertEquals(ui.api.calls[0].path, "/api/admin/contact-messages?unread=true");
    assertEquals(
      [...document.querySelectorAll(".admin-message__from")].map((e) => e.textContent),
      ["Nia New"],
    );

    await act(() => void fireEvent.click(screen.getByLabelText("Unread only")));
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls[1].path, "/api/admin/contact-messages");
    assertEquals(getToasts()[0]?.title, "Error");
    assertEquals(getToasts()[0]?.description, "Failed to load messages");
  } finally {
    ui.done();
  }
});

test("[admin messages] an empty inbox says so", async () => {
  const ui = await mount(await createTestApp());
  try {
    assert(screen.getByText("No messages yet"));
  } finally {
    ui.done();
  }
});

test("[admin messages] replyHref keeps the address readable and encodes the subject", () => {
  assertEquals(
    replyHref({ email: "a.b+c@example.com" }),
    "mailto:a.b%2Bc@example.com?subject=Re%3A%20your%20message%20to%20Meridian",
  );
});
