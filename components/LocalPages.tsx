/**
 * Local pages (issue 24): a state's served towns, and a town's prices, firms, recent surveys,
 * quote form and questions. Server-only; the quote form is the page's only island.
 */
import { renderToString } from "react-dom/server";
import type { SessionUser } from "../lib/roles.ts";
import QuoteForm from "../islands/QuoteForm.tsx";
import { Island } from "./Island.tsx";
import { PublicLayout } from "./PublicLayout.tsx";
import { Breadcrumbs } from "./Breadcrumbs.tsx";
import { Faqs } from "./Faqs.tsx";
import { UsMap } from "./UsMap.tsx";
import { TableRegion } from "../islands/_table.tsx";
import type { Faq } from "../lib/service_content.ts";
import {
  type ExamplePrice,
  type RecentSurvey,
  type ServedTown,
  statePath,
  townPath,
} from "../lib/local_pages.ts";
import { PRICED_SURVEY_TYPES, type PricedSurveyType, TURNAROUND } from "../lib/pricing.ts";
import { formatCents } from "../lib/quote_text.ts";
import { formatLeadPrice } from "../lib/lead_pricing.ts";
import { SURVEY_TYPE_INFO, type SurveyType } from "../lib/survey_types.ts";
import { formatDecimal } from "../lib/numbers.ts";

/** What a town page shows. */
export interface TownPageData {
  stateName: string;
  state: string;
  town: ServedTown;
  /** The page's survey type, or null for all of them. */
  type: PricedSurveyType | null;
  prices: Record<PricedSurveyType, ExamplePrice>;
  recent: RecentSurvey[];
  nearby: ServedTown[];
  faqs: Faq[];
  /** Median days from request to delivery of the recent surveys, or null without any. */
  medianDays: number | null;
  pricingVersion: number;
}

function townLabel(d: { town: ServedTown; state: string }): string {
  return `${d.town.town.name}, ${d.state}`;
}

function typeName(type: string): string {
  return SURVEY_TYPE_INFO[type as SurveyType]?.name ?? type;
}

/** "0.25 acres", "1 acre". */
function acres(n: number): string {
  return `${formatDecimal(n)} ${n === 1 ? "acre" : "acres"}`;
}

/** The heading of a town page. */
export function townHeading(d: Pick<TownPageData, "town" | "state" | "type">): string {
  return d.type
    ? `${SURVEY_TYPE_INFO[d.type].name} in ${townLabel(d)}: Cost and Local Surveyors`
    : `Land Surveyors in ${townLabel(d)}`;
}

/**
 * The firm list items of recently built towns (its six pages show them), oldest out: kept for
 * every town until the next change, ~3.7 KB each, they grew the heap by ~100 MB along a crawl of
 * all 28k towns.
 */
const firmItems = new Map<ServedTown, string>();
const FIRM_ITEMS_MAX = 256;

/** Firms a town page lists. */
const LISTED_FIRMS = 25;

/**
 * The `<li>`s of the firms covering `town`, as HTML (React escapes the firms' names, which
 * are user data). A ServedTown is rebuilt whenever what it holds changes (a new cache key), so
 * the string is never older than the page.
 */
function firmItemsHtml(town: ServedTown): string {
  let html = firmItems.get(town);
  if (html === undefined) {
    html = renderToString(
      <>
        {town.firms.slice(0, LISTED_FIRMS).map(({ firm, miles }) => (
          <li key={firm.id}>
            <a href={`/firms/${firm.slug}`}>{firm.companyName}</a>
            {firm.city ? ` — office in ${firm.city}${firm.state ? `, ${firm.state}` : ""}` : ""}
            {`, ${Math.round(miles)} mi away`}
          </li>
        ))}
      </>,
    );
    firmItems.set(town, html);
    if (firmItems.size > FIRM_ITEMS_MAX) firmItems.delete(firmItems.keys().next().value!);
  }
  return html;
}

/**
 * Where `TownPage` with `layout="marks"` leaves the signed-out public layout's header and
 * footer out, for `withSignedOutLayout` to put back. Control characters: React writes them as
 * they are, and the page's JSON-LD (after the layout) cannot hold them raw.
 */
const BEFORE_MAIN_MARK = "\u0001layout-before-main\u0001";
const AFTER_MAIN_MARK = "\u0001layout-after-main\u0001";

/** `PublicLayout` for a signed-out visitor, off the home page, split around its content. */
let signedOutLayout: { before: string; after: string } | undefined;

function signedOutLayoutParts(): { before: string; after: string } {
  if (!signedOutLayout) {
    const mark = "\u0001main\u0001";
    const html = renderToString(<PublicLayout user={null}>{mark}</PublicLayout>);
    const at = html.indexOf(mark);
    signedOutLayout = { before: html.slice(0, at), after: html.slice(at + mark.length) };
  }
  return signedOutLayout;
}

/**
 * A page rendered from `<TownPage layout="marks">` with the signed-out layout's header and
 * footer in place: the same bytes as rendering `PublicLayout` (tests/lib/local_pages_test.ts
 * compares them), without rendering its 70-odd elements again for each of 169k pages. The
 * header mark is the first (it precedes everything the page shows), the footer mark the last
 * (only the JSON-LD follows, which escapes control characters), so no text a firm typed can
 * stand in for either.
 */
export function withSignedOutLayout(html: string): string {
  const before = html.indexOf(BEFORE_MAIN_MARK);
  const after = html.lastIndexOf(AFTER_MAIN_MARK);
  if (before < 0 || after < before) throw new Error("The page has no layout marks");
  const parts = signedOutLayoutParts();
  return html.slice(0, before) + parts.before +
    html.slice(before + BEFORE_MAIN_MARK.length, after) + parts.after +
    html.slice(after + AFTER_MAIN_MARK.length);
}

/**
 * A town page (all types, or one type's). With `layout="marks"` (signed out only) the header
 * and footer are left as marks for `withSignedOutLayout`.
 */
export function TownPage(
  { data, user, layout = "render" }: {
    data: TownPageData;
    user?: SessionUser | null;
    layout?: "render" | "marks";
  },
) {
  const content = <TownPageContent data={data} />;
  if (layout === "marks" && !user) return <>{BEFORE_MAIN_MARK}{content}{AFTER_MAIN_MARK}</>;
  return <PublicLayout user={user}>{content}</PublicLayout>;
}

function TownPageContent({ data }: { data: TownPageData }) {
  const { town, type, prices } = data;
  const place = townLabel(data);
  const main = prices[type ?? "boundary"];
  const firmCount = town.firms.length;
  const types = type ? [type, ...PRICED_SURVEY_TYPES.filter((t) => t !== type)] : [
    ...PRICED_SURVEY_TYPES,
  ];
  const crumbs = [
    { href: "/", label: "Home" },
    { href: statePath(data.state), label: `Land surveyors in ${data.stateName}` },
    ...(type
      ? [
        { href: townPath(data.state, town.slug), label: place },
        { label: SURVEY_TYPE_INFO[type].name },
      ]
      : [{ label: place }]),
  ];
  return (
    <>
      <section className="page-hero page-hero--service">
        <div className="container page-hero__grid">
          <div className="page-hero__copy">
            <Breadcrumbs items={crumbs} />
            <h1>{townHeading(data)}</h1>
            <p className="page-hero__lead">
              {firmCount === 1 ? "One verified firm covers" : `${firmCount} verified firms cover`}
              {" "}
              {place}. {main.example.type === "elevation_certificate" ? "An" : "A"}{" "}
              {SURVEY_TYPE_INFO[main.example.type].name.toLowerCase()} of a {main.example.lot} costs
              {" "}
              {formatCents(main.totalCents)} with Meridian's current prices.
            </p>
            <dl className="facts">
              <div className="facts__item">
                <dt>{SURVEY_TYPE_INFO[main.example.type].name}</dt>
                <dd>{formatCents(main.totalCents)}</dd>
              </div>
              <div className="facts__item">
                <dt>Verified firms</dt>
                <dd>{firmCount}</dd>
              </div>
              <div className="facts__item">
                <dt>Turnaround</dt>
                <dd>
                  {data.medianDays !== null
                    ? `${data.medianDays} days (recent jobs nearby)`
                    : TURNAROUND[main.example.type].standard}
                </dd>
              </div>
            </dl>
          </div>
          <div className="card quote-card" id="quote">
            <div className="card__body stack">
              <h2 className="quote-card__title">Get your instant free quote in {town.town.name}</h2>
              <p className="muted">Add the street to the address. No upfront payment.</p>
              <Island
                component={QuoteForm}
                props={{ id: "local", defaultAddress: place }}
                hydrate="interaction"
                isPure
              />
            </div>
          </div>
        </div>
      </section>

      <div className="container service-body">
        <section className="service-section" aria-labelledby="prices-title">
          <h2 id="prices-title">What a survey costs in {place}</h2>
          <p>
            Prices from Meridian's pricing (version {data.pricingVersion}) for a typical job, with
            {" "}
            {data.stateName}'s regional cost index. Your instant quote prices your own parcel.
          </p>
          <TableRegion label="Prices">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Survey</th>
                  <th scope="col">Example job</th>
                  <th scope="col">Price</th>
                  <th scope="col">Turnaround</th>
                  <th scope="col">Lead price for surveyors</th>
                </tr>
              </thead>
              <tbody>
                {types.map((t) => (
                  <tr key={t}>
                    <th scope="row">
                      <a href={townPath(data.state, town.slug, t)}>{SURVEY_TYPE_INFO[t].name}</a>
                    </th>
                    <td>{prices[t].example.lot}</td>
                    <td>{formatCents(prices[t].totalCents)}</td>
                    <td>{prices[t].quote.turnaround}</td>
                    <td>{formatLeadPrice(prices[t].leadCents)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
          <h3>
            How the {SURVEY_TYPE_INFO[main.example.type].name.toLowerCase()} price adds up
          </h3>
          <ul className="bullet-list">
            {main.quote.lineItems.map((item) => (
              <li key={item.key}>
                {item.label}: {formatCents(item.amountCents)} ({item.detail})
              </li>
            ))}
            <li>
              <strong>Total: {formatCents(main.totalCents)}</strong>
            </li>
          </ul>
          <h3>What moves the price</h3>
          <ul className="bullet-list">
            <li>Lot size: acres beyond those included in the base price are charged per acre.</li>
            <li>Terrain and vegetation: rolling, hilly or wooded ground takes the crew longer.</li>
            <li>Structures, corners to set and missing corner records.</li>
            <li>Rush: expedited and rush turnaround cost more.</li>
            <li>The {data.stateName} regional cost index applies to every job here.</li>
          </ul>
          <p className="muted">
            Surveyors pay Meridian a lead price for each job they take; clients pay nothing to
            request a quote.
          </p>
        </section>

        <section className="service-section" aria-labelledby="firms-title">
          <h2 id="firms-title">Verified land surveyors covering {place}</h2>
          <p>
            {firmCount === 1 ? "One firm" : `${firmCount} firms`} licensed in{" "}
            {data.stateName}, checked by Meridian, with {town.town.name}{" "}
            inside their service area. Typical turnaround for a{" "}
            {SURVEY_TYPE_INFO[main.example.type].name.toLowerCase()}:{" "}
            {TURNAROUND[main.example.type].standard}.
          </p>
          <ul className="bullet-list" dangerouslySetInnerHTML={{ __html: firmItemsHtml(town) }} />
          {firmCount > LISTED_FIRMS && <p className="muted">And {firmCount - LISTED_FIRMS} more.
          </p>}
        </section>

        <section className="service-section" aria-labelledby="recent-title">
          <h2 id="recent-title">Recent surveys near {town.town.name}</h2>
          {data.recent.length === 0
            ? <p>No completed surveys within 30 miles yet.</p>
            : (
              <TableRegion label="Recent surveys">
                <table className="table">
                  <thead>
                    <tr>
                      <th scope="col">Survey</th>
                      <th scope="col">ZIP</th>
                      <th scope="col">Lot size</th>
                      <th scope="col">Price</th>
                      <th scope="col">Days to delivery</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.recent.map((s, i) => (
                      <tr key={i}>
                        <td>{typeName(s.surveyType)}</td>
                        <td>{s.zip ?? "—"}</td>
                        <td>{acres(s.acreage)}</td>
                        <td>{s.priceCents === null ? "Quoted" : formatCents(s.priceCents)}</td>
                        <td>{s.daysToDelivery}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableRegion>
            )}
        </section>

        <section className="service-section" aria-labelledby="faq-title">
          <h2 id="faq-title">Questions about surveys in {place}</h2>
          <Faqs faqs={data.faqs} />
        </section>

        <section className="service-section" aria-labelledby="nearby-title">
          <h2 id="nearby-title">Nearby towns</h2>
          <ul className="bullet-list">
            {data.nearby.map((t) => (
              <li key={t.slug}>
                <a href={townPath(data.state, t.slug, type ?? undefined)}>
                  {type ? `${SURVEY_TYPE_INFO[type].name} in ` : "Land surveyors in "}
                  {t.town.name}, {data.state}
                </a>
              </li>
            ))}
            <li>
              <a href={statePath(data.state)}>Every town served in {data.stateName}</a>
            </li>
          </ul>
        </section>
      </div>
    </>
  );
}

/** What a state page shows. */
export interface StatePageData {
  state: string;
  stateName: string;
  towns: ServedTown[];
  firmCount: number;
  firms: { lat: number; lng: number; label: string; href: string }[];
  ranges: Record<PricedSurveyType, { low: number; high: number }>;
}

/** A state page: the towns served, price ranges per type, firm count and coverage map. */
export function StatePage({ data, user }: { data: StatePageData; user?: SessionUser | null }) {
  return (
    <PublicLayout user={user}>
      <section className="page-hero">
        <div className="container">
          <Breadcrumbs
            items={[{ href: "/", label: "Home" }, {
              label: `Land surveyors in ${data.stateName}`,
            }]}
          />
          <h1>Land Surveyors in {data.stateName}</h1>
          <p className="page-hero__lead">
            {data.firmCount === 1 ? "One verified firm" : `${data.firmCount} verified firms`}{" "}
            licensed in {data.stateName} serve {data.towns.length}{" "}
            {data.towns.length === 1 ? "town" : "towns"} through Meridian, with instant prices.
          </p>
        </div>
      </section>
      <div className="container service-body">
        <section className="service-section" aria-labelledby="ranges-title">
          <h2 id="ranges-title">Survey prices in {data.stateName}</h2>
          <TableRegion label="Survey prices">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Survey</th>
                  <th scope="col">Typical price</th>
                </tr>
              </thead>
              <tbody>
                {PRICED_SURVEY_TYPES.map((t) => (
                  <tr key={t}>
                    <th scope="row">
                      <a href={SURVEY_TYPE_INFO[t].path}>{SURVEY_TYPE_INFO[t].name}</a>
                    </th>
                    <td>
                      {data.ranges[t].low === data.ranges[t].high
                        ? formatCents(data.ranges[t].low)
                        : `${formatCents(data.ranges[t].low)}–${formatCents(data.ranges[t].high)}`}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        </section>
        <section className="service-section" aria-labelledby="map-title">
          <h2 id="map-title">Coverage</h2>
          <UsMap
            title={`Offices of verified firms licensed in ${data.stateName}`}
            fit="points"
            points={data.firms.map((f) => ({ ...f, kind: "in_network" }))}
          />
        </section>
        <section className="service-section" aria-labelledby="towns-title">
          <h2 id="towns-title">Towns served in {data.stateName}</h2>
          <ul className="bullet-list local-towns">
            {data.towns.map((t) => (
              <li key={t.slug}>
                <a href={townPath(data.state, t.slug)}>{t.town.name}</a>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </PublicLayout>
  );
}
