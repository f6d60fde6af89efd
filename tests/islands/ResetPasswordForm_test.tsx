import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createUser } from "../_auth.ts";
import { getUserCredentials } from "../../db/users.ts";
import { insertPasswordResetToken } from "../../db/password_resets.ts";
import { hashToken } from "../../lib/sessions.ts";
import { verifyPassword } from "../../lib/passwords.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, deferred, useAppFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { renderToString } = await import("react-dom/server");
const { default: ResetPasswordForm } = await import("../../islands/ResetPasswordForm.tsx");
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");
const { setNavigateHandler } = await import("../../islands/_nav.ts");

/** A well-formed token; `emailLink` makes it a live one. */
const TOKEN = "A".repeat(43);

/** Pat with a live reset link for TOKEN, as /api/forgot-password would have emailed. */
async function emailLink(t: TestApp) {
  const user = await createUser(t.sql, { role: "client", email: "pat@example.com" });
  await insertPasswordResetToken(t.sql, { userId: user.id, tokenHash: await hashToken(TOKEN) });
  return user;
}

function setup(t: TestApp, token: string | null, canned: Record<string, Answer> = {}) {
  dismissToast();
  const api = useAppFetch(t, { canned });
  render(
    <>
      <ResetPasswordForm token={token} />
      <Toaster />
    </>,
  );
  return {
    api,
    type: (label: string, value: string) =>
      act(() => void fireEvent.change(screen.getByLabelText(label), { target: { value } })),
    submit: () =>
      act(() => void fireEvent.click(screen.getByRole("button", { name: "Reset Password" }))),
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

test("[reset form] the server renders the verifying state for a token and invalid without one", () => {
  const verifying = renderToString(<ResetPasswordForm token={TOKEN} />);
  assert(verifying.includes("Verifying your reset link..."));
  assert(verifying.includes('class="spinner"'));
  const invalid = renderToString(<ResetPasswordForm token={null} />);
  assert(invalid.includes("Invalid or Expired Link"));
});

test("[reset form] verifying shows a spinner until the server answers, then the form with the email", async () => {
  const t = await createTestApp();
  await emailLink(t);
  const gate = deferred<void>();
  // The real answer, held back until the test has seen the spinner.
  const ui = setup(t, TOKEN, {
    "GET /api/reset-password/verify": async (_call, app) => {
      await gate.promise;
      return await app();
    },
  });
  try {
    assert(screen.getByText("Verifying your reset link..."));
    assertEquals(ui.api.calls[0].path, `/api/reset-password/verify?token=${TOKEN}`);
    await act(async () => {
      gate.resolve();
      await gate.promise;
    });
    await shown("pat@example.com");
    assert(screen.getByLabelText("New Password"));
    assert(screen.getByLabelText("Confirm New Password"));
    assertEquals(screen.queryByText("Enter your new password below"), null);
  } finally {
    ui.done();
  }
});

test("[reset form] without an email from the server it says 'Enter your new password below'", async () => {
  const t = await createTestApp();
  // Canned: our server always names the account; this guards the island's fallback text.
  const ui = setup(t, TOKEN, {
    "GET /api/reset-password/verify": Response.json({ success: true }),
  });
  try {
    await shown("Enter your new password below");
  } finally {
    ui.done();
  }
});

test("[reset form] an unknown, used or expired token shows the invalid-link panel with both ways out", async () => {
  const cases: [string, Record<string, Answer>][] = [
    ["unknown token", {}],
    // Canned: an ok answer that still says no, and a network failure.
    ["success: false", { "GET /api/reset-password/verify": Response.json({ success: false }) }],
    ["offline", { "GET /api/reset-password/verify": () => Promise.reject(new TypeError("x")) }],
  ];
  for (const [name, canned] of cases) {
    const t = await createTestApp();
    const ui = setup(t, TOKEN, canned);
    try {
      await shown("Invalid or Expired Link");
      assert(screen.getByText("This password reset link is invalid or has expired."), name);
      assert(screen.getByText("Please request a new password reset link."));
      assertEquals(
        screen.getByRole("link", { name: "Request New Link" }).getAttribute("href"),
        "/forgot-password",
      );
      assertEquals(
        screen.getByRole("link", { name: "Back to Login" }).getAttribute("href"),
        "/auth",
      );
    } finally {
      ui.done();
    }
  }
});

test("[reset form] no token means invalid, without asking the server", async () => {
  const t = await createTestApp();
  const ui = setup(t, null);
  try {
    assert(screen.getByText("Invalid or Expired Link"));
    assertEquals(ui.api.calls.length, 0);
  } finally {
    ui.done();
  }
});

test("[reset form] short passwords and a mismatch get the spec's messages; nothing is sent", async () => {
  const t = await createTestApp();
  await emailLink(t);
  const ui = setup(t, TOKEN);
  try {
    await shown("pat@example.com");
    ui.submit();
    assertEquals(screen.getAllByText("Password must be at least 6 characters").length, 2);
    ui.type("New Password", "secret12");
    ui.type("Confirm New Password", "secret13");
    ui.submit();
    assert(screen.getByText("Passwords don't match"));
    assertEquals(
      screen.getByLabelText("Confirm New Password").getAttribute("aria-invalid"),
      "true",
      "the message is on confirmPassword",
    );
    assertEquals(screen.getByLabelText("New Password").getAttribute("aria-invalid"), null);
    assertEquals(ui.api.calls.filter((c) => c.method === "POST").length, 0);
  } finally {
    ui.done();
  }
});

test("[reset form] a successful reset toasts, offers 'Go to Login' and the new password works", async () => {
  const t = await createTestApp();
  const user = await emailLink(t);
  const ui = setup(t, TOKEN);
  try {
    await shown("pat@example.com");
    ui.type("New Password", "secret12");
    ui.type("Confirm New Password", "secret12");
    ui.submit();
    await shown("Go to Login");
    assertEquals(screen.getByRole("link", { name: "Go to Login" }).getAttribute("href"), "/auth");
    assert(screen.getAllByText("Password reset successful").length >= 1);
    const post = ui.api.calls.find((c) => c.method === "POST")!;
    assertEquals(post.body, { token: TOKEN, password: "secret12", confirmPassword: "secret12" });
    const stored = await getUserCredentials(t.sql, user.id);
    assert(await verifyPassword("secret12", stored!.passwordHash));
  } finally {
    ui.done();
  }
});

test("[reset form] a refused reset toasts 'Password reset failed' with the server's message", async () => {
  const t = await createTestApp();
  await emailLink(t);
  const ui = setup(t, TOKEN);
  try {
    await shown("pat@example.com");
    // The link is used up (say, in another tab) after the form opened.
    await t.sql`delete from password_reset_tokens`;
    ui.type("New Password", "secret12");
    ui.type("Confirm New Password", "secret12");
    ui.submit();
    await shown("Password reset failed");
    assert(
      screen.getByRole("alert").textContent?.includes(
        "This password reset link is invalid or has expired.",
      ),
    );
    assert(screen.getByRole("button", { name: "Reset Password" }), "the form stays");
  } finally {
    ui.done();
  }
});

test("[reset form] a failure without a message uses the fallback; a network error its own text", async () => {
  // Canned: a bodiless 500 and a network failure cannot be produced by the app on demand.
  const cases: [Answer, string][] = [
    [new Response("", { status: 500 }), "Failed to reset password. Please try again."],
    [
      () => Promise.reject(new TypeError("Failed to fetch")),
      "An error occurred. Please try again later.",
    ],
  ];
  for (const [answer, text] of cases) {
    const t = await createTestApp();
    await emailLink(t);
    const ui = setup(t, TOKEN, { "POST /api/reset-password": answer });
    try {
      await shown("pat@example.com");
      ui.type("New Password", "secret12");
      ui.type("Confirm New Password", "secret12");
      ui.submit();
      await shown("Password reset failed");
      assert(screen.getByText(text));
    } finally {
      ui.done();
    }
  }
});

test("[reset form] an invitation link asks to choose a password, then goes to the dashboard signed in", async () => {
  const t = await createTestApp();
  const user = await createUser(t.sql, { role: "technician", email: "jamie@crew.test" });
  await insertPasswordResetToken(t.sql, {
    userId: user.id,
    tokenHash: await hashToken(TOKEN),
    purpose: "invitation",
  });
  const server = renderToString(<ResetPasswordForm token={TOKEN} purpose="invitation" />);
  assert(server.includes("Choose your password"));
  assert(!server.includes("Reset your password"));
  const visits: string[] = [];
  const restoreNav = setNavigateHandler((url) => visits.push(url));
  dismissToast();
  const api = useAppFetch(t);
  render(
    <>
      <ResetPasswordForm token={TOKEN} purpose="invitation" />
      <Toaster />
    </>,
  );
  try {
    await shown("jamie@crew.test");
    assert(screen.getByRole("heading", { name: "Welcome to Meridian" }));
    assertEquals(screen.queryByText("Reset your password"), null);
    act(() =>
      void fireEvent.change(screen.getByLabelText("Password"), { target: { value: "secret12" } })
    );
    act(() =>
      void fireEvent.change(screen.getByLabelText("Confirm Password"), {
        target: { value: "secret12" },
      })
    );
    act(() =>
      void fireEvent.click(screen.getByRole("button", { name: "Set password and sign in" }))
    );
    await waitFor(() => assertEquals(visits, ["/technician-dashboard"]));
    assert(screen.getAllByText("Password set").length >= 1);
    assertEquals(screen.queryByText("Go to Login"), null);
    const stored = await getUserCredentials(t.sql, user.id);
    assert(await verifyPassword("secret12", stored!.passwordHash));
  } finally {
    cleanup();
    api.restore();
    restoreNav();
    dismissToast();
    t.close();
  }
});

test("[reset form] the token leaves the address bar once read, and the reset still works with it", async () => {
  const t = await createTestApp();
  const user = await emailLink(t);
  history.replaceState(null, "", `/reset-password?token=${TOKEN}&from=email#set`);
  const ui = setup(t, TOKEN);
  try {
    await shown("pat@example.com");
    assertEquals(
      location.pathname + location.search + location.hash,
      "/reset-password?from=email#set",
    );
    ui.type("New Password", "secret12");
    ui.type("Confirm New Password", "secret12");
    ui.submit();
    await shown("Go to Login");
    const post = ui.api.calls.find((c) => c.method === "POST")!;
    assertEquals((post.body as { token: string }).token, TOKEN);
    const stored = await getUserCredentials(t.sql, user.id);
    assert(await verifyPassword("secret12", stored!.passwordHash));
  } finally {
    history.replaceState(null, "", "/");
    ui.done();
  }
});
