import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";
import { stubFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: AdminMessages, replyHref } = await import("../../islands/AdminMessages.tsx");
type ContactMessageView = import("../../islands/AdminMessages.tsx").ContactMessageView;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

const NEW = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa";
const READ = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb";
const OLDER = "cccccccc-cccc-4ccc-8ccc-cccccccccccc";

function msg(id: string, overrides: Partial<ContactMessageView> = {}): ContactMessageView {
  return {
    id,
    name: `Sender ${id.slice(0, 4)}`,
    email: `${id.slice(0, 4)}@example.com`,
    phone: null,
    topic: "quote",
    message: `Full text of message ${id.slice(0, 4)}.\nSecond line.`,
    createdAt: "2026-03-01T15:04:00.000Z",
    readAt: null,
    ...overrides,
  };
}

const FIRST = [
  msg(NEW, { name: "Nia New", phone: "512-555-0100" }),
  msg(READ, { name: "Rex Read", topic: "billing", readAt: "2026-03-01T16:00:00.000Z" }),
];

function mount(messages = FIRST, nextCursor: string | null = null) {
  dismissToast();
  render(<AdminMessages initial={{ messages, nextCursor }} />);
  return {
    done() {
      cleanup();
      dismissToast();
    },
  };
}

function item(id: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`li[data-message-id="${id}"]`);
  assert(el, `message ${id}`);
  return el;
}

function settle() {
  return act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

test("[admin messages] the list shows sender, topic, time and an unread marker", () => {
  const ui = mount();
  try {
    const names = [...document.querySelectorAll(".admin-message__from")].map((e) => e.textContent);
    assertEquals(names, ["Nia New", "Rex Read"]);
    assertEquals(item(NEW).querySelector(".badge")?.textContent, "New");
    assertMatch(item(NEW).textContent ?? "", /A quote or survey request/);
    assertMatch(item(NEW).textContent ?? "", /Mar 1, 2026/);
    assert(item(NEW).classList.contains("admin-message--unread"));
    assert(!item(READ).classList.contains("admin-message--unread"));
    assertEquals(item(READ).querySelector(".badge"), null, "no marker on a read message");
    assertMatch(item(READ).textContent ?? "", /Pricing and payment/);
    assertMatch(document.querySelector(".admin-messages__count")?.textContent ?? "", /1 unread/);
    assertEquals(screen.queryByRole("button", { name: "Load older" }), null);
  } finally {
    ui.done();
  }
});

test("[admin messages] opening an unread message shows all of it, a reply link, and marks it read", async () => {
  const api = stubFetch({
    [`PATCH /api/admin/contact-messages/${NEW}/read`]: Response.json({
      message: "Message marked as read",
    }),
  });
  const ui = mount();
  try {
    const summary = item(NEW).querySelector("button")!;
    const body = item(NEW).querySelector<HTMLElement>(".admin-message__body")!;
    assertEquals(summary.getAttribute("aria-expanded"), "false");
    assert(body.hidden, "the full text starts closed");
    await act(() => void fireEvent.click(summary));
    await settle();
    assertEquals(summary.getAttribute("aria-expanded"), "true");
    assert(!body.hidden);
    assertMatch(body.textContent ?? "", /Full text of message aaaa\.\nSecond line\./);
    assertMatch(body.textContent ?? "", /512-555-0100/);
    const reply = screen.getByRole("link", { name: "Reply to Nia New" });
    assertEquals(
      reply.getAttribute("href"),
      "mailto:aaaa@example.com?subject=Re%3A%20your%20message%20to%20Meridian",
    );
    assertEquals(api.calls.length, 1);
    assertEquals(api.calls[0].method, "PATCH");
    assertEquals(api.calls[0].path, `/api/admin/contact-messages/${NEW}/read`);
    assert(!item(NEW).classList.contains("admin-message--unread"), "the marker goes");
    assertEquals(item(NEW).querySelector(".badge"), null);

    // Closing and opening again does not ask the server a second time.
    await act(() => void fireEvent.click(summary));
    await act(() => void fireEvent.click(summary));
    await settle();
    assertEquals(api.calls.length, 1);
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin messages] opening a message already read sends nothing", async () => {
  const api = stubFetch({});
  const ui = mount();
  try {
    await act(() => void fireEvent.click(item(READ).querySelector("button")!));
    await settle();
    assertEquals(api.calls.length, 0);
    assert(!item(READ).querySelector<HTMLElement>(".admin-message__body")!.hidden);
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin messages] a failed mark-read keeps the marker and toasts the server's message", async () => {
  const api = stubFetch({
    [`PATCH /api/admin/contact-messages/${NEW}/read`]: Response.json(
      { message: "Message not found" },
      { status: 404 },
    ),
  });
  const ui = mount();
  try {
    await act(() => void fireEvent.click(item(NEW).querySelector("button")!));
    await settle();
    assertEquals(getToasts()[0]?.title, "Error");
    assertEquals(getToasts()[0]?.description, "Message not found");
    assert(item(NEW).classList.contains("admin-message--unread"));
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin messages] 'Load older' fetches the next page with the cursor and appends it", async () => {
  const cursor = `2026-03-01T15:04:00.000Z_${READ}`;
  const api = stubFetch({
    "GET /api/admin/contact-messages": Response.json({
      messages: [msg(OLDER, { name: "Olga Older" })],
      nextCursor: null,
    }),
  });
  const ui = mount(FIRST, cursor);
  try {
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Load older" })));
    await waitFor(() => {
      if (!document.querySelector(`li[data-message-id="${OLDER}"]`)) throw new Error("not yet");
    });
    assertEquals(
      api.calls[0].path,
      `/api/admin/contact-messages?before=${encodeURIComponent(cursor)}`,
    );
    const names = [...document.querySelectorAll(".admin-message__from")].map((e) => e.textContent);
    assertEquals(names, ["Nia New", "Rex Read", "Olga Older"]);
    assertEquals(screen.queryByRole("button", { name: "Load older" }), null, "that was the last");
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin messages] 'Unread only' reloads the list with the filter; failures toast", async () => {
  let fail = false;
  const api = stubFetch({
    "GET /api/admin/contact-messages": () =>
      fail
        ? new Response("", { status: 503, statusText: "Service Unavailable" })
        : Response.json({ messages: [FIRST[0]], nextCursor: null }),
  });
  const ui = mount();
  try {
    await act(() => void fireEvent.click(screen.getByLabelText("Unread only")));
    await waitFor(() => {
      if (document.querySelector(`li[data-message-id="${READ}"]`)) throw new Error("not yet");
    });
    assertEquals(api.calls[0].path, "/api/admin/contact-messages?unread=true");
    assertEquals(
      [...document.querySelectorAll(".admin-message__from")].map((e) => e.textContent),
      ["Nia New"],
    );

    fail = true;
    await act(() => void fireEvent.click(screen.getByLabelText("Unread only")));
    await settle();
    assertEquals(api.calls[1].path, "/api/admin/contact-messages");
    assertEquals(getToasts()[0]?.title, "Error");
    assertEquals(getToasts()[0]?.description, "Failed to load messages");
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin messages] an empty inbox says so", () => {
  const ui = mount([]);
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
