import { assert, assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";
import { deferred, stubFetch } from "./_fetch.ts";

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

function setup(props: { returnTo?: string | null; initialTab?: "login" | "register" } = {}) {
  dismissToast();
  invalidateQueries();
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
    visits,
    type,
    submit,
    done() {
      cleanup();
      restoreNav();
      dismissToast();
      sessionStorage.clear();
    },
  };
}

/** Waits until some element shows `text` (throws plain Errors: see Toaster_test). */
function shown(text: string) {
  return waitFor(() => {
    if (!screen.queryByText(text)) throw new Error(`"${text}" not shown`);
  });
}

test("[auth form] tabs switch between Login and Register with the spec's fields", () => {
  const ui = setup();
  assert(screen.getByLabelText("Email or Username"));
  assert(screen.getByLabelText("Password"));
  assertEquals(
    screen.getByRole("link", { name: "Forgot Password?" }).getAttribute("href"),
    "/forgot-password",
  );
  act(() => void fireEvent.click(screen.getByRole("tab", { name: "Register" })));
  assertEquals(screen.getByRole("tab", { name: "Register" }).getAttribute("aria-selected"), "true");
  assert(screen.getByLabelText("Email"));
  assert(screen.getByLabelText("Full Name"));
  assert(screen.getByLabelText("Password"));
  assertEquals(screen.queryByLabelText("Email or Username"), null);
  act(() =>
    void fireEvent.keyDown(screen.getByRole("tab", { name: "Register" }), { key: "ArrowLeft" })
  );
  assert(screen.getByLabelText("Email or Username"));
  ui.done();
});

test("[auth form] empty login fields are flagged and nothing is sent", () => {
  const api = stubFetch({});
  const ui = setup();
  ui.submit("Sign in");
  assert(screen.getByText("Email or username is required"));
  assert(screen.getByText("Password is required"));
  assertEquals(screen.getByLabelText("Email or Username").getAttribute("aria-invalid"), "true");
  assertEquals(api.calls.length, 0);
  api.restore();
  ui.done();
});

test("[auth form] signing in shows 'Signing in...', greets by name and follows the role redirect", async () => {
  const gate = deferred<Response>();
  const api = stubFetch({ "POST /api/login": () => gate.promise });
  const ui = setup({ returnTo: "/client-dashboard?tab=mine" });
  ui.type("Email or Username", "  pat@example.com ");
  ui.type("Password", "secret12");
  ui.submit("Sign in");
  const button = screen.getByRole("button", { name: "Signing in..." });
  assert((button as HTMLButtonElement).disabled, "disabled while pending");
  assertEquals(api.calls[0].body, { identifier: "pat@example.com", password: "secret12" });
  assertEquals(api.calls[0].headers.get("content-type"), "application/json");
  assertEquals(api.calls[0].credentials, "same-origin");
  await act(async () => {
    gate.resolve(Response.json({ id: "u1", fullName: "Pat Lee", role: "client" }));
    await gate.promise;
  });
  await shown("Login successful");
  assert(screen.getByText("Welcome back, Pat Lee!"));
  assertEquals(ui.visits, ["/client-dashboard?tab=mine"]);
  api.restore();
  ui.done();
});

test("[auth form] a surveyor's returnTo outside /surveyor is ignored", async () => {
  const api = stubFetch({
    "POST /api/login": Response.json({ id: "u2", fullName: "Sam", role: "surveyor" }),
  });
  const ui = setup({ returnTo: "/client-dashboard" });
  ui.type("Email or Username", "sam");
  ui.type("Password", "secret12");
  ui.submit("Sign in");
  await waitFor(() => {
    if (ui.visits.length === 0) throw new Error("no navigation yet");
  });
  assertEquals(ui.visits, ["/surveyor-dashboard"]);
  api.restore();
  ui.done();
});

test("[auth form] a failed login shows the server's message", async () => {
  const api = stubFetch({
    "POST /api/login": Response.json(
      { message: "Too many sign-in attempts. Please try again in 3 minutes." },
      { status: 429 },
    ),
  });
  const ui = setup();
  ui.type("Email or Username", "pat");
  ui.type("Password", "nope");
  ui.submit("Sign in");
  await shown("Login failed");
  assert(screen.getByText("Too many sign-in attempts. Please try again in 3 minutes."));
  assertEquals(screen.getByRole("alert").textContent?.includes("Login failed"), true);
  assert(screen.getByRole("button", { name: "Sign in" }), "the button is back");
  assertEquals(ui.visits, []);
  api.restore();
  ui.done();
});

test("[auth form] a login failure without a message falls back to 'Invalid credentials'", async () => {
  for (
    const answer of [
      new Response("", { status: 401 }),
      () => Promise.reject(new TypeError("offline")),
    ]
  ) {
    const api = stubFetch({ "POST /api/login": answer });
    const ui = setup();
    ui.type("Email or Username", "pat");
    ui.type("Password", "nope");
    ui.submit("Sign in");
    await shown("Login failed");
    assert(screen.getByText("Invalid credentials"));
    api.restore();
    ui.done();
  }
});

test("[auth form] registering shows 'Creating account...', sends username = email and welcomes", async () => {
  const gate = deferred<Response>();
  const api = stubFetch({ "POST /api/register": () => gate.promise });
  const ui = setup({ initialTab: "register" });
  ui.type("Email", "new@example.com");
  ui.type("Full Name", "New Person");
  ui.type("Password", "secret12");
  ui.submit("Create account");
  assert(screen.getByRole("button", { name: "Creating account..." }));
  assertEquals(api.calls[0].body, {
    email: "new@example.com",
    password: "secret12",
    fullName: "New Person",
    username: "new@example.com",
  });
  await act(async () => {
    gate.resolve(
      Response.json({ id: "u3", fullName: "New Person", role: "client" }, { status: 201 }),
    );
    await gate.promise;
  });
  await shown("Registration successful");
  assert(screen.getByText("Welcome, New Person!"));
  assertEquals(ui.visits, ["/client-dashboard"]);
  api.restore();
  ui.done();
});

test("[auth form] registration checks the email, name and password length first", () => {
  const api = stubFetch({});
  const ui = setup({ initialTab: "register" });
  ui.type("Email", "not-an-email");
  ui.type("Password", "12345");
  ui.submit("Create account");
  assert(screen.getByText("Please enter a valid email address"));
  assert(screen.getByText("Full name is required"));
  assert(screen.getByText("Password must be at least 6 characters"));
  assertEquals(api.calls.length, 0);
  api.restore();
  ui.done();
});

test("[auth form] a failed registration shows 'Registration failed' with the server's message", async () => {
  const api = stubFetch({
    "POST /api/register": Response.json(
      { message: "An account with this email already exists" },
      { status: 409 },
    ),
  });
  const ui = setup({ initialTab: "register" });
  ui.type("Email", "taken@example.com");
  ui.type("Full Name", "Someone");
  ui.type("Password", "secret12");
  ui.submit("Create account");
  await shown("Registration failed");
  assert(screen.getByText("An account with this email already exists"));
  assertEquals(ui.visits, []);
  api.restore();
  ui.done();
});

test("[auth form] a refused check moves focus to the first field to fix, its error read with it", () => {
  const api = stubFetch({});
  const ui = setup({ initialTab: "register" });
  try {
    ui.type("Email", "new@example.com");
    ui.submit("Create account");
    const name = screen.getByLabelText("Full Name");
    // Compare ids: a failed assertEquals on DOM nodes tries to print the whole document.
    assertEquals(document.activeElement?.id, name.id);
    const describedBy = name.getAttribute("aria-describedby") ?? "";
    assertEquals(document.getElementById(describedBy)?.textContent, "Full name is required");
    assertEquals(api.calls.length, 0);
  } finally {
    api.restore();
    ui.done();
  }
});
