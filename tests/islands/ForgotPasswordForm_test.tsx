import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, deferred, useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { default: ForgotPasswordForm, CHECK_EMAIL_TEXT, NOT_SENT_TEXT } = await import(
  "../../islands/ForgotPasswordForm.tsx"
);
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");

/** The form on a fresh app (`t`), its fetch reaching the app unless `canned`. */
function setup(t: TestApp, canned: Record<string, Answer> = {}) {
  dismissToast();
  const api = useAppFetch(t, { canned });
  render(
    <>
      <ForgotPasswordForm />
      <Toaster />
    </>,
  );
  return {
    api,
    type: (value: string) =>
      act(() => void fireEvent.change(screen.getByLabelText("Email"), { target: { value } })),
    send: () =>
      act(() => void fireEvent.click(screen.getByRole("button", { name: "Send reset link" }))),
    done() {
      cleanup();
      api.restore();
      dismissToast();
      t.close();
    },
  };
}

function shown(text: string) {
  return waitFor(() => {
    if (!screen.queryByText(text)) throw new Error(`"${text}" not shown`);
  });
}

test("[forgot form] the spec's exact confirmation text", () => {
  assertEquals(
    CHECK_EMAIL_TEXT,
    "If an account with this email exists, you'll receive instructions to reset your password.",
  );
});

test("[forgot form] an invalid email is refused with the spec's message and nothing is sent", async () => {
  const ui = setup(await createTestApp());
  for (const value of ["", "pat", "pat@", "pat@example", "a b@example.com"]) {
    ui.type(value);
    ui.send();
    assert(screen.getByText("Please enter a valid email address"), value);
  }
  assertEquals(ui.api.calls.length, 0);
  ui.done();
});

test("[forgot form] a refused email takes focus, so its error is read out", async () => {
  const ui = setup(await createTestApp());
  try {
    ui.type("pat@");
    ui.send();
    const email = screen.getByLabelText("Email");
    assertEquals(document.activeElement?.id, "forgot-email");
    assertEquals(email.getAttribute("aria-describedby"), "forgot-email-error");
  } finally {
    ui.done();
  }
});

test("[forgot form] sending shows 'Sending reset link...' then 'Check your email' and 'Back to login'", async () => {
  const t = await createTestApp();
  await createUser(t.sql, { role: "client", email: "pat@example.com" });
  const gate = deferred<void>();
  // The real answer, held back until the test has seen the pending state.
  const ui = setup(t, {
    "POST /api/forgot-password": async (_call, app) => {
      await gate.promise;
      return await app();
    },
  });
  ui.type(" pat@example.com ");
  ui.send();
  const busy = screen.getByRole("button", { name: "Sending reset link..." }) as HTMLButtonElement;
  assert(busy.disabled);
  assertEquals(ui.api.calls[0].body, { email: "pat@example.com" });
  await act(async () => {
    gate.resolve();
    await gate.promise;
  });
  await shown("Check your email");
  assert(screen.getByText(CHECK_EMAIL_TEXT));
  assertEquals(screen.getByRole("link", { name: "Back to login" }).getAttribute("href"), "/auth");
  // The link is emailed after the answer (lib/background.ts), so answers take the same time.
  await act(() => ui.api.idle());
  const emails = await t.sql<{ toAddress: string }[]>`
    select to_address from email_outbox where template = 'password_reset'`;
  assertEquals(emails.map((e) => e.toAddress), ["pat@example.com"], "the link was emailed");
  ui.done();
});

test("[forgot form] a server error still shows the same confirmation", async () => {
  // Canned: a bodiless 500 cannot be produced by the app on demand.
  const ui = setup(await createTestApp(), {
    "POST /api/forgot-password": new Response("", { status: 500 }),
  });
  ui.type("pat@example.com");
  ui.send();
  await shown("Check your email");
  ui.done();
});

test("[forgot form] a request that never got an answer says nothing was sent, and a retry sends it", async () => {
  // No connection, then the server unavailable (503, whatever the address): neither is an
  // outcome, and neither tells anything about the account.
  for (
    const answer of [
      () => Promise.reject(new TypeError("Failed to fetch")),
      Response.json({ message: "Service unavailable" }, { status: 503 }),
    ]
  ) {
    const t = await createTestApp();
    await createUser(t.sql, { role: "client", email: "pat@example.com" });
    let failing = true;
    const ui = setup(t, {
      "POST /api/forgot-password": (_call, app) => {
        if (!failing) return app();
        return typeof answer === "function" ? answer() : answer.clone();
      },
    });
    ui.type("pat@example.com");
    ui.send();
    await shown(NOT_SENT_TEXT);
    assertEquals(screen.queryByText("Check your email"), null);
    assertEquals((screen.getByLabelText("Email") as HTMLInputElement).value, "pat@example.com");
    failing = false;
    ui.send();
    await shown("Check your email");
    await act(() => ui.api.idle());
    const emails = await t.sql<{ toAddress: string }[]>`
      select to_address from email_outbox where template = 'password_reset'`;
    assertEquals(emails.map((e) => e.toAddress), ["pat@example.com"]);
    ui.done();
  }
});

test("[forgot form] a rate limit still shows only the confirmation (the outcome is always success)", async () => {
  const t = await createTestApp();
  // Five requests an hour per email: this browser has used them.
  for (let i = 0; i < 5; i++) {
    const res = await t.request("POST", "/api/forgot-password", {
      body: { email: "pat@example.com" },
    });
    assertEquals(res.status, 200);
    await res.body?.cancel();
  }
  const ui = setup(t);
  ui.type("pat@example.com");
  ui.send();
  await shown("Check your email");
  assertEquals(ui.api.calls.length, 1, "the request was made (and refused with a 429)");
  await act(() => ui.api.idle());
  assert(screen.getByText(CHECK_EMAIL_TEXT));
  assertEquals(screen.queryByText(/Too many password reset requests/), null);
  assertEquals(screen.queryByRole("button", { name: "Send reset link" }), null);
  ui.done();
});

test("[forgot form] once sent, the card shows only the confirmation, its heading focused", async () => {
  const ui = setup(await createTestApp());
  assertEquals(screen.getByRole("heading", { level: 1 }).textContent, "Forgot your password?");
  assert(screen.getByText(/we will send you a link to choose a new/));
  ui.type("pat@example.com");
  ui.send();
  await shown("Check your email");
  const headings = screen.getAllByRole("heading").map((h) => h.textContent);
  assertEquals(headings, ["Check your email"]);
  assertEquals(screen.queryByText("Forgot your password?"), null);
  assertEquals(screen.queryByText(/we will send you a link to choose a new/), null);
  assertEquals(screen.queryByLabelText("Email"), null);
  // Focus moves in an effect after the confirmation renders.
  await waitFor(() => assertEquals(document.activeElement?.textContent, "Check your email"));
  assertEquals(screen.getAllByRole("link").map((a) => a.getAttribute("href")), ["/auth"]);
  await act(() => ui.api.idle());
  ui.done();
});
