/**
 * Local pages (issue 24): a state's served towns, and a town's prices, firms, recent surveys,
 * quote form and questions. Server-only; the quote form is the page's only island.
 */
import type { ReactElement, ReactNode } from "react";
import { renderToString } from "./react_server.ts";
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

/** Firms a town page lists. */
const LISTED_FIRMS = 25;

/** The `<li>`s of the firms covering `town` (React escapes their names: user data). */
function FirmItems({ town }: { town: ServedTown }) {
  return (
    <>
      {town.firms.slice(0, LISTED_FIRMS).map(({ firm, miles }) => (
        <li key={firm.id}>
          <a href={`/firms/${firm.slug}`}>{firm.companyName}</a>
          {firm.city ? ` — office in ${firm.city}${firm.state ? `, ${firm.state}` : ""}` : ""}
          {`, ${Math.round(miles)} mi away`}
        </li>
      ))}
    </>
  );
}

/**
 * Where `TownPage` or `StatePage` with `layout="marks"` leaves the signed-out public layout's header and
 * footer out, for `withSignedOutLayout` to put back. Control characters: React writes them as
 * they are, and the page's JSON-LD (after the layout) cannot hold them raw.
 */
const BEFORE_MAIN_MARK = "\u0001layout-before-main\u0001";
const AFTER_MAIN_MARK = "\u0001layout-after-main\u0001";

/**
 * `children` between the layout's marks, where `PublicLayout` puts them: the third of four
 * children (skip link, header, main, footer). React's `useId` numbers by that position, so the
 * ids inside (the state page's map has some) are the ones the layout gives.
 */
function LayoutMarks({ children }: { children: ReactNode }) {
  return <>{BEFORE_MAIN_MARK}{null}{children}{AFTER_MAIN_MARK}</>;
}

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
 * A page rendered from `<TownPage layout="marks">` (or `StatePage`'s) with the signed-out
 * layout's header and footer in place: the same bytes as rendering `PublicLayout`
 * (tests/lib/local_pages_test.ts compares them), without rendering its 70-odd elements again
 * for each of 169k pages. The header mark is the first (it precedes everything the page shows),
 * the footer mark the last (only a town page's JSON-LD follows, which escapes control
 * characters), so no text a firm typed can stand in for either.
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
 * A town page (all types, or one type's). With `layout="marks"` (signed out only, the pages
 * built by the thousand and kept) the header and footer are left as marks for
 * `withSignedOutLayout`, and the blocks a town's six pages or a state's towns share are put in
 * as the HTML React gave them the first time (`keptTownHtml`): the same bytes, without rendering
 * them again for each page. Rendered whole, every part is rendered.
 */
export function TownPage(
  { data, user, layout = "render" }: {
    data: TownPageData;
    user?: SessionUser | null;
    layout?: "render" | "marks";
  },
) {
  if (layout === "marks" && !user) {
    return (
      <LayoutMarks>
        <TownPageContent data={data} isKept />
      </LayoutMarks>
    );
  }
  return (
    <PublicLayout user={user}>
      <TownPageContent data={data} isKept={false} />
    </PublicLayout>
  );
}

/**
 * The HTML React gives a block on its own, rendered once per town (or state) and `key`, then
 * kept: the same bytes as in the page, for a block that holds no island and is whole elements
 * (text next to text would be separated by `<!-- -->`). A served town and a state's prices are
 * rebuilt whenever what they hold changes (a new cache key), so a kept block is never older than
 * the page.
 */
function keptTownHtml(town: ServedTown, key: string, block: () => ReactElement): string {
  let blocks = townBlocks.get(town);
  if (!blocks) {
    townBlocks.set(town, blocks = new Map());
    if (townBlocks.size > TOWN_BLOCKS_MAX) townBlocks.delete(townBlocks.keys().next().value!);
  }
  return keptIn(blocks, key, block);
}

/** `keptTownHtml` for a block of a state's data: kept while its `owner` (prices) lives. */
function keptStateHtml(owner: object, key: string, block: () => ReactElement): string {
  let blocks = stateBlocks.get(owner);
  if (!blocks) stateBlocks.set(owner, blocks = new Map());
  return keptIn(blocks, key, block);
}

function keptIn(blocks: Map<string, string>, key: string, block: () => ReactElement): string {
  let html = blocks.get(key);
  if (html === undefined) blocks.set(key, html = renderToString(block()));
  return html;
}

/**
 * Blocks of recently built towns (the firm list, price rows, recent surveys: a town's six pages
 * are built one after another), oldest out: kept for every town until the next change, ~6 KB
 * each, they would grow the heap by well over 100 MB along a crawl of all 28k towns.
 */
const townBlocks = new Map<ServedTown, Map<string, string>>();
const TOWN_BLOCKS_MAX = 256;

/** Blocks of a state's data (its example jobs' line items, the price factors): few. */
const stateBlocks = new WeakMap<object, Map<string, string>>();

function TownPageContent({ data, isKept }: { data: TownPageData; isKept: boolean }) {
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
              {isKept
                ? (
                  <tbody
                    dangerouslySetInnerHTML={{
                      __html: types.map((t) =>
                        keptTownHtml(town, `price ${t}`, () => <PriceRow data={data} type={t} />)
                      ).join(""),
                    }}
                  />
                )
                : <tbody>{types.map((t) => <PriceRow key={t} data={data} type={t} />)}</tbody>}
            </table>
          </TableRegion>
          <h3>
            How the {SURVEY_TYPE_INFO[main.example.type].name.toLowerCase()} price adds up
          </h3>
          {isKept
            ? (
              <ul
                className="bullet-list"
                dangerouslySetInnerHTML={{
                  __html: keptStateHtml(main, "line items", () => <LineItems price={main} />),
                }}
              />
            )
            : (
              <ul className="bullet-list">
                <LineItems price={main} />
              </ul>
            )}
          <h3>What moves the price</h3>
          {isKept
            ? (
              <ul
                className="bullet-list"
                dangerouslySetInnerHTML={{
                  __html: keptStateHtml(
                    prices,
                    "price factors",
                    () => <PriceFactors stateName={data.stateName} />,
                  ),
                }}
              />
            )
            : (
              <ul className="bullet-list">
                <PriceFactors stateName={data.stateName} />
              </ul>
            )}
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
          {isKept
            ? (
              <ul
                className="bullet-list"
                dangerouslySetInnerHTML={{
                  __html: keptTownHtml(town, "firms", () => <FirmItems town={town} />),
                }}
              />
            )
            : (
              <ul className="bullet-list">
                <FirmItems town={town} />
              </ul>
            )}
          {firmCount > LISTED_FIRMS && <p className="muted">And {firmCount - LISTED_FIRMS} more.
          </p>}
        </section>

        <section className="service-section" aria-labelledby="recent-title">
          <h2 id="recent-title">Recent surveys near {town.town.name}</h2>
          {data.recent.length === 0
            ? <p>No completed surveys within 30 miles yet.</p>
            : (
              <TableRegion label="Recent surveys">
                {isKept
                  ? (
                    <table
                      className="table"
                      dangerouslySetInnerHTML={{
                        __html: keptTownHtml(
                          town,
                          "recent surveys",
                          () => <RecentSurveysTable recent={data.recent} />,
                        ),
                      }}
                    />
                  )
                  : (
                    <table className="table">
                      <RecentSurveysTable recent={data.recent} />
                    </table>
                  )}
              </TableRegion>
            )}
        </section>

        <section className="service-section" aria-labelledby="faq-title">
          <h2 id="faq-title">Questions about surveys in {place}</h2>
          {isKept ? keptFaqs(town, data.faqs) : <Faqs faqs={data.faqs} />}
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

/**
 * `<Faqs>` with each question's HTML kept per town and text: of a town's four questions only
 * the first (the page's type's) differs between its six pages. Each is `<Faqs>` of that one
 * question less the wrapper (what `<Faqs>` of none renders), put in the same wrapper here
 * (tests/lib/local_pages_test.ts compares the page with `<Faqs>` rendered whole).
 */
function keptFaqs(town: ServedTown, faqs: readonly Faq[]): ReactElement {
  const wrapper = faqsWrapper ??= renderToString(<Faqs faqs={[]} />);
  const openLength = wrapper.indexOf("</");
  const closeLength = wrapper.length - openLength;
  const items = faqs.map((faq) => {
    const one = keptTownHtml(town, `faq ${faq.q}\n${faq.a}`, () => <Faqs faqs={[faq]} />);
    return one.slice(openLength, one.length - closeLength);
  });
  return <div className="faqs" dangerouslySetInnerHTML={{ __html: items.join("") }} />;
}

/** `<Faqs>` of no question: its wrapper alone. */
let faqsWrapper: string | undefined;

/** A row of a town page's price table: the type's example job, its price and lead price. */
function PriceRow({ data, type }: { data: TownPageData; type: PricedSurveyType }) {
  const price = data.prices[type];
  return (
    <tr>
      <th scope="row">
        <a href={townPath(data.state, data.town.slug, type)}>{SURVEY_TYPE_INFO[type].name}</a>
      </th>
      <td>{price.example.lot}</td>
      <td>{formatCents(price.totalCents)}</td>
      <td>{price.quote.turnaround}</td>
      <td>{formatLeadPrice(price.leadCents)}</td>
    </tr>
  );
}

/** How the example job's price adds up (the `<li>`s). */
function LineItems({ price }: { price: ExamplePrice }) {
  return (
    <>
      {price.quote.lineItems.map((item) => (
        <li key={item.key}>
          {item.label}: {formatCents(item.amountCents)} ({item.detail})
        </li>
      ))}
      <li>
        <strong>Total: {formatCents(price.totalCents)}</strong>
      </li>
    </>
  );
}

/** What moves a price in the state (the `<li>`s). */
function PriceFactors({ stateName }: { stateName: string }) {
  return (
    <>
      <li>Lot size: acres beyond those included in the base price are charged per acre.</li>
      <li>Terrain and vegetation: rolling, hilly or wooded ground takes the crew longer.</li>
      <li>Structures, corners to set and missing corner records.</li>
      <li>Rush: expedited and rush turnaround cost more.</li>
      <li>The {stateName} regional cost index applies to every job here.</li>
    </>
  );
}

/** The recent surveys table's head and body. */
function RecentSurveysTable({ recent }: { recent: readonly RecentSurvey[] }) {
  return (
    <>
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
        {recent.map((s, i) => (
          <tr key={i}>
            <td>{typeName(s.surveyType)}</td>
            <td>{s.zip ?? "—"}</td>
            <td>{acres(s.acreage)}</td>
            <td>{s.priceCents === null ? "Quoted" : formatCents(s.priceCents)}</td>
            <td>{s.daysToDelivery}</td>
          </tr>
        ))}
      </tbody>
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

/**
 * A state page: the towns served, price ranges per type, firm count and coverage map. With
 * `layout="marks"` (signed out only) the header and footer are left as marks for
 * `withSignedOutLayout`, as on a town page.
 */
export function StatePage(
  { data, user, layout = "render" }: {
    data: StatePageData;
    user?: SessionUser | null;
    layout?: "render" | "marks";
  },
) {
  const content = <StatePageContent data={data} />;
  if (layout === "marks" && !user) return <LayoutMarks>{content}</LayoutMarks>;
  return <PublicLayout user={user}>{content}</PublicLayout>;
}

function StatePageContent({ data }: { data: StatePageData }) {
  return (
    <>
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
    </>
  );
}
