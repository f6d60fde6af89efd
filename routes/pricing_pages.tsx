import type { ReactNode } from "react";
import { Hono } from "hono";
import type { AppContext, AppEnv } from "./_env.ts";
import { requirePageRole } from "./_auth.ts";
import { appPage, rememberedAppPage } from "./_app_page.tsx";
import { PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import PricingEditor, { type PricingEditorProps, statusOf } from "../islands/PricingEditor.tsx";
import ParcelLookupTest from "../islands/ParcelLookupTest.tsx";
import { getActivePricingConfig, listPricingConfigs } from "../db/pricing.ts";
import { listDiscountCodes } from "../db/discounts.ts";

/** An admin page: its header (title and intro) above `body`, in the app layout. */
function adminPage(
  c: AppContext,
  meta: { title: string; active: string; intro: ReactNode },
  body: ReactNode,
): Promise<Response> {
  return appPage(
    c,
    meta,
    <>
      <PageHeader title={meta.title} intro={meta.intro} />
      {body}
    </>,
  );
}

const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : d);

/**
 * Admin pages, checked on the server: /pricing-algorithm (pricing factors, lead price, preview,
 * history, discount codes) and /regrid-api-test (parcel-data lookups).
 */
export const pricingPages = new Hono<AppEnv>()
  .get("/pricing-algorithm", requirePageRole("admin"), async (c) => {
    const db = c.var.db;
    const [active, firstHistory, codes] = await Promise.all([
      getActivePricingConfig(db),
      listPricingConfigs(db, { page: 1 }),
      listDiscountCodes(db, { page: 1 }),
    ]);
    // A database that never priced anything gets version 1 (the defaults) written by the read
    // of the active version, maybe after the history was read: read that again then.
    const history = firstHistory.total === 0
      ? await listPricingConfigs(db, { page: 1 })
      : firstHistory;
    const renderedAt = new Date();
    const props: PricingEditorProps = {
      active,
      history: {
        total: history.total,
        pageSize: history.pageSize,
        versions: history.versions.map((v) => ({
          version: v.version,
          createdByName: v.createdByName,
          note: v.note,
          createdAt: iso(v.createdAt),
        })),
      },
      codes: {
        total: codes.total,
        pageSize: codes.pageSize,
        codes: codes.codes.map((code) => ({
          id: code.id,
          code: code.code,
          kind: code.kind,
          value: code.value,
          validFrom: code.validFrom ? iso(code.validFrom) : null,
          validUntil: code.validUntil ? iso(code.validUntil) : null,
          maxUses: code.maxUses,
          uses: code.uses,
          oncePerClient: code.oncePerClient,
          active: code.active,
          note: code.note,
          createdAt: iso(code.createdAt),
        })),
      },
      renderedAt: renderedAt.toISOString(),
    };
    const meta = { title: "Pricing", active: "/pricing-algorithm" };
    // Sent as it was last rendered while nothing it shows has changed
    // (routes/_remembered_pages.ts). Its one use of the clock is the codes' status badges: the
    // statuses at this request are part of what it shows, and the render time it carries (the
    // badges' clock until hydrated) gives those same statuses.
    const statuses = props.codes.codes.map((code) => statusOf(code, renderedAt.getTime()).label);
    const { renderedAt: _, ...shown } = props;
    return rememberedAppPage(c, meta, `pricing ${c.var.user!.id}`, [shown, statuses], () => (
      <>
        <PageHeader
          title={meta.title}
          intro={
            <>
              Instant quotes use the active version. Each save makes a new version; requests keep
              the version they were quoted with. Lead prices for surveyors are part of the same
              version. See <a href="#pricing-lead">lead price</a> and{" "}
              <a href="#discount-codes">discount codes</a> below.
            </>
          }
        />
        <Island component={PricingEditor} hydrate="load" props={props} />
      </>
    ));
  })
  .get("/regrid-api-test", requirePageRole("admin"), (c) => {
    const provider = c.var.deps.parcels;
    return adminPage(
      c,
      {
        title: "Parcel data test",
        active: "/regrid-api-test",
        intro: "Run a parcel lookup against the configured provider to check the API token and " +
          "the data it returns.",
      },
      <Island
        component={ParcelLookupTest}
        hydrate="load"
        props={{ provider: provider.name, isConfigured: provider.isConfigured }}
      />,
    );
  });
