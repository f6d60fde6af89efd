import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import { getUserByEmail } from "../../db/users.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, deferred, useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: AuthForm } = await import("../../islands/AuthForm.tsx");
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");
const { invalidateQueries } = await import("../../islands/_api.ts");

function setup(
  t: TestApp,
  props: { returnTo?: string | null; initialTab?: "login" | "register" } = {},
  canned: Record<string, Answer> = {},
) {
  dismissToast();
  invalidateQueries();
  const api = useAppFetch(t, { canned });
  const visits: string[] = [];
  const restoreNav = setNavigateHandler((url) => visits.push(url));
  render(
    <>
      <AuthForm returnTo={props.returnTo ?? null} initialTab={props.initialTab} />
      <Toaster />
    </>,
  );
  const type = (label: string, value: string) =>
    act(() => void fireEvent.change(screen.getByLabelText(label), { target: { value } }));
  const submit = (name: RegExp | string) =>
    act(() => void fireEvent.click(screen.getByRole("button", { name })));
  return {
    api,
    visits,
    type,
    submit,
    done() {
      cleanup();
      api.restore();
      restoreNav();
      dismissToast();
      sessionStorage.clear();
      t.close();
    },
  };
}

/** Waits until some element shows `text` (throws plain Errors: see Toaster_test). */
function shown(text: string) {
  return waitFor(() => {
    if (!screen.queryByText(text)) throw new Error(`"${text}" not shown`);
  });
}

test("[auth form] tabs switch between Login and Register with the spec's fields", async () => {
  const ui = setup(await createTestApp());
  try {
    assert(screen.getByLabelText("Email or Username"));
    assert(screen.getByLabelText("Password"));
    assertEquals(
      screen.getByRole("link", { name: "Forgot Password?" }).getAttribute("href"),
      "/forgot-password",
    );
    act(() => void fireEvent.click(screen.getByRole("tab", { name: "Register" })));
    assertEquals(
      screen.getByRole("tab", { name: "Register" }).getAttribute("aria-selected"),
      "true",
    );
    assert(screen.getByLabelText("Email"));
    assert(screen.getByLabelText("Full Name"));
    assert(screen.getByLabelText("Password"));
    assertEquals(screen.queryByLabelText("Email or Username"), null);
    act(() =>
      void fireEvent.keyDown(screen.getByRole("tab", { name: "Register" }), { key: "ArrowLeft" })
    );
    assert(screen.getByLabelText("Email or Username"));
  } finally {
    ui.done();
  }
});

test("[auth form] empty login fields are flagged and nothing is sent", async () => {
  const ui = setup(await createTestApp());
  try {
    ui.submit("Sign in");
    assert(screen.getByText("Email or username is required"));
    assert(screen.getByText("Password is required"));
    assertEquals(screen.getByLabelText("Email or Username").getAttribute("aria-invalid"), "true");
    assertEquals(ui.api.calls.length, 0);
  } finally {
    ui.done();
  }
});

test("[auth form] signing in shows 'Signing in...', greets by name and follows the role redirect", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, {
    role: "client",
    email: "pat@example.com",
    fullName: "Pat Lee",
    password: "secret12",
  });
  const gate = deferred<void>();
  // The real answer, held back until the test has seen the pending state.
  const ui = setup(t, { returnTo: "/client-dashboard?tab=mine" }, {
    "POST /api/login": async (_call, app) => {
      await gate.promise;
      return await app();
    },
  });
  try {
    ui.type("Email or Username", "  pat@example.com ");
    ui.type("Password", "secret12");
    ui.submit("Sign in");
    const button = screen.getByRole("button", { name: "Signing in..." });
    assert((button as HTMLButtonElement).disabled, "disabled while pending");
    assertEquals(ui.api.calls[0].body, { identifier: "pat@example.com", password: "secret12" });
    assertEquals(ui.api.calls[0].headers.get("content-type"), "application/json");
    assertEquals(ui.api.calls[0].credentials, "same-origin");
    await act(async () => {
      gate.resolve();
      await gate.promise;
    });
    await shown("Login successful");
    assert(screen.getByText("Welcome back, Pat Lee!"));
    assertEquals(ui.visits, ["/client-dashboard?tab=mine"]);
    // The browser now holds Pat's session.
    const me = await t.request("GET", "/api/user", { cookie: ui.api.cookie() });
    assertEquals((await me.json()).id, user.id);
  } finally {
    ui.done();
  }
});

test("[auth form] a surveyor's returnTo outside /surveyor is ignored", async () => {
  const t = await createTestApp();
  await createUser(t.sql, { role: "surveyor", username: "sam", password: "secret12" });
  const ui = setup(t, { returnTo: "/client-dashboard" });
  try {
    ui.type("Email or Username", "sam");
    ui.type("Password", "secret12");
    ui.submit("Sign in");
    await waitFor(() => {
      if (ui.visits.length === 0) throw new Error("no navigation yet");
    });
    assertEquals(ui.visits, ["/surveyor-dashboard"]);
  } finally {
    ui.done();
  }
});

test("[auth form] a wrong password or too many attempts show the server's message", async () => {
  const t = await createTestApp();
  await createUser(t.sql, { role: "client", username: "pat", password: "secret12" });
  const ui = setup(t);
  try {
    ui.type("Email or Username", "pat");
    ui.type("Password", "nope");
    ui.submit("Sign in");
    await shown("Login failed");
    assert(screen.getByText("Invalid credentials"));
    assertEquals(screen.getByRole("alert").textContent?.includes("Login failed"), true);
    assert(screen.getByRole("button", { name: "Sign in" }), "the button is back");
    assertEquals(ui.visits, []);

    // Nine more wrong tries from this browser reach the limit of ten per 3 minutes.
    for (let i = 0; i < 9; i++) {
      const res = await t.request("POST", "/api/login", {
        body: { identifier: "pat", password: "nope" },
      });
      await res.body?.cancel();
    }
    dismissToast();
    ui.type("Password", "secret12");
    ui.submit("Sign in");
    await shown("Too many login attempts. Please try again in 3 minutes.");
    assertEquals(ui.visits, [], "even the right password waits");
  } finally {
    ui.done();
  }
});

test("[auth form] a login failure without a message falls back to 'Invalid credentials'", async () => {
  // Canned: our server always explains a 401, and a network failure cannot be produced.
  for (
    const answer of [
      new Response("", { status: 401 }),
      () => Promise.reject(new TypeError("offline")),
    ]
  ) {
    const ui = setup(await createTestApp(), {}, { "POST /api/login": answer });
    try {
      ui.type("Email or Username", "pat");
      ui.type("Password", "nope");
      ui.submit("Sign in");
      await shown("Login failed");
      assert(screen.getByText("Invalid credentials"));
    } finally {
      ui.done();
    }
  }
});

test("[auth form] registering shows 'Creating account...', sends username = email and welcomes", async () => {
  const t = await createTestApp();
  const gate = deferred<void>();
  // The real answer, held back until the test has seen the pending state.
  const ui = setup(t, { initialTab: "register" }, {
    "POST /api/register": async (_call, app) => {
      await gate.promise;
      return await app();
    },
  });
  try {
    ui.type("Email", "new@example.com");
    ui.type("Full Name", "New Person");
    ui.type("Password", "secret12");
    ui.submit("Create account");
    assert(screen.getByRole("button", { name: "Creating account..." }));
    assertEquals(ui.api.calls[0].body, {
      email: "new@example.com",
      password: "secret12",
      fullName: "New Person",
      username: "new@example.com",
    });
    await act(async () => {
      gate.resolve();
      await gate.promise;
    });
    await shown("Registration successful");
    assert(screen.getByText("Welcome, New Person!"));
    assertEquals(ui.visits, ["/client-dashboard"]);
    const stored = await getUserByEmail(t.sql, "new@example.com");
    assertEquals([stored?.fullName, stored?.role], ["New Person", "client"]);
    assert(ui.api.cookie(), "signed in by registering");
  } finally {
    ui.done();
  }
});

test("[auth form] registration checks the email, name and password length first", async () => {
  const ui = setup(await createTestApp(), { initialTab: "register" });
  try {
    ui.type("Email", "not-an-email");
    ui.type("Password", "12345");
    ui.submit("Create account");
    assert(screen.getByText("Please enter a valid email address"));
    assert(screen.getByText("Full name is required"));
    assert(screen.getByText("Password must be at least 6 characters"));
    assertEquals(ui.api.calls.length, 0);
  } finally {
    ui.done();
  }
});

test("[auth form] a failed registration shows 'Registration failed' with the server's message", async () => {
  const t = await createTestApp();
  await createUser(t.sql, { role: "client", email: "taken@example.com" });
  const ui = setup(t, { initialTab: "register" });
  try {
    ui.type("Email", "Taken@Example.com");
    ui.type("Full Name", "Someone");
    ui.type("Password", "secret12");
    ui.submit("Create account");
    await shown("Registration failed");
    assert(screen.getByText("An account with this email already exists"));
    assertEquals(ui.visits, []);
    assertEquals(ui.api.cookie(), undefined);
  } finally {
    ui.done();
  }
});

test("[auth form] a refused check moves focus to the first field to fix, its error read with it", async () => {
  const ui = setup(await createTestApp(), { initialTab: "register" });
  try {
    ui.type("Email", "new@example.com");
    ui.submit("Create account");
    const name = screen.getByLabelText("Full Name");
    // Compare ids: a failed assertEquals on DOM nodes tries to print the whole document.
    assertEquals(document.activeElement?.id, name.id);
    const describedBy = name.getAttribute("aria-describedby") ?? "";
    assertEquals(document.getElementById(describedBy)?.textContent, "Full name is required");
    assertEquals(ui.api.calls.length, 0);
  } finally {
    ui.done();
  }
});
