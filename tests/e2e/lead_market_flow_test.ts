/**
 * Issue 11's end-to-end run, the lead market from dispatch to the client's visit date: two
 * requests are dispatched by the job worker (as main.ts runs it) to two verified in-network
 * surveyors with a balance; surveyor A signs in, sees the first lead on /leads and on the map,
 * buys it after the confirmation and sees the client's contact unlocked; surveyor B claims the
 * second lead and is assigned at the client's quote; the admin assigns A to the first request
 * at an agreed price; A accepts and schedules the visit; the client signs in and sees A's
 * company, name and phone and the visit date on the dashboard and the request's page.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { e2e, startTestJobWorker, waitForIsland } from "./_browser.ts";
import { createUser, sessionFor, type TestUser } from "../_auth.ts";
import type { TestApp } from "../_helpers.ts";
import { surveyRequest } from "../_fixtures.ts";
import { addMarketSurveyor } from "../_lead_fixtures.ts";
import { earliestVisitDate } from "../../lib/assignments.ts";
import { formatCents } from "../../lib/quote_text.ts";
import { formatLeadPrice } from "../../lib/lead_pricing.ts";
import { formatDate } from "../../components/survey/format.ts";
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

/** Closes every toast shown, so the next wait sees only the next one. */
async function closeToasts(page: Page) {
  const close = page.locator(".toast__close");
  for (let n = await close.count(); n > 0; n = await close.count()) {
    await close.first().click();
    await page.waitForFunction(
      (before) => document.querySelectorAll(".toast__close").length < before,
      n,
    );
  }
}

/** Waits until `check` holds (polling the database; a bound only so a broken worker fails). */
async function waitUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A fresh browser context and page that report console and page errors. */
async function newSession(browser: Browser, baseUrl: string, errors: string[], who: string) {
  const context = await browser.newContext({ baseURL: baseUrl });
  const page = await context.newPage();
  page.on("pageerror", (err) => errors.push(`${who} ${page.url()}: ${err.message}`));
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`${who} ${page.url()}: ${msg.text()}`);
  });
  return { context, page };
}

/** Signs in through the form on /auth and waits for the role's landing page. */
async function signInWithForm(page: Page, email: string, password: string, landing: RegExp) {
  // Filled once the form's island has hydrated (as in accounts_test.ts).
  await page.goto("/auth");
  const identifier = page.locator("#login-identifier");
  await waitForIsland(identifier);
  await identifier.fill(email);
  await page.locator("#login-password").fill(password);
  await Promise.all([
    page.waitForURL(landing),
    page.getByRole("button", { name: "Sign in", exact: true }).click(),
  ]);
}

/** Adds a session cookie for `user` to the page's context (as after signing in). */
async function useSession(
  t: TestApp,
  page: Page,
  baseUrl: string,
  user: { id: string; role: Role },
) {
  const [name, value] = (await sessionFor(t, user)).split("=");
  await page.context().addCookies([{ name, value, url: baseUrl }]);
}

/** Submits a request as `client` over the API (same origin as the served app). */
async function submitRequest(
  t: TestApp,
  baseUrl: string,
  client: TestUser,
  overrides: Record<string, unknown>,
): Promise<string> {
  const res = await t.request("POST", "/api/surveys", {
    cookie: await sessionFor(t, client),
    body: surveyRequest({ contactName: client.fullName, contactEmail: client.email, ...overrides }),
    headers: { origin: baseUrl },
  });
  const body = await res.json();
  assertEquals(res.status, 201, JSON.stringify(body));
  return body.survey.id;
}

/** The island's visit day ("Tue, Mar 3, 2026"). */
const VISIT_DAY = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  weekday: "short",
  month: "short",
  day: "numeric",
  year: "numeric",
});

/** YYYY-MM-DD `days` after `date` (calendar days, UTC). */
function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

e2e(
  "lead market flow: a dispatched lead is bought and unlocked, another claimed and assigned at the quote; the admin assigns the buyer at an agreed price, who accepts and schedules; the client sees the surveyor and the date",
  async ({ t, baseUrl, browser, consoleErrors }) => {
    assertEquals(t.deps.config.AUTO_DISPATCH, true);
    // The worker as main.ts runs it (across instances: the servers' own workers).
    const stopJobs = startTestJobWorker(t);
    const contexts: { close(): Promise<void> }[] = [];
    try {
      // ---- Two verified in-network surveyors north of Austin, with credit on their ledgers.
      const a = await addMarketSurveyor(t, "Barton Creek Surveying", {
        miles: 5,
        balanceCents: 200_00,
        principalName: "Ada Barton",
        phone: "(512) 555-0142",
        licenseNumber: "6543",
      });
      const b = await addMarketSurveyor(t, "Round Rock Land Services", {
        miles: 12,
        balanceCents: 500_00,
        principalName: "Rory Rock",
        phone: "(512) 555-0199",
      });
      const [aUser] = await t.sql<{ email: string }[]>`
        select email from users where id = ${a.userId}`;

      // ---- Two clients' requests; the worker dispatches both by itself.
      const dana = await createUser(t.sql, {
        role: "client",
        fullName: "Dana Whitfield",
        phone: "(512) 555-0100",
      });
      const riley = await createUser(t.sql, { role: "client", fullName: "Riley Okonkwo" });
      const firstId = await submitRequest(t, baseUrl, dana, { contactPhone: "(512) 555-0100" });
      const secondId = await submitRequest(t, baseUrl, riley, {
        address: "200 E Main St, Round Rock, TX 78664",
        formattedAddress: "200 E Main St, Round Rock, TX 78664, USA",
        lat: 30.5083,
        lng: -97.6789,
        contactPhone: "(512) 555-0111",
      });
      await waitUntil(async () => {
        const rows = await t.sql<{ status: string }[]>`
          select status from surveys where id in (${firstId}, ${secondId})`;
        return rows.length === 2 && rows.every((r) => r.status === "surveyors_notified");
      }, "the automatic dispatch of both requests");
      const leads = await t.sql<
        { id: string; surveyId: string; priceCents: number; quotedPriceCents: number }[]
      >`
        select l.id, l.survey_id, l.price_cents, s.quoted_price_cents
        from leads l join surveys s on s.id = l.survey_id
        where l.survey_id in (${firstId}, ${secondId})`;
      const first = leads.find((l) => l.surveyId === firstId)!;
      const second = leads.find((l) => l.surveyId === secondId)!;
      assert(first && second, "both requests became leads");
      const offered = await t.sql<{ userId: string }[]>`
        select user_id from notifications
        where kind = 'lead_offered' and link = ${`/surveyor/leads/${first.id}`}
        order by user_id`;
      assertEquals(offered.map((n) => n.userId), [a.userId!, b.userId!].sort());

      // ---- Surveyor A signs in and sees the lead on the list and the map.
      const { context: aContext, page: aPage } = await newSession(
        browser,
        baseUrl,
        consoleErrors,
        "surveyor A",
      );
      contexts.push(aContext);
      await signInWithForm(aPage, aUser.email, "correct horse battery", /\/surveyor-dashboard$/);
      await aPage.goto("/leads");
      await aPage.locator(".available-leads[data-hydrated]").waitFor();
      const card = aPage.locator(`[data-lead-id="${first.id}"]`);
      assertMatch(await card.innerText(), /Boundary Survey in Austin, TX 78704/);
      assertMatch(await card.innerText(), /0 of 3 bought/);
      const price = formatLeadPrice(first.priceCents);
      assertEquals(await card.getByTestId("lead-price").innerText(), price);
      const map = aPage.locator('svg.us-map__svg[role="img"]');
      assertEquals(await map.locator(".us-map__mark--property use").count(), 2);
      assertEquals(await map.locator(".us-map__mark--office use").count(), 1);
      await aPage.locator("summary", { hasText: "Show the map's data as a table" }).click();
      await aPage.locator(`.us-map__data a[href="/surveyor/leads/${first.id}"]`).waitFor();
      const listHtml = await aPage.content();
      for (const secret of ["Whitfield", "555-0100", dana.email, "1200 Barton"]) {
        assert(!listHtml.includes(secret), `${secret} is not on /leads before buying`);
      }

      // ---- A opens it and buys it after the confirmation: the client's contact unlocks.
      await card.getByRole("link", { name: /Boundary Survey in Austin/ }).click();
      await aPage.waitForURL(`**/surveyor/leads/${first.id}`);
      await aPage.locator(".lead-actions[data-hydrated]").waitFor();
      assert(!(await aPage.content()).includes("Whitfield"), "no client name before buying");
      await aPage.getByRole("button", { name: `Buy lead · ${price}` }).click();
      const buyDialog = aPage.getByRole("dialog");
      await buyDialog.waitFor();
      assertEquals(await buyDialog.getByRole("heading").innerText(), `Buy this lead for ${price}?`);
      assertMatch(
        await buyDialog.innerText(),
        new RegExp(`Your balance after: \\${formatLeadPrice(200_00 - first.priceCents)}\\.`),
      );
      await buyDialog.getByRole("button", { name: "Buy lead" }).click();
      await aPage.waitForURL(`**/surveyor/purchased-leads/${first.id}`);
      const client = aPage.locator('section[aria-labelledby="client-title"]');
      assertEquals(await client.getByTestId("client-name").innerText(), "Dana Whitfield");
      assertMatch(await client.innerText(), /\(512\) 555-0100/);
      assertMatch(await client.innerText(), new RegExp(dana.email.replace(/\./g, "\\.")));
      assertMatch(await client.innerText(), /1200 Barton Springs Rd, Austin, TX 78704/);
      assertMatch(
        await aPage.locator('section[aria-labelledby="assignment-title"]').innerText(),
        /Not assigned yet/,
      );

      // ---- Surveyor B claims the second lead and is assigned at the client's quote.
      const { context: bContext, page: bPage } = await newSession(
        browser,
        baseUrl,
        consoleErrors,
        "surveyor B",
      );
      contexts.push(bContext);
      await useSession(t, bPage, baseUrl, { id: b.userId!, role: "surveyor" });
      await bPage.goto(`/surveyor/leads/${second.id}`);
      await bPage.locator(".lead-actions[data-hydrated]").waitFor();
      await bPage.getByRole("button", { name: /^Claim job · / }).click();
      const claimDialog = bPage.getByRole("dialog");
      await claimDialog.waitFor();
      const quote = formatLeadPrice(second.quotedPriceCents);
      assertEquals(
        await claimDialog.getByRole("heading").innerText(),
        `Claim this job at the client's quote of ${quote}?`,
      );
      await claimDialog.getByRole("button", { name: "Claim job" }).click();
      await bPage.waitForURL(`**/surveyor/purchased-leads/${second.id}`);
      const bAssignment = bPage.locator('section[aria-labelledby="assignment-title"]');
      const bStatus = bAssignment.locator(".assignment-actions__status");
      await bStatus.waitFor();
      assertEquals((await bStatus.locator(".badge").innerText()).trim(), "Accepted");
      assertMatch(
        await bStatus.innerText(),
        new RegExp(`Agreed price \\${formatCents(second.quotedPriceCents)}`),
      );
      assertMatch(await bAssignment.innerText(), /When you claimed the lead/);
      const [claimed] = await t.sql<
        { status: string; agreedPriceCents: number; surveyStatus: string; leadStatus: string }[]
      >`
        select a.status, a.agreed_price_cents, s.status as survey_status, l.status as lead_status
        from survey_assignments a join surveys s on s.id = a.survey_id
        join leads l on l.survey_id = s.id
        where a.survey_id = ${secondId} and a.surveyor_id = ${b.surveyor.id}`;
      assertEquals(claimed, {
        status: "accepted",
        agreedPriceCents: second.quotedPriceCents,
        surveyStatus: "assigned",
        leadStatus: "closed",
      });

      // ---- The admin opens the first request and assigns A at an agreed price.
      const admin = await createUser(t.sql, { role: "admin" });
      const { context: adminContext, page: adminPage } = await newSession(
        browser,
        baseUrl,
        consoleErrors,
        "admin",
      );
      contexts.push(adminContext);
      await useSession(t, adminPage, baseUrl, admin);
      await adminPage.goto(`/survey/${firstId}`);
      const assign = adminPage.locator(".assign-surveyor[data-hydrated]");
      await assign.waitFor();
      assertEquals(
        (await assign.locator(".assign-surveyor__current").innerText()).trim(),
        "Nobody is assigned yet.",
      );
      const surveyorSelect = assign.getByLabel("Surveyor", { exact: true });
      assertEquals(
        await surveyorSelect.locator(`option[value="${a.surveyor.id}"]`).innerText(),
        "Barton Creek Surveying (Bought the lead)",
      );
      await surveyorSelect.selectOption(a.surveyor.id);
      await assign.getByLabel("Agreed price (USD)").fill("875.50");
      await assign.getByRole("button", { name: "Assign surveyor" }).click();
      assertEquals(await toastText(adminPage, "Surveyor assigned"), {
        title: "Surveyor assigned",
        description:
          "Barton Creek Surveying at $875.50: offered the job, waiting for them to accept.",
      });
      assertMatch(
        await assign.locator(".assign-surveyor__current").innerText(),
        /Barton Creek Surveying · \$875\.50 · Surveyor offered the job — waiting for them to accept/,
      );

      // ---- A accepts on the purchased lead's page, then schedules the visit.
      await aPage.reload();
      const actions = aPage.locator(".assignment-actions[data-hydrated]");
      await actions.waitFor();
      const aStatus = actions.locator(".assignment-actions__status");
      assertEquals((await aStatus.locator(".badge").innerText()).trim(), "Offered");
      assertMatch(await aStatus.innerText(), /Agreed price \$875\.50/);
      await actions.getByRole("button", { name: "Accept" }).click();
      assertEquals(await toastText(aPage, "Assignment updated"), {
        title: "Assignment updated",
        description: "You accepted the job.",
      });
      await aStatus.locator(".badge", { hasText: "Accepted" }).waitFor();
      await closeToasts(aPage);
      const visit = addDays(earliestVisitDate(), 10);
      await actions.getByLabel("Visit date").fill(visit);
      await actions.getByRole("button", { name: "Schedule visit" }).click();
      assertEquals(await toastText(aPage, "Assignment updated"), {
        title: "Assignment updated",
        description: `Visit scheduled for ${VISIT_DAY.format(new Date(`${visit}T00:00:00Z`))}.`,
      });
      await aStatus.locator(".badge", { hasText: "Scheduled" }).waitFor();
      const [firstNow] = await t.sql<
        { status: string; scheduledDate: string; surveyStatus: string; agreedPriceCents: number }[]
      >`
        select a.status, a.scheduled_date::text as scheduled_date, s.status as survey_status,
          a.agreed_price_cents
        from survey_assignments a join surveys s on s.id = a.survey_id
        where a.survey_id = ${firstId} and a.surveyor_id = ${a.surveyor.id}`;
      assertEquals(firstNow, {
        status: "scheduled",
        scheduledDate: visit,
        surveyStatus: "scheduled",
        agreedPriceCents: 875_50,
      });

      // ---- The client signs in and sees the surveyor and the visit date.
      const { context: clientContext, page: clientPage } = await newSession(
        browser,
        baseUrl,
        consoleErrors,
        "client",
      );
      contexts.push(clientContext);
      await signInWithForm(clientPage, dana.email, dana.password, /\/client-dashboard$/);
      const surveyCard = clientPage.locator(`.survey-card[data-survey-id="${firstId}"]`);
      await surveyCard.waitFor();
      const expectSurveyor = (where: string, text: string) => {
        for (
          const shown of [
            "Barton Creek Surveying",
            "Ada Barton",
            "(512) 555-0142",
            "Agreed price $875.50",
            formatDate(visit),
          ]
        ) {
          assert(text.includes(shown), `${where} shows ${shown}: ${text}`);
        }
      };
      expectSurveyor("the dashboard card", await surveyCard.innerText());
      await surveyCard.getByRole("link", { name: /View details/ }).click();
      await clientPage.waitForURL(`**/survey/${firstId}`);
      const progress = clientPage.locator('section[aria-labelledby="progress-title"]');
      expectSurveyor("the request's page", await progress.innerText());
      assertEquals(
        await progress.locator(".surveyor-contact").getAttribute("data-assignment"),
        "scheduled",
      );
    } finally {
      for (const context of contexts) await context.close();
      await stopJobs();
    }
    assertEquals(consoleErrors, []);
  },
  // Across instances it is off unless asked for (tests/e2e/_browser.ts).
  { env: { AUTO_DISPATCH: "1" } },
);
