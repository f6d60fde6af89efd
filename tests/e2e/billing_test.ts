import type { Browser } from "playwright-core";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { checkLayout } from "./_axe.ts";
import { createUser, sessionFor } from "../_auth.ts";
import type { TestApp } from "../_helpers.ts";
import {
  checkoutEvent,
  FAKE_STRIPE_KEY,
  FAKE_WEBHOOK_SECRET,
  signPayload,
  startFakeStripe,
} from "../_stripe_fake.ts";
import { insertSurveyor } from "../../db/surveyors.ts";
import type { Role } from "../../lib/roles.ts";
import { TOP_UPS_DISABLED_MESSAGE } from "../../lib/billing.ts";
import { TOP_UP_PENDING_TEXT } from "../../routes/billing_pages.tsx";

/** At every width: no sideways page scroll and no axe violations. */
async function signedInPage(
  browser: Browser,
  baseUrl: string,
  t: TestApp,
  user: { id: string; role: Role },
  consoleErrors: string[],
) {
  const context = await browser.newContext({ baseURL: baseUrl });
  const [name, value] = (await sessionFor(t, user)).split("=");
  await context.addCookies([{ name, value, url: baseUrl }]);
  const page = await context.newPage();
  page.on("pageerror", (err) => consoleErrors.push(`${page.url()}: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") consoleErrors.push(`${page.url()}: ${msg.text()}`);
  });
  return { page, close: () => context.close() };
}

e2e(
  "billing without Stripe: an admin adds credit from the surveyor's record; the surveyor sees it and how to get more",
  async ({ t, baseUrl, browser, consoleErrors }) => {
    const surveyorUser = await createUser(t.sql, { role: "surveyor" });
    const record = await insertSurveyor(t.sql, {
      companyName: "Ortiz Land Surveying and Mapping of Central Texas LLC",
      userId: surveyorUser.id,
      status: "active",
    });
    const admin = await createUser(t.sql, { role: "admin", fullName: "Alex Admin" });

    const adminView = await signedInPage(browser, baseUrl, t, admin, consoleErrors);
    try {
      const page = adminView.page;
      await page.goto(`/surveyor-detail/${record.id}`);
      const card = page.locator("section", { has: page.locator("#surveyor-balance-title") });
      await card.scrollIntoViewIfNeeded();
      await card.locator(".billing-admin").waitFor();
      await card.locator(".billing-admin[data-hydrated]").waitFor();
      await card.getByLabel("Amount (US dollars)").fill("120");
      await card.getByLabel(/^Note/).fill("Paid by check #1042, thank you for joining");
      await card.getByRole("button", { name: "Add credit" }).click();
      await page.locator(".toast", { hasText: "Added $120 to the balance" }).waitFor();
      assertEquals(await card.locator(".billing-balance__value").innerText(), "$120");
      // Reloaded without the toast (whose own axe findings belong to the Toaster island).
      await page.reload();
      await card.locator(".billing-admin[data-hydrated]").waitFor();
      assertEquals(await card.locator(".billing-balance__value").innerText(), "$120");
      await checkLayout(page, "the surveyor record with its Balance card");
    } finally {
      await adminView.close();
    }

    const surveyorView = await signedInPage(browser, baseUrl, t, surveyorUser, consoleErrors);
    try {
      const page = surveyorView.page;
      await page.goto("/surveyor/billing");
      assertEquals(await page.locator(".billing-balance__value").innerText(), "$120");
      assertStringIncludes(await page.locator("main").innerText(), TOP_UPS_DISABLED_MESSAGE);
      const history = page.getByRole("table");
      assertStringIncludes(await history.innerText(), "Paid by check #1042");
      assertStringIncludes(await history.innerText(), "+$120");
      assertEquals(
        await page.getByRole("link", { name: "Billing" }).first().getAttribute("aria-current"),
        "page",
      );
      await checkLayout(page, "/surveyor/billing without Stripe");
    } finally {
      await surveyorView.close();
    }
    assertEquals(consoleErrors, []);
  },
);

const fake = startFakeStripe();

e2e(
  "billing with Stripe: a surveyor picks an amount, goes to Stripe, and comes back to an honest 'pending' until the webhook credits",
  async ({ t, baseUrl, browser, consoleErrors }) => {
    try {
      const surveyorUser = await createUser(t.sql, { role: "surveyor" });
      const record = await insertSurveyor(t.sql, {
        companyName: "Ortiz Land Surveying",
        userId: surveyorUser.id,
        status: "active",
      });
      const view = await signedInPage(browser, baseUrl, t, surveyorUser, consoleErrors);
      try {
        const page = view.page;
        // Stripe's hosted page is not reachable from here: answer it as Stripe would after
        // a payment, by sending the payer back to the success URL.
        let successUrl = "";
        await page.route("https://checkout.stripe.com/**", (route) =>
          route.fulfill({
            status: 302,
            headers: {
              location: successUrl.replace(
                "{CHECKOUT_SESSION_ID}",
                new URL(route.request().url()).pathname.split("/").pop()!,
              ),
            },
          }));
        await page.goto("/surveyor/billing");
        await page.locator(".billing-topup button[data-hydrated]").waitFor();
        await checkLayout(page, "/surveyor/billing with Stripe");
        await page.getByLabel("$250").check();
        successUrl = `${baseUrl}/surveyor/billing?topup=success&session_id={CHECKOUT_SESSION_ID}`;
        await page.getByRole("button", { name: "Continue to payment" }).click();
        await page.waitForURL(/topup=success/);
        assertStringIncludes(await page.locator("main").innerText(), TOP_UP_PENDING_TEXT);
        assertEquals(await page.locator(".billing-balance__value").innerText(), "$0");
        const sessionId = new URL(page.url()).searchParams.get("session_id")!;
        assert(sessionId.startsWith("cs_test_"), sessionId);
        assertEquals(fake.requests.at(-1)?.form["line_items[0][price_data][unit_amount]"], "25000");

        // Stripe's webhook arrives; a reload shows the credit.
        const body = checkoutEvent({
          type: "checkout.session.completed",
          sessionId,
          amountCents: 25_000,
          surveyorId: record.id,
        });
        const res = await fetch(`${baseUrl}/api/stripe/webhook`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "stripe-signature": await signPayload(body),
          },
          body,
        });
        assertEquals(res.status, 200);
        assertEquals((await res.json()).outcome, "credited");
        await page.reload();
        assertStringIncludes(
          await page.locator("main").innerText(),
          "Payment received — $250 was added to your balance.",
        );
        assertEquals(await page.locator(".billing-balance__value").innerText(), "$250");
        await checkLayout(page, "/surveyor/billing after a top-up");
      } finally {
        await view.close();
      }
      assertEquals(consoleErrors, []);
    } finally {
      await fake.close();
    }
  },
  {
    env: {
      STRIPE_SECRET_KEY: FAKE_STRIPE_KEY,
      STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET,
      STRIPE_API_BASE: fake.url,
    },
  },
);
