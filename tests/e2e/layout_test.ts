/**
 * Layout at the widths people use (390 px phone, 1024, 1280 and 1440 px): every public page
 * and every signed-in page of each role, measured in a real browser. One server and one
 * browser for the whole sweep; each check returns what it found wrong, so a failure lists every
 * page and width at once.
 */
import type { Browser, Page } from "playwright-core";
import { assert, assertEquals, assertMatch } from "../_assert.ts";
import { e2e, waitForIsland } from "./_browser.ts";
import { axeViolations } from "./_axe.ts";
import { createUser, sessionFor, type TestUser } from "../_auth.ts";
import { surveyRequest } from "../_fixtures.ts";
import type { TestApp } from "../_helpers.ts";
import { insertNotification } from "../../db/notifications.ts";
import { addContactHistory, insertSurveyor } from "../../db/surveyors.ts";
import { insertLead } from "../../db/leads.ts";
import { postLedgerEntry } from "../../db/ledger.ts";
import { getActivePricingConfig } from "../../db/pricing.ts";
import { priceLead } from "../../lib/lead_pricing.ts";
import { instantiateChecklist } from "../../db/checklists.ts";
import { surveyorJobPath } from "../../lib/assignments.ts";
import { ROLE_NAV } from "../../components/AppLayout.tsx";
import { DRAFT_KEY } from "../../islands/_create_survey/storage.ts";
import type { Role } from "../../lib/roles.ts";

const WIDTHS = [390, 1024, 1280, 1440] as const;
const HEIGHT = 800;

const PUBLIC_PAGES = [
  "/",
  "/about",
  "/support/help-center",
  "/support/contact",
  "/services/boundary-surveys",
  "/create-survey",
  "/auth",
  "/forgot-password",
];

/** Pages whose accessibility this work fixed or built: axe must find nothing there. */
const AXE_PAGES: Partial<Record<Role | "public", (string | RegExp)[]>> = {
  public: ["/", "/about", "/support/help-center", "/create-survey", "/forgot-password"],
  // A request's page: the admin's has the dispatch panel and map.
  admin: [
    "/admin-dashboard",
    "/admin?tab=users",
    "/surveyors",
    "/pricing-algorithm",
    /^\/survey\//,
    /^\/surveyor-detail\//,
  ],
  // The available leads (list and map) and one lead with its actions; the dashboard, the
  // purchased leads and one of them (pipeline form, assignment actions, return form).
  surveyor: [
    "/leads",
    /^\/surveyor\/leads\//,
    "/surveyor-dashboard",
    "/surveyor/purchased-leads",
    /^\/surveyor\/purchased-leads\//,
  ],
};
const AXE_WIDTHS = new Set([390, 1280]);

/** Long names, company and phone: the content that stretches headers and tables. */
async function seed(t: TestApp, baseUrl: string) {
  const users = {} as Record<Role, TestUser>;
  for (const role of ["admin", "client", "surveyor", "technician"] as const) {
    users[role] = await createUser(t.sql, {
      role,
      fullName: `Alexandra ${role[0].toUpperCase()}${role.slice(1)} Montgomery-Whitfield`,
      companyName: "Montgomery Whitfield Land Surveying LLC",
      phone: "(512) 555-0100",
    });
  }
  await createUser(t.sql, {
    role: "surveyor",
    fullName: "Bob Surveyor",
    email: "a.very.long.surveyor.address@montgomery-whitfield-land-surveying.example.com",
  });
  // Through the API, from the origin the served app believes it is (its CSRF check).
  const res = await t.request("POST", "/api/surveys", {
    cookie: await sessionFor(t, users.client),
    body: surveyRequest(),
    headers: { origin: baseUrl },
  });
  const { survey } = await res.json();
  assertEquals(res.status, 201);
  // A surveyor record with long names, contacts and a logged call, for its page.
  const surveyor = await insertSurveyor(t.sql, {
    companyName: "Montgomery Whitfield Land Surveying and Geospatial Services LLC",
    principalName: "Alexandra Montgomery-Whitfield",
    city: "Austin",
    state: "TX",
    lat: 30.27,
    lng: -97.74,
    surveyTypes: ["boundary", "alta", "elevation_certificate"],
    licenseStates: ["TX", "OK"],
    inNetwork: true,
    status: "active",
    contacts: [{
      name: "Alexandra Montgomery-Whitfield",
      title: "Principal surveyor",
      email: "a.very.long.surveyor.address@montgomery-whitfield-land-surveying.example.com",
      phone: "(512) 555-0100",
      isPrimary: true,
    }],
  });
  await addContactHistory(t.sql, {
    surveyorId: surveyor.id,
    authorId: users.admin.id,
    entry: { channel: "call", summary: "Agreed to take boundary work in Travis County." },
  });
  // It is the surveyor's own record (licence checked), and the request is a lead it may take:
  // /leads lists it and the lead's page is measured.
  await t.sql`
    update surveyors set user_id = ${users.surveyor.id}, verified_at = now()
    where id = ${surveyor.id}`;
  const { version, config } = await getActivePricingConfig(t.sql);
  const price = priceLead(config.lead, survey);
  const lead = await insertLead(t.sql, {
    surveyId: survey.id,
    priceCents: price.priceCents,
    pricing: { ...price.inputs, configVersion: version },
    maxBuyers: 3,
    expiryDays: 7,
  });
  // A second request the surveyor bought and was then assigned (offered): its purchased lead's
  // page, with the client's long name and email unlocked.
  const second = await t.request("POST", "/api/surveys", {
    cookie: await sessionFor(t, users.client),
    body: surveyRequest({
      contactName: "Alexandra Montgomery-Whitfield",
      contactEmail: "a.very.long.client.address@montgomery-whitfield-land-surveying.example.com",
    }),
    headers: { origin: baseUrl },
  });
  const bought = (await second.json()).survey;
  const boughtLead = await insertLead(t.sql, {
    surveyId: bought.id,
    priceCents: price.priceCents,
    pricing: { ...price.inputs, configVersion: version },
    maxBuyers: 3,
    expiryDays: 7,
  });
  await t.sql.begin(async (tx) => {
    await postLedgerEntry(tx, {
      surveyorId: surveyor.id,
      kind: "top_up",
      amountCents: 50_000,
      reference: "layout-test",
    });
    const [purchase] = await tx<{ id: string }[]>`
      insert into lead_purchases (lead_id, surveyor_id, kind, charged_cents, pipeline_status,
        pipeline_note)
      values (${boughtLead.id}, ${surveyor.id}, 'buy', ${boughtLead.priceCents}, 'quoted',
        'Sent a written quote for the boundary and the corner pins')
      returning id`;
    await postLedgerEntry(tx, {
      surveyorId: surveyor.id,
      kind: "lead_purchase",
      amountCents: -boughtLead.priceCents,
      leadPurchaseId: purchase.id,
    });
    await tx`
      insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source)
      values (${bought.id}, ${surveyor.id}, 145000, 'offered', 'admin')`;
  });
  // A request in each later state, so the pages show what they show then: one dispatched by
  // the admin (its lead offered to the surveyor), one assigned, one in fieldwork with the
  // technician, one delivered.
  const submit = async () => {
    const made = await t.request("POST", "/api/surveys", {
      cookie: await sessionFor(t, users.client),
      body: surveyRequest({ contactName: "Alexandra Montgomery-Whitfield" }),
      headers: { origin: baseUrl },
    });
    assertEquals(made.status, 201);
    return (await made.json()).survey as { id: string };
  };
  const adminCookie = await sessionFor(t, users.admin);
  const dispatched = await submit();
  for (const step of ["find-surveyors", "notify-surveyors"]) {
    const sent = await t.request("POST", `/api/surveys/${dispatched.id}/${step}`, {
      cookie: adminCookie,
      headers: { origin: baseUrl },
    });
    assertEquals(sent.status, 200, step);
  }
  const [{ status: dispatchedStatus }] = await t.sql<{ status: string }[]>`
    select status from surveys where id = ${dispatched.id}`;
  assertEquals(dispatchedStatus, "surveyors_notified");
  await t.sql`
    insert into technicians (user_id, surveyor_id) values (${users.technician.id}, ${surveyor.id})
    on conflict (user_id) do nothing`;
  const later: Record<"assigned" | "in_fieldwork" | "completed", { id: string }> = {
    assigned: await submit(),
    in_fieldwork: await submit(),
    completed: await submit(),
  };
  for (const [status, job] of Object.entries(later)) {
    const assignment = status === "completed"
      ? "completed"
      : status === "assigned"
      ? "accepted"
      : "scheduled";
    await t.sql`
      insert into survey_assignments (survey_id, surveyor_id, agreed_price_cents, status, source,
        scheduled_date)
      values (${job.id}, ${surveyor.id}, 70000, ${assignment}, 'admin', current_date + 1)`;
    if (status !== "assigned") {
      await t.sql`
        insert into technician_assignments (survey_id, technician_id, notes)
        values (${job.id}, ${users.technician.id}, 'Gate code 1234; dog in the yard')`;
      await t.sql.begin((tx) => instantiateChecklist(tx, { surveyId: job.id }));
    }
    await t.sql`
      update surveys set assigned_surveyor_id = ${surveyor.id}, status = ${status},
        assigned_technician_id = ${status === "assigned" ? null : users.technician.id},
        scheduled_date = current_date + 1,
        surveyed_date = ${status === "completed" ? t.sql`current_date - 2` : null},
        completed_date = ${status === "completed" ? t.sql`current_date - 1` : null},
        updated_at = now()
      where id = ${job.id}`;
  }
  for (const user of Object.values(users)) {
    for (let i = 0; i < 3; i++) {
      await insertNotification(t.sql, {
        userId: user.id,
        kind: "survey_status_changed",
        title: "Survey status changed to Scheduled",
        body: "1200 Barton Springs Rd, Austin, TX 78704 is scheduled for fieldwork next Tuesday.",
        link: `/survey/${survey.id}`,
      });
    }
  }
  const pages: Record<Role | "public", string[]> = {
    public: PUBLIC_PAGES,
    admin: [
      `/survey/${survey.id}`,
      `/survey/${dispatched.id}`,
      `/survey/${later.completed.id}`,
      `/surveyor-detail/${surveyor.id}`,
      "/admin?tab=messages",
      "/admin?tab=returns",
    ],
    client: [
      `/survey/${survey.id}`,
      `/survey/${later.in_fieldwork.id}`,
      `/survey/${later.completed.id}`,
    ],
    surveyor: [
      `/surveyor/leads/${lead.id}`,
      `/surveyor/purchased-leads/${boughtLead.id}`,
      surveyorJobPath(later.assigned.id),
      surveyorJobPath(later.in_fieldwork.id),
    ],
    technician: [`/technician-survey-detail/${later.in_fieldwork.id}`],
  };
  // Every link of each role's navigation, so a page added to it is measured too.
  for (const role of ["admin", "client", "surveyor", "technician"] as const) {
    const nav = ROLE_NAV[role].map((item) => item.href);
    pages[role] = [...new Set([...nav, ...pages[role], "/profile"])];
  }
  return { users, pages };
}

/** A browser context signed in as `user` (or signed out). */
async function contextFor(browser: Browser, t: TestApp, baseUrl: string, user?: TestUser) {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: WIDTHS[0], height: HEIGHT },
  });
  if (user) {
    const [name, value] = (await sessionFor(t, user)).split("=");
    await context.addCookies([{ name, value, url: baseUrl }]);
  }
  return context;
}

/** Everything on the page that is wider than the window or cut off, as readable lines. */
function measure(): string[] {
  const problems: string[] = [];
  const width = innerWidth;
  const scrollWidth = document.documentElement.scrollWidth;
  const isShown = (el: Element) => el.getClientRects().length > 0;
  const text = (el: Element) => (el.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
  if (scrollWidth > width) {
    // Named by the outermost elements that stick out, so a failure says what to fix.
    const culprits = Array.from(document.body.querySelectorAll("*")).filter((el) => {
      const parent = el.parentElement;
      return isShown(el) && el.getBoundingClientRect().right > width + 0.5 && parent !== null &&
        parent.getBoundingClientRect().right <= width + 0.5;
    }).slice(0, 3).map((el) => `${el.tagName.toLowerCase()}.${el.className} "${text(el)}"`);
    problems.push(`page scrolls sideways: ${scrollWidth} px wide (${culprits.join("; ")})`);
  }
  const context = document.createElement("canvas").getContext("2d")!;
  const textWidth = (s: string, el: Element) => {
    const cs = getComputedStyle(el);
    context.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    return context.measureText(s).width;
  };
  const contentWidth = (el: HTMLElement) => {
    const cs = getComputedStyle(el);
    return el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
  };

  // Table actions: inside the table's region and the window (never scrolled out of sight).
  for (const el of document.querySelectorAll("table button, table a.btn, table select")) {
    if (!isShown(el)) continue;
    const box = el.getBoundingClientRect();
    const region = el.closest(".table-wrap")?.getBoundingClientRect();
    const left = Math.max(0, region?.left ?? 0) - 0.5;
    const right = Math.min(width, region?.right ?? width) + 0.5;
    if (box.left < left || box.right > right) {
      problems.push(
        `table control "${text(el)}" clipped: ${box.left}–${box.right} of ${left}–${right}`,
      );
    }
  }
  // Every table scrolls in its own region that a keyboard can reach and a screen reader names
  // (axe scrollable-region-focusable: the pricing preview).
  for (const region of document.querySelectorAll(".table-wrap")) {
    const label = region.getAttribute("aria-label");
    if (
      region.getAttribute("tabindex") !== "0" || region.getAttribute("role") !== "region" || !label
    ) {
      problems.push(`table region "${label}" is not a focusable, labelled region`);
    }
  }
  // A select shows its whole choice ("Technician").
  for (const select of document.querySelectorAll("select")) {
    if (!isShown(select) || select.selectedIndex < 0) continue;
    const choice = select.options[select.selectedIndex].text;
    if (textWidth(choice, select) > contentWidth(select) + 0.5) {
      problems.push(`select ${select.id || select.getAttribute("aria-label")} cuts "${choice}"`);
    }
  }
  // Placeholders are read in full, not cut mid-word.
  for (const input of document.querySelectorAll<HTMLInputElement>("input[placeholder]")) {
    if (!isShown(input) || !input.placeholder) continue;
    if (textWidth(input.placeholder, input) > contentWidth(input) + 0.5) {
      problems.push(`input ${input.id} cuts its placeholder "${input.placeholder}"`);
    }
  }
  // In-page navigation (the admin console's tabs): every link in the window, none scrolled
  // out of sight inside its bar.
  for (const link of document.querySelectorAll("main nav a[href]")) {
    if (!isShown(link)) continue;
    const box = link.getBoundingClientRect();
    const bar = link.closest("nav")!.getBoundingClientRect();
    if (box.left < -0.5 || box.right > width + 0.5 || box.right > bar.right + 0.5) {
      problems.push(`nav link "${text(link)}" out of view: ${box.left}–${box.right}`);
    }
  }
  // Request-flow step titles are not cut ("Property deta…").
  for (const title of document.querySelectorAll<HTMLElement>(".cs-steps__title")) {
    if (title.getBoundingClientRect().width <= 2) continue; // folded away on phones
    if (title.scrollWidth > title.clientWidth + 1) problems.push(`step title "${text(title)}" cut`);
  }
  return problems;
}

/**
 * Header links that cannot be used: not shown, outside the window, or covered by something
 * else (the bell, the user's name). Links with the same address count once: the public
 * header repeats its links in the phone menu.
 */
function unreachableNavLinks(): string[] {
  const byHref = new Map<string, string[]>();
  for (const link of document.querySelectorAll<HTMLAnchorElement>("header nav a[href]")) {
    const href = link.getAttribute("href")!;
    const problems = byHref.get(href) ?? [];
    byHref.set(href, problems);
    const box = link.getBoundingClientRect();
    if (link.getClientRects().length === 0 || box.width === 0) {
      problems.push("not shown");
      continue;
    }
    if (box.left < 0 || box.right > innerWidth || box.top < 0 || box.bottom > innerHeight) {
      problems.push(`outside the window (${Math.round(box.left)}–${Math.round(box.right)})`);
      continue;
    }
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(hit === link || link.contains(hit))) {
      problems.push(`covered by ${hit?.tagName.toLowerCase()}.${hit?.className}`);
      continue;
    }
    problems.length = 0;
    byHref.set(href, ["ok"]);
  }
  return [...byHref]
    .filter(([, problems]) => !problems.includes("ok"))
    .map(([href, problems]) => `nav link ${href}: ${problems.join(", ")}`);
}

/** The header's links, opening its menu (phones) when some are folded into it. */
async function checkNav(page: Page): Promise<string[]> {
  let problems = await page.evaluate(unreachableNavLinks);
  if (problems.length === 0) return [];
  const appToggle = page.locator(".app-nav[data-hydrated] .app-nav__toggle");
  const siteToggle = page.locator(".site-menu__toggle");
  const toggle = (await appToggle.count()) ? appToggle : siteToggle;
  if (!(await toggle.isVisible())) return problems;
  await toggle.click();
  problems = await page.evaluate(unreachableNavLinks);
  if (toggle === appToggle) {
    await page.keyboard.press("Escape");
    if ((await toggle.getAttribute("aria-expanded")) !== "false") problems.push("menu stays open");
  } else {
    await toggle.click();
  }
  return problems;
}

/** The notifications panel, opened, lies inside the window. */
async function checkNotifications(page: Page): Promise<string[]> {
  const bell = page.locator(".notifications[data-hydrated] .notifications__button");
  if ((await page.locator(".notifications").count()) === 0) return [];
  await bell.click();
  const panel = page.locator(".notifications__panel");
  await panel.waitFor();
  const box = await panel.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
  });
  await page.keyboard.press("Escape");
  await panel.waitFor({ state: "hidden" });
  const { width } = page.viewportSize()!;
  return box.left < 0 || box.right > width || box.top < 0 || box.bottom > HEIGHT
    ? [`notifications panel outside the window: ${JSON.stringify(box)}`]
    : [];
}

e2e(
  "layout: no sideways scroll, reachable header links, notifications and table actions in view, at 390/1024/1280/1440 px for every role",
  async ({ t, baseUrl, browser, consoleErrors }) => {
    const { users, pages } = await seed(t, baseUrl);
    const problems: string[] = [];
    for (const role of ["public", "admin", "client", "surveyor", "technician"] as const) {
      const context = await contextFor(
        browser,
        t,
        baseUrl,
        role === "public" ? undefined : users[role],
      );
      const page = await context.newPage();
      page.on("pageerror", (err) => consoleErrors.push(`${page.url()}: ${err.message}`));
      try {
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: HEIGHT });
          for (const path of pages[role]) {
            const where = `${role} ${width}px ${path}:`;
            const response = await page.goto(path);
            assertEquals(response?.status(), 200, `${where} status`);
            if (role !== "public") await page.locator(".app-nav[data-hydrated]").waitFor();
            const found = [
              ...(await page.evaluate(measure)),
              ...(await checkNav(page)),
              // The same header on every page of a role: its panel is opened on the first.
              ...(role === "public" || path !== pages[role][0]
                ? []
                : await checkNotifications(page)),
              ...(AXE_WIDTHS.has(width) &&
                  AXE_PAGES[role]?.some((p) => typeof p === "string" ? p === path : p.test(path))
                ? await axeViolations(page)
                : []),
            ];
            problems.push(...found.map((p) => `${where} ${p}`));
          }
        }
      } finally {
        await context.close();
      }
    }
    assertEquals(problems, []);
    assertEquals(consoleErrors, []);
  },
);

/** Opens /create-survey at `step` (0-based) with `answers`, as a reload after those steps. */
async function openRequestFlowAt(page: Page, step: number, answers: Record<string, unknown>) {
  // The draft is written from a page without the request flow: on /create-survey itself the
  // island, hydrating late on a busy machine, could save its fresh step-1 draft over it.
  await page.goto("/support/help-center");
  await page.evaluate(
    ([key, draft]) => sessionStorage.setItem(key, draft),
    [
      DRAFT_KEY,
      JSON.stringify({
        version: 1,
        step,
        furthest: step,
        answers,
        quote: null,
        requestId: crypto.randomUUID(),
        seedAddress: "",
      }),
    ],
  );
  await page.goto("/create-survey");
  await page.locator("#cs-heading", { hasText: `Step ${step + 1} of 6` }).waitFor();
}

e2e(
  "layout: request-flow steps, stats band and FAQ rows line up; menus close on navigation, Escape and outside presses",
  async ({ newPage, t, consoleErrors }) => {
    const page = await newPage();
    await page.setViewportSize({ width: 390, height: HEIGHT });

    // Step 6 of the request flow on a phone: its title "Review & submit" stays on screen.
    await openRequestFlowAt(page, 5, {
      address: "1200 Barton Springs Rd, Austin, TX 78704",
      contactName: "Dana Client",
      contactPhone: "(512) 555-0100",
    });
    assertEquals(await page.evaluate(measure), []);
    const title = await page.locator(".cs-steps__item--current .cs-steps__title").boundingBox();
    assertEquals(title !== null && title.x >= 0 && title.x + title.width <= 390, true);

    // The quote step: "Have a discount code?" starts at the card's text edge, not indented.
    await openRequestFlowAt(page, 3, {
      address: "1200 Barton Springs Rd, Austin, TX 78704",
      formattedAddress: "1200 Barton Springs Rd, Austin, TX 78704, USA",
      lat: 30.2636,
      lng: -97.7589,
      state: "TX",
      surveyType: "boundary",
      propertyType: "residential",
      acreage: "0.25",
      terrain: "flat",
      vegetation: "light",
      cornersKnown: "yes",
      purpose: "selling",
    });
    const codeToggle = page.getByRole("button", { name: "Have a discount code?" });
    const indent = await codeToggle.evaluate((button) => {
      const text = document.createRange();
      text.selectNodeContents(button);
      const heading = document.getElementById("cs-heading")!;
      return text.getBoundingClientRect().left - heading.getBoundingClientRect().left;
    });
    assert(Math.abs(indent) <= 2, `"Have a discount code?" is indented ${indent} px`);

    // The landing stats band has room above and below its figures.
    await page.goto("/");
    const band = await page.locator(".stats__list").evaluate((el) => getComputedStyle(el));
    assert(parseFloat(band.paddingTop) >= 16 && parseFloat(band.paddingBottom) >= 16);
    // Help Center questions sit in the middle of their rows.
    await page.goto("/support/help-center");
    const offsets = await page.locator(".faq__question").evaluateAll((rows) =>
      rows.map((row) => {
        const outer = row.getBoundingClientRect();
        const inner = row.querySelector(".faq__heading")!.getBoundingClientRect();
        return Math.round((inner.top - outer.top) - (outer.bottom - inner.bottom));
      })
    );
    assert(offsets.length > 0 && offsets.every((d) => Math.abs(d) <= 2), `${offsets}`);

    // The landing page's phone menu closes once an in-page link is followed.
    await page.goto("/");
    // The first touch hydrates it; the tap still opens it as plain HTML would.
    await page.locator("details.site-menu summary").click();
    const menu = page.locator("details.site-menu[data-hydrated]");
    await menu.waitFor();
    assertEquals(await menu.evaluate((d) => (d as HTMLDetailsElement).open), true);
    await menu.getByRole("link", { name: "How It Works" }).click();
    await page.waitForURL(/#how-it-works$/);
    assertEquals(await menu.evaluate((d) => (d as HTMLDetailsElement).open), false);
    // Escape closes it and gives focus back to its toggle; so does a press outside.
    await menu.locator("summary").click();
    await page.keyboard.press("Escape");
    assertEquals(await menu.evaluate((d) => (d as HTMLDetailsElement).open), false);
    assertEquals(await page.evaluate(() => document.activeElement?.tagName), "SUMMARY");
    await menu.locator("summary").click();
    await page.mouse.click(200, 600);
    assertEquals(await menu.evaluate((d) => (d as HTMLDetailsElement).open), false);

    // The signed-in menu on a phone: every link of the admin's navigation, and it closes.
    const admin = await createUser(t.sql, { role: "admin" });
    const [name, value] = (await sessionFor(t, admin)).split("=");
    await page.context().addCookies([{ name, value, url: page.url() }]);
    await page.goto("/admin-dashboard");
    const toggle = page.locator(".app-nav[data-hydrated]").getByRole("button", { name: "Menu" });
    await toggle.click();
    assertEquals(await toggle.getAttribute("aria-expanded"), "true");
    const links = page.locator(".app-nav").getByRole("link");
    assertEquals(await links.allInnerTexts(), ROLE_NAV.admin.map((item) => item.label));
    await page.keyboard.press("Escape");
    assertEquals(await toggle.getAttribute("aria-expanded"), "false");
    assertEquals(await page.evaluate(() => document.activeElement?.textContent), "Menu");
    await toggle.click();
    await page.mouse.click(200, 700);
    assertEquals(await toggle.getAttribute("aria-expanded"), "false");
    await toggle.click();
    await Promise.all([
      page.waitForURL(/\/pricing-algorithm$/),
      links.filter({ hasText: "Pricing" }).click(),
    ]);
    assertEquals(await page.locator(".app-nav__list").isVisible(), false);
    assertEquals(consoleErrors, []);
  },
);

e2e(
  "layout: signing up inside the request flow updates the header and moves focus to the next step; a reset request shows only its confirmation",
  async ({ newPage, browser, baseUrl, consoleErrors }) => {
    // The phone still to give: signing up keeps the step and puts focus on the phone field,
    // with no error (nothing was submitted); the header is updated all the same.
    const context = await browser.newContext({ baseURL: baseUrl });
    try {
      const early = await context.newPage();
      await openRequestFlowAt(early, 4, {
        address: "1200 Barton Springs Rd, Austin, TX 78704",
        contactName: "",
        contactPhone: "",
      });
      await early.locator("#cs-register-email").fill("sam@example.test");
      await early.locator("#cs-register-fullName").fill("Sam Early");
      await early.locator("#cs-register-password").fill("s3cret-pass");
      await early.getByRole("button", { name: "Create account" }).click();
      await early.locator(".cs-account", { hasText: "Signed in as Sam Early" }).waitFor();
      assertEquals(await early.evaluate(() => document.activeElement?.id), "cs-contactPhone");
      assertEquals(await early.locator(".field__error").count(), 0);
      assertEquals(await early.locator("#cs-contactName").inputValue(), "Sam Early");
      assertEquals(
        (await early.locator("header .site-header__account").innerText()).trim(),
        "My Dashboard",
      );
    } finally {
      await context.close();
    }

    // Complete: signing up opens the review, its heading focused.
    const page = await newPage();
    await openRequestFlowAt(page, 4, {
      address: "1200 Barton Springs Rd, Austin, TX 78704",
      contactName: "Riley Buyer",
      contactPhone: "(512) 555-0142",
    });
    const account = page.locator("header .site-header__account");
    assertEquals((await account.innerText()).trim(), "Login / Register");
    await page.locator("#cs-register-email").fill("riley@example.test");
    await page.locator("#cs-register-fullName").fill("Riley Buyer");
    await page.locator("#cs-register-password").fill("s3cret-pass");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.locator("#cs-heading", { hasText: "Review & submit" }).waitFor();
    assertEquals((await account.innerText()).trim(), "My Dashboard");
    assertEquals(await account.getAttribute("href"), "/dashboard");
    assertEquals(await page.evaluate(() => document.activeElement?.id), "cs-heading");

    // Signed in, /forgot-password still works for anyone: the card ends as the confirmation.
    // Until the form is hydrated a press would submit it as plain HTML (a GET of this page).
    await page.goto("/forgot-password");
    const send = page.getByRole("button", { name: "Send reset link" });
    await waitForIsland(send);
    await page.getByLabel("Email").fill("riley@example.test");
    await send.click();
    const card = page.locator(".auth-card");
    await card.getByRole("heading", { name: "Check your email" }).waitFor();
    const shown = await card.innerText();
    assertEquals(shown.includes("Forgot your password?"), false);
    assertEquals(shown.includes("Enter the email address of your account"), false);
    assertMatch(shown, /Back to login/);
    assertEquals(consoleErrors, []);
  },
);
