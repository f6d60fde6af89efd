import { assert, assertEquals } from "../_assert.ts";
import { test } from "../_helpers.ts";
import { setupDom } from "./_dom.ts";
import { type Answer, deferred, stubFetch } from "./_fetch.ts";

setupDom();
// @testing-library reads `document` when it loads, so it comes after setupDom().
const { act, cleanup, fireEvent, render, screen, waitFor } = await import(
  "@testing-library/react"
);
const { renderToString } = await import("react-dom/server");
const { default: ResetPasswordForm } = await import("../../islands/ResetPasswordForm.tsx");
const { default: Toaster } = await import("../../islands/Toaster.tsx");
const { dismissToast } = await import("../../islands/_toast.ts");

const TOKEN = "A".repeat(43);

function setup(token: string | null, routes: Record<string, Answer>) {
  dismissToast();
  const api = stubFetch(routes);
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
    },
  };
}

function shown(text: string) {
  return waitFor(() => {
    if (!screen.queryByText(text)) throw new Error(`"${text}" not shown`);
  });
}

const VALID = {
  "GET /api/reset-password/verify": Response.json({ success: true, email: "pat@example.com" }),
};

test("[reset form] the server renders the verifying state for a token and invalid without one", () => {
  const verifying = renderToString(<ResetPasswordForm token={TOKEN} />);
  assert(verifying.includes("Verifying your reset link..."));
  assert(verifying.includes('class="spinner"'));
  const invalid = renderToString(<ResetPasswordForm token={null} />);
  assert(invalid.includes("Invalid or Expired Link"));
});

test("[reset form] verifying shows a spinner until the server answers, then the form with the email", async () => {
  const gate = deferred<Response>();
  const ui = setup(TOKEN, { "GET /api/reset-password/verify": () => gate.promise });
  assert(screen.getByText("Verifying your reset link..."));
  assertEquals(ui.api.calls[0].path, `/api/reset-password/verify?token=${TOKEN}`);
  await act(async () => {
    gate.resolve(Response.json({ success: true, email: "pat@example.com" }));
    await gate.promise;
  });
  await shown("pat@example.com");
  assert(screen.getByLabelText("New Password"));
  assert(screen.getByLabelText("Confirm New Password"));
  assertEquals(screen.queryByText("Enter your new password below"), null);
  ui.done();
});

test("[reset form] without an email from the server it says 'Enter your new password below'", async () => {
  const ui = setup(TOKEN, { "GET /api/reset-password/verify": Response.json({ success: true }) });
  await shown("Enter your new password below");
  ui.done();
});

test("[reset form] an unknown or expired token shows the invalid-link panel with both ways out", async () => {
  for (
    const answer of [
      Response.json({
        success: false,
        message: "This password reset link is invalid or has expired.",
      }, { status: 400 }),
      Response.json({ success: false }),
      () => Promise.reject(new TypeError("offline")),
    ]
  ) {
    const ui = setup(TOKEN, { "GET /api/reset-password/verify": answer });
    await shown("Invalid or Expired Link");
    assert(screen.getByText("This password reset link is invalid or has expired."));
    assert(screen.getByText("Please request a new password reset link."));
    assertEquals(
      screen.getByRole("link", { name: "Request New Link" }).getAttribute("href"),
      "/forgot-password",
    );
    assertEquals(screen.getByRole("link", { name: "Back to Login" }).getAttribute("href"), "/auth");
    ui.done();
  }
});

test("[reset form] no token means invalid, without asking the server", () => {
  const ui = setup(null, {});
  assert(screen.getByText("Invalid or Expired Link"));
  assertEquals(ui.api.calls.length, 0);
  ui.done();
});

test("[reset form] short passwords and a mismatch get the spec's messages; nothing is sent", async () => {
  const ui = setup(TOKEN, VALID);
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
  ui.done();
});

test("[reset form] a successful reset toasts and offers 'Go to Login'", async () => {
  const ui = setup(TOKEN, {
    ...VALID,
    "POST /api/reset-password": Response.json({
      success: true,
      message: "Your password has been reset.",
    }),
  });
  await shown("pat@example.com");
  ui.type("New Password", "secret12");
  ui.type("Confirm New Password", "secret12");
  ui.submit();
  await shown("Go to Login");
  assertEquals(screen.getByRole("link", { name: "Go to Login" }).getAttribute("href"), "/auth");
  assert(screen.getAllByText("Password reset successful").length >= 1);
  const post = ui.api.calls.find((c) => c.method === "POST")!;
  assertEquals(post.body, { token: TOKEN, password: "secret12", confirmPassword: "secret12" });
  ui.done();
});

test("[reset form] a refused reset toasts 'Password reset failed' with the server's message", async () => {
  const ui = setup(TOKEN, {
    ...VALID,
    "POST /api/reset-password": Response.json(
      { success: false, message: "This password reset link is invalid or has expired." },
      { status: 400 },
    ),
  });
  await shown("pat@example.com");
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
  ui.done();
});

test("[reset form] a failure without a message uses the fallback; a network error its own text", async () => {
  const cases: [Answer, string][] = [
    [new Response("", { status: 500 }), "Failed to reset password. Please try again."],
    [
      () => Promise.reject(new TypeError("Failed to fetch")),
      "An error occurred. Please try again later.",
    ],
  ];
  for (const [answer, text] of cases) {
    const ui = setup(TOKEN, { ...VALID, "POST /api/reset-password": answer });
    await shown("pat@example.com");
    ui.type("New Password", "secret12");
    ui.type("Confirm New Password", "secret12");
    ui.submit();
    await shown("Password reset failed");
    assert(screen.getByText(text));
    ui.done();
  }
});
