import type { Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { e2e, waitForIsland } from "./_browser.ts";
import { createUser } from "../_auth.ts";

/** Waits for a toast with `title` in the toast viewport. */
async function expectToast(page: Page, title: string) {
  await page.locator(".toast", { hasText: title }).first().waitFor({ state: "visible" });
}

async function continueStep(page: Page, nextHeading: RegExp) {
  await page.locator('button[form="cs-form"]').click();
  await page.locator("#cs-heading", { hasText: nextHeading }).waitFor();
  // Focus moves to the new step's heading.
  assertEquals(await page.evaluate(() => document.activeElement?.id), "cs-heading");
}

e2e(
  "a visitor gets a quote from the landing page, registers inline and submits; an admin moves it on and the client sees it",
  async ({ newPage, baseUrl, browser, t, consoleErrors }) => {
    // ---- The landing page's hero quote form.
    const page = await newPage();
    await page.goto("/");
    // The form hydrates when first touched (hydrate="interaction"); it sets novalidate then.
    await page.locator("#hero-address").focus();
    await page.waitForSelector("form:has(#hero-address)[novalidate]", { state: "attached" });
    const hero = page.locator("#hero-address");
    await hero.click();
    await hero.pressSequentially("123 Main St Aus", { delay: 25 });
    const option = page.locator('#hero-address-listbox [role="option"]').first();
    await option.waitFor({ state: "visible" });
    // The list first shown may be an earlier prefix's ("123 Main St": Atlanta first, seen once
    // in CI on a busy machine); the one for all that was typed replaces it.
    await page.waitForFunction(() =>
      /Austin/.test(
        document.querySelector('#hero-address-listbox [role="option"]')?.textContent ?? "",
      )
    ).catch(() => {});
    const picked = (await option.textContent())!.trim();
    assertMatch(picked, /^123 Main St, Austin, TX$/);
    await option.click();
    await page.waitForFunction(
      (expected) =>
        (document.getElementById("hero-address") as HTMLInputElement).value === expected,
      picked,
    );
    await Promise.all([
      page.waitForURL(/\/create-survey\?address=/),
      page.locator('form:has(#hero-address) button[type="submit"]').click(),
    ]);

    // ---- Step 1: the address arrives prefilled and is confirmed without a map.
    await page.locator(".cs-confirm").waitFor();
    assertEquals(await page.locator("#cs-address").inputValue(), picked);
    assertMatch(await page.locator(".cs-confirm__address").innerText(), /123 Main St, Austin, TX/);
    assertEquals(await page.locator("#cs-state").inputValue(), "TX");
    assertEquals(
      await page.locator('.cs-steps__item[aria-current="step"]').innerText(),
      "1\nProperty",
    );
    await continueStep(page, /Survey type/);

    // ---- Step 2: the helper suggests a boundary survey for a sale.
    await page.getByRole("button", { name: "Selling the property" }).click();
    assert(await page.locator('input[name="cs-surveyType"][value="boundary"]').isChecked());
    await continueStep(page, /Property details/);

    // ---- Step 3: validation first, then the details.
    await page.locator('button[form="cs-form"]').click();
    await page.locator("#cs-acreage-error").waitFor();
    assertEquals(await page.locator("#cs-acreage").getAttribute("aria-invalid"), "true");
    await page.locator("#cs-propertyType").selectOption("residential");
    await page.locator("#cs-acreage").fill("0.5");
    await page.locator('input[name="cs-terrain"][value="rolling"]').check();
    await page.locator('input[name="cs-vegetation"][value="light"]').check();
    // A boundary survey's price ignores structures, so the step does not ask for them.
    assertEquals(await page.locator("#cs-structures").count(), 0);
    await page.locator("#cs-cornersToSet").fill("2");
    await page.locator('input[name="cs-cornersKnown"][value="no"]').check();
    await page.locator("#cs-accessNotes").fill("Side gate is unlocked.");
    assertEquals(await page.locator("#cs-purpose").inputValue(), "selling");
    await continueStep(page, /Your quote/);

    // ---- Step 4: the instant quote.
    const total = page.getByTestId("quote-total");
    await total.waitFor();
    const quoted = (await total.innerText()).trim();
    assertMatch(quoted, /^\$\d{3},?\d*(\.\d\d)?$/);
    assert((await page.locator(".cs-breakdown tbody tr").count()) >= 3, "itemised");
    assertMatch(await page.locator(".cs-quote__free").innerText(), /Free quote/);

    // Back and forward keep the answers.
    await page.getByRole("button", { name: "Back" }).click();
    await page.locator("#cs-heading", { hasText: /Property details/ }).waitFor();
    assertEquals(await page.locator("#cs-acreage").inputValue(), "0.5");
    await continueStep(page, /Your quote/);
    await total.waitFor();
    assertEquals((await total.innerText()).trim(), quoted);

    // A reload keeps everything too.
    await page.reload();
    await page.locator("#cs-heading", { hasText: /Your quote/ }).waitFor();
    await total.waitFor();
    assertEquals((await total.innerText()).trim(), quoted);
    await continueStep(page, /Contact/);

    // ---- Step 5: contact details and an account created inline.
    await page.locator("#cs-contactName").fill("Riley Buyer");
    await page.locator("#cs-contactPhone").fill("(512) 555-0142");
    await page.locator("#cs-register-email").fill("riley@example.test");
    await page.locator("#cs-register-fullName").fill("Riley Buyer");
    await page.locator("#cs-register-password").fill("s3cret-pass");
    await page.getByRole("button", { name: "Create account" }).click();
    // The contact step is complete: signing up opens the review, focus on its heading.
    await page.locator("#cs-heading", { hasText: /Review/ }).waitFor();
    assertEquals(await page.evaluate(() => document.activeElement?.id), "cs-heading");
    await expectToast(page, "Registration successful");
    assertMatch(await page.locator(".cs-review").innerText(), /\(512\) 555-0142/);

    // ---- Step 6: review and submit (no payment step).
    assertEquals((await page.getByTestId("review-total").innerText()).trim(), quoted);
    assertMatch(await page.locator(".cs-review__total").innerText(), /no payment step/i);
    await Promise.all([
      page.waitForURL(/\/client-dashboard$/),
      page.getByRole("button", { name: "Submit request" }).click(),
    ]);
    await expectToast(page, "Survey request submitted");

    // ---- The client dashboard shows the request at the quoted price.
    const card = page.locator(".survey-card").first();
    await card.waitFor();
    const surveyId = await card.getAttribute("data-survey-id");
    assert(surveyId);
    assertEquals((await card.getByTestId("quoted-price").innerText()).trim(), quoted);
    assertMatch(await card.locator(".badge").innerText(), /Requested/);
    await card.locator("summary", { hasText: "Price breakdown" }).click();
    assert(await card.locator(".cs-breakdown").isVisible());

    // ---- An admin signs in through /auth in a second browser context and moves it on.
    const admin = await createUser(t.sql, { role: "admin", fullName: "Avery Admin" });
    const adminContext = await browser.newContext({ baseURL: baseUrl });
    try {
      const adminPage = await adminContext.newPage();
      adminPage.on("pageerror", (err) => consoleErrors.push(`admin: ${err.message}`));
      // Filled once the form's island has hydrated (as in accounts_test.ts).
      await adminPage.goto("/auth");
      const identifier = adminPage.locator("#login-identifier");
      await waitForIsland(identifier);
      await identifier.fill(admin.email);
      await adminPage.locator("#login-password").fill(admin.password);
      await Promise.all([
        adminPage.waitForURL(/\/admin-dashboard/),
        adminPage.getByRole("button", { name: "Sign in", exact: true }).click(),
      ]);
      const row = adminPage.locator(`tr[data-survey-id="${surveyId}"]`);
      await row.waitFor();
      assertMatch(await row.innerText(), /Riley Buyer/);
      // Only legal next statuses are offered; requested cannot go back or stay.
      const options = await row.locator(`#status-${surveyId} option`).allInnerTexts();
      assert(!options.includes("Requested"), JSON.stringify(options));
      await adminPage.locator(".admin-surveys[data-hydrated]").waitFor();
      // Notifying surveyors and assigning one are actions, never a status picked by hand.
      assert(!options.includes("Surveyors notified"), JSON.stringify(options));
      assert(!options.includes("Surveyor assigned"), JSON.stringify(options));
      await row.locator(`#status-${surveyId}`).selectOption("scheduled");
      await row.getByRole("button", { name: "Update" }).click();
      await expectToast(adminPage, "Status updated");
      await row.locator(".badge", { hasText: "Scheduled" }).waitFor();
    } finally {
      await adminContext.close();
    }

    // ---- The client sees the new status and a notification in the bell.
    await page.reload();
    const updated = page.locator(`.survey-card[data-survey-id="${surveyId}"]`);
    await updated.locator(".badge", { hasText: "Scheduled" }).waitFor();
    assertMatch(await updated.locator('[aria-current="step"]').innerText(), /Scheduled/);
    const bell = page.getByRole("button", { name: /Notifications/ });
    await bell.waitFor();
    await page.waitForFunction(() =>
      /1 unread/.test(
        document.querySelector('button[aria-label^="Notifications"]')?.getAttribute("aria-label") ??
          "",
      )
    );
    await bell.click();
    const item = page.locator(".notifications a, .notifications li", {
      hasText: /Scheduled/i,
    }).first();
    await item.waitFor();

    assertEquals(consoleErrors, []);
  },
);
