/**
 * Issue 10's end-to-end run: on the seeded demo network, with AUTO_DISPATCH on and the job
 * worker running as main.ts runs it, a client submits a request in the browser; within
 * seconds the nearby in-network demo surveyors with accounts have the lead in their bell; the
 * admin opens the request, sees the matches on the map, finds again (the stored result) and
 * notifies (nobody new: the automatic dispatch already did), with the spec's toasts.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals } from "../_assert.ts";
import { e2e, startTestJobWorker } from "./_browser.ts";
import { createUser, sessionFor } from "../_auth.ts";
import type { TestApp } from "../_helpers.ts";
import { runSeedCli } from "../../lib/cli/seed.ts";
import { LEAD_OFFERED_TITLE, surveyorLeadPath } from "../../lib/dispatch.ts";
import { notifiedToastText } from "../../lib/dispatch_text.ts";
import { cachedToastText } from "../../islands/_dispatch.ts";
import { METERS_PER_MILE } from "../../lib/matching.ts";
import type { NearbySurveyorInfo } from "../../lib/surveyor_schema.ts";
import type { Role } from "../../lib/roles.ts";

/** Waits for the toast titled `title` and returns its title and description. */
async function toastText(page: Page, title: string) {
  const toast = page.locator(".toast", { hasText: title }).first();
  await toast.waitFor({ state: "visible" });
  return {
    title: (await toast.locator(".toast__title").innerText()).trim(),
    description: (await toast.locator(".toast__description").innerText()).trim(),
  };
}

/** Waits until `check` holds (polling the database; a bound only so a broken worker fails). */
async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A browser context signed in as `user` (a session cookie, as after signing in). */
async function signedIn(
  t: TestApp,
  browser: Browser,
  baseUrl: string,
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
  return { context, page };
}

async function continueStep(page: Page, nextHeading: RegExp) {
  await page.locator('button[form="cs-form"]').click();
  await page.locator("#cs-heading", { hasText: nextHeading }).waitFor();
}

e2e(
  "dispatch flow: a request on the demo network reaches the nearby surveyors by itself; the admin sees the matches, finds the stored result and notifies nobody twice",
  async ({ t, baseUrl, browser, consoleErrors }) => {
    // ---- The demo network, and the worker as main.ts starts it.
    const lines: string[] = [];
    const code = await runSeedCli(["--demo"], {
      sql: t.sql,
      output: { out: (l) => lines.push(l), err: (l) => lines.push(l) },
    });
    assertEquals(code, 0, lines.join("\n"));
    assertEquals(t.deps.config.AUTO_DISPATCH, true);
    const stopJobs = startTestJobWorker(t);
    const contexts: { close(): Promise<void> }[] = [];
    try {
      // A demo firm with an account that does boundary surveys: the request goes to its town.
      const [firm] = await t.sql<
        { userId: string; companyName: string; city: string; state: string; zip: string }[]
      >`
        select s.user_id, s.company_name, s.city, s.state, s.zip from surveyors s
        join users u on u.id = s.user_id and u.is_demo and u.disabled_at is null
        where s.in_network and s.status = 'active' and 'boundary' = any(s.survey_types)
          and s.state = any(s.license_states) and s.zip is not null
        order by s.company_name limit 1`;
      assert(firm, "the demo network has an in-network boundary firm with an account");

      // ---- The client submits the request in the browser.
      const client = await createUser(t.sql, { role: "client", fullName: "Casey Client" });
      const { context: clientContext, page } = await signedIn(
        t,
        browser,
        baseUrl,
        client,
        consoleErrors,
      );
      contexts.push(clientContext);
      const address = `250 Main St, ${firm.city}, ${firm.state} ${firm.zip}`;
      await page.goto(`/create-survey?address=${encodeURIComponent(address)}`);
      await page.locator(".cs-confirm").waitFor();
      await continueStep(page, /Survey type/);
      await page.getByRole("button", { name: "Selling the property" }).click();
      assert(await page.locator('input[name="cs-surveyType"][value="boundary"]').isChecked());
      await continueStep(page, /Property details/);
      await page.locator("#cs-propertyType").selectOption("residential");
      await page.locator("#cs-acreage").fill("0.5");
      await page.locator('input[name="cs-terrain"][value="rolling"]').check();
      await page.locator('input[name="cs-vegetation"][value="light"]').check();
      await page.locator("#cs-cornersToSet").fill("2");
      await page.locator('input[name="cs-cornersKnown"][value="no"]').check();
      await continueStep(page, /Your quote/);
      await page.getByTestId("quote-total").waitFor();
      await continueStep(page, /Contact/);
      await page.locator("#cs-contactName").fill("Casey Client");
      await page.locator("#cs-contactPhone").fill("(512) 555-0177");
      await continueStep(page, /Review/);
      await Promise.all([
        page.waitForURL(/\/client-dashboard$/),
        page.getByRole("button", { name: "Submit request" }).click(),
      ]);
      assertEquals(
        await toastText(page, "Survey request submitted").then((x) => x.title),
        "Survey request submitted",
      );
      const surveyId = await page.locator(".survey-card").first().getAttribute("data-survey-id");
      assert(surveyId);

      // ---- Within seconds, by itself: matched, notified, status moved.
      await waitUntil(async () => {
        const [row] = await t.sql<{ status: string }[]>`
          select status from surveys where id = ${surveyId}`;
        return row.status === "surveyors_notified";
      }, "the automatic dispatch");
      const [survey] = await t.sql<
        { lat: number; lng: number; state: string; nearbySurveyors: NearbySurveyorInfo[] }[]
      >`select lat, lng, state, nearby_surveyors from surveys where id = ${surveyId}`;
      const [lead] = await t.sql<{ id: string; priceCents: number }[]>`
        select id, price_cents from leads where survey_id = ${surveyId}`;
      // Everyone in the network covering the property, worked out here on its own.
      const covering = await t.sql<{ userId: string | null }[]>`
        select s.user_id from surveyors s
        where s.in_network and s.status = 'active' and ${survey.state} = any(s.license_states)
          and 'boundary' = any(s.survey_types) and s.lat is not null
          and geo_distance_m(geo_point(s.lat, s.lng),
            geo_point(${survey.lat}::float8, ${survey.lng}::float8))
            <= s.service_radius_miles * ${METERS_PER_MILE}::float8`;
      assert(covering.length <= 25, "few enough that every match is notified");
      const accounts = covering.flatMap((c) => c.userId ? [c.userId] : []).sort();
      assert(accounts.includes(firm.userId));
      const offered = await t.sql<{ userId: string }[]>`
        select user_id from notifications
        where kind = 'lead_offered' and link = ${surveyorLeadPath(lead.id)} order by user_id`;
      assertEquals(offered.map((n) => n.userId), accounts);

      // The firm's surveyor sees it in the bell.
      const { context: surveyorContext, page: surveyorPage } = await signedIn(
        t,
        browser,
        baseUrl,
        { id: firm.userId, role: "surveyor" },
        consoleErrors,
      );
      contexts.push(surveyorContext);
      await surveyorPage.goto("/profile");
      const bell = surveyorPage.getByRole("button", { name: /^Notifications, \d+ unread$/ });
      await bell.waitFor();
      await bell.click();
      await surveyorPage.locator(".notifications li", { hasText: LEAD_OFFERED_TITLE }).first()
        .waitFor();

      // ---- The admin opens the request: the matches on the map and in the panel.
      const admin = await createUser(t.sql, { role: "admin" });
      const { context: adminContext, page: adminPage } = await signedIn(
        t,
        browser,
        baseUrl,
        admin,
        consoleErrors,
      );
      contexts.push(adminContext);
      await adminPage.goto(`/survey/${surveyId}`);
      const stored = survey.nearbySurveyors;
      const map = adminPage.locator('svg.us-map__svg[role="img"]');
      await map.waitFor();
      assertEquals(await map.locator(".us-map__mark--property use").count(), 1);
      assertEquals(
        await map.locator(".us-map__mark--in_network use").count(),
        stored.filter((s) => s.inNetwork).length,
      );
      await adminPage.locator(".dispatch[data-hydrated]").waitFor();
      const rows = adminPage.locator(".dispatch__table tbody tr");
      assertEquals(await rows.count(), stored.length);
      await rows.filter({ hasText: firm.companyName }).first().waitFor();
      assertEquals(
        await rows.filter({ hasText: firm.companyName }).first()
          .locator('[data-label="Notified"]').innerText(),
        "Yes",
      );

      // Find again: the stored result, said as such.
      await adminPage.getByRole("button", { name: "Find surveyors" }).click();
      assertEquals(await toastText(adminPage, "Using existing surveyors"), {
        title: "Using existing surveyors",
        description: cachedToastText(stored.length),
      });

      // Notify: everyone was already offered the lead, and the toast says so.
      await adminPage.locator(".toast__close").first().click();
      await adminPage.getByRole("button", { name: "Notify surveyors" }).click();
      assertEquals(await toastText(adminPage, "Surveyors notified"), {
        title: "Surveyors notified",
        description: notifiedToastText({ notified: 0, leadPrice: lead.priceCents / 100 }),
      });
      const [again] = await t.sql<{ n: number }[]>`
        select count(*)::int as n from notifications
        where kind = 'lead_offered' and link = ${surveyorLeadPath(lead.id)}`;
      assertEquals(again.n, accounts.length, "nobody is notified twice");
    } finally {
      for (const context of contexts) await context.close();
      await stopJobs();
    }
    assertEquals(consoleErrors, []);
  },
  // Across instances it is off unless asked for (tests/e2e/_browser.ts).
  { env: { AUTO_DISPATCH: "1" } },
);
