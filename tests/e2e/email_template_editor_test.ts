/**
 * The email words editor in Chromium (/admin/email-templates/{id}): it fits every width and is
 * axe-clean; the sandboxed srcdoc preview renders under the app's CSP (its body text is visible,
 * its inline styles apply, the console stays clean); by keyboard only the admin marks an unknown
 * variable, watches the preview follow the draft at phone and desktop width, saves, sees the
 * history and the diff, sends themself a test and resets to the default after confirming.
 */
import type { FrameLocator, Page } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { axeViolations, checkLayout } from "./_axe.ts";
import { createUser, sessionFor } from "../_auth.ts";
import { TEMPLATES } from "../../lib/mail/render.tsx";
import { templateShape } from "../../routes/email_template_api.ts";

const ID = "password_reset";

/** The preview's body text, once the iframe has rendered one. */
async function frameText(frame: FrameLocator): Promise<string> {
  return await frame.locator("body").innerText();
}

async function press(page: Page, name: string | RegExp, key = "Enter") {
  const button = page.getByRole("button", { name, exact: typeof name === "string" });
  await button.focus();
  await page.keyboard.press(key);
}

e2e(
  "email words editor: layout, CSP-safe preview, keyboard save, test, diff and reset",
  async ({ t, baseUrl, browser, consoleErrors }) => {
    const admin = await createUser(t.sql, { role: "admin", fullName: "Ada Admin" });
    const context = await browser.newContext({ baseURL: baseUrl });
    const [name, value] = (await sessionFor(t, admin)).split("=");
    await context.addCookies([{ name, value, url: baseUrl }]);
    const page = await context.newPage();
    page.on("pageerror", (err) => consoleErrors.push(`${page.url()}: ${err.message}`));
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(`${page.url()}: ${msg.text()}`);
    });
    const shape = templateShape(ID);
    const block = shape.blocks.find((b) => b.isMultiline) ?? shape.blocks[0];
    const variable = shape.variables[0].name;
    const sample = TEMPLATES[ID].copy.values(TEMPLATES[ID].sample)[variable];
    try {
      // From the list, by keyboard, to the editor.
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto("/admin/email-templates");
      await page.getByRole("link", { name: TEMPLATES[ID].name, exact: true }).focus();
      await page.keyboard.press("Enter");
      await page.waitForURL(`**/admin/email-templates/${ID}`);
      await page.locator(".email-editor[data-hydrated]").waitFor();
      await checkLayout(page, "the email editor");

      // The preview renders under the page's CSP: text visible, inline styles applied.
      const frame = page.frameLocator("iframe.email-editor__frame");
      const firstWords = block.defaultText.split(/\s+/).slice(0, 3).join(" ");
      assertStringIncludes(await frameText(frame), firstWords.replace(/\{\w+\}/g, "").trim());
      assert(await frame.locator("body").isVisible(), "the preview's body is visible");
      // An element styled with a background colour in its style attribute shows that colour:
      // a CSP refusing inline styles would leave it transparent (and log a console error).
      const painted = frame.locator('[style*="background-color"]').first();
      const styled = await painted.evaluate((el) => ({
        attribute: el.getAttribute("style"),
        computed: getComputedStyle(el).backgroundColor,
      }));
      assert(
        styled.computed !== "rgba(0, 0, 0, 0)" && styled.computed !== "transparent",
        `inline style applies: ${styled.attribute} → ${styled.computed}`,
      );

      // An unknown variable is marked at its field as it is typed.
      const subject = page.getByLabel("Subject", { exact: true });
      await subject.focus();
      await page.keyboard.press("Control+A");
      await page.keyboard.type("Hello {clientName}");
      await page.getByText("Subject uses an unknown variable: {clientName}").waitFor();
      assertEquals(await subject.getAttribute("aria-invalid"), "true");
      await page.keyboard.press("Control+A");
      await page.keyboard.type(`Choose a new password, {${variable}}`);
      await page.locator(".email-editor__subject", {
        hasText: `Choose a new password, ${sample}`,
      }).waitFor();

      // Phone and desktop widths, by keyboard.
      const iframe = page.locator("iframe.email-editor__frame");
      await press(page, /^Phone/);
      await page.locator('iframe[data-width="phone"]').waitFor();
      assertEquals(Math.round((await iframe.boundingBox())!.width), 375);
      await press(page, /^Desktop/);
      await page.locator('iframe[data-width="desktop"]').waitFor();
      assertEquals(Math.round((await iframe.boundingBox())!.width), 600);

      // Save: the toast, the history with who, and the diff with text labels.
      await press(page, "Save as version 1");
      await page.locator(".toast", { hasText: "Email template saved" }).waitFor();
      await page.locator(".email-editor__history", { hasText: "Saved by Ada Admin" }).waitFor();
      // "Reset your Meridian password" → "Choose a new password, {name}", word by word.
      const subjectDiff = page.locator(".email-diff__field").first();
      assertEquals(await subjectDiff.locator("dt").textContent(), "Subject");
      const del = subjectDiff.locator("del").first();
      const ins = subjectDiff.locator("ins").first();
      assertEquals(await del.locator(".visually-hidden").first().textContent(), "Removed: ");
      assertEquals(await ins.locator(".visually-hidden").first().textContent(), "Added: ");
      assertStringIncludes(await ins.textContent() ?? "", "Choose");
      // Not colour alone: removals are struck through, additions underlined.
      assertStringIncludes(
        await del.evaluate((el) => getComputedStyle(el).textDecorationLine),
        "line-through",
      );
      assertStringIncludes(
        await ins.evaluate((el) => getComputedStyle(el).textDecorationLine),
        "underline",
      );
      await page.getByRole("button", { name: "Save as version 2" }).waitFor();

      // Send me a test: queued in the outbox to the admin, not sent.
      await press(page, "Send me a test");
      await page.locator(".toast", { hasText: "Test email queued" }).waitFor();
      const [mail] = await t.sql<{ toAddress: string; subject: string }[]>`
        select to_address, subject from email_outbox`;
      assertEquals(mail.toAddress, admin.email);
      assertEquals(mail.subject, `[Test] Choose a new password, ${sample}`);

      // The page after the save still fits every width and is axe-clean.
      await checkLayout(page, "the email editor after a save");
      await page.setViewportSize({ width: 390, height: 900 });

      // Reset to default: asks first (focus on "Keep my words"), then resets.
      await press(page, "Reset to default");
      const dialog = page.locator("dialog[open]");
      await dialog.waitFor();
      assertEquals(
        await page.evaluate(() => document.activeElement?.textContent),
        "Keep my words",
      );
      assertEquals(await axeViolations(page), []);
      await dialog.getByRole("button", { name: "Reset to default" }).focus();
      await page.keyboard.press("Enter");
      await page.locator(".toast", { hasText: "Email reset to default" }).waitFor();
      await page.locator(".email-editor__history", { hasText: "Reset to default" }).waitFor();
      assertEquals(await subject.inputValue(), shape.defaultSubject);
      const rows = await t.sql<{ version: number; isReset: boolean }[]>`
        select version, is_reset from email_template_versions order by version`;
      assertEquals([...rows], [{ version: 1, isReset: false }, { version: 2, isReset: true }]);
      assert(consoleErrors.length === 0, consoleErrors.join("\n"));
    } finally {
      await context.close();
    }
  },
);
