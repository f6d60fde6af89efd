import type { Page } from "playwright-core";
import { assert, assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { axeViolations } from "./_axe.ts";
import { createUser } from "../_auth.ts";
import { getOutboxEmail, insertOutboxEmail } from "../../lib/mail/outbox.ts";

async function hasSidewaysScroll(page: Page): Promise<boolean> {
  return await page.evaluate(() =>
    document.documentElement.scrollWidth > document.documentElement.clientWidth
  );
}

e2e(
  "emails: the list and the outbox fit every width, are axe-clean, and a failed email is retried by keyboard",
  async ({ t, signedInPage, consoleErrors }) => {
    const id = await insertOutboxEmail(t.sql, {
      to: "a.very.long.recipient.address.that.never.breaks@subdomain.example.test",
      subject: "Reset your Meridian password",
      html: "<p>h</p>",
      text: "h",
      template: "password_reset",
    });
    await t.sql`update email_outbox set status = 'failed', attempts = 8,
      last_error = 'Connection timeout: 421 4.7.0 mail.example.test:25 greylisted, try again later'
      where id = ${id}`;
    await insertOutboxEmail(t.sql, {
      to: "sent@example.test",
      subject: "Your Meridian password was changed",
      html: "<p>h</p>",
      text: "h",
      template: "password_changed",
    });
    const admin = await createUser(t.sql, { role: "admin" });
    const page = await signedInPage(admin);
    try {
      for (const width of [390, 1024, 1280, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        for (const path of ["/admin/email-templates", "/admin/email-outbox"]) {
          await page.goto(path);
          await page.locator("h1").waitFor();
          assertEquals(await hasSidewaysScroll(page), false, `${path} at ${width} px`);
          assertEquals(await axeViolations(page), [], `${path} at ${width} px`);
        }
      }

      // A preview is read when scrolled near: it renders the email, framed and sandboxed under
      // its own policy (the page itself may not be framed), with the admin's session.
      await page.goto("/admin/email-templates");
      const last = page.locator("iframe.email-preview__frame").last();
      await last.scrollIntoViewIfNeeded();
      const lastTitle = await last.getAttribute("title");
      const framed = page.frameLocator("iframe.email-preview__frame >> nth=-1");
      await framed.locator("body").waitFor();
      assert((await framed.locator("body").innerText()).length > 100, `${lastTitle} renders`);
      const first = page.frameLocator("#template-password_reset iframe");
      await page.locator("#template-password_reset iframe").scrollIntoViewIfNeeded();
      await first.getByText("Reset your password").first().waitFor();

      // Filter by keyboard: choose Failed and submit the form.
      await page.setViewportSize({ width: 390, height: 900 });
      await page.goto("/admin/email-outbox");
      await page.getByLabel("Status").selectOption("failed");
      await page.getByRole("button", { name: "Filter" }).press("Enter");
      await page.waitForURL(/status=failed/);
      await page.locator('[data-island="EmailOutbox"] table').waitFor();
      const retry = page.getByRole("button", { name: /^Retry now/ });
      assertEquals(await retry.count(), 1);
      await page.locator(".email-outbox[data-hydrated]").waitFor();
      await retry.focus();
      await page.keyboard.press("Enter");
      await page.locator(".toast", { hasText: "Email queued again" }).waitFor();
      // No mail server in this test: the queued email says it is not going anywhere.
      await page.locator(".toast", { hasText: "No mail server is configured" }).waitFor();
      await page.locator(".email-outbox .badge", { hasText: "Not sent — no mail server" })
        .waitFor();
      assertEquals(await retry.count(), 0, "the button is gone once queued");
      assertEquals((await getOutboxEmail(t.sql, { id }))?.status, "queued");
      assertEquals(await axeViolations(page), []);
      assert(consoleErrors.length === 0, consoleErrors.join("\n"));
    } finally {
      await page.context().close();
    }
  },
);

e2e(
  "emails: with no mail server an admin opens an invitation in the outbox and follows its link, at every width, axe-clean",
  async ({ t, baseUrl, signedInPage, consoleErrors }) => {
    const admin = await createUser(t.sql, { role: "admin" });
    const page = await signedInPage(admin);
    try {
      // The admin invites a staff technician the way the app does it.
      const res = await page.request.post("/api/technicians", {
        headers: { origin: baseUrl },
        data: {
          fullName: "Jamie Field",
          email: "jamie.field.with.a.long.address@subdomain.example.test",
          surveyorId: null,
        },
      });
      assertEquals(res.status(), 201);
      const { email } = await res.json();
      assertEquals(email.delivery, "none");

      await page.goto("/admin/email-outbox");
      await page.locator(".badge", { hasText: "Not sent — no mail server" }).waitFor();
      await page.locator("a.email-outbox__subject").first().click();
      await page.waitForURL(new RegExp(`${email.href}$`));

      for (const width of [390, 1024, 1280, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(email.href);
        await page.locator("h1").waitFor();
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll("body *")].filter((el) =>
            el.getBoundingClientRect().right > document.documentElement.clientWidth + 1
          ).map((el) => `${el.tagName}.${el.className}`).slice(0, 5)
        );
        assertEquals(await hasSidewaysScroll(page), false, `message at ${width} px: ${wide}`);
        assertEquals(await axeViolations(page), [], `message at ${width} px`);
      }
      const links = page.locator(".email-message__links a");
      assertEquals(await links.count(), 1);
      const href = await links.first().getAttribute("href");
      assert(href?.includes("/reset-password?token="), String(href));
      assertEquals(await links.first().textContent(), href, "the whole link can be copied");
      // The HTML is shown sandboxed: it renders the same link, inert.
      const frame = page.frameLocator(".email-preview__frame");
      await frame.getByText("Choose your password").first().waitFor();
      assertEquals(await page.locator(".email-preview__frame").getAttribute("sandbox"), "");
      assert(consoleErrors.length === 0, consoleErrors.join("\n"));
    } finally {
      await page.context().close();
    }
  },
);
