/**
 * The MessageThread island (issue 22) hydrated on happy-dom with its requests answered by the
 * real app (tests/islands/_fetch.ts): opening marks the thread read, sending shows the message
 * at once, newer messages arrive without a reload, tabs switch by keyboard, a refused message
 * keeps the draft and says why, and message text is never HTML.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { addBuyer, addPurchase, addSurveyWithLead } from "../_refund_fixtures.ts";
import { setupDom } from "./_dom.ts";
import { useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: MessageThread } = await import("../../islands/MessageThread.tsx");
type MessageThreadProps = import("../../islands/MessageThread.tsx").MessageThreadProps;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");

async function market(t: TestApp) {
  const client = await createSignedInUser(t, { role: "client", fullName: "Dana Client" });
  const { survey, lead } = await addSurveyWithLead(t, client.cookie);
  const able = await addBuyer(t, "Able Survey");
  const baker = await addBuyer(t, "Baker Survey");
  await addPurchase(t, lead, able);
  await addPurchase(t, lead, baker);
  return { client, survey, lead, able, baker };
}

async function send(t: TestApp, cookie: string, surveyId: string, body: Record<string, unknown>) {
  const res = await t.request("POST", `/api/surveys/${surveyId}/messages`, { cookie, body });
  assertEquals(res.status, 201);
  await res.body?.cancel();
}

/** The client's /survey/{id} island, mounted with the page's props, fetch reaching the app. */
async function mount(t: TestApp, surveyId: string, cookie: string, canned = {}) {
  dismissToast();
  const { html } = await loadPage(t, `/survey/${surveyId}`, cookie);
  const props = islandProps<MessageThreadProps>(html, "MessageThread");
  const api = useAppFetch(t, { cookie, canned });
  render(<MessageThread {...props} />);
  await act(() => api.idle());
  return {
    props,
    api,
    done() {
      cleanup();
      api.restore();
      dismissToast();
    },
  };
}

function listed(): string[] {
  return [...document.querySelectorAll(".msg__body")].map((p) => p.textContent ?? "");
}

test("[message thread] opening reads the thread; a sent message shows at once; newer ones arrive without a reload", async () => {
  const t = await createTestApp();
  const m = await market(t);
  await send(t, m.able.cookie, m.survey.id, { body: "<b>Hi</b> from Able https://example.com/a" });
  const ui = await mount(t, m.survey.id, m.client.cookie);
  try {
    assertEquals(ui.props.initial.surveyorId, m.able.surveyorId);
    assertEquals(listed(), ["<b>Hi</b> from Able https://example.com/a"]);
    assertEquals(document.querySelector(".msg__body b"), null, "text, not markup");
    const link = document.querySelector<HTMLAnchorElement>(".msg__body a")!;
    assertEquals(link.getAttribute("href"), "https://example.com/a");
    assertEquals(link.getAttribute("rel"), "noopener noreferrer nofollow ugc");

    // The first poll opened it: the bell's notification is read.
    const [note] = await t.sql<{ isRead: boolean }[]>`
      select is_read from notifications where user_id = ${m.client.user.id}`;
    assertEquals(note.isRead, true);

    const box = screen.getByLabelText("Message to Able Survey") as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "  Gate code is 1234  " } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => assertEquals(listed().at(-1), "Gate code is 1234"));
    assertEquals(box.value, "", "the composer empties");
    const [stored] = await t.sql<{ body: string }[]>`
      select body from survey_messages where author_id = ${m.client.user.id}`;
    assertEquals(stored.body, "Gate code is 1234");

    // Able answers; the open page shows it when it next asks (a tab shown again asks at once).
    await send(t, m.able.cookie, m.survey.id, { body: "Thanks, see you Tuesday" });
    await act(async () => {
      document.dispatchEvent(new Event("visibilitychange"));
      await ui.api.idle();
    });
    await waitFor(() => assertEquals(listed().at(-1), "Thanks, see you Tuesday"));
    assertEquals(listed().length, 3, "nothing twice");
    const polls = ui.api.calls.filter((c) => c.method === "GET");
    assert(polls.some((c) => c.path.includes("after=")), "polls ask only for newer messages");
  } finally {
    ui.done();
    t.close();
  }
});

test("[message thread] the firms are tabs the arrow keys move between; each loads its own thread", async () => {
  const t = await createTestApp();
  const m = await market(t);
  await send(t, m.baker.cookie, m.survey.id, { body: "Baker's note" });
  const ui = await mount(t, m.survey.id, m.client.cookie);
  try {
    const tabs = screen.getAllByRole("tab");
    assertEquals(tabs.map((x) => x.textContent), ["Able Survey", "Baker Survey"]);
    const selected = tabs.find((x) => x.getAttribute("aria-selected") === "true")!;
    assertEquals(selected.textContent, "Baker Survey", "the thread with unread messages opens");
    fireEvent.keyDown(selected, { key: "ArrowLeft" });
    await act(() => ui.api.idle());
    await waitFor(() =>
      assertEquals(screen.getByRole("tab", { selected: true }).textContent, "Able Survey")
    );
    assertEquals(document.activeElement?.textContent, "Able Survey", "focus follows");
    assertStringIncludes(document.querySelector(".msg-log")!.textContent ?? "", "No messages yet");
    fireEvent.keyDown(document.activeElement!, { key: "End" });
    await act(() => ui.api.idle());
    await waitFor(() => assertEquals(listed(), ["Baker's note"]));
  } finally {
    ui.done();
    t.close();
  }
});

test("[message thread] a refused message keeps the draft and toasts the server's reason", async () => {
  const t = await createTestApp();
  const m = await market(t);
  await send(t, m.able.cookie, m.survey.id, { body: "Hello" });
  // The app's limit needs 60 messages to reach; its 429 is what the island gets.
  const limited = new Response(
    JSON.stringify({ message: "Too many messages. Please try again in 9 minutes." }),
    { status: 429, headers: { "content-type": "application/json" } },
  );
  const ui = await mount(t, m.survey.id, m.client.cookie, {
    [`POST /api/surveys/${m.survey.id}/messages`]: limited,
  });
  try {
    const box = screen.getByLabelText("Message to Able Survey") as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: "Are you there?" } });
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => assertEquals(getToasts().length, 1));
    assertEquals(getToasts()[0].title, "Message not sent");
    assertEquals(getToasts()[0].description, "Too many messages. Please try again in 9 minutes.");
    assertEquals(box.value, "Are you there?");
    assertEquals(listed(), ["Hello"]);
  } finally {
    ui.done();
    t.close();
  }
});

test("[message thread] a long thread opens at its newest 20 messages; 'Show earlier messages' brings the rest above them, once each", async () => {
  const t = await createTestApp();
  const m = await market(t);
  // Inserted directly: 23 messages through the API would meet the per-account rate limit.
  for (let i = 1; i <= 23; i++) {
    await t.sql`
      insert into survey_messages (survey_id, surveyor_id, author_id, author_role, author_name, body)
      values (${m.survey.id}, ${m.able.surveyorId}, ${m.able.userId}, 'surveyor', 'Able Survey',
        ${`Message ${i}`})`;
  }
  const ui = await mount(t, m.survey.id, m.client.cookie);
  try {
    const newest = Array.from({ length: 20 }, (_, i) => `Message ${i + 4}`);
    assertEquals(ui.props.initial.messages.length, 20, "the page ships the newest 20");
    assertEquals(listed(), newest);
    fireEvent.click(screen.getByRole("button", { name: "Show earlier messages" }));
    await waitFor(() => assertEquals(listed().length, 23));
    assertEquals(listed(), [...["Message 1", "Message 2", "Message 3"], ...newest]);
    assertEquals(screen.queryByRole("button", { name: "Show earlier messages" }), null);
  } finally {
    ui.done();
    t.close();
  }
});
