import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser } from "../_auth.ts";
import { islandProps, loadPage } from "../_pages.ts";
import { getUserById } from "../../db/users.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: AdminUsers, usersQuery } = await import("../../islands/AdminUsers.tsx");
type AdminUsersProps = import("../../islands/AdminUsers.tsx").AdminUsersProps;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");
const { invalidateQueries } = await import("../../islands/_api.ts");

/** Ada (the admin at the keyboard), Cleo the client and Sam the surveyor. */
async function accounts(t: TestApp) {
  const ada = await createSignedInUser(t, { role: "admin", fullName: "Ada Admin" });
  const cleo = await createUser(t.sql, {
    role: "client",
    fullName: "Cleo Client",
    email: "cleo@example.com",
    companyName: "Cleo Homes",
    phone: "512-555-0199",
  });
  const sam = await createUser(t.sql, { role: "surveyor", fullName: "Sam Surveyor" });
  // Newest first on the page: Ada, Cleo, Sam.
  await t.sql`update users set created_at = '2026-02-03T10:00:00Z'::timestamptz - make_interval(
    mins => case id when ${ada.user.id}::uuid then 0 when ${cleo.id}::uuid then 1 else 2 end)`;
  await t.sql`update users set last_login = '2026-02-10T08:30:00Z' where id = ${cleo.id}`;
  return { cookie: ada.cookie, me: ada.user.id, cleo: cleo.id, sam: sam.id };
}

/** The users tab as the server renders it for Ada, hydrated, with fetch reaching the app. */
async function mount(t: TestApp, cookie: string, canned: Record<string, Answer> = {}) {
  dismissToast();
  invalidateQueries();
  const props = islandProps<AdminUsersProps>(
    (await loadPage(t, "/admin", cookie)).html,
    "AdminUsers",
  );
  const api = useAppFetch(t, { cookie, canned });
  const visits: string[] = [];
  const restoreNav = setNavigateHandler((url) => visits.push(url));
  render(<AdminUsers {...props} />);
  return {
    api,
    visits,
    done() {
      cleanup();
      api.restore();
      restoreNav();
      dismissToast();
      sessionStorage.clear();
      history.replaceState(null, "", "/");
      t.close();
    },
  };
}

function row(id: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`tr[data-user-id="${id}"]`);
  assert(el, `row ${id}`);
  return el;
}

async function setup() {
  const t = await createTestApp();
  const ids = await accounts(t);
  return { t, ...ids, ui: await mount(t, ids.cookie) };
}

test("[admin users] usersQuery sends the role, a page past 1 and the page size", () => {
  assertEquals(usersQuery("", 1, 25), "pageSize=25");
  assertEquals(usersQuery("surveyor", 3, 25), "role=surveyor&page=3&pageSize=25");
});

test("[admin users] each row shows the account's columns; your own row has no role change or disable", async () => {
  const { ui, me, cleo, sam } = await setup();
  try {
    const headers = [...document.querySelectorAll("thead th")].map((th) => th.textContent);
    assertEquals(headers, [
      "Name",
      "Email",
      "Role",
      "Company",
      "Phone",
      "Created",
      "Last login",
      "Status",
      "Actions",
    ]);
    const cleoText = row(cleo).textContent ?? "";
    for (
      const text of [
        "Cleo Client",
        "cleo@example.com",
        "Cleo Homes",
        "512-555-0199",
        "Feb 3, 2026",
        "Feb 10, 2026",
        "Active",
      ]
    ) assertMatch(cleoText, new RegExp(text), text);
    assertMatch(row(sam).textContent ?? "", /Never/);
    assertEquals(screen.getByLabelText("Role of Cleo Client").tagName, "SELECT");
    assertEquals(screen.queryByLabelText("Role of Ada Admin"), null);
    assertEquals(screen.queryByRole("button", { name: "Disable Ada Admin" }), null);
    assertMatch(row(me).textContent ?? "", /Ada Admin \(you\)/);
    assert(screen.getByRole("button", { name: "View as Cleo Client" }));
    assertEquals(screen.queryByRole("button", { name: "View as Ada Admin" }), null);
  } finally {
    ui.done();
  }
});

test("[admin users] a failed load toasts 'Error' / 'Failed to load users'", async () => {
  const t = await createTestApp();
  const { cookie, cleo } = await accounts(t);
  // Canned: the app answers a valid list request; this is the server failing.
  const ui = await mount(t, cookie, {
    "GET /api/users": Response.json({ message: "Database unavailable" }, { status: 500 }),
  });
  try {
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Role"), { target: { value: "surveyor" } })
    );
    await waitFor(() => {
      if (!getToasts().length) throw new Error("no toast yet");
    });
    assertEquals(ui.api.calls[0].path, "/api/users?role=surveyor&pageSize=25");
    assertEquals(getToasts()[0].title, "Error");
    assertEquals(getToasts()[0].description, "Failed to load users");
    assertEquals(getToasts()[0].variant, "destructive");
    assert(row(cleo), "the rows shown before stay");
  } finally {
    ui.done();
  }
});

test("[admin users] a role filter loads page 1 from the API and follows it in the URL", async () => {
  const t = await createTestApp();
  const { cookie, cleo } = await accounts(t);
  // 30 surveyors in all: two pages of 25.
  for (let i = 0; i < 29; i++) await createUser(t.sql, { role: "surveyor" });
  const ui = await mount(t, cookie);
  try {
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Role"), { target: { value: "surveyor" } })
    );
    await act(() => ui.api.idle());
    assertEquals(document.querySelector(`tr[data-user-id="${cleo}"]`), null, "only surveyors");
    assertEquals(location.search, "?tab=users&role=surveyor");
    assertMatch(document.querySelector(".admin-users__count")?.textContent ?? "", /30 users/);
    assertMatch(document.querySelector(".survey-pager")?.textContent ?? "", /Page 1 of 2/);
    assertEquals(document.querySelectorAll("tbody tr").length, 25);
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Next" })));
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls[1].path, "/api/users?role=surveyor&page=2&pageSize=25");
    assertEquals(document.querySelectorAll("tbody tr").length, 5);
  } finally {
    ui.done();
  }
});

test("[admin users] a role change asks first, then PATCHes the new role and shows it", async () => {
  const { t, ui, cleo } = await setup();
  try {
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Role of Cleo Client"), {
        target: { value: "surveyor" },
      })
    );
    assertEquals(ui.api.calls.length, 0, "nothing changes before confirming");
    assertEquals(
      document.getElementById("admin-users-dialog-title")?.textContent,
      "Make Cleo Client a Surveyor?",
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Change role", hidden: true }))
    );
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls.length, 1);
    assertEquals(ui.api.calls[0].method, "PATCH");
    assertEquals(ui.api.calls[0].path, `/api/admin/users/${cleo}/role`);
    assertEquals(ui.api.calls[0].body, { role: "surveyor" });
    assertEquals(getToasts()[0]?.title, "Role changed");
    assertEquals(getToasts()[0]?.description, "Cleo Client is now a Surveyor.");
    assertEquals(
      (screen.getByLabelText("Role of Cleo Client") as HTMLSelectElement).value,
      "surveyor",
    );
    assertEquals((await getUserById(t.sql, cleo))?.role, "surveyor");
  } finally {
    ui.done();
  }
});

test("[admin users] cancelling a role change sends nothing", async () => {
  const { t, ui, cleo } = await setup();
  try {
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Role of Cleo Client"), {
        target: { value: "technician" },
      })
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Cancel", hidden: true }))
    );
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls.length, 0);
    assertEquals(
      (screen.getByLabelText("Role of Cleo Client") as HTMLSelectElement).value,
      "client",
    );
    assertEquals((await getUserById(t.sql, cleo))?.role, "client");
  } finally {
    ui.done();
  }
});

test("[admin users] a refused change toasts 'Error' with the server's message", async () => {
  const { t, ui, cleo } = await setup();
  try {
    // Cleo's account is deleted while the page is open.
    await t.sql`delete from users where id = ${cleo}`;
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Role of Cleo Client"), {
        target: { value: "admin" },
      })
    );
    assertEquals(
      document.getElementById("admin-users-dialog-title")?.textContent,
      "Make Cleo Client an Admin?",
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Change role", hidden: true }))
    );
    await act(() => ui.api.idle());
    assertEquals(getToasts()[0]?.title, "Error");
    assertEquals(getToasts()[0]?.description, "User not found");
    assertEquals(getToasts()[0]?.variant, "destructive");
    assertEquals(
      (screen.getByLabelText("Role of Cleo Client") as HTMLSelectElement).value,
      "client",
    );
  } finally {
    ui.done();
  }
});

test("[admin users] disable and enable ask first, call the API and update the status", async () => {
  const { t, ui, cleo } = await setup();
  try {
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Disable Cleo Client" }))
    );
    assertEquals(ui.api.calls.length, 0);
    assertEquals(
      document.getElementById("admin-users-dialog-title")?.textContent,
      "Disable Cleo Client?",
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Disable", hidden: true }))
    );
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls[0].method, "POST");
    assertEquals(ui.api.calls[0].path, `/api/admin/users/${cleo}/disable`);
    assertEquals(getToasts()[0]?.title, "User disabled");
    assertMatch(row(cleo).textContent ?? "", /Disabled/);
    assert((await getUserById(t.sql, cleo))?.disabledAt, "stored as disabled");
    assertEquals(
      screen.queryByRole("button", { name: "View as Cleo Client" }),
      null,
      "a disabled account cannot be viewed as",
    );

    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Enable Cleo Client" }))
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Enable", hidden: true }))
    );
    await act(() => ui.api.idle());
    assertEquals(ui.api.calls[1].path, `/api/admin/users/${cleo}/enable`);
    assertEquals(getToasts()[0]?.title, "User enabled");
    assertMatch(row(cleo).textContent ?? "", /Active/);
    assertEquals((await getUserById(t.sql, cleo))?.disabledAt, null);
  } finally {
    ui.done();
  }
});

test("[admin users] 'View as' impersonates and goes to the returned redirectTo", async () => {
  const { t, ui, sam } = await setup();
  try {
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "View as Sam Surveyor" }))
    );
    await waitFor(() => {
      if (!ui.visits.length) throw new Error("not navigated yet");
    });
    assertEquals(ui.api.calls[0].method, "POST");
    assertEquals(ui.api.calls[0].path, `/api/admin/impersonate/${sam}`);
    assertEquals(ui.visits, ["/surveyor-dashboard"]);
    assertEquals(getToasts()[0]?.description, "You are now signed in as Sam Surveyor.");
    // The browser's session is now Sam's.
    const me = await t.request("GET", "/api/user", { cookie: ui.api.cookie() });
    assertEquals((await me.json()).id, sam);
  } finally {
    ui.done();
  }
});

test("[admin users] a refused 'View as' toasts the server's message and stays", async () => {
  const { t, ui, sam } = await setup();
  try {
    // Sam's account was disabled (by another admin) after the page was rendered.
    await t.sql`update users set disabled_at = now() where id = ${sam}`;
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "View as Sam Surveyor" }))
    );
    await act(() => ui.api.idle());
    assertEquals(ui.visits, []);
    assertEquals(getToasts()[0]?.title, "Error");
    assertEquals(getToasts()[0]?.description, "Disabled accounts cannot be impersonated.");
  } finally {
    ui.done();
  }
});
