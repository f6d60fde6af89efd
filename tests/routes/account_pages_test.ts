import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionFor, signInAs } from "../_auth.ts";
import type { Role } from "../../routes/_env.ts";

const ROLES: Role[] = ["admin", "client", "surveyor", "technician"];
const html = { accept: "text/html" };

function get(t: TestApp, path: string, cookie?: string) {
  return t.request("GET", path, { cookie, headers: html });
}

/** The JSON props of the island `name` in a page, or undefined when the page lacks it. */
function islandProps(page: string, name: string): Record<string, unknown> | undefined {
  const match = new RegExp(`data-island="${name}"[^>]*data-props="([^"]*)"`).exec(page);
  if (!match) return undefined;
  const json = match[1].replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/&#x27;/g, "'")
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">");
  return JSON.parse(json);
}

test("[accounts] /auth shows Login and Register tabs with the spec's labels", async () => {
  const t = await createTestApp();
  const res = await get(t, "/auth");
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /text\/html/);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const page = await res.text();
  assertStringIncludes(page, 'role="tab"');
  assertMatch(page, />Login<\/button>/);
  assertMatch(page, />Register<\/button>/);
  assertStringIncludes(page, "Email or Username");
  assertStringIncludes(page, ">Password<");
  assertStringIncludes(page, 'href="/forgot-password"');
  assertStringIncludes(page, "Forgot Password?");
  assertEquals(islandProps(page, "AuthForm"), { returnTo: null, initialTab: "login" });
  assert(islandProps(page, "Toaster"), "the page has a toast viewport");
  t.close();
});

test("[accounts] /auth?tab=register opens on the Register tab with Email, Full Name, Password", async () => {
  const t = await createTestApp();
  const page = await (await get(t, "/auth?tab=register")).text();
  assertStringIncludes(page, ">Email<");
  assertStringIncludes(page, ">Full Name<");
  assertStringIncludes(page, ">Password<");
  assertMatch(page, /aria-selected="true"[^>]*>Register</);
  t.close();
});

test("[accounts] /auth passes a local returnTo to the form and drops an unsafe one", async () => {
  const t = await createTestApp();
  const ok = await (await get(t, "/auth?returnTo=%2Fclient-dashboard%3Fx%3D1")).text();
  assertEquals(islandProps(ok, "AuthForm")?.returnTo, "/client-dashboard?x=1");
  for (
    const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "%2F%2Fevil.example",
      "javascript:alert(1)",
    ]
  ) {
    const page = await (await get(t, `/auth?returnTo=${encodeURIComponent(bad)}`)).text();
    assertEquals(islandProps(page, "AuthForm")?.returnTo, null, bad);
    assert(!page.includes('evil.example"'), bad);
  }
  t.close();
});

test("[accounts] /auth ignores junk query values instead of failing", async () => {
  const t = await createTestApp();
  for (
    const q of [
      `returnTo=${"a".repeat(10_000)}`,
      "returnTo=/a&returnTo=/b",
      "tab=admin",
      "tab=%00",
    ]
  ) {
    const res = await get(t, `/auth?${q}`);
    assertEquals(res.status, 200, q);
    await res.body?.cancel();
  }
  t.close();
});

test("[accounts] a signed-in user visiting /auth is redirected by role with the redirecting text", async () => {
  const t = await createTestApp();
  const expected: Record<Role, string> = {
    admin: "/admin-dashboard",
    client: "/client-dashboard",
    surveyor: "/surveyor-dashboard",
    technician: "/technician-dashboard",
  };
  for (const role of ROLES) {
    const res = await get(t, "/auth", await signInAs(t, role));
    assertEquals(res.status, 302, role);
    assertEquals(res.headers.get("location"), expected[role], role);
    assertStringIncludes(await res.text(), "Redirecting to your dashboard...");
  }
  t.close();
});

test("[accounts] /auth honours returnTo only under the role's own prefix (admin never)", async () => {
  const t = await createTestApp();
  const cases: [Role, string, string][] = [
    ["admin", "/surveyors", "/admin-dashboard"],
    ["surveyor", "/surveyor/purchased-leads", "/surveyor/purchased-leads"],
    ["surveyor", "/client-dashboard", "/surveyor-dashboard"],
    ["client", "/client-dashboard?tab=2", "/client-dashboard?tab=2"],
    ["client", "/profile", "/client-dashboard"],
    ["technician", "/technician-survey-detail/abc", "/technician-survey-detail/abc"],
    ["technician", "/leads", "/technician-dashboard"],
    ["surveyor", "//evil.example/surveyor", "/surveyor-dashboard"],
    ["client", "/\\evil.example", "/client-dashboard"],
    ["client", "%2F%2Fevil.example", "/client-dashboard"],
    ["client", "https://evil.example/client", "/client-dashboard"],
    ["client", "javascript:alert(1)", "/client-dashboard"],
  ];
  for (const [role, returnTo, location] of cases) {
    const res = await get(
      t,
      `/auth?returnTo=${encodeURIComponent(returnTo)}`,
      await signInAs(t, role),
    );
    assertEquals(res.status, 302, `${role} ${returnTo}`);
    assertEquals(res.headers.get("location"), location, `${role} ${returnTo}`);
    await res.body?.cancel();
  }
  t.close();
});

test("[accounts] /forgot-password shows the email form with a way back to login", async () => {
  const t = await createTestApp();
  const res = await get(t, "/forgot-password");
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /text\/html/);
  const page = await res.text();
  assertStringIncludes(page, 'data-island="ForgotPasswordForm"');
  assertStringIncludes(page, ">Email<");
  assertStringIncludes(page, "Send reset link");
  assertStringIncludes(page, 'href="/auth"');
  t.close();
});

test("[accounts] /reset-password passes the token to the form and is never cached", async () => {
  const t = await createTestApp();
  const res = await get(t, "/reset-password?token=abc_DEF-123");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const page = await res.text();
  assertEquals(islandProps(page, "ResetPasswordForm"), { token: "abc_DEF-123" });
  assertStringIncludes(page, 'name="robots" content="noindex"');
  // Server render of a token link is the verifying state (the browser then checks it).
  assertStringIncludes(page, "Verifying your reset link...");
  t.close();
});

test("[accounts] /reset-password without a token renders the invalid-link panel", async () => {
  const t = await createTestApp();
  for (
    const path of [
      "/reset-password",
      "/reset-password?token=",
      `/reset-password?token=${"x".repeat(600)}`,
    ]
  ) {
    const res = await get(t, path);
    assertEquals(res.status, 200, path);
    const page = await res.text();
    assertEquals(islandProps(page, "ResetPasswordForm"), { token: null }, path);
    assertStringIncludes(page, "Invalid or Expired Link");
    assertStringIncludes(page, "This password reset link is invalid or has expired.");
    assertStringIncludes(page, "Please request a new password reset link.");
    assertStringIncludes(page, 'href="/forgot-password"');
    assertStringIncludes(page, 'href="/auth"');
  }
  t.close();
});

test("[accounts] /profile sends signed-out visitors to sign in and back", async () => {
  const t = await createTestApp();
  const res = await get(t, "/profile");
  assertEquals(res.status, 302);
  assertEquals(res.headers.get("location"), "/auth?returnTo=%2Fprofile");
  t.close();
});

test("[accounts] /profile shows each role its details in the app layout", async () => {
  const t = await createTestApp();
  for (const role of ROLES) {
    const { user, cookie } = await createSignedInUser(t, {
      role,
      fullName: `Pat ${role}`,
      companyName: "Acme Surveying",
      phone: "555-0100",
    });
    const res = await get(t, "/profile", cookie);
    assertEquals(res.status, 200, role);
    assertEquals(res.headers.get("cache-control"), "private, no-store");
    const page = await res.text();
    assertStringIncludes(page, 'class="app-header"');
    assertStringIncludes(page, `Pat ${role}`);
    assertEquals(islandProps(page, "ProfileForm"), {
      email: user.email,
      fullName: `Pat ${role}`,
      companyName: "Acme Surveying",
      phone: "555-0100",
      isImpersonating: false,
    });
    assert(!page.includes("password_hash") && !page.includes("$argon2"), "no hash in the page");
  }
  t.close();
});

test("[accounts] an impersonated /profile hides the password change and shows the banner", async () => {
  const t = await createTestApp();
  const admin = await createUser(t.sql, { role: "admin" });
  const client = await createUser(t.sql, { role: "client", fullName: "Casey Client" });
  const cookie = await sessionFor(t, client, { impersonatorId: admin.id });
  const page = await (await get(t, "/profile", cookie)).text();
  assertEquals(islandProps(page, "ProfileForm")?.isImpersonating, true);
  assert(!page.includes("Current Password"), "no password form while impersonating");
  assertStringIncludes(page, 'data-island="ImpersonationBanner"');
  assertStringIncludes(page, "Return to admin");
  assertStringIncludes(page, "Viewing as <!-- -->Casey Client");
  t.close();
});
