/**
 * The toast viewport with a toast showing, in a real browser: axe finds nothing in it (a status
 * and an alert toast), at phone and desktop widths.
 */
import type { Page } from "playwright-core";
import axe from "axe-core";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { e2e, waitForIsland } from "./_browser.ts";
import { createUser } from "../_auth.ts";

/** axe's findings on the page, or only inside `selector` when given. */
async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  // Through the DevTools protocol: the page's CSP (script-src 'self') refuses inline scripts.
  await page.evaluate(axe.source);
  return await page.evaluate(async (selector) => {
    const { axe } = globalThis as unknown as {
      axe: {
        run(context?: unknown): Promise<
          { violations: { id: string; nodes: { target: string[] }[] }[] }
        >;
      };
    };
    const { violations } = await axe.run(selector ? { include: [selector] } : undefined);
    return violations.map((v) =>
      `axe ${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`
    );
  }, selector);
}

/** Fills the Login tab and submits it. */
async function signIn(page: Page, identifier: string, password: string) {
  // Filled once the form's island has hydrated (as in accounts_test.ts).
  const identifierField = page.getByLabel("Email or Username");
  await waitForIsland(identifierField);
  await identifierField.fill(identifier);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

e2e(
  "a toast showing is axe-clean: an alert on /auth and a status on the admin dashboard, at 390 and 1280 px",
  async ({ t, newPage }) => {
    const admin = await createUser(t.sql, { role: "admin", fullName: "Ada Admin" });
    const page = await newPage();
    const problems: string[] = [];
    for (const width of [390, 1280]) {
      await page.context().clearCookies();
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/auth");
      await signIn(page, admin.email, "not-the-password");
      const alert = page.getByRole("alert").filter({ hasText: "Login failed" });
      await alert.waitFor();
      // Hovered, the toast stays (its timer pauses) while axe looks at it.
      await alert.hover();
      problems.push(
        ...(await axeViolations(page, ".toaster")).map((v) => `alert ${width}px: ${v}`),
      );
      assert(await alert.isVisible(), "the alert was showing while axe ran");

      await signIn(page, admin.email, admin.password);
      await page.waitForURL((url) => url.pathname === "/admin-dashboard");
      const status = page.getByRole("status").filter({ hasText: "Login successful" });
      await status.waitFor();
      await status.hover();
      // The admin dashboard is axe-clean on its own (tests/e2e/layout_test.ts): the whole page.
      problems.push(...(await axeViolations(page)).map((v) => `status ${width}px: ${v}`));
      assert(await status.isVisible(), "the status toast was showing while axe ran");
      const box = await status.boundingBox();
      assert(box && box.width <= 420, `the toast is at most 420px wide: ${box?.width}`);
      assertMatch(await status.innerText(), /Welcome back, Ada Admin!/);
    }
    assertEquals(problems, []);
  },
);
