import { setupDom } from "./_dom.ts";
import { assert, assertEquals } from "../_assert.ts";
import { renderToString } from "react-dom/server";
import NotificationsBell, { formatWhen } from "../../islands/NotificationsBell.tsx";
import { dismissToast, getToasts } from "../../islands/_toast.ts";
import { setNavigateHandler } from "../../islands/_nav.ts";
import type { Notification } from "../../lib/survey_schema.ts";

setupDom();
const { act, cleanup, fireEvent, render, screen, waitFor } = await import("@testing-library/react");

const realFetch = globalThis.fetch;

interface Call {
  method: string;
  url: string;
}

type Handler = (call: Call) => Response | Promise<Response>;

/** Replaces fetch with `handler`; returns the recorded calls. */
function mockFetch(handler: Handler): Call[] {
  const calls: Call[] = [];
  globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
    const call = { method: init.method ?? "GET", url: String(url) };
    calls.push(call);
    return await handler(call);
  }) as typeof fetch;
  return calls;
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });
}

function note(id: string, overrides: Partial<Notification> = {}): Notification {
  return {
    id,
    kind: "survey_status_changed",
    title: `Title ${id}`,
    body: `Body ${id}`,
    link: `/survey/${id}`,
    isRead: false,
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    readAt: null,
    ...overrides,
  };
}

function listing(notifications: Notification[], extra: Record<string, unknown> = {}) {
  return {
    notifications,
    unreadCount: notifications.filter((n) => !n.isRead).length,
    page: 1,
    pageSize: 20,
    hasMore: false,
    ...extra,
  };
}

function islandTest(name: string, fn: () => Promise<void> | void) {
  Deno.test({
    name,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      dismissToast();
      try {
        await fn();
      } finally {
        cleanup();
        globalThis.fetch = realFetch;
        dismissToast();
        sessionStorage.clear();
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
  () => {
    const calls = mockFetch(() => json(500, {}));
    const html = renderToString(<NotificationsBell />);
    assert(html.includes('aria-label="Notifications"'), html);
    assert(html.includes('aria-expanded="false"'), html);
    assert(!html.includes("notifications__count"), html);
    assertEquals(calls.length, 0);
    const withCount = renderToString(<NotificationsBell initialUnread={3} />);
    assert(withCount.includes("Notifications, 3 unread"), withCount);
  },
);

islandTest(
  "[notifications bell] loads once after hydration and shows the unread count",
  async () => {
    const calls = mockFetch(() =>
      json(200, listing([note("a"), note("b"), note("c", { isRead: true })]))
    );
    render(<NotificationsBell />);
    await waitFor(() => expect(bell().textContent === "2", "count shown"));
    assertEquals(bell().getAttribute("aria-label"), "Notifications, 2 unread");
    assertEquals(calls, [{ method: "GET", url: "/api/notifications?page=1" }]);
  },
);

islandTest(
  "[notifications bell] opening lists title, text, time and link, and reloads",
  async () => {
    const calls = mockFetch(() =>
      json(
        200,
        listing([note("a", { title: "Survey scheduled", body: "Your survey is now: Scheduled." })]),
      )
    );
    render(<NotificationsBell />);
    await waitFor(() => expect(calls.length === 1, "first load"));
    fireEvent.click(bell());
    assertEquals(bell().getAttribute("aria-expanded"), "true");
    await waitFor(() => expect(calls.length === 2, "reloaded on open"));
    const link = screen.getByRole("link", { name: /Survey scheduled/ });
    assertEquals(link.getAttribute("href"), "/survey/a");
    assert(link.textContent?.includes("Your survey is now: Scheduled."));
    assert(link.textContent?.includes("5 minutes ago"));
    assert(link.textContent?.includes("Unread:"));
    // Escape closes it and gives focus back to the bell.
    fireEvent.keyDown(document, { key: "Escape" });
    assertEquals(bell().getAttribute("aria-expanded"), "false");
    assertEquals(document.activeElement, bell());
  },
);

islandTest(
  "[notifications bell] clicking a notification marks it read, then opens its page",
  async () => {
    const visited: string[] = [];
    const restore = setNavigateHandler((url) => visited.push(url));
    try {
      const calls = mockFetch((call) =>
        call.method === "PATCH"
          ? json(200, { message: "Notification marked as read", unreadCount: 0 })
          : json(200, listing([note("a")]))
      );
      render(<NotificationsBell />);
      fireEvent.click(bell());
      const link = await screen.findByRole("link", { name: /Title a/ });
      fireEvent.click(link);
      await waitFor(() => expect(visited.length === 1, "navigated"));
      assertEquals(visited, ["/survey/a"]);
      assert(calls.some((c) => c.method === "PATCH" && c.url === "/api/notifications/a/read"));
    } finally {
      restore();
    }
  },
);

islandTest(
  "[notifications bell] a notification without a link is marked read in place",
  async () => {
    const calls = mockFetch((call) =>
      call.method === "PATCH"
        ? json(200, { message: "Notification marked as read", unreadCount: 0 })
        : json(200, listing([note("a", { link: null })]))
    );
    render(<NotificationsBell />);
    await waitFor(() => expect(bell().textContent === "1", "count shown"));
    fireEvent.click(bell());
    const item = await screen.findByRole("button", { name: /Title a/ });
    await act(() => {
      fireEvent.click(item);
    });
    await waitFor(() =>
      expect(bell().getAttribute("aria-label") === "Notifications", "count gone")
    );
    assert(!item.className.includes("notifications__item--unread"));
    assert(calls.some((c) => c.method === "PATCH" && c.url === "/api/notifications/a/read"));
  },
);

islandTest("[notifications bell] 'Mark all as read' clears the count", async () => {
  const calls = mockFetch((call) =>
    call.method === "PATCH"
      ? json(200, { message: "All notifications marked as read", updated: 2, unreadCount: 0 })
      : json(200, listing([note("a"), note("b")]))
  );
  render(<NotificationsBell />);
  fireEvent.click(bell());
  await screen.findByRole("link", { name: /Title b/ });
  const markAll = screen.getByRole("button", { name: "Mark all as read" }) as HTMLButtonElement;
  await act(() => {
    fireEvent.click(markAll);
  });
  await waitFor(() => expect(bell().getAttribute("aria-label") === "Notifications", "cleared"));
  assert(markAll.disabled);
  assertEquals(document.querySelectorAll(".notifications__item--unread").length, 0);
  assert(calls.some((c) => c.method === "PATCH" && c.url === "/api/notifications/mark-all-read"));
});

islandTest("[notifications bell] failures show the spec's error toasts", async () => {
  mockFetch(() => json(500, { message: "Something went wrong. Please try again." }));
  render(<NotificationsBell />);
  await waitFor(() => expect(getToasts().length === 1, "toast shown"));
  assertEquals(getToasts()[0].title, "Failed to fetch notifications");
  assertEquals(getToasts()[0].variant, "destructive");
  cleanup();
  dismissToast();

  let failPatch = true;
  mockFetch((call) =>
    call.method === "PATCH" && failPatch
      ? json(500, { message: "Database unavailable" })
      : json(200, listing([note("a", { link: null })]))
  );
  render(<NotificationsBell />);
  fireEvent.click(bell());
  const item = await screen.findByRole("button", { name: /Title a/ });
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
  // Nothing was marked on the screen.
  assertEquals(bell().getAttribute("aria-label"), "Notifications, 1 unread");
  failPatch = false;
});

islandTest("[notifications bell] signed out (401) shows an empty bell and no toast", async () => {
  const calls = mockFetch(() => json(401, { message: "Authentication required" }));
  render(<NotificationsBell />);
  await waitFor(() => expect(calls.length === 1, "loaded"));
  fireEvent.click(bell());
  await screen.findByText("You have no notifications yet.");
  assertEquals(getToasts().length, 0);
});

islandTest("[notifications bell] 'Show older' loads the next page", async () => {
  const calls = mockFetch((call) =>
    call.url.endsWith("page=2")
      ? json(200, listing([note("old")], { page: 2, unreadCount: 2 }))
      : json(200, listing([note("new")], { hasMore: true, unreadCount: 2 }))
  );
  render(<NotificationsBell />);
  fireEvent.click(bell());
  const older = await screen.findByRole("button", { name: "Show older" });
  fireEvent.click(older);
  await screen.findByRole("link", { name: /Title old/ });
  assert(screen.getByRole("link", { name: /Title new/ }));
  assert(calls.some((c) => c.url === "/api/notifications?page=2"));
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
