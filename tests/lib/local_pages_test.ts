/**
 * The local pages' rules (issue 24): town slugs, which towns a firm covers (licensed in the
 * state, town centre within its radius, on the same sphere as the database's geo_distance_m).
 */
import { createElement } from "react";
import { assert, assertEquals } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import {
  type LocalFirm,
  milesBetween,
  nearbyTowns,
  stateCoverage,
  stateFromSlug,
  townSlug,
} from "../../lib/local_pages.ts";
import type { OfflineTown } from "../../lib/geo/offline.ts";

test("[local pages] town slugs are lower-case words joined by hyphens", () => {
  assertEquals(townSlug("Austin"), "austin");
  assertEquals(townSlug("St. Louis"), "st-louis");
  assertEquals(townSlug("Cañon City"), "canon-city");
  assertEquals(townSlug("Winston-Salem"), "winston-salem");
  assertEquals(stateFromSlug("tx"), "TX");
  assertEquals(stateFromSlug("TX"), undefined);
  assertEquals(stateFromSlug("zz"), undefined);
});

test("[local pages] distances agree with the database's geo_distance_m", async () => {
  const t = await createTestApp();
  try {
    const a = { lat: 30.27, lng: -97.74 };
    const b = { lat: 29.42, lng: -98.49 };
    const [{ m }] = await t.sql<{ m: number }[]>`
      select geo_distance_m(geo_point(${a.lat}, ${a.lng}), geo_point(${b.lat}, ${b.lng})) as m`;
    const miles = milesBetween(a, b);
    assert(Math.abs(miles - m / 1609.344) < 1e-6, `${miles} vs ${m / 1609.344}`);
  } finally {
    t.close();
  }
});

test("[local pages] a firm covers the towns of its licence states within its radius only", () => {
  const town = (name: string, state: string, lat: number, lng: number): OfflineTown => ({
    name,
    state,
    lat,
    lng,
    zips: [],
  });
  const towns = [
    town("Austin", "TX", 30.27, -97.74),
    town("San Antonio", "TX", 29.42, -98.49),
    town("El Paso", "TX", 31.76, -106.49),
    town("Texarkana", "AR", 33.44, -94.04),
  ];
  const firm: LocalFirm = {
    id: "00000000-0000-4000-8000-000000000001",
    slug: "ortiz-00000000",
    companyName: "Ortiz",
    city: "Austin",
    state: "TX",
    lat: 30.27,
    lng: -97.74,
    serviceRadiusMiles: 80,
    licenseStates: ["TX"],
    surveyTypes: ["boundary"],
  };
  const tx = stateCoverage("TX", towns, [firm]);
  assertEquals(tx.towns.map((t) => t.slug), ["austin", "san-antonio"]);
  const sa = milesBetween(firm, towns[1]);
  assert(sa > 70 && sa < 80, String(sa));
  const shorter = stateCoverage("TX", towns, [{ ...firm, serviceRadiusMiles: Math.floor(sa) }]);
  assertEquals(shorter.towns.map((t) => t.slug), ["austin"]);
  assertEquals(stateCoverage("AR", towns, [{ ...firm, serviceRadiusMiles: 400 }]).towns, []);
});

test("[local pages] nearby towns are the nearest served towns of the state, nearest first, as comparing against every town gives", async () => {
  const { listOfflineTowns } = await import("../../lib/geo/offline.ts");
  const all = await listOfflineTowns();
  // One firm reaching all of Texas and one all of Rhode Island: thousands of towns, and few.
  const firm = (state: string, lat: number, lng: number): LocalFirm => ({
    id: `00000000-0000-4000-8000-0000000000${state === "TX" ? "01" : "02"}`,
    slug: `f-${state}`,
    companyName: "F",
    city: null,
    state,
    lat,
    lng,
    serviceRadiusMiles: 1000,
    licenseStates: [state],
    surveyTypes: ["boundary"],
  });
  for (
    const [state, f] of [["TX", firm("TX", 31, -99)], ["RI", firm("RI", 41.7, -71.5)]] as const
  ) {
    const coverage = stateCoverage(state, all, [f]);
    assert(
      coverage.towns.length > (state === "TX" ? 1000 : 10),
      `${state}: ${coverage.towns.length}`,
    );
    const step = Math.max(1, Math.floor(coverage.towns.length / 60));
    for (let i = 0; i < coverage.towns.length; i += step) {
      const town = coverage.towns[i];
      const reference = coverage.towns.filter((t) => t !== town)
        .map((t) => ({ town: t, miles: milesBetween(t.town, town.town) }))
        .sort((a, b) => a.miles - b.miles || (a.town.slug < b.town.slug ? -1 : 1))
        .slice(0, 8);
      const found = nearbyTowns(coverage, town, 8);
      assertEquals(found.map((n) => n.town.slug), reference.map((n) => n.town.slug), town.slug);
      assertEquals(found.map((n) => n.miles), reference.map((n) => n.miles));
    }
  }
});

test("[local pages] a town page built with the layout and shared blocks as kept strings is byte for byte the page rendered whole, whatever the firms are called", async () => {
  const { renderPage } = await import("../../components/render.tsx");
  const { TownPage, withSignedOutLayout } = await import("../../components/LocalPages.tsx");
  const { getActivePricingConfig } = await import("../../db/pricing.ts");
  const { examplePrice, townFaqs } = await import("../../lib/local_pages.ts");
  const { PRICED_SURVEY_TYPES } = await import("../../lib/pricing.ts");
  const t = await createTestApp();
  try {
    const pricing = await getActivePricingConfig(t.sql);
    const prices = Object.fromEntries(
      PRICED_SURVEY_TYPES.map((type) => [type, examplePrice(pricing.config, type, "TX")]),
    ) as Parameters<typeof townFaqs>[0]["prices"];
    const firm = (companyName: string, n: number, city: string | null): LocalFirm => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      slug: `f-${n}`,
      companyName,
      city,
      state: "TX",
      lat: 30.27 + n / 100,
      lng: -97.74,
      serviceRadiusMiles: 40,
      licenseStates: ["TX"],
      surveyTypes: ["boundary"],
    });
    const towns: OfflineTown[] = [
      { name: "Austin", state: "TX", lat: 30.27, lng: -97.74, zips: [] },
      { name: "Round Rock", state: "TX", lat: 30.51, lng: -97.68, zips: [] },
    ];
    // Names holding the layout's marks and other control characters must stay text.
    const coverage = stateCoverage("TX", towns, [
      firm("Ortiz \u0001layout-after-main\u0001 Surveying", 1, "Austin"),
      firm("\u0001layout-before-main\u0001<b>Hill</b> & Sons", 2, null),
      firm('Smith\'s "Survey" Co.', 3, "Round Rock"),
    ]);
    const recent = [
      {
        surveyType: "boundary",
        zip: "78704",
        acreage: 0.25,
        priceCents: 41_200,
        daysToDelivery: 6,
        miles: 2,
        completedDate: "2026-11-01",
      },
      {
        surveyType: "alta",
        zip: null,
        acreage: 1,
        priceCents: null,
        daysToDelivery: 12,
        miles: 9,
        completedDate: "2026-10-20",
      },
    ];
    const c = { var: { deps: t.deps, user: null } };
    // Twice over both towns and every type: the second round's shared blocks are the kept ones,
    // and each town's and type's must be its own.
    for (let round = 0; round < 2; round++) {
      for (const slug of ["austin", "round-rock"]) {
        const town = coverage.bySlug.get(slug)!;
        for (const type of [null, ...PRICED_SURVEY_TYPES]) {
          const data = {
            stateName: "Texas",
            state: "TX",
            town,
            type,
            prices,
            recent: slug === "austin" ? recent : [],
            nearby: coverage.towns.filter((other) => other !== town),
            faqs: townFaqs({
              townName: town.town.name,
              state: "TX",
              prices,
              firmCount: town.firms.length,
              type,
            }),
            medianDays: slug === "austin" ? 9 : null,
            pricingVersion: pricing.version,
          };
          const meta = { title: town.town.name, path: `/land-surveyors/tx/${slug}` };
          const whole = renderPage(c, meta, createElement(TownPage, { data }));
          const fast = withSignedOutLayout(
            renderPage(c, meta, createElement(TownPage, { data, layout: "marks" })),
          );
          assertEquals(fast, whole, `${slug} ${type}, round ${round + 1}`);
          assert(whole.includes("<footer") && whole.includes("<header"), "the page has its layout");
          assert(!fast.includes("<b>Hill</b>"), "a firm's name is text");
          if (slug === "austin") assert(fast.includes("<td>78704</td>"), "recent surveys shown");
        }
      }
    }
  } finally {
    t.close();
  }
});

test("[local pages] a state page built with the layout as kept strings is byte for byte the page rendered whole, whatever the firms are called", async () => {
  const { renderPage } = await import("../../components/render.tsx");
  const { StatePage, withSignedOutLayout } = await import("../../components/LocalPages.tsx");
  const t = await createTestApp();
  try {
    const towns: OfflineTown[] = [
      { name: "Austin", state: "TX", lat: 30.27, lng: -97.74, zips: [] },
      { name: "Round Rock", state: "TX", lat: 30.51, lng: -97.68, zips: [] },
    ];
    const firm = (companyName: string, n: number): LocalFirm => ({
      id: `00000000-0000-4000-8000-00000000000${n}`,
      slug: `f-${n}`,
      companyName,
      city: "Austin",
      state: "TX",
      lat: 30.27 + n / 100,
      lng: -97.74,
      serviceRadiusMiles: 40,
      licenseStates: ["TX"],
      surveyTypes: ["boundary"],
    });
    const firms = [
      firm("Ortiz \u0001layout-after-main\u0001 Surveying", 1),
      firm("\u0001layout-before-main\u0001<b>Hill</b> & Sons", 2),
    ];
    const coverage = stateCoverage("TX", towns, firms);
    const range = { low: 38_500, high: 61_000 };
    const data = {
      state: "TX",
      stateName: "Texas",
      towns: coverage.towns,
      firmCount: firms.length,
      firms: firms.map((f) => ({
        lat: f.lat,
        lng: f.lng,
        label: f.companyName,
        href: `/firms/${f.slug}`,
      })),
      ranges: {
        boundary: range,
        elevation_certificate: { low: 28_500, high: 28_500 },
        topographic: range,
        alta: range,
        construction: range,
      },
    };
    const c = { var: { deps: t.deps, user: null } };
    const meta = { title: "Land Surveyors in Texas", path: "/land-surveyors/tx" };
    const whole = renderPage(c, meta, createElement(StatePage, { data }));
    const fast = withSignedOutLayout(
      renderPage(c, meta, createElement(StatePage, { data, layout: "marks" })),
    );
    assertEquals(fast, whole);
    assert(whole.includes("<footer") && whole.includes("<header"), "the page has its layout");
    assert(whole.includes('href="/land-surveyors/tx/round-rock"'), "the towns are listed");
    assert(!fast.includes("<b>Hill</b>"), "a firm's name is text");
  } finally {
    t.close();
  }
});
