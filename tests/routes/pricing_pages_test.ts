import { assert, assertEquals, assertMatch, assertStringIncludes } from "../_assert.ts";
import { createTestApp, test } from "../_helpers.ts";
import { createSignedInUser, signInAs } from "../_auth.ts";
import { assertForbiddenPage, assertRedirectsToAuth, getPage, islandProps } from "../_pages.ts";
import type { PricingEditorProps } from "../../islands/PricingEditor.tsx";
import { insertDiscountCode } from "../../db/discounts.ts";
import type { ParcelProvider } from "../../lib/parcels/provider.ts";

const PAGES = ["/pricing-algorithm", "/regrid-api-test"];

test("[pricing] admin pages send signed-out visitors to sign in", async () => {
  const t = await createTestApp();
  for (const path of PAGES) {
    await assertRedirectsToAuth(await getPage(t, path), path);
  }
  t.close();
});

test("[pricing] admin pages are refused to clients, surveyors and technicians", async () => {
  const t = await createTestApp();
  for (const role of ["client", "surveyor", "technician"] as const) {
    const cookie = await signInAs(t, role);
    for (const path of PAGES) {
      const html = await assertForbiddenPage(await getPage(t, path, cookie), `${role} ${path}`);
      assertEquals(html.includes('data-island="PricingEditor"'), false);
      assertEquals(html.includes('data-island="ParcelLookupTest"'), false);
    }
  }
  t.close();
});

test("[pricing] /pricing-algorithm shows the active config, history and discount codes", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "admin" });
  await insertDiscountCode(t.sql, {
    code: "PAGE10",
    kind: "percent",
    value: 10,
    createdBy: user.id,
  });
  const res = await t.request("GET", "/pricing-algorithm", { cookie });
  assertEquals(res.status, 200);
  assertMatch(res.headers.get("content-type") ?? "", /text\/html/);
  assertEquals(res.headers.get("cache-control"), "private, no-store");
  const html = await res.text();
  assertStringIncludes(html, "<h1>Pricing</h1>");
  assertStringIncludes(html, 'aria-current="page"');
  const props = islandProps<PricingEditorProps>(html, "PricingEditor");
  assertEquals(props.active.version, 1);
  assertEquals(props.active.config.basePriceCents.boundary, 38_500);
  assertEquals(props.history.versions.map((v: { version: number }) => v.version), [1]);
  assertEquals(props.codes.codes[0].code, "PAGE10");
  // Server-rendered island content: the factor groups and the discount section are there
  // before any JavaScript runs.
  for (const text of ["Base prices", "State cost index", "Version history", "Discount codes"]) {
    assertStringIncludes(html, text);
  }
  assertStringIncludes(html, "PAGE10");
  // The lead price section and its preview, in the words surveyors read, before hydration.
  assertEquals(props.active.config.lead.sharePercent.alta, 6);
  assertStringIncludes(html, '<h2 id="pricing-lead">Lead price</h2>');
  assertStringIncludes(html, 'href="#pricing-lead"');
  assertStringIncludes(
    html,
    "6% of the $1,285.00 quote, at least $15, at most $150 = $77.10",
  );
  t.close();
});

test("[pricing] /pricing-algorithm is drawn again when a code's status changes with the clock, or anything on it changes", async () => {
  const t = await createTestApp();
  const { user, cookie } = await createSignedInUser(t, { role: "admin" });
  const soon = new Date(Date.now() + 1_500);
  await insertDiscountCode(t.sql, {
    code: "SOON",
    kind: "percent",
    value: 5,
    validUntil: soon,
    createdBy: user.id,
  });
  const load = async () => {
    const res = await t.request("GET", "/pricing-algorithm", { cookie });
    assertEquals(res.status, 200);
    const html = await res.text();
    const badge = html.match(/SOON[\s\S]*?class="badge [^"]*">([^<]+)</)?.[1];
    return { html, badge, props: islandProps<PricingEditorProps>(html, "PricingEditor") };
  };
  const first = await load();
  assertEquals(first.badge, "Active");
  const second = await load();
  assertEquals(second.badge, "Active");
  // Until the code expires, the page's render time gives the statuses shown.
  assertEquals(second.props.renderedAt, first.props.renderedAt);
  await new Promise((resolve) => setTimeout(resolve, soon.getTime() - Date.now() + 50));
  const expired = await load();
  assertEquals(expired.badge, "Expired");
  assert(Date.parse(expired.props.renderedAt) >= soon.getTime(), "rendered after the expiry");
  await t.sql`update discount_codes set uses = 3 where code = 'SOON'`;
  assertEquals((await load()).props.codes.codes[0].uses, 3);
  t.close();
});

test("[pricing] /regrid-api-test says plainly when no provider is configured", async () => {
  const t = await createTestApp();
  const cookie = await signInAs(t, "admin");
  const res = await t.request("GET", "/regrid-api-test", { cookie });
  assertEquals(res.status, 200);
  const html = await res.text();
  assertStringIncludes(html, "No parcel data provider is configured");
  assertEquals(islandProps(html, "ParcelLookupTest"), { provider: "none", isConfigured: false });
  t.close();
});

test("[pricing] /regrid-api-test names the configured provider", async () => {
  const parcels: ParcelProvider = {
    name: "regrid",
    isConfigured: true,
    lookup: () => Promise.resolve(undefined),
  };
  const t = await createTestApp({ deps: { parcels } });
  const cookie = await signInAs(t, "admin");
  const html = await (await t.request("GET", "/regrid-api-test", { cookie })).text();
  assertEquals(islandProps(html, "ParcelLookupTest"), { provider: "regrid", isConfigured: true });
  assertEquals(html.includes("No parcel data provider is configured"), false);
  t.close();
});
