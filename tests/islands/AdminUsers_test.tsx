import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";
import { stubFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: AdminUsers, usersQuery } = await import("../../islands/AdminUsers.tsx");
type AdminUser = import("../../islands/AdminUsers.tsx").AdminUser;
const { dismissToast, getToasts } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");
const { invalidateQueries } = await import("../../islands/_api.ts");

const ME = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa";
const CLIENT = "bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb";
const SURVEYOR = "cccccccc-cccc-4ccc-8ccc-cccccccccccc";

function user(id: string, overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id,
    username: `${id.slice(0, 4)}@example.com`,
    email: `${id.slice(0, 4)}@example.com`,
    fullName: `User ${id.slice(0, 4)}`,
    role: "client",
    companyName: null,
    phone: null,
    createdAt: "2026-02-03T10:00:00.000Z",
    lastLogin: null,
    disabledAt: null,
    ...overrides,
  };
}

const USERS = [
  user(ME, { role: "admin", fullName: "Ada Admin" }),
  user(CLIENT, {
    fullName: "Cleo Client",
    companyName: "Cleo Homes",
    phone: "512-555-0199",
    lastLogin: "2026-02-10T08:30:00.000Z",
  }),
  user(SURVEYOR, { role: "surveyor", fullName: "Sam Surveyor" }),
];

function mount(users = USERS, total = users.length) {
  dismissToast();
  invalidateQueries();
  const visits: string[] = [];
  const restoreNav = setNavigateHandler((url) => visits.push(url));
  render(
    <AdminUsers
      currentUserId={ME}
      role=""
      initial={{ users, total, page: 1, pageSize: 25 }}
    />,
  );
  return {
    visits,
    done() {
      cleanup();
      restoreNav();
      dismissToast();
      sessionStorage.clear();
      history.replaceState(null, "", "/");
    },
  };
}

function row(id: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`tr[data-user-id="${id}"]`);
  assert(el, `row ${id}`);
  return el;
}

function settle() {
  return act(() => new Promise<void>((resolve) => setTimeout(resolve, 0)));
}

test("[admin users] usersQuery sends the role, a page past 1 and the page size", () => {
  assertEquals(usersQuery("", 1, 25), "pageSize=25");
  assertEquals(usersQuery("surveyor", 3, 25), "role=surveyor&page=3&pageSize=25");
});

test("[admin users] each row shows the account's columns; your own row has no role change or disable", () => {
  const ui = mount();
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
    const cleo = row(CLIENT).textContent ?? "";
    for (
      const text of [
        "Cleo Client",
        "bbbb@example.com",
        "Cleo Homes",
        "512-555-0199",
        "Feb 3, 2026",
        "Feb 10, 2026",
        "Active",
      ]
    ) assertMatch(cleo, new RegExp(text), text);
    assertMatch(row(SURVEYOR).textContent ?? "", /Never/);
    assertEquals(screen.getByLabelText("Role of Cleo Client").tagName, "SELECT");
    assertEquals(screen.queryByLabelText("Role of Ada Admin"), null);
    assertEquals(screen.queryByRole("button", { name: "Disable Ada Admin" }), null);
    assertMatch(row(ME).textContent ?? "", /Ada Admin \(you\)/);
    assert(screen.getByRole("button", { name: "View as Cleo Client" }));
    assertEquals(screen.queryByRole("button", { name: "View as Ada Admin" }), null);
  } finally {
    ui.done();
  }
});

test("[admin users] a failed load toasts 'Error' / 'Failed to load users'", async () => {
  const api = stubFetch({
    "GET /api/users": Response.json({ message: "Database unavailable" }, { status: 500 }),
  });
  const ui = mount();
  try {
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Role"), { target: { value: "surveyor" } })
    );
    await waitFor(() => {
      if (!getToasts().length) throw new Error("no toast yet");
    });
    assertEquals(api.calls[0].path, "/api/users?role=surveyor&pageSize=25");
    assertEquals(getToasts()[0].title, "Error");
    assertEquals(getToasts()[0].description, "Failed to load users");
    assertEquals(getToasts()[0].variant, "destructive");
    assert(row(CLIENT), "the rows shown before stay");
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin users] a role filter loads page 1 from the API and follows it in the URL", async () => {
  const api = stubFetch({
    "GET /api/users": Response.json({
      users: [USERS[2]],
      total: 30,
      page: 1,
      pageSize: 25,
    }),
  });
  const ui = mount();
  try {
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Role"), { target: { value: "surveyor" } })
    );
    await waitFor(() => {
      if (document.querySelector(`tr[data-user-id="${CLIENT}"]`)) throw new Error("old rows");
    });
    assertEquals(location.search, "?tab=users&role=surveyor");
    assertMatch(document.querySelector(".admin-users__count")?.textContent ?? "", /30 users/);
    assertMatch(document.querySelector(".survey-pager")?.textContent ?? "", /Page 1 of 2/);
    await act(() => void fireEvent.click(screen.getByRole("button", { name: "Next" })));
    await settle();
    assertEquals(api.calls[1].path, "/api/users?role=surveyor&page=2&pageSize=25");
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin users] a role change asks first, then PATCHes the new role and shows it", async () => {
  const api = stubFetch({
    [`PATCH /api/admin/users/${CLIENT}/role`]: (call) =>
      Response.json({ user: { ...USERS[1], role: (call.body as { role: string }).role } }),
  });
  const ui = mount();
  try {
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Role of Cleo Client"), {
        target: { value: "surveyor" },
      })
    );
    assertEquals(api.calls.length, 0, "nothing changes before confirming");
    assertEquals(
      document.getElementById("admin-users-dialog-title")?.textContent,
      "Make Cleo Client a Surveyor?",
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Change role", hidden: true }))
    );
    await settle();
    assertEquals(api.calls.length, 1);
    assertEquals(api.calls[0].method, "PATCH");
    assertEquals(api.calls[0].path, `/api/admin/users/${CLIENT}/role`);
    assertEquals(api.calls[0].body, { role: "surveyor" });
    assertEquals(getToasts()[0]?.title, "Role changed");
    assertEquals(getToasts()[0]?.description, "Cleo Client is now a Surveyor.");
    assertEquals(
      (screen.getByLabelText("Role of Cleo Client") as HTMLSelectElement).value,
      "surveyor",
    );
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin users] cancelling a role change sends nothing", async () => {
  const api = stubFetch({});
  const ui = mount();
  try {
    await act(() =>
      void fireEvent.change(screen.getByLabelText("Role of Cleo Client"), {
        target: { value: "technician" },
      })
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Cancel", hidden: true }))
    );
    await settle();
    assertEquals(api.calls.length, 0);
    assertEquals(
      (screen.getByLabelText("Role of Cleo Client") as HTMLSelectElement).value,
      "client",
    );
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin users] a refused change toasts 'Error' with the server's message", async () => {
  const api = stubFetch({
    [`PATCH /api/admin/users/${CLIENT}/role`]: Response.json(
      { message: "User not found" },
      { status: 404 },
    ),
  });
  const ui = mount();
  try {
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
    await settle();
    assertEquals(getToasts()[0]?.title, "Error");
    assertEquals(getToasts()[0]?.description, "User not found");
    assertEquals(getToasts()[0]?.variant, "destructive");
    assertEquals(
      (screen.getByLabelText("Role of Cleo Client") as HTMLSelectElement).value,
      "client",
    );
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin users] disable and enable ask first, call the API and update the status", async () => {
  const api = stubFetch({
    [`POST /api/admin/users/${CLIENT}/disable`]: Response.json({
      user: { ...USERS[1], disabledAt: "2026-02-11T09:00:00.000Z" },
    }),
    [`POST /api/admin/users/${CLIENT}/enable`]: Response.json({
      user: { ...USERS[1], disabledAt: null },
    }),
  });
  const ui = mount();
  try {
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Disable Cleo Client" }))
    );
    assertEquals(api.calls.length, 0);
    assertEquals(
      document.getElementById("admin-users-dialog-title")?.textContent,
      "Disable Cleo Client?",
    );
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Disable", hidden: true }))
    );
    await settle();
    assertEquals(api.calls[0].method, "POST");
    assertEquals(api.calls[0].path, `/api/admin/users/${CLIENT}/disable`);
    assertEquals(getToasts()[0]?.title, "User disabled");
    assertMatch(row(CLIENT).textContent ?? "", /Disabled/);
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
    await settle();
    assertEquals(api.calls[1].path, `/api/admin/users/${CLIENT}/enable`);
    assertEquals(getToasts()[0]?.title, "User enabled");
    assertMatch(row(CLIENT).textContent ?? "", /Active/);
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin users] 'View as' impersonates and goes to the returned redirectTo", async () => {
  const api = stubFetch({
    [`POST /api/admin/impersonate/${SURVEYOR}`]: Response.json({
      message: "You are now signed in as Sam Surveyor.",
      user: USERS[2],
      redirectTo: "/surveyor-dashboard",
    }),
  });
  const ui = mount();
  try {
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "View as Sam Surveyor" }))
    );
    await waitFor(() => {
      if (!ui.visits.length) throw new Error("not navigated yet");
    });
    assertEquals(api.calls[0].method, "POST");
    assertEquals(api.calls[0].path, `/api/admin/impersonate/${SURVEYOR}`);
    assertEquals(ui.visits, ["/surveyor-dashboard"]);
    assertEquals(getToasts()[0]?.description, "You are now signed in as Sam Surveyor.");
  } finally {
    api.restore();
    ui.done();
  }
});

test("[admin users] a refused 'View as' toasts the server's message and stays", async () => {
  const api = stubFetch({
    [`POST /api/admin/impersonate/${SURVEYOR}`]: Response.json(
      { message: "Disabled accounts cannot be impersonated." },
      { status: 403 },
    ),
  });
  const ui = mount();
  try {
    await act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "View as Sam Surveyor" }))
    );
    await settle();
    assertEquals(ui.visits, []);
    assertEquals(getToasts()[0]?.title, "Error");
    assertEquals(getToasts()[0]?.description, "Disabled accounts cannot be impersonated.");
  } finally {
    api.restore();
    ui.done();
  }
});
