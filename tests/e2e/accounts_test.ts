import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { e2e, waitForIsland } from "./_browser.ts";
import { createUser } from "../_auth.ts";
import { insertTechnician } from "../../db/technicians.ts";
import { insertPasswordResetToken } from "../../db/password_resets.ts";
import { hashToken, randomToken } from "../../lib/sessions.ts";

/** Fills the Login tab and submits it. */
async function signIn(page: Page, identifier: string, password: string) {
  // Filled once the form's island has hydrated: this file tests signing in, and what is typed
  // before hydration is early_input_delayed_test.ts's subject.
  const identifierField = page.getByLabel("Email or Username");
  await waitForIsland(identifierField);
  await identifierField.fill(identifier);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Waits for the browser to be on `path` (pathname + search). */
async function waitForPath(page: Page, path: string) {
  await page.waitForURL((url) => url.pathname + url.search === path);
}

e2e(
  "register, sign out, and sign in again with the username",
  async ({ newPage, consoleErrors }) => {
    const page = await newPage();
    await page.goto("/auth");
    const registerTab = page.getByRole("tab", { name: "Register" });
    await waitForIsland(registerTab);
    await registerTab.click();
    await page.getByLabel("Email").fill("robin@example.com");
    await page.getByLabel("Full Name").fill("Robin Reyes");
    await page.getByLabel("Password").fill("first-pass-1");
    await page.getByRole("button", { name: "Create account" }).click();
    await waitForPath(page, "/client-dashboard");
    await page.getByText("Welcome, Robin Reyes!").waitFor();
    await page.getByRole("banner").getByText("Robin Reyes").waitFor();

    await page.getByRole("button", { name: "Sign out" }).click();
    await waitForPath(page, "/auth");
    await page.getByText("You have been logged out successfully.").waitFor();
    // Signed out for real: a signed-in page sends us back to /auth.
    await page.goto("/profile");
    await waitForPath(page, "/auth?returnTo=%2Fprofile");

    // The username is the email.
    await signIn(page, "robin@example.com", "first-pass-1");
    await waitForPath(page, "/client-dashboard");
    await page.getByText("Welcome back, Robin Reyes!").waitFor();
    assertEquals(consoleErrors, []);
  },
);

e2e("a wrong password shows 'Login failed' with the server's message", async ({ newPage, t }) => {
  const user = await createUser(t.sql, { role: "client" });
  const page = await newPage();
  await page.goto("/auth");
  await signIn(page, user.email, "not-the-password");
  const alert = page.getByRole("alert").filter({ hasText: "Login failed" });
  await alert.waitFor();
  assertMatch(await alert.innerText(), /Invalid credentials/);
  assertEquals(new URL(page.url()).pathname, "/auth");
});

e2e(
  "returnTo brings a surveyor back to the page they asked for",
  async ({ newPage, t, consoleErrors }) => {
    const surveyor = await createUser(t.sql, { role: "surveyor" });
    const page = await newPage();
    await page.goto("/surveyor/purchased-leads");
    await waitForPath(page, "/auth?returnTo=%2Fsurveyor%2Fpurchased-leads");
    await signIn(page, surveyor.email, surveyor.password);
    await waitForPath(page, "/surveyor/purchased-leads");
    await page.getByRole("heading", { name: "Purchased leads", exact: true }).waitFor();
    // Signed in, /auth itself redirects by role.
    await page.goto("/auth?returnTo=%2Fleads");
    await waitForPath(page, "/surveyor-dashboard");
    assertEquals(consoleErrors, []);
  },
);

e2e(
  "forgot password → emailed link → new password → sign in",
  async ({ newPage, t, consoleErrors }) => {
    const user = await createUser(t.sql, { role: "client", fullName: "Fern Forgot" });
    const page = await newPage();
    await page.goto("/auth");
    await page.getByRole("link", { name: "Forgot Password?" }).click();
    await waitForPath(page, "/forgot-password");
    // As in signIn: typed before the form hydrates, the address would be lost.
    const emailField = page.getByLabel("Email");
    await waitForIsland(emailField);
    await emailField.fill(user.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    await page.getByText(
      "If an account with this email exists, you'll receive instructions to reset your password.",
    ).waitFor();

    // The email sits in the outbox (no SMTP in tests), queued just after the answer by the
    // server that answered (in another process when E2E_INSTANCES=2): wait for it, then take
    // the link from its text part.
    const deadline = Date.now() + 10_000;
    let email: { text: string; subject: string } | undefined;
    while (!email) {
      [email] = await t.sql<{ text: string; subject: string }[]>`
      select text, subject from email_outbox
      where to_address = ${user.email} and template = 'password_reset'`;
      assert(email || Date.now() < deadline, "no password reset email within 10 s");
      if (!email) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assertEquals(email.subject, "Reset your Meridian password");
    const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(email.text)?.[0];
    assert(link, email.text);
    const token = new URL(link).searchParams.get("token");

    await page.goto(`/reset-password?token=${token}`);
    await page.getByText(user.email).waitFor();
    await page.getByLabel("New Password", { exact: true }).fill("brand-new-pass");
    await page.getByLabel("Confirm New Password").fill("brand-new-pass");
    await page.getByRole("button", { name: "Reset Password" }).click();
    await page.getByRole("link", { name: "Go to Login" }).click();
    await waitForPath(page, "/auth");

    // The link was single use.
    await page.goto(`/reset-password?token=${token}`);
    await page.getByRole("heading", { name: "Invalid or Expired Link" }).waitFor();

    await page.goto("/auth");
    await signIn(page, user.email, user.password);
    await page.getByRole("alert").filter({ hasText: "Login failed" }).waitFor();
    await signIn(page, user.email, "brand-new-pass");
    await waitForPath(page, "/client-dashboard");
    const [changed] = await t.sql<{ count: number }[]>`
    select count(*)::int as count from email_outbox
    where to_address = ${user.email} and template = 'password_changed'`;
    assertEquals(changed.count, 1);
    // The browser logs the two refusals this test provokes (used link, old password) only.
    assertEquals(
      consoleErrors.map((e) => /status of (\d+)/.exec(e)?.[1] ?? e),
      ["400", "401"],
    );
  },
);

e2e(
  "an admin views the site as a client and returns to the admin dashboard",
  async ({ newPage, t }) => {
    const admin = await createUser(t.sql, { role: "admin", fullName: "Ada Admin" });
    const client = await createUser(t.sql, { role: "client", fullName: "Cleo Client" });
    const page = await newPage();
    await page.goto("/auth");
    await signIn(page, admin.email, admin.password);
    await waitForPath(page, "/admin-dashboard");

    const status = await page.evaluate(async (id) => {
      const res = await fetch(`/api/admin/impersonate/${id}`, { method: "POST" });
      return res.status;
    }, client.id);
    assertEquals(status, 200);
    await page.goto("/profile");
    await page.getByRole("banner").getByText("Cleo Client").waitFor();
    const banner = page.getByRole("region", { name: "Impersonation" });
    await banner.getByText("Viewing as Cleo Client").waitFor();
    // Password changes are off while impersonating.
    assertEquals(await page.getByLabel("Current Password").count(), 0);

    // A type="button" of an island: pressed before it hydrates, nothing happens. Its island
    // marks itself hydrated (islands/_boot.ts); waiting for the network to go quiet instead
    // timed out once in CI.
    const returnButton = banner.getByRole("button", { name: "Return to admin" });
    await waitForIsland(returnButton);
    await returnButton.click();
    await waitForPath(page, "/admin-dashboard");
    const state = await page.evaluate(async () => {
      const res = await fetch("/api/admin/impersonation-status");
      return await res.json();
    });
    assertEquals(state, { isImpersonating: false });
    const me = await page.evaluate(async () => (await fetch("/api/user")).json());
    assertEquals(me.fullName, "Ada Admin");
  },
);

e2e(
  "an admin uses 'View as' on the admin console's users and comes back",
  async ({ newPage, t, consoleErrors }) => {
    const admin = await createUser(t.sql, { role: "admin" });
    await createUser(t.sql, { role: "surveyor", fullName: "Sid Surveyor" });
    const page = await newPage();
    await page.goto("/auth");
    await signIn(page, admin.email, admin.password);
    await waitForPath(page, "/admin-dashboard");
    // Both buttons belong to islands: pressed before they hydrate, nothing happens.
    await page.goto("/admin?tab=users");
    const viewAs = page.getByRole("button", { name: "View as Sid Surveyor" });
    await waitForIsland(viewAs);
    await viewAs.click();
    await waitForPath(page, "/surveyor-dashboard");
    await page.getByText("Welcome, Sid").waitFor();
    const returnButton = page.getByRole("button", { name: "Return to admin" });
    await waitForIsland(returnButton);
    await returnButton.click();
    await waitForPath(page, "/admin-dashboard");
    assertEquals(consoleErrors, []);
  },
);

e2e(
  "an invitation link → 'Choose your password' → signed in on the technician dashboard",
  async ({ newPage, t, consoleErrors }) => {
    const user = await createUser(t.sql, { role: "technician", fullName: "Ivy Invited" });
    await insertTechnician(t.sql, { userId: user.id, surveyorId: null, invitedBy: null });
    const token = randomToken(32);
    await insertPasswordResetToken(t.sql, {
      userId: user.id,
      tokenHash: await hashToken(token),
      purpose: "invitation",
    });
    const page = await newPage();
    await page.goto(`/reset-password?token=${token}`);
    assertEquals(await page.title(), "Choose your password | Meridian");
    await page.getByText(user.email).waitFor();
    await page.getByRole("heading", { name: "Welcome to Meridian" }).waitFor();
    await page.getByLabel("Password", { exact: true }).fill("my-first-pass");
    await page.getByLabel("Confirm Password").fill("my-first-pass");
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await waitForPath(page, "/technician-dashboard");
    const [changed] = await t.sql<{ count: number }[]>`
    select count(*)::int as count from email_outbox
    where to_address = ${user.email} and template = 'password_changed'`;
    assertEquals(changed.count, 0);
    assertEquals(consoleErrors, []);
  },
);

e2e("the email templates page shows each email rendered", async ({ newPage, t }) => {
  const admin = await createUser(t.sql, { role: "admin" });
  const page = await newPage();
  await page.goto("/auth");
  await signIn(page, admin.email, admin.password);
  await waitForPath(page, "/admin-dashboard");
  await page.goto("/admin/email-templates");
  const frame = page.frameLocator('iframe[title="Password reset email, HTML preview"]');
  await frame.getByRole("heading", { name: "Reset your password" }).waitFor();
  await frame.getByRole("link", { name: "Reset password" }).first().waitFor();
});

e2e(
  "the chat widget boots with the signed-in user's details",
  async ({ newPage, t }) => {
    const user = await createUser(t.sql, {
      role: "surveyor",
      fullName: "Cat Chat",
      companyName: "Chat Co",
      phone: "555-0199",
    });
    const page = await newPage();
    // Stand in for the vendor's script so nothing leaves the machine.
    await page.route("https://widget.intercom.io/**", (route) =>
      route.fulfill({
        contentType: "text/javascript",
        body: "window.__vendorLoaded = true;",
      }));
    await page.goto("/auth");
    const anonymous = await page.evaluate(() =>
      (globalThis as unknown as { intercomSettings: unknown }).intercomSettings
    );
    assertEquals(anonymous, { app_id: "testapp" });
    await signIn(page, user.email, user.password);
    await waitForPath(page, "/surveyor-dashboard");
    await page.waitForFunction(() =>
      (globalThis as unknown as { __vendorLoaded?: boolean }).__vendorLoaded
    );
    const settings = await page.evaluate(() =>
      (globalThis as unknown as { intercomSettings: Record<string, unknown> }).intercomSettings
    );
    assertEquals(settings.app_id, "testapp");
    assertEquals(settings.user_id, user.id);
    assertEquals(settings.email, user.email);
    assertEquals(settings.name, "Cat Chat");
    assertEquals(settings.role, "surveyor");
    assertEquals(settings.company, { company_id: "Chat Co", name: "Chat Co" });
    assertEquals(settings.phone, "555-0199");
    assertEquals(typeof settings.created_at, "number");
    assertEquals(typeof settings.last_login, "number", "set by the sign-in");
    const queued = await page.evaluate(() =>
      (globalThis as unknown as { Intercom: { q: unknown[][] } }).Intercom.q.map((a) => a[0])
    );
    assertEquals(queued, ["boot"]);
  },
  { env: { CHAT_WIDGET_APP_ID: "testapp" } },
);
