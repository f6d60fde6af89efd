/**
 * Sign in with Google in Chromium, against the local fake Google (tests/_google_fake.ts): the
 * button on /auth at every width (no sideways scroll, axe-clean), used by keyboard; the same
 * link with JavaScript off; the request flow's account step, where the visitor comes back to
 * their draft signed in; and the linked account on /profile, removed with its button.
 */
import type { Page } from "playwright-core";
import { e2e } from "./_browser.ts";
import { axeViolations, LAYOUT_WIDTHS } from "./_axe.ts";
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { startFakeGoogle } from "../_google_fake.ts";
import { createUser } from "../_auth.ts";

/** Who the page's browser context is signed in as (GET /api/user with its cookies), or null. */
async function signedInAs(page: Page): Promise<{ email: string; fullName: string } | null> {
  const res = await page.request.get("/api/user");
  return res.ok() ? await res.json() : null;
}

async function checkLayout(page: Page, what: string) {
  for (const width of LAYOUT_WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(scrollWidth <= width, `${what} at ${width}px scrolls sideways (${scrollWidth}px)`);
    assertEquals(await axeViolations(page), [], `${what} at ${width}px`);
  }
}

// One fake serves every test in this file; it does not keep the process alive.
const google = startFakeGoogle();
google.unref();

e2e("Continue with Google on /auth: at every width, by keyboard, and with JavaScript off", async (
  { browser, baseUrl, newPage, consoleErrors },
) => {
  google.next = {
    sub: "e2e-g-1",
    email: "e2e.person@gmail.test",
    email_verified: true,
    name: "Erin Example",
  };
  const page = await newPage();
  await page.goto("/auth?returnTo=%2Fclient-dashboard");
  await page.locator("[data-island='AuthForm'] form").first().waitFor();
  const button = page.getByRole("link", { name: "Continue with Google" });
  await button.waitFor();
  await checkLayout(page, "/auth");
  await page.setViewportSize({ width: 390, height: 844 });
  await button.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(`${baseUrl}/client-dashboard`);
  await page.getByRole("heading", { name: "My surveys" }).waitFor();
  assertEquals((await signedInAs(page))?.fullName, "Erin Example");
  assertEquals(consoleErrors, []);

  // Without JavaScript the same link signs a second person in.
  google.next = { sub: "e2e-g-2", email: "nojs@gmail.test", email_verified: true, name: "No Js" };
  const context = await browser.newContext({ baseURL: baseUrl, javaScriptEnabled: false });
  const plain = await context.newPage();
  await plain.goto("/auth");
  await plain.getByRole("link", { name: "Continue with Google" }).click();
  await plain.waitForURL(`${baseUrl}/client-dashboard`);
  assertEquals((await signedInAs(plain))?.email, "nojs@gmail.test");
  await context.close();
}, { env: google.env });

e2e(
  "the request flow's account step: Google brings the visitor back to their draft, signed in",
  async (
    { baseUrl, newPage, consoleErrors },
  ) => {
    google.next = { sub: "e2e-g-3", email: "flow@gmail.test", email_verified: true, name: "Flo W" };
    const page = await newPage();
    // A visitor who has reached the contact and account step: the draft the flow keeps in the
    // tab's sessionStorage, there before the page's scripts run (and left alone afterwards, so
    // what the page finds on its return from Google is what it saved itself).
    const draft = {
      version: 1,
      step: 4,
      furthest: 4,
      answers: { address: "100 Main St, Austin, TX", contactPhone: "512-555-0100" },
      quote: null,
      requestId: crypto.randomUUID(),
      seedAddress: "",
    };
    await page.addInitScript((value) => {
      if (!sessionStorage.getItem("meridian:create-survey")) {
        sessionStorage.setItem("meridian:create-survey", value);
      }
    }, JSON.stringify(draft));
    await page.goto("/create-survey");
    const button = page.getByRole("link", { name: "Continue with Google" });
    await button.waitFor();
    await checkLayout(page, "/create-survey account step");
    await button.click();
    await page.waitForURL(`${baseUrl}/create-survey`);
    const account = page.locator(".cs-account");
    await account.getByText("Signed in as").waitFor();
    assertStringIncludes(await account.innerText(), "flow@gmail.test");
    assertEquals(await page.getByLabel("Phone").inputValue(), "512-555-0100");
    assertEquals(await page.getByRole("link", { name: "Continue with Google" }).count(), 0);
    assertEquals(consoleErrors, []);
  },
  { env: google.env },
);

e2e("/profile shows the linked Google account and removes it", async (
  { t, baseUrl, newPage, consoleErrors },
) => {
  const user = await createUser(t.sql, { role: "client", email: "linked@gmail.test" });
  google.next = { sub: "e2e-g-4", email: "linked@gmail.test", email_verified: true };
  const page = await newPage();
  await page.goto("/auth");
  await page.getByRole("link", { name: "Continue with Google" }).click();
  await page.waitForURL(`${baseUrl}/client-dashboard`);
  await page.goto("/profile");
  const card = page.locator("section", { hasText: "Google sign-in" });
  await card.getByText("linked@gmail.test").waitFor();
  await checkLayout(page, "/profile");
  await card.getByRole("button", { name: "Remove" }).click();
  await page.getByText("Google account removed").first().waitFor();
  await card.getByText("No Google account is linked any more").waitFor();
  const [row] = await t
    .sql`select count(*)::int as n from google_accounts where user_id = ${user.id}`;
  assertEquals(row.n, 0);
  assertEquals(consoleErrors, []);
}, { env: google.env });
