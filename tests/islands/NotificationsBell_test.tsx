import { setupDom } from "./_dom.ts";
import { assert, assertEquals } from "../_assert.ts";
import { renderToString } from "react-dom/server";
import { createTestApp, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { insertNotification } from "../../db/notifications.ts";
import { type Answer, type AppFetch, deferred, useAppFetch } from "./_fetch.ts";
import NotificationsBell, { formatWhen } from "../../islands/NotificationsBell.tsx";
import { formatLocalDateTime } from "../../islands/LocalTime.tsx";
import { dismissToast, getToasts } from "../../islands/_toast.ts";
import { setNavigateHandler } from "../../islands/_nav.ts";

setupDom();
const { act, cleanup, fireEvent, render, screen, waitFor } = await import("@testing-library/react");

/**
 * Stores a notification for `userId`, sent `minutesAgo`, and returns its id. `link` null makes
 * one without a page.
 */
async function notify(
  t: TestApp,
  userId: string,
  { title, body = `Body of ${title}`, link, minutesAgo = 5, isRead = false }: {
    title: string;
    body?: string;
    link?: string | null;
    minutesAgo?: number;
    isRead?: boolean;
  },
): Promise<string> {
  await insertNotification(t.sql, {
    userId,
    kind: "survey_status_changed",
    title,
    body,
    link: link === undefined ? `/survey/${crypto.randomUUID()}` : link,
  });
  const [{ id }] = await t.sql<{ id: string }[]>`
    update notifications set created_at = now() - make_interval(mins => ${minutesAgo}),
      is_read = ${isRead}, read_at = case when ${isRead} then now() end
    where user_id = ${userId} and title = ${title}
    returning id`;
  return id;
}

/** The test's app, a signed-in client (id, cookie), and a fetch that reaches the app. */
interface Bell {
  t: TestApp;
  userId: string;
  cookie: string;
  api: AppFetch;
}

async function isRead(t: TestApp, id: string): Promise<boolean> {
  const [row] = await t.sql<{ isRead: boolean }[]>`
    select is_read from notifications where id = ${id}`;
  return row.isRead;
}

/**
 * An island test on a fresh app with a signed-in client (`signedOut` leaves the browser without
 * a session); `canned` answers only what the app cannot produce on demand.
 */
function islandTest(
  name: string,
  fn: (bell: Bell) => Promise<void> | void,
  { canned = {}, signedOut = false }: { canned?: Record<string, Answer>; signedOut?: boolean } = {},
) {
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      dismissToast();
      const t = await createTestApp();
      const { user, cookie } = await createSignedInUser(t, { role: "client" });
      const api = useAppFetch(t, { cookie: signedOut ? undefined : cookie, canned });
      try {
        await fn({ t, userId: user.id, cookie, api });
      } finally {
        cleanup();
        api.restore();
        dismissToast();
        sessionStorage.clear();
        t.close();
      }
    },
  });
}

function bell() {
  return screen.getByRole("button", { name: /^Notifications/ });
}

/** Throws a plain Error (node:assert's misbehaves under happy-dom inside waitFor). */
function expect(condition: unknown, message: string) {
  if (!condition) throw new Error(message);
}

islandTest(
  "[notifications bell] server render is a closed bell with no count and no requests",
  ({ api }) => {
    const html = renderToString(<NotificationsBell />);
    assert(html.includes('aria-label="Notifications"'), html);
    assert(html.includes('aria-expanded="false"'), html);
    assert(!html.includes("notifications__count"), html);
    assertEquals(api.calls.length, 0);
    const withCount = renderToString(<NotificationsBell initialUnread={3} />);
    assert(withCount.includes("Notifications, 3 unread"), withCount);
  },
);

islandTest(
  "[notifications bell] loads once after hydration and shows the unread count",
  async ({ t, userId, api }) => {
    await notify(t, userId, { title: "Alpha" });
    await notify(t, userId, { title: "Bravo" });
    await notify(t, userId, { title: "Charlie", isRead: true });
    render(<NotificationsBell />);
    await waitFor(() => expect(bell().textContent === "2", "count shown"));
    assertEquals(bell().getAttribute("aria-label"), "Notifications, 2 unread");
    assertEquals(api.calls.map((c) => `${c.method} ${c.path}`), [
      "GET /api/notifications?page=1",
    ]);
  },
);

islandTest(
  "[notifications bell] opening lists title, text, time and link, and reloads",
  async ({ t, userId, api }) => {
    const link = `/survey/${crypto.randomUUID()}`;
    await notify(t, userId, {
      title: "Your survey visit is scheduled",
      body: "Your Boundary Survey request for 1 Elm St is now: Scheduled.",
      link,
    });
    render(<NotificationsBell />);
    await waitFor(() => expect(api.calls.length === 1, "first load"));
    fireEvent.click(bell());
    assertEquals(bell().getAttribute("aria-expanded"), "true");
    await waitFor(() => expect(api.calls.length === 2, "reloaded on open"));
    const item = await screen.findByRole("link", { name: /Your survey visit is scheduled/ });
    assertEquals(item.getAttribute("href"), link);
    assert(item.textContent?.includes("is now: Scheduled."));
    assert(item.textContent?.includes("5 minutes ago"));
    assert(item.textContent?.includes("Unread:"));
    // The exact time, in the viewer's time zone, on hover.
    const time = item.querySelector("time")!;
    assertEquals(time.getAttribute("title"), formatLocalDateTime(time.getAttribute("datetime")!));
    // Escape closes it and gives focus back to the bell.
    fireEvent.keyDown(document, { key: "Escape" });
    assertEquals(bell().getAttribute("aria-expanded"), "false");
    assertEquals(document.activeElement, bell());
  },
);

islandTest(
  "[notifications bell] clicking a notification marks it read, then opens its page",
  async ({ t, userId, api }) => {
    const visited: string[] = [];
    const restore = setNavigateHandler((url) => visited.push(url));
    try {
      const id = await notify(t, userId, { title: "Alpha", link: "/survey/a" });
      render(<NotificationsBell />);
      fireEvent.click(bell());
      const link = await screen.findByRole("link", { name: /Alpha/ });
      fireEvent.click(link);
      await waitFor(() => expect(visited.length === 1, "navigated"));
      assertEquals(visited, ["/survey/a"]);
      assert(
        api.calls.some((c) => c.method === "PATCH" && c.path === `/api/notifications/${id}/read`),
      );
      assertEquals(await isRead(t, id), true);
    } finally {
      restore();
    }
  },
);

islandTest(
  "[notifications bell] a notification without a link is marked read in place",
  async ({ t, userId, api }) => {
    const id = await notify(t, userId, { title: "Alpha", link: null });
    render(<NotificationsBell />);
    await waitFor(() => expect(bell().textContent === "1", "count shown"));
    fireEvent.click(bell());
    const item = await screen.findByRole("button", { name: /Alpha/ });
    await act(() => {
      fireEvent.click(item);
    });
    await waitFor(() =>
      expect(bell().getAttribute("aria-label") === "Notifications", "count gone")
    );
    assert(!item.className.includes("notifications__item--unread"));
    assert(
      api.calls.some((c) => c.method === "PATCH" && c.path === `/api/notifications/${id}/read`),
    );
    assertEquals(await isRead(t, id), true);
  },
);

islandTest(
  "[notifications bell] 'Mark all as read' clears the count",
  async ({ t, userId, api }) => {
    await notify(t, userId, { title: "Alpha" });
    await notify(t, userId, { title: "Bravo" });
    render(<NotificationsBell />);
    fireEvent.click(bell());
    await screen.findByRole("link", { name: /Bravo/ });
    const markAll = screen.getByRole("button", { name: "Mark all as read" }) as HTMLButtonElement;
    await act(() => {
      fireEvent.click(markAll);
    });
    await waitFor(() => expect(bell().getAttribute("aria-label") === "Notifications", "cleared"));
    assert(markAll.disabled);
    assertEquals(document.querySelectorAll(".notifications__item--unread").length, 0);
    assert(
      api.calls.some((c) => c.method === "PATCH" && c.path === "/api/notifications/mark-all-read"),
    );
    // The count clears as the press is sent; the store is read once the call has answered.
    await act(() => api.idle());
    const [{ unread }] = await t.sql<{ unread: number }[]>`
    select count(*)::int as unread from notifications where not is_read`;
    assertEquals(unread, 0);
  },
);

{
  // The panel's list read, sent as it opened, is answered after 'Mark all as read' (a slow
  // network): what it carries predates the press.
  let reads = 0;
  const held = deferred<void>();
  islandTest(
    "[notifications bell] a list read answered after 'Mark all as read' does not bring the unread marks back",
    async ({ t, userId, api }) => {
      await notify(t, userId, { title: "Alpha" });
      await notify(t, userId, { title: "Bravo" });
      render(<NotificationsBell />);
      await screen.findByRole("button", { name: "Notifications, 2 unread" });
      fireEvent.click(bell());
      await screen.findByRole("link", { name: /Bravo/ });
      await waitFor(() => expect(reads === 2, "the panel's read sent"));
      await act(() => {
        fireEvent.click(screen.getByRole("button", { name: "Mark all as read" }));
      });
      await waitFor(() => expect(bell().getAttribute("aria-label") === "Notifications", "cleared"));
      await act(() => held.resolve());
      await act(() => api.idle());
      assertEquals(bell().getAttribute("aria-label"), "Notifications");
      assertEquals(document.querySelectorAll(".notifications__item--unread").length, 0);
    },
    {
      canned: {
        "GET /api/notifications": async (_call, app) => {
          reads++;
          const res = await app();
          if (reads === 2) await held.promise;
          return res;
        },
      },
    },
  );
}

islandTest(
  "[notifications bell] a failed load shows the spec's error toast",
  async () => {
    render(<NotificationsBell />);
    await waitFor(() => expect(getToasts().length === 1, "toast shown"));
    assertEquals(getToasts()[0].title, "Failed to fetch notifications");
    assertEquals(getToasts()[0].variant, "destructive");
  },
  // Canned: the app cannot be made to fail on demand.
  {
    canned: {
      "GET /api/notifications": Response.json(
        { message: "Something went wrong. Please try again." },
        { status: 500 },
      ),
    },
  },
);

islandTest(
  "[notifications bell] failed marks show the spec's error toasts and change nothing",
  async ({ t, userId, cookie, api: real }) => {
    const id = await notify(t, userId, { title: "Alpha", link: null });
    // Canned: both marks fail (the app cannot be made to on demand); the list is real.
    real.restore();
    const failed = Response.json({ message: "Database unavailable" }, { status: 500 });
    const api = useAppFetch(t, {
      cookie,
      canned: {
        [`PATCH /api/notifications/${id}/read`]: failed,
        "PATCH /api/notifications/mark-all-read": failed,
      },
    });
    try {
      render(<NotificationsBell />);
      fireEvent.click(bell());
      const item = await screen.findByRole("button", { name: /Alpha/ });
      await act(() => {
        fireEvent.click(item);
      });
      await waitFor(() =>
        expect(getToasts()[0]?.title === "Failed to mark notification as read", "read toast")
      );
      assertEquals(getToasts()[0].description, "Database unavailable");
      await act(() => {
        fireEvent.click(screen.getByRole("button", { name: "Mark all as read" }));
      });
      await waitFor(() =>
        expect(getToasts()[0]?.title === "Failed to mark all notifications as read", "all toast")
      );
      // Nothing was marked on the screen or stored.
      assertEquals(bell().getAttribute("aria-label"), "Notifications, 1 unread");
      assertEquals(await isRead(t, id), false);
    } finally {
      api.restore();
    }
  },
);

islandTest(
  "[notifications bell] signed out (401) shows an empty bell and no toast",
  async ({ api }) => {
    render(<NotificationsBell />);
    await waitFor(() => expect(api.calls.length === 1, "loaded"));
    await act(() => api.idle());
    fireEvent.click(bell());
    await screen.findByText("You have no notifications yet.");
    assertEquals(getToasts().length, 0);
  },
  { signedOut: true },
);

islandTest("[notifications bell] 'Show older' loads the next page", async ({ t, userId, api }) => {
  // One more than a page of 20: the oldest is on page 2.
  await notify(t, userId, { title: "Oldest", minutesAgo: 500 });
  for (let i = 0; i < 20; i++) await notify(t, userId, { title: `Newer ${i}`, minutesAgo: i });
  render(<NotificationsBell />);
  fireEvent.click(bell());
  const older = await screen.findByRole("button", { name: "Show older" });
  fireEvent.click(older);
  await screen.findByRole("link", { name: /Oldest/ });
  assert(screen.getByRole("link", { name: /Newer 0/ }));
  assert(api.calls.some((c) => c.path === "/api/notifications?page=2"));
  assertEquals(screen.queryByRole("button", { name: "Show older" }), null);
});

Deno.test("[notifications bell] times read as people say them", () => {
  const now = Date.parse("2026-03-10T12:00:00Z");
  assertEquals(formatWhen("2026-03-10T11:59:40Z", now), "just now");
  assertEquals(formatWhen("2026-03-10T11:55:00Z", now), "5 minutes ago");
  assertEquals(formatWhen("2026-03-10T09:00:00Z", now), "3 hours ago");
  assertEquals(formatWhen("2026-03-09T12:00:00Z", now), "yesterday");
  assertEquals(formatWhen("2026-01-02T12:00:00Z", now), "Jan 2, 2026");
});
