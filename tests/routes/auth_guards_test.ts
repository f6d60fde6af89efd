import { Hono } from "hono";
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { assertForbiddenPage, assertRedirectsToAuth } from "../_pages.ts";
import type { AppEnv } from "../../routes/_env.ts";
import { requestContext } from "../../routes/_middleware.ts";
import { onError } from "../../routes/_errors.tsx";
import { requirePageRole, requirePageUser, sessions } from "../../routes/_auth.ts";

/** A small app with the real context and session middleware in front of guarded pages. */
function guardedApp(t: TestApp) {
  const app = new Hono<AppEnv>();
  app.use(requestContext(t.deps));
  app.use(sessions(t.deps));
  app.get("/profile", requirePageUser, (c) => c.text(`hello ${c.var.user!.fullName}`));
  app.get("/admin-dashboard", requirePageRole("admin"), (c) => c.text("admin area"));
  app.get("/leads", requirePageRole("surveyor", "admin"), (c) => c.text("leads"));
  app.onError(onError);
  return (path: string, cookie?: string) =>
    app.request(`http://localhost${path}`, { headers: cookie ? { cookie } : {} });
}

test("[guards] signed-out visitors are sent to /auth with returnTo path and query", async () => {
  const t = await createTestApp();
  const get = guardedApp(t);
  for (const path of ["/profile", "/admin-dashboard", "/leads?page=2&sort=new"]) {
    await assertRedirectsToAuth(await get(path), path);
  }
  t.close();
});

test("[guards] a signed-in user sees a user-only page, marked private", async () => {
  const t = await createTestApp();
  const get = guardedApp(t);
  for (const role of ["admin", "client", "surveyor", "technician"] as const) {
    const { user, cookie } = await createSignedInUser(t, { role });
    const res = await get("/profile", cookie);
    assertEquals(res.status, 200, role);
    assertEquals(await res.text(), `hello ${user.fullName}`);
    assertEquals(res.headers.get("cache-control"), "private, no-store");
  }
  t.close();
});

test("[guards] the wrong role gets the 403 Access Denied page from the server", async () => {
  const t = await createTestApp();
  const get = guardedApp(t);
  for (const role of ["client", "surveyor", "technician"] as const) {
    const { cookie } = await createSignedInUser(t, { role });
    const html = await assertForbiddenPage(await get("/admin-dashboard", cookie), role);
    assert(!html.includes("admin area"));
  }
  const admin = await createSignedInUser(t, { role: "admin" });
  const ok = await get("/admin-dashboard", admin.cookie);
  assertEquals([ok.status, await ok.text()], [200, "admin area"]);
  t.close();
});

test("[guards] a page may allow several roles", async () => {
  const t = await createTestApp();
  const get = guardedApp(t);
  const expected = { admin: 200, surveyor: 200, client: 403, technician: 403 } as const;
  for (const [role, status] of Object.entries(expected)) {
    const { cookie } = await createSignedInUser(t, { role: role as keyof typeof expected });
    const res = await get("/leads", cookie);
    assertEquals(res.status, status, role);
    await res.body?.cancel();
  }
  t.close();
});
