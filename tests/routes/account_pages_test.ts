import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser, createUser, sessionFor, signInAs } from "../_auth.ts";
import { DASHBOARDS, ROLES } from "../_fixtures.ts";
import {
  assertHtml,
  assertRedirect,
  assertRedirectsToAuth,
  findIslandProps,
  getPage,
} from "../_pages.ts";
import type { Role } from "../../lib/roles.ts";

test("[accounts] /auth shows Login and Register tabs with the spec's labels", async () => {
  const t = await createTestApp();
  const res = await getPage(t, "/auth");
  assertEquals(res.status, 200);
  assertHtml(res);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const page = await res.text();
  assertStringIncludes(page, 'role="tab"');
  assertMatch(page, />Login<\/button>/);
  assertMatch(page, />Register<\/button>/);
  assertStringIncludes(page, "Email or Username");
  assertStringIncludes(page, ">Password<");
  assertStringIncludes(page, 'href="/forgot-password"');
  assertStringIncludes(page, "Forgot Password?");
  assertEquals(findIslandProps(page, "AuthForm"), { returnTo: null, initialTab: "login" });
  assert(findIslandProps(page, "Toaster"), "the page has a toast viewport");
  t.close();
});

test("[accounts] /auth?tab=register opens on the Register tab with Email, Full Name, Password", async () => {
  const t = await createTestApp();
  const page = await (await getPage(t, "/auth?tab=register")).text();
  assertStringIncludes(page, ">Email<");
  assertStringIncludes(page, ">Full Name<");
  assertStringIncludes(page, ">Password<");
  assertMatch(page, /aria-selected="true"[^>]*>Register</);
  t.close();
});

test("[accounts] /auth passes a local returnTo to the form and drops an unsafe one", async () => {
  const t = await createTestApp();
  const ok = await (await getPage(t, "/auth?returnTo=%2Fclient-dashboard%3Fx%3D1")).text();
  assertEquals(findIslandProps(ok, "AuthForm")?.returnTo, "/client-dashboard?x=1");
  for (
    const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "%2F%2Fevil.example",
      "javascript:alert(1)",
    ]
  ) {
    const page = await (await getPage(t, `/auth?returnTo=${encodeURIComponent(bad)}`)).text();
    assertEquals(findIslandProps(page, "AuthForm")?.returnTo, null, bad);
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
    const res = await getPage(t, `/auth?${q}`);
    assertEquals(res.status, 200, q);
    await res.body?.cancel();
  }
  t.close();
});

test("[accounts] a signed-in user visiting /auth is redirected by role with the redirecting text", async () => {
  const t = await createTestApp();
  for (const role of ROLES) {
    const res = await getPage(t, "/auth", await signInAs(t, role));
    assertRedirect(res, DASHBOARDS[role], role);
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
    const res = await getPage(
      t,
      `/auth?returnTo=${encodeURIComponent(returnTo)}`,
      await signInAs(t, role),
    );
    assertRedirect(res, location, `${role} ${returnTo}`);
    await res.body?.cancel();
  }
  t.close();
});

test("[accounts] /forgot-password shows the email form with a way back to login", async () => {
  const t = await createTestApp();
  const res = await getPage(t, "/forgot-password");
  assertEquals(res.status, 200);
  assertHtml(res);
  const page = await res.text();
  assertStringIncludes(page, 'data-island="ForgotPasswordForm"');
  assertStringIncludes(page, ">Email<");
  assertStringIncludes(page, "Send reset link");
  assertStringIncludes(page, 'href="/auth"');
  t.close();
});

test("[accounts] /reset-password passes the token to the form and is never cached", async () => {
  const t = await createTestApp();
  const res = await getPage(t, "/reset-password?token=abc_DEF-123");
  assertEquals(res.status, 200);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const page = await res.text();
  assertEquals(findIslandProps(page, "ResetPasswordForm"), {
    token: "abc_DEF-123",
    purpose: "reset",
  });
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
    const res = await getPage(t, path);
    assertEquals(res.status, 200, path);
    const page = await res.text();
    assertEquals(
      findIslandProps(page, "ResetPasswordForm"),
      { token: null, purpose: "reset" },
      path,
    );
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
  await assertRedirectsToAuth(await getPage(t, "/profile"), "/profile");
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
    const res = await getPage(t, "/profile", cookie);
    assertEquals(res.status, 200, role);
    assertEquals(res.headers.get("cache-control"), "private, no-store");
    const page = await res.text();
    assertStringIncludes(page, 'class="app-header"');
    assertStringIncludes(page, `Pat ${role}`);
    assertEquals(findIslandProps(page, "ProfileForm"), {
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
  const page = await (await getPage(t, "/profile", cookie)).text();
  assertEquals(findIslandProps(page, "ProfileForm")?.isImpersonating, true);
  assert(!page.includes("Current Password"), "no password form while impersonating");
  assertStringIncludes(page, 'data-island="ImpersonationBanner"');
  assertStringIncludes(page, "Return to admin");
  assertStringIncludes(page, "Viewing as <!-- -->Casey Client");
  // The client's own view, right after and right before, is theirs: no banner, the password
  // form (the page is kept per user, and whether an admin views as them is part of it).
  const own = await sessionFor(t, client);
  for (const session of [own, cookie, own]) {
    const text = await (await getPage(t, "/profile", session)).text();
    const viewedAs = session === cookie;
    assertEquals(findIslandProps(text, "ProfileForm")?.isImpersonating, viewedAs);
    assertEquals(text.includes('data-island="ImpersonationBanner"'), viewedAs);
  }
  t.close();
});
