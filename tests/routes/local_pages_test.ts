/**
 * Local pages (issue 24): /land-surveyors/{state}, /land-surveyors/{state}/{town} and
 * /services/{type}/{state}/{town}. A town page exists only while an active, verified firm
 * licensed in the state covers it; its prices are the quote API's; its JSON-LD parses; it
 * shows no personal data; and the cached page follows every change it shows.
 */
import { assert, assertEquals, assertStringIncludes } from "../_assert.ts";
import { createTestApp, ORIGIN, test, type TestApp } from "../_helpers.ts";
import { createSignedInUser } from "../_auth.ts";
import { expectJson, submitSurvey } from "../_fixtures.ts";
import { addSurveyor } from "../_assignment_fixtures.ts";
import { EXAMPLE_LOTS, SERVICE_SLUGS } from "../../lib/local_pages.ts";
import { PRICED_SURVEY_TYPES } from "../../lib/pricing.ts";
import { formatCents } from "../../lib/quote_text.ts";
import { getActivePricingConfig, insertPricingConfig } from "../../db/pricing.ts";
import postgres from "postgres";

const HTML = { accept: "text/html", "accept-encoding": "identity" };
const AUSTIN = "/land-surveyors/tx/austin";

/** An active, verified firm with its office in Austin, 40-mile radius, licensed in TX. */
function austinFirm(t: TestApp, name = "Ortiz Land Surveying") {
  return addSurveyor(t, name, {
    city: "Austin",
    state: "TX",
    lat: 30.27,
    lng: -97.74,
    licenseStates: ["TX"],
    surveyTypes: ["boundary", "topographic"],
    serviceRadiusMiles: 40,
  });
}

async function page(t: TestApp, path: string, status = 200): Promise<string> {
  const res = await t.request("GET", path, { headers: HTML });
  const body = await res.text();
  assertEquals(res.status, status, `${path}: ${body.slice(0, 300)}`);
  assertStringIncludes(res.headers.get("content-type") ?? "", "text/html");
  return body;
}

async function localSitemap(t: TestApp): Promise<string> {
  const index = await t.request("GET", "/sitemap-local.xml");
  assertEquals(index.status, 200);
  assertStringIncludes(index.headers.get("content-type") ?? "", "application/xml");
  const xml = await index.text();
  assertStringIncludes(xml, "<sitemapindex");
  const files = [...xml.matchAll(/<loc>[^<]*(\/sitemaps\/local-\d+\.xml)<\/loc>/g)].map((m) =>
    m[1]
  );
  assert(files.length >= 1, xml);
  let all = "";
  for (const file of files) {
    const res = await t.request("GET", file);
    assertEquals(res.status, 200);
    all += await res.text();
  }
  return all;
}

function jsonLdOf(html: string): Record<string, unknown>[] {
  const match = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(html);
  assert(match, "the page has JSON-LD");
  return JSON.parse(match[1]);
}

test("[local pages] a town no firm covers is a 404 and absent from the sitemap; a firm joining makes it appear, leaving removes it", async () => {
  const t = await createTestApp();
  try {
    await page(t, AUSTIN, 404);
    await page(t, "/land-surveyors/tx", 404);
    assert(!(await localSitemap(t)).includes("/land-surveyors/tx/austin"));

    // A firm in New Mexico only, its radius reaching nowhere near Austin anyway.
    await addSurveyor(t, "Mesa Surveying", {
      city: "Albuquerque",
      state: "NM",
      lat: 35.08,
      lng: -106.65,
      licenseStates: ["NM"],
      serviceRadiusMiles: 30,
    });
    await page(t, AUSTIN, 404);

    const firm = await austinFirm(t);
    const html = await page(t, AUSTIN);
    assertStringIncludes(html, "Ortiz Land Surveying");
    assertStringIncludes(html, `<link rel="canonical" href="${ORIGIN}${AUSTIN}">`);
    // Served from the cache the second time, the same page.
    assertEquals(await page(t, AUSTIN), html);
    const sitemap = await localSitemap(t);
    assertStringIncludes(sitemap, `${AUSTIN}</loc>`);
    assertStringIncludes(sitemap, "/services/boundary-surveys/tx/austin</loc>");
    assertStringIncludes(sitemap, "/land-surveyors/tx</loc>");
    assert(!sitemap.includes("/land-surveyors/tx/el-paso"), "El Paso is 500 miles away");
    assert(!sitemap.includes("/land-surveyors/nm/austin"));
    await page(t, "/land-surveyors/tx/el-paso", 404);
    const state = await page(t, "/land-surveyors/tx");
    assertStringIncludes(state, `href="${AUSTIN}"`);

    // A second firm joining changes the cached page at once.
    await austinFirm(t, "Hill Country Surveys");
    assertStringIncludes(await page(t, AUSTIN), "Hill Country Surveys");

    // Both leave (paused, unverified): no page, no sitemap entry.
    await t.sql`update surveyors set status = 'paused' where company_name = 'Hill Country Surveys'`;
    assert(!(await page(t, AUSTIN)).includes("Hill Country Surveys"));
    await t.sql`update surveyors set status = 'pending', verified_at = null, verified_by = null,
      verified_via = null where id = ${firm.surveyor.id}`;
    await page(t, AUSTIN, 404);
    assert(!(await localSitemap(t)).includes("/land-surveyors/tx/austin"));
  } finally {
    t.close();
  }
});

test("[local pages] each type's town page shows the quote API's price for its example lot, and a new pricing version at once", async () => {
  const t = await createTestApp();
  try {
    await austinFirm(t);
    for (const type of PRICED_SURVEY_TYPES) {
      const body = await expectJson(
        await t.request("POST", "/api/calculate-price", {
          body: { ...EXAMPLE_LOTS[type].details, state: "TX" },
        }),
        200,
      );
      const price = formatCents(body.price * 100);
      const html = await page(t, `/services/${SERVICE_SLUGS[type]}/tx/austin`);
      assertStringIncludes(html, `${EXAMPLE_LOTS[type].lot}`);
      assertStringIncludes(html, `<dd>${price}</dd>`);
      assertStringIncludes(html.replaceAll("<!-- -->", ""), `costs ${price} with Meridian`);
    }
    const before = await page(t, AUSTIN);
    const { config } = await getActivePricingConfig(t.sql);
    await insertPricingConfig(t.sql, {
      config: { ...config, stateIndex: { ...config.stateIndex, TX: 1.5 } },
      createdBy: null,
    });
    const after = await page(t, AUSTIN);
    assert(before !== after, "the cached page follows the new pricing version");
    const body = await expectJson(
      await t.request("POST", "/api/calculate-price", {
        body: { ...EXAMPLE_LOTS.boundary.details, state: "TX" },
      }),
      200,
    );
    assertStringIncludes(after, `<dd>${formatCents(body.price * 100)}</dd>`);
  } finally {
    t.close();
  }
});

test("[local pages] JSON-LD parses: Service, BreadcrumbList, FAQPage; titles and canonicals differ per page", async () => {
  const t = await createTestApp();
  try {
    await austinFirm(t);
    const paths = [
      AUSTIN,
      ...PRICED_SURVEY_TYPES.map((type) => `/services/${SERVICE_SLUGS[type]}/tx/austin`),
    ];
    const titles = new Set<string>();
    const descriptions = new Set<string>();
    const canonicals = new Set<string>();
    for (const path of paths) {
      const html = await page(t, path);
      const data = jsonLdOf(html);
      assertEquals(data.map((d) => d["@type"]), ["Service", "BreadcrumbList", "FAQPage"]);
      const service = data[0] as { areaServed: { name: string }; offers: { price: string } };
      assertEquals(service.areaServed.name, "Austin");
      assert(Number(service.offers.price) > 0);
      const faq = data[2] as { mainEntity: { name: string }[] };
      assert(faq.mainEntity.some((q) => q.name.includes("elevation certificate")));
      assert(faq.mainEntity.some((q) => q.name.includes("licenses land surveyors in Texas")));
      titles.add(/<title>([^<]*)<\/title>/.exec(html)![1]);
      descriptions.add(/<meta name="description" content="([^"]*)"/.exec(html)![1]);
      canonicals.add(/<link rel="canonical" href="([^"]*)"/.exec(html)![1]);
      // No script but the quote form's island (the boot runtime that loads it, and the early
      // script that keeps a press made before it: islands/_early.ts).
      const scripts = [...html.matchAll(/<script[^>]*src="([^"]*)"/g)].map((m) => m[1]);
      assert(scripts.every((s) => /_early|boot|QuoteForm|chunk/i.test(s)), scripts.join(" "));
      assertEquals([...html.matchAll(/data-island="([^"]*)"/g)].map((m) => m[1]), ["QuoteForm"]);
    }
    assertEquals(titles.size, paths.length);
    assertEquals(descriptions.size, paths.length);
    assertEquals(canonicals.size, paths.length);
  } finally {
    t.close();
  }
});

test("[local pages] recent surveys show type, ZIP, lot size, price and days, never who or where exactly", async () => {
  const t = await createTestApp();
  try {
    await austinFirm(t);
    const { cookie } = await createSignedInUser(t, {
      role: "client",
      fullName: "Dana Quillfeather",
      email: "dana.q@example.test",
    });
    const survey = await submitSurvey(t, cookie);
    const empty = await page(t, AUSTIN);
    assertStringIncludes(empty, "No completed surveys within 30 miles yet");
    // Completed: the cached page shows it at once.
    await t.sql`update surveys set status = 'completed', completed_date = current_date + 3
      where id = ${survey.id}`;
    for (const path of [AUSTIN, "/services/boundary-surveys/tx/austin", "/land-surveyors/tx"]) {
      const html = await page(t, path);
      if (path !== "/land-surveyors/tx") {
        assertStringIncludes(html, "<td>78704</td>");
        assertStringIncludes(html, "<td>0.25 acres</td>");
        assertStringIncludes(html, "<td>3</td>");
      }
      for (
        const secret of [
          "Quillfeather",
          "dana.q@example.test",
          "Dana Client",
          "dana@example.test",
          "555-0100",
          "555-0177",
          "Barton Springs",
          "1200",
          "Gate code",
          "Dog in the yard",
          "office@",
          "Principal",
        ]
      ) {
        assert(!html.includes(secret), `${path} shows ${secret}`);
      }
    }
  } finally {
    t.close();
  }
});

test("[local pages] unknown states, towns and types, and odd slugs, are 4xx pages, never 500", async () => {
  const t = await createTestApp();
  try {
    await austinFirm(t);
    for (
      const path of [
        "/land-surveyors/zz",
        "/land-surveyors/TX/austin",
        "/land-surveyors/tx/Austin",
        "/land-surveyors/tx/%00",
        "/land-surveyors/tx/nowhere-at-all",
        "/services/subdivision-surveys/tx/austin",
        "/services/boundary-surveys/zz/austin",
        "/services/nope/tx/austin",
        "/sitemaps/local-0.xml",
        "/sitemaps/local-99.xml",
        "/sitemaps/other.xml",
      ]
    ) {
      const res = await t.request("GET", path, { headers: HTML });
      await res.body?.cancel();
      assertEquals(res.status, 404, path);
    }
    const long = await t.request("GET", `/land-surveyors/tx/${"a".repeat(300)}`, { headers: HTML });
    await long.body?.cancel();
    assert(long.status >= 400 && long.status < 500, String(long.status));
  } finally {
    t.close();
  }
});

test("[local pages] a firm's name is shown as text on every page of its town, never as markup", async () => {
  const t = await createTestApp();
  try {
    await austinFirm(t, `<img src=x onerror="alert(1)"> & Sons`);
    for (const path of [AUSTIN, `/services/${SERVICE_SLUGS.boundary}/tx/austin`]) {
      const html = await page(t, path);
      assertStringIncludes(html, "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; Sons");
      assert(!html.includes("<img src=x"), path);
    }
  } finally {
    t.close();
  }
});

/**
 * Another connection to the same database, as `deno task user` or psql beside the server has:
 * on PGlite through its pglite-socket port, on Postgres a connection of its own.
 */
function otherConnection(t: TestApp) {
  const url = Deno.env.get("DATABASE_URL");
  if (url) return postgres(url, { max: 1, onnotice: () => {} });
  const { host, port } = t.sql.options;
  return postgres({
    host: host[0],
    port: port[0],
    max: 1,
    username: "postgres",
    database: "postgres",
    onnotice: () => {},
  });
}

test("[local pages] a change committed by another connection (a CLI's) shows on the next request; an uncommitted one never does, and the cached page answers while it is open", async () => {
  const t = await createTestApp();
  const other = otherConnection(t);
  try {
    await austinFirm(t);
    await austinFirm(t, "Hill Country Surveys");
    assertStringIncludes(await page(t, AUSTIN), "Hill Country Surveys");
    assertStringIncludes(await page(t, AUSTIN), "Hill Country Surveys");

    // A CLI pauses the firm; its commit is answered before the next request is sent.
    await other`update surveyors set status = 'paused' where company_name = 'Hill Country Surveys'`;
    const paused = await page(t, AUSTIN);
    assertStringIncludes(paused, "Ortiz Land Surveying");
    assert(!paused.includes("Hill Country Surveys"), "the paused firm is gone at once");

    // A transaction that changes the page but has not committed: the page stays as it was. On
    // PGlite the open transaction holds the only database session, so this also shows the
    // cached page is answered without reading the database (it would wait for the commit).
    let commit!: () => void;
    const committed = new Promise<void>((resolve) => (commit = resolve));
    const transaction = other.begin(async (tx) => {
      await tx`update surveyors set status = 'active' where company_name = 'Hill Country Surveys'`;
      await committed;
    });
    // Let the transaction's update run first.
    await new Promise((resolve) => setTimeout(resolve, 100));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const during = await Promise.race([
      page(t, AUSTIN),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve("(no answer while the transaction was open)"), 10_000);
      }),
    ]);
    clearTimeout(timer);
    commit();
    await transaction;
    assertEquals(during, paused);
    assertStringIncludes(await page(t, AUSTIN), "Hill Country Surveys");
  } finally {
    await other.end({ timeout: 1 });
    t.close();
  }
});

test("[local pages] a Texas town's FAQ names the Texas board, in the page and in its FAQPage JSON-LD; a type's page says what the type is for", async () => {
  const t = await createTestApp();
  try {
    await austinFirm(t);
    const board = "Texas Board of Professional Engineers and Land Surveyors";
    const paths = [
      AUSTIN,
      ...PRICED_SURVEY_TYPES.map((type) => `/services/${SERVICE_SLUGS[type]}/tx/austin`),
    ];
    for (const path of paths) {
      const html = await page(t, path);
      assertStringIncludes(html, "Who licenses land surveyors in Texas?");
      assertStringIncludes(html, `land surveyors are licensed by the ${board}.`);
      assertStringIncludes(html, "https://pels.texas.gov/");
      assert(!html.includes("state licensing board"), path);
      assertStringIncludes(html, "msc.fema.gov");
      const faq = jsonLdOf(html)[2] as {
        "@type": string;
        mainEntity: { name: string; acceptedAnswer: { text: string } }[];
      };
      assertEquals(faq["@type"], "FAQPage");
      const licensing = faq.mainEntity.find((q) =>
        q.name === "Who licenses land surveyors in Texas?"
      );
      assert(licensing, path);
      assertStringIncludes(licensing.acceptedAnswer.text, `licensed by the ${board}.`);
      assertStringIncludes(
        licensing.acceptedAnswer.text,
        "Meridian checks each firm's Texas licence",
      );
    }
    const ec = jsonLdOf(
      await page(t, `/services/${SERVICE_SLUGS.elevation_certificate}/tx/austin`),
    );
    const questions = (ec[2] as { mainEntity: { name: string }[] }).mainEntity.map((q) => q.name);
    assert(
      questions.includes("What is an elevation certificate for, and when is one needed in Texas?"),
      questions.join(" | "),
    );
    const alta = await page(t, `/services/${SERVICE_SLUGS.alta}/tx/austin`);
    assertStringIncludes(alta, "What is an ALTA/NSPS survey for, and when is one needed in Texas?");
  } finally {
    t.close();
  }
});
