import { Hono } from "hono";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, ORIGIN, test, type TestApp } from "../_helpers.ts";
import { PUBLIC_PAGES } from "../../lib/public_pages.ts";
import { SERVICE_PAGES } from "../../lib/service_content.ts";
import { formatDollars, SURVEY_TYPE_INFO, SURVEY_TYPES } from "../../lib/survey_types.ts";
import { pages } from "../../routes/pages.tsx";
import type { AppEnv } from "../../routes/_env.ts";
import type { Role, SessionUser } from "../../lib/roles.ts";
import { DASHBOARDS } from "../_fixtures.ts";
import { assertRedirect, islandProps } from "../_pages.ts";

/** A script the browser runs: any but the islands' props, which are JSON data. */
const RUN_SCRIPT = /<script (?!type="application\/json">)/;

async function getHtml(t: TestApp, path: string): Promise<string> {
  const res = await t.request("GET", path, { headers: { accept: "text/html" } });
  assertEquals(res.status, 200, path);
  assertMatch(res.headers.get("content-type") ?? "", /^text\/html/, path);
  return await res.text();
}

/** Visible text: tags removed, entities decoded, whitespace collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&").replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&nbsp;/g, " ")
    .replace(/\s+/g, " ");
}

function head(html: string) {
  return {
    title: html.match(/<title>([^<]*)<\/title>/)?.[1],
    description: html.match(/<meta name="description" content="([^"]*)">/)?.[1],
    canonical: html.match(/<link rel="canonical" href="([^"]*)">/)?.[1],
    ogTitle: html.match(/<meta property="og:title" content="([^"]*)">/)?.[1],
    ogUrl: html.match(/<meta property="og:url" content="([^"]*)">/)?.[1],
  };
}

function count(html: string, re: RegExp): number {
  return [...html.matchAll(new RegExp(re.source, "g"))].length;
}

const FOOTER = [
  ["/services/boundary-surveys", "Boundary Surveys"],
  ["/services/topographic-surveys", "Topographic Surveys"],
  ["/services/alta-surveys", "ALTA Surveys"],
  ["/services/elevation-certificates", "Elevation Certificates"],
  ["/support/help-center", "Help Center"],
  ["/support/contact", "Contact Us"],
  ["/auth", "Surveyor Login"],
  ["/support/privacy-policy", "Privacy Policy"],
  // Issue 22: the way in for surveyors, after the spec's eight.
  ["/for-surveyors", "For Surveyors"],
];

test("[pages] the landing page has its header, hero and calls to action", async () => {
  const t = await createTestApp();
  const html = await getHtml(t, "/");
  assertMatch(html, /<header class="site-header">/);
  assertMatch(html, /<a class="btn[^"]*" href="\/auth">Login \/ Register<\/a>/);
  assertMatch(html, /<a class="btn[^"]*" href="\/create-survey">Get Free Quote Now/);
  assertMatch(html, /<a class="btn[^"]*" href="#how-it-works">How It Works<\/a>/);
  assertMatch(html, /<section id="how-it-works"/);
  const text = textOf(html).toLowerCase();
  for (const phrase of ["instant free quote", "no upfront payment", "licensed surveyor"]) {
    assertStringIncludes(text, phrase);
  }
  t.close();
});

test("[pages] the landing page shows the trust statistics word for word", async () => {
  const t = await createTestApp();
  const text = textOf(await getHtml(t, "/"));
  for (
    const stat of [
      "50,000+ properties",
      "1,200+ surveyors",
      "4.9 average rating",
      "48 hrs average response",
    ]
  ) assertStringIncludes(text, stat);
  t.close();
});

test("[pages] the landing page has three value cards, four steps and three testimonials", async () => {
  const t = await createTestApp();
  const html = await getHtml(t, "/");
  assertEquals(count(html, /class="card value-card"/), 3);
  const how = html.match(/<section id="how-it-works"[\s\S]*?<\/section>/)?.[0] ?? "";
  assertEquals(count(how, /class="steps__item"/), 4);
  assertEquals(count(html, /class="card testimonial"/), 3);
  assertEquals(count(html, /<blockquote/), 3);
  t.close();
});

test("[pages] the landing page lists all six services with starting prices and turnaround", async () => {
  const t = await createTestApp();
  const html = await getHtml(t, "/");
  const cards = [...html.matchAll(/<li class="card service-card">([\s\S]*?)<\/li>/g)].map((m) =>
    m[1]
  );
  assertEquals(cards.length, 6);
  const prices = cards.map((c) =>
    textOf(c).match(/Starting at (\$[\d,]+)|Quote required/)?.[0].replace("Starting at ", "")
  );
  assertEquals(prices, ["$385", "$285", "$485", "$1,285", "$685", "Quote required"]);
  SURVEY_TYPES.forEach((id, i) => {
    const info = SURVEY_TYPE_INFO[id];
    assertStringIncludes(cards[i], `href="${info.path}"`);
    assertStringIncludes(textOf(cards[i]), info.name);
    if (info.startingPrice !== null) {
      assertStringIncludes(textOf(cards[i]), `Starting at ${formatDollars(info.startingPrice)}`);
      assertStringIncludes(textOf(cards[i]), info.turnaround);
    }
  });
  assertStringIncludes(textOf(cards[1]), "3-5 business days");
  assertStringIncludes(textOf(cards[3]), "7-14 business days");
  t.close();
});

test("[pages] the landing page has the hero and bottom quote forms, the phone menu and no other island", async () => {
  const t = await createTestApp();
  const html = await getHtml(t, "/");
  // Each island's name and its props, the JSON script after its marker.
  const islands = [
    ...html.matchAll(
      /data-island="([^"]+)"[^]*?<script type="application\/json">([^<]*)<\/script>/g,
    ),
  ].map((m) => [m[1], m[2]]);
  // The phone menu closes itself after an in-page link (islands/SiteMenu.tsx). Like the forms
  // it waits for a first touch: the page preloads no JavaScript at all.
  assertEquals(islands.map(([name]) => name), ["SiteMenu", "QuoteForm", "QuoteForm"]);
  assertMatch(html, /data-island="SiteMenu"[^>]*data-hydrate="interaction"/);
  assert(!html.includes("modulepreload"), "nothing preloaded");
  assertEquals(islands.slice(1), [
    ["QuoteForm", '{"id":"hero"}'],
    ["QuoteForm", '{"id":"bottom"}'],
  ]);
  // The early script (holds a press before the runtime runs) and the island boot script; the
  // islands' props are data (type="application/json"), which the browser never runs.
  assertEquals(
    count(html, RUN_SCRIPT),
    2,
    "only the early and the island boot scripts",
  );
  assertEquals(count(html, /<script type="application\/json">/), 3);
  assertStringIncludes(html, `<script src="${t.deps.assets.early}"></script>`);
  const { QuoteForm, SiteMenu } = t.deps.assets.islands;
  // The forms hydrate on a first touch: their code is named, not preloaded.
  assert(!html.includes(`<link rel="modulepreload" href="${QuoteForm.src}">`));
  assertMatch(html, /data-island="QuoteForm"[^>]*data-hydrate="interaction"/);
  const used = new Set([QuoteForm.src, ...QuoteForm.preload, SiteMenu.src, ...SiteMenu.preload]);
  for (const [name, asset] of Object.entries(t.deps.assets.islands)) {
    if (!used.has(asset.src)) assert(!html.includes(asset.src), `landing loads ${name}`);
  }
  t.close();
});

test("[pages] the footer has exactly the spec's eight links and the surveyors' page", async () => {
  const t = await createTestApp();
  for (const path of ["/", "/services/alta-surveys", "/support/contact", "/about"]) {
    const html = await getHtml(t, path);
    const footer = html.match(/<footer[\s\S]*?<\/footer>/)?.[0] ?? "";
    const links = [...footer.matchAll(/<a href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]]);
    assertEquals(links, FOOTER, path);
    assertEquals(count(footer, /<a /), 9, path);
  }
  t.close();
});

test("[pages] every public page answers 200 with its own title, description and canonical link", async () => {
  const t = await createTestApp();
  const titles = new Set<string>();
  const descriptions = new Set<string>();
  for (const path of PUBLIC_PAGES) {
    const html = await getHtml(t, path);
    const h = head(html);
    assert(h.title && h.title.length > 10, `${path} title`);
    assert(h.description && h.description.length > 50, `${path} description`);
    assert(h.description.length <= 200, `${path} description is ${h.description.length} chars`);
    assertEquals(h.canonical, new URL(path, ORIGIN).href, path);
    assertEquals(h.ogUrl, h.canonical, path);
    assertEquals(h.ogTitle, h.title, path);
    assert(!html.includes('name="robots" content="noindex"'), `${path} is noindex`);
    assertEquals(count(html, /<h1[ >]/), 1, `${path} has one h1`);
    assertStringIncludes(html, 'href="#main"', path);
    titles.add(h.title);
    descriptions.add(h.description);
  }
  assertEquals(titles.size, PUBLIC_PAGES.length, "titles are unique");
  assertEquals(descriptions.size, PUBLIC_PAGES.length, "descriptions are unique");
  t.close();
});

test("[pages] each service page explains the survey, its price and turnaround, with FAQ and a quote form", async () => {
  const t = await createTestApp();
  for (const content of SERVICE_PAGES) {
    const info = content.type;
    const html = await getHtml(t, info.path);
    const text = textOf(html);
    assertStringIncludes(html, `<h1>${content.heading.replace("&", "&amp;")}</h1>`);
    assertStringIncludes(text, `What is ${content.noun}?`);
    assertStringIncludes(text, "When you need one");
    assertStringIncludes(text, "What you receive");
    assertStringIncludes(text, "Turnaround and price");
    for (const item of [...content.when, ...content.deliverables]) {
      assertStringIncludes(text, item, info.path);
    }
    if (info.startingPrice === null) assertStringIncludes(text, "Quote required");
    else {
      assertStringIncludes(text, `Starting at ${formatDollars(info.startingPrice)}`);
      assertStringIncludes(text, info.turnaround);
    }
    assertEquals(count(html, /<details class="faq">/), content.faqs.length, info.path);
    for (const faq of content.faqs) assertStringIncludes(text, faq.q, info.path);
    const islands = [...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]);
    assertEquals(islands, ["QuoteForm"], info.path);
    assertEquals(islandProps(html, "QuoteForm"), { id: "service" }, info.path);
    assertEquals(count(html, /<li class="card service-card">/), 5, "links to the other five");
  }
  t.close();
});

test("[pages] the spec's service page prices and turnarounds", async () => {
  const t = await createTestApp();
  const expected: [string, string, string][] = [
    ["/services/boundary-surveys", "$385", "5-10 business days"],
    ["/services/topographic-surveys", "$485", "5-10 business days"],
    ["/services/alta-surveys", "$1,285", "7-14 business days"],
    ["/services/elevation-certificates", "$285", "3-5 business days"],
    ["/services/construction-surveys", "$685", "5-10 business days"],
  ];
  for (const [path, price, turnaround] of expected) {
    const text = textOf(await getHtml(t, path));
    assertStringIncludes(text, `Starting at ${price}`, path);
    assertStringIncludes(text, `Turnaround: ${turnaround}`, path);
  }
  assertStringIncludes(textOf(await getHtml(t, "/services/subdivision-surveys")), "Quote required");
  t.close();
});

test("[pages] support pages load no JavaScript, and the contact page only its form", async () => {
  const t = await createTestApp();
  for (const path of PUBLIC_PAGES.filter((p) => p.startsWith("/support/") || p === "/about")) {
    const html = await getHtml(t, path);
    const islands = [...html.matchAll(/data-island="([^"]+)"/g)].map((m) => m[1]);
    if (path === "/support/contact") {
      assertEquals(islands, ["ContactForm"]);
      assertEquals(count(html, RUN_SCRIPT), 2, "the early and the boot scripts");
    } else {
      assertEquals(islands, [], path);
      assertEquals(count(html, /<script/), 0, path);
      assert(!html.includes("modulepreload"), path);
    }
  }
  t.close();
});

test("[pages] the contact page renders the form's fields before hydration", async () => {
  const t = await createTestApp();
  const html = await getHtml(t, "/support/contact");
  for (const name of ["name", "email", "phone", "topic", "message"]) {
    assertMatch(html, new RegExp(`name="${name}"`), name);
  }
  assertStringIncludes(html, 'Phone <span class="field__optional">(optional)</span>');
  assertStringIncludes(textOf(html), "Send message");
  t.close();
});

test("[pages] the timeline page states the spec's turnaround", async () => {
  const t = await createTestApp();
  const text = textOf(await getHtml(t, "/support/timeline-scheduling"));
  assertStringIncludes(
    text,
    "mostly 5-10 business days; elevation certificates 3-5 days; ALTA 7-14 days",
  );
  t.close();
});

test("[pages] the privacy policy covers the chat widget, analytics, cookies, retention and contact", async () => {
  const t = await createTestApp();
  const html = await getHtml(t, "/support/privacy-policy");
  const text = textOf(html);
  for (
    const heading of [
      "Customer chat widget",
      "Analytics",
      "Cookies",
      "How long we keep data",
      "Contact",
    ]
  ) assertMatch(html, new RegExp(`<h2 id="[^"]+">${heading}</h2>`), heading);
  assertStringIncludes(text, "We do not sell your personal information");
  assertStringIncludes(text, "Contact form messages");
  assertStringIncludes(html, 'href="/support/contact"');
  t.close();
});

test("[pages] the support pages mark themselves current in the side navigation", async () => {
  const t = await createTestApp();
  const html = await getHtml(t, "/support/quality-standards");
  assertMatch(html, /<a href="\/support\/quality-standards" aria-current="page">/);
  assertEquals(count(html, /aria-current="page"/), 2, "breadcrumb and side nav");
  t.close();
});

test("[seo] sitemap.xml lists every public page and robots.txt points to it", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", "/sitemap.xml");
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /xml/);
  const xml = await res.text();
  const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
  assertEquals(locs.sort(), PUBLIC_PAGES.map((p) => new URL(p, ORIGIN).href).sort());
  // The list itself is complete: every landing/service/support page is in it.
  for (const content of SERVICE_PAGES) assert(PUBLIC_PAGES.includes(content.type.path as never));
  const robots = await (await t.request("GET", "/robots.txt")).text();
  assertStringIncludes(robots, `Sitemap: ${ORIGIN}/sitemap.xml`);
  t.close();
});

test("[pages] unknown paths show '404 Page Not Found' with a way home", async () => {
  const t = await createTestApp();
  const res = await t.request("GET", "/services/underwater-surveys", {
    headers: { accept: "text/html" },
  });
  assertEquals(res.status, 404);
  assertMatch(res.headers.get("content-type") ?? "", /^text\/html/);
  const html = await res.text();
  assertStringIncludes(html, "<h1>404 Page Not Found</h1>");
  assertMatch(html, /<a class="btn btn--primary" href="\/">/);
  assertStringIncludes(html, 'name="robots" content="noindex"');
  t.close();
});

function fakeUser(role: Role): SessionUser {
  return {
    id: crypto.randomUUID(),
    username: `${role}@example.com`,
    email: `${role}@example.com`,
    fullName: `Test ${role}`,
    role,
    companyName: null,
    phone: null,
    createdAt: new Date().toISOString(),
    lastLogin: null,
  };
}

test("[pages] signed-in users are sent to their dashboard unless surveyFlow=true", async () => {
  const t = await createTestApp();
  for (const [role, target] of Object.entries(DASHBOARDS) as [Role, string][]) {
    // The pages sub-app with a signed-in user, independent of how sessions are loaded.
    const app = new Hono<AppEnv>();
    app.use(async (c, next) => {
      c.set("deps", t.deps);
      c.set("user", fakeUser(role));
      await next();
    });
    app.route("/", pages);
    assertRedirect(await app.request(`${ORIGIN}/`), target, role);
    const flow = await app.request(`${ORIGIN}/?surveyFlow=true`);
    assertEquals(flow.status, 200, `${role} with surveyFlow`);
    assertEquals(flow.headers.get("cache-control"), "private, no-store");
    const html = await flow.text();
    assertStringIncludes(html, 'href="/dashboard">My Dashboard</a>');
    assert(!html.includes(">Login / Register<"), "signed-in header");
  }
  t.close();
});

test("[pages] the quote forms wait for a first touch: a service page loads only the early and boot scripts", async () => {
  const t = await createTestApp();
  const { boot, islands } = t.deps.assets;
  for (const path of PUBLIC_PAGES.filter((p) => p.startsWith("/services/"))) {
    const html = await getHtml(t, path);
    assertMatch(html, /data-island="QuoteForm"[^>]*data-hydrate="interaction"/, path);
    assertEquals(count(html, RUN_SCRIPT), 2, path);
    assertStringIncludes(html, `<script src="${t.deps.assets.early}"></script>`);
    assertStringIncludes(html, `<script type="module" src="${boot.src}"></script>`);
    // Neither React nor the form's code is fetched before the visitor touches the form.
    assert(!html.includes("modulepreload"), path);
    for (const file of [...boot.preload, ...islands.QuoteForm.preload]) {
      assert(!html.includes(file), `${path} loads ${file}`);
    }
  }
  t.close();
});
