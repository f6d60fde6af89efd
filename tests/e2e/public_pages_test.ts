import type { Page, Request as PwRequest } from "playwright-core";
import { assert, assertEquals } from "../_assert.ts";
import { e2e } from "./_browser.ts";
import { PUBLIC_PAGES } from "../../lib/public_pages.ts";
import { REDIRECTS } from "../../routes/redirects.ts";
import { listContactMessages } from "../../db/contact_messages.ts";

e2e("the landing page renders every section", async ({ newPage, consoleErrors }) => {
  const page = await newPage();
  const res = await page.goto("/");
  assertEquals(res?.status(), 200);
  assertEquals(await page.locator("h1").count(), 1);
  assert(await page.getByRole("link", { name: "Login / Register" }).isVisible());
  assertEquals(
    await page.getByRole("link", { name: /Get Free Quote Now/ }).getAttribute("href"),
    "/create-survey",
  );
  const stats = (await page.locator(".stats__item").allInnerTexts()).map((s) =>
    s.replace(/\s+/g, " ").trim()
  );
  assertEquals(stats, [
    "50,000+ properties",
    "1,200+ surveyors",
    "4.9 average rating",
    "48 hrs average response",
  ]);
  assertEquals(await page.locator(".value-card").count(), 3);
  assertEquals(await page.locator("#how-it-works .steps__item").count(), 4);
  assertEquals(await page.locator(".service-card").count(), 6);
  assertEquals(await page.locator(".testimonial").count(), 3);
  assertEquals(await page.locator('[data-island="QuoteForm"]').count(), 2);
  assertEquals(await page.locator('[data-island="QuoteForm"] input').count() >= 2, true);
  // The spec's eight footer links, then "For Surveyors" (issue 22: firms join by themselves).
  assertEquals(await page.locator("footer a").count(), 9);
  assertEquals(await page.locator('footer a[href="/for-surveyors"]').innerText(), "For Surveyors");
  assertEquals(await page.locator('footer a[href="/auth"]').innerText(), "Surveyor Login");
  const scripts = await page.evaluate(() =>
    performance.getEntriesByType("resource").map((e) => e.name).filter((n) => n.endsWith(".js"))
  );
  assert(scripts.every((s) => !/ContactForm/.test(s)), `landing loaded ${scripts.join(", ")}`);
  assertEquals(consoleErrors, []);
});

e2e("'How It Works' scrolls to its section", async ({ newPage, consoleErrors }) => {
  const page = await newPage();
  await page.goto("/");
  await page.getByRole("link", { name: "How It Works", exact: true }).first().click();
  await page.waitForFunction(() => {
    const top = document.getElementById("how-it-works")!.getBoundingClientRect().top;
    return top >= 0 && top < 200;
  });
  assert(page.url().endsWith("#how-it-works"));
  assert(await page.getByRole("heading", { name: "How It Works" }).isVisible());
  assertEquals(consoleErrors, []);
});

/**
 * Until every island the page hydrates by itself is live (islands/_boot.ts marks it
 * `data-hydrated`): those hydrated on load or when idle, and those hydrated when visible that are
 * within the runtime's 200 px of the screen; not those waiting for a visitor's touch. An island
 * that fails to load is never marked: the failure names it, with the console's errors.
 */
async function waitForOwnIslands(page: Page, path: string, consoleErrors: string[]) {
  const pending = () =>
    page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>("[data-island]:not([data-hydrated])"))
        .filter((el) => {
          const mode = el.dataset.hydrate;
          if (mode === "interaction") return false;
          if (mode !== "visible") return true;
          return Array.from(el.children).some((child) => {
            const box = child.getBoundingClientRect();
            return (box.width > 0 || box.height > 0) && box.bottom >= -200 &&
              box.top <= innerHeight + 200 && box.right >= -200 && box.left <= innerWidth + 200;
          });
        })
        .map((el) => el.dataset.island)
    );
  const deadline = Date.now() + 30_000;
  let left = await pending();
  while (left.length && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    left = await pending();
  }
  assertEquals(left, [], `${path}: islands not hydrated; console: ${consoleErrors.join("; ")}`);
}

e2e("every public page answers 200 with no console errors", async ({ newPage, consoleErrors }) => {
  const page = await newPage();
  for (const path of PUBLIC_PAGES) {
    const res = await page.goto(path);
    assertEquals(res?.status(), 200, path);
    assertEquals(await page.locator("h1").count(), 1, path);
    // Let the islands hydrate so their errors, if any, are caught.
    await waitForOwnIslands(page, path, consoleErrors);
  }
  assertEquals(consoleErrors, []);
});

e2e("every spec redirect lands on its target page", async ({ newPage, baseUrl }) => {
  const page = await newPage();
  for (const [from, to] of Object.entries(REDIRECTS)) {
    const res = await page.goto(from);
    assert(res, from);
    // The request chain the browser followed, first hop first.
    const chain: string[] = [];
    let req: PwRequest | null = res.request();
    while (req) {
      chain.unshift(new URL(req.url()).pathname);
      req = req.redirectedFrom();
    }
    assertEquals(chain[0], from, `${from} starts the chain`);
    assertEquals(chain[1], to, `${from} redirects to ${to}`);
    if (PUBLIC_PAGES.includes(to as never)) {
      assertEquals(res.status(), 200, from);
      assertEquals(page.url(), `${baseUrl}${to}`, from);
    }
  }
});

e2e("an unknown path shows '404 Page Not Found' with a way home", async ({ newPage }) => {
  const page = await newPage();
  const res = await page.goto("/no/such/survey");
  assertEquals(res?.status(), 404);
  assertEquals(await page.locator("h1").innerText(), "404 Page Not Found");
  await page.getByRole("link", { name: "Back to home" }).click();
  await page.waitForURL((url) => url.pathname === "/");
  assertEquals(await page.locator(".service-card").count(), 6);
});

e2e(
  "the contact form checks fields, submits and shows success",
  async ({ newPage, t, consoleErrors }) => {
    const page = await newPage();
    await page.goto("/support/contact");
    const send = page.getByRole("button", { name: "Send message" });
    await send.click();
    assert(await page.getByText("Please enter your name").isVisible());
    assertEquals(
      await page.getByLabel("Your name", { exact: true }).getAttribute("aria-invalid"),
      "true",
    );
    await page.getByLabel("Your name", { exact: true }).fill("Karen Mitchell");
    await page.getByLabel("Email", { exact: true }).fill("karen@example.com");
    await page.getByLabel("Topic", { exact: true }).selectOption("quote");
    await page.getByLabel("Message", { exact: true }).fill(
      "Do you cover rural parcels in Buncombe County, NC?",
    );
    assertEquals(await page.getByText("Please enter your name").count(), 0);
    await send.click();
    const status = page.getByRole("status");
    await status.waitFor();
    assert((await status.innerText()).includes("Thanks — we'll reply within one business day."));
    const rows = await listContactMessages(t.sql);
    assertEquals(rows.length, 1);
    assertEquals([rows[0].name, rows[0].topic, rows[0].phone], ["Karen Mitchell", "quote", null]);
    assertEquals(consoleErrors, []);
  },
);

e2e("on a phone the header menu opens with the main links", async ({ browser, baseUrl }) => {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 390, height: 800 },
  });
  try {
    const page = await context.newPage();
    await page.goto("/");
    const desktopNav = page.getByRole("navigation", { name: "Main", exact: true });
    assertEquals(await desktopNav.isVisible(), false);
    await page.locator(".site-menu__toggle").click();
    const menu = page.getByRole("navigation", { name: "Main menu" });
    assert(await menu.getByRole("link", { name: "About" }).isVisible());
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 390, `page is ${width}px wide on a 390px screen`);
  } finally {
    await context.close();
  }
});
