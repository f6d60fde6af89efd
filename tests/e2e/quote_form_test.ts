import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { QUOTE_FORM_EMPTY_MESSAGE } from "../../islands/QuoteForm.tsx";

const HERO_FORM = "form:has(#hero-address)";

/**
 * The landing page with the hero quote form hydrated: it waits for a first touch
 * (hydrate="interaction"), here focus, and sets novalidate once hydrated.
 */
async function openLanding(page: Page) {
  const res = await page.goto("/");
  assertEquals(res?.status(), 200);
  await page.locator("#hero-address").focus();
  await page.waitForSelector(`${HERO_FORM}[novalidate]`, { state: "attached" });
}

e2e(
  "typing '123 Main St Aus' suggests, the keyboard picks, submit goes to /create-survey",
  async ({ newPage, consoleErrors }) => {
    const page = await newPage();
    await openLanding(page);
    const input = page.locator("#hero-address");
    await input.click();
    await input.pressSequentially("123 Main St Aus", { delay: 25 });

    const options = page.locator('#hero-address-listbox [role="option"]');
    await options.first().waitFor({ state: "visible" });
    assertEquals(await input.getAttribute("aria-expanded"), "true");
    const texts = await options.allTextContents();
    assert(texts.length > 0 && texts.length <= 5, JSON.stringify(texts));
    assert(texts.some((t) => /^123 Main St, Austin, TX$/.test(t)), JSON.stringify(texts));

    await input.press("ArrowDown");
    assertEquals(await input.getAttribute("aria-activedescendant"), "hero-address-option-0");
    assertEquals(await options.first().getAttribute("aria-selected"), "true");
    await input.press("Enter");
    // Enter picked the option rather than submitting the form.
    assertEquals(new URL(page.url()).pathname, "/");
    assertEquals(await input.getAttribute("aria-expanded"), "false");
    // The pick is geocoded; the offline provider's formatted address reads like the option.
    await page.waitForFunction(
      (expected) =>
        (document.getElementById("hero-address") as HTMLInputElement).value === expected,
      texts[0],
    );
    const picked = await input.inputValue();
    assertEquals(picked, texts[0]);
    assertEquals(consoleErrors, []);

    await Promise.all([
      page.waitForURL(/\/create-survey\?address=/),
      page.locator(`${HERO_FORM} button[type="submit"]`).click(),
    ]);
    const url = new URL(page.url());
    assertEquals(url.pathname, "/create-survey");
    assertEquals(url.searchParams.get("address"), picked);
  },
);

e2e("an empty or blank address does not navigate", async ({ newPage, consoleErrors }) => {
  const page = await newPage();
  await openLanding(page);
  const submit = page.locator(`${HERO_FORM} button[type="submit"]`);
  await submit.click();
  const alert = page.locator(`${HERO_FORM} [role="alert"]`);
  await alert.waitFor({ state: "visible" });
  assertEquals((await alert.textContent())?.trim(), QUOTE_FORM_EMPTY_MESSAGE);
  assertEquals(await page.locator("#hero-address").getAttribute("aria-invalid"), "true");

  await page.locator("#hero-address").fill("   ");
  await submit.click();
  await alert.waitFor({ state: "visible" });
  assertEquals(new URL(page.url()).pathname, "/");
  assertEquals(new URL(page.url()).search, "");
  assertEquals(consoleErrors, []);
});

e2e("Escape closes the suggestions and typed text is submitted as typed", async ({ newPage }) => {
  const page = await newPage();
  await openLanding(page);
  const input = page.locator("#hero-address");
  await input.click();
  await input.pressSequentially("500 Congress Ave Aus", { delay: 25 });
  await page.locator('#hero-address-listbox [role="option"]').first().waitFor();
  await input.press("Escape");
  assertEquals(await input.getAttribute("aria-expanded"), "false");
  assert(await page.locator("#hero-address-listbox").isHidden());
  await Promise.all([page.waitForURL(/\/create-survey\?/), input.press("Enter")]);
  assertEquals(new URL(page.url()).searchParams.get("address"), "500 Congress Ave Aus");
});

e2e("without JavaScript the quote form still submits the address", async ({ browser, baseUrl }) => {
  const context = await browser.newContext({ baseURL: baseUrl, javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto("/");
    await page.locator("#hero-address").fill("12 Elm St, Springfield, IL");
    await Promise.all([
      page.waitForURL(/\/create-survey\?address=/),
      page.locator(`${HERO_FORM} button[type="submit"]`).click(),
    ]);
    assertMatch(page.url(), /\/create-survey\?address=12\+Elm\+St%2C\+Springfield%2C\+IL$/);
  } finally {
    await context.close();
  }
});
