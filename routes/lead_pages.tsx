import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppContext, AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { type OwnViewerPage, ownViewerPage, settleViewer, viewerIdOf } from "./_auth.ts";
import { appPage, rememberedAppPage } from "./_app_page.tsx";
import { Card, EmptyState, PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import { type MapPoint, UsMap } from "../components/UsMap.tsx";
import { htmlPartsByInput } from "../components/html_cache.ts";
import {
  formatAge,
  formatExpiry,
  LeadCard,
  leadTitle,
  surveyTypeName,
} from "../components/LeadCard.tsx";
import AvailableLeads, {
  type AvailableLeadsProps,
  LEAD_DISTANCES,
  type LeadFilters,
  LeadListItem,
} from "../islands/AvailableLeads.tsx";
import LeadActions, { purchasedLeadPath } from "../islands/LeadActions.tsx";
import { TableRegion } from "../islands/_table.tsx";
import {
  getLeadForSurveyor,
  getSurveyorForUserWithViewer,
  getSurveyorWithAvailableLeads,
  LEADS_PAGE_SIZE,
  type MarketSurveyor,
} from "../db/lead_market.ts";
import { getLeadQuote, type LeadQuote } from "../db/lead_quote.ts";
import type { LeadSummary } from "../lib/lead_market_schema.ts";
import { SURVEY_TYPES } from "../lib/survey_types.ts";
import { formatLeadPrice } from "../lib/lead_pricing.ts";
import { formatCents, turnaroundLine } from "../lib/quote_text.ts";
import { formatInteger } from "../lib/numbers.ts";
import { REFUND_REQUEST_DAYS } from "../lib/refund_constants.ts";
import { mailDelivery } from "../lib/mail/delivery.ts";

// The list's filters come from the address: an invalid one is dropped, never a 400 page.
const ListQuery = z.object({
  surveyType: z.enum(SURVEY_TYPES).optional().catch(undefined),
  maxDistance: z.enum(LEAD_DISTANCES.map(String) as [string, ...string[]]).optional().catch(
    undefined,
  ),
  page: z.coerce.number().int().min(1).max(10_000).optional().catch(undefined),
});

// Any id string is accepted here; an unknown or malformed one is the 404 page.
const IdParam = z.object({ id: z.string() });

/** The balance line in the page header, with the way to add credit. */
function BalanceChip({ balanceCents }: { balanceCents: number }) {
  return (
    <p className="lead-balance">
      <span className="lead-balance__label">Balance</span>{" "}
      <strong data-testid="balance">{formatLeadPrice(balanceCents)}</strong>{" "}
      <a className="btn btn--secondary btn--sm" href="/surveyor/billing">Add credit</a>
    </p>
  );
}

/**
 * Why this surveyor cannot take leads yet, as an empty state; null when they can. Honest about
 * the cause: no linked record, a licence still being checked, a paused record, no office.
 * The same order as db/lead_market.ts `accountBlock`.
 */
function NotReady({ surveyor }: { surveyor: MarketSurveyor | undefined }) {
  if (surveyor?.status === "paused") {
    return (
      <EmptyState
        title="Your surveyor record is paused"
        action={<a className="btn btn--secondary" href="/support/contact">Contact us</a>}
      >
        Paused records are not offered leads and cannot buy them. Contact us to resume.
      </EmptyState>
    );
  }
  if (surveyor?.status === "pending") {
    return (
      <EmptyState
        title="Licence check in progress"
        action={<a className="btn btn--secondary" href="/profile">Review your profile</a>}
      >
        Meridian is checking your licence; you can buy leads once it is verified.
      </EmptyState>
    );
  }
  if (!surveyor || surveyor.status !== "active") {
    return (
      <EmptyState
        title="Your surveyor profile is being set up"
        action={<a className="btn btn--secondary" href="/support/contact">Contact us</a>}
      >
        Your surveyor profile is being set up: your account is not linked to an active surveyor
        record (your licence, office and the survey types you offer) yet. Once it is, the open leads
        near your office show here.
      </EmptyState>
    );
  }
  if (surveyor.lat === null || surveyor.lng === null) {
    return (
      <EmptyState
        title="Add your office location"
        action={
          <a className="btn btn--primary" href="/profile#coverage-heading">Edit your coverage</a>
        }
      >
        Leads are matched by their distance from your office, and your record has no office location
        yet. Pick your office address in your coverage to see the leads near you.
      </EmptyState>
    );
  }
  return null;
}

function describeFilters(f: LeadFilters): string {
  const parts = [
    f.surveyType ? surveyTypeName(f.surveyType) : "",
    f.maxDistance ? `within ${f.maxDistance} miles` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "all open leads";
}

/** Map points: the surveyor's office, then each lead at its approximate location. */
function leadMapPoints(surveyor: MarketSurveyor, leads: LeadSummary[]): MapPoint[] {
  const points: MapPoint[] = [];
  if (surveyor.lat !== null && surveyor.lng !== null) {
    points.push({
      lat: surveyor.lat,
      lng: surveyor.lng,
      kind: "office",
      label: `Your office (${surveyor.companyName})`,
    });
  }
  for (const lead of leads) {
    if (lead.approxLat === null || lead.approxLng === null) continue;
    points.push({
      lat: lead.approxLat,
      lng: lead.approxLng,
      kind: "property",
      label: leadTitle(lead),
      href: `/surveyor/leads/${encodeURIComponent(lead.id)}`,
      distanceMiles: lead.distanceMiles ?? undefined,
    });
  }
  return points;
}

function LeadMap({ surveyor, leads, total, filters }: {
  surveyor: MarketSurveyor;
  leads: LeadSummary[];
  total: number;
  filters: LeadFilters;
}) {
  const points = leadMapPoints(surveyor, leads);
  const scope = total > leads.length
    ? `the ${formatInteger(leads.length)} newest of ${formatInteger(total)} leads`
    : `${formatInteger(total)} lead${total === 1 ? "" : "s"}`;
  const caption = `Drawn for ${describeFilters(filters)} as the page loaded: ${scope}. ` +
    "Lead markers are approximate (the exact address unlocks when you buy). " +
    "Reload the page to redraw the map for other filters.";
  return (
    <Card id="lead-map-title" title="Map">
      <UsMap
        title="Your office and the available leads"
        points={points}
        fit="points"
        caption={caption}
      />
    </Card>
  );
}

/**
 * About 2 KB of HTML each, up to four versions of a lead (four surveyors' distances to it): some
 * 1.5 MB at most with the inputs kept.
 */
const leadItemHtml = htmlPartsByInput<{ age: string; expiry: string; lead: LeadSummary }>(
  400,
  Infinity,
  4,
);

/**
 * A lead's item of the available list as the server sends it (`LeadListItem`, not yet
 * hydrated), remembered by everything it shows (components/html_cache.ts): the summary as the
 * surveyor sees it (the distance from their office, whether they bought it) and its two times
 * as seen from `now`, the only way its markup reads `now`. The same input is the same HTML,
 * whoever asks, so nothing read from the cache is stale or another surveyor's; the markup is
 * React's, byte for byte (a test compares it with the island's own render). A reload of /leads
 * renders none of its twenty cards again.
 */
function leadListItemHtml(lead: LeadSummary, times: LeadTimes, now: string): string {
  return leadItemHtml(lead.id, { ...times, lead }, ({ lead }) => [
    <LeadListItem key="lead" lead={lead} now={now} isDisabled />,
  ])[0];
}

/** A lead's two times as its card shows them, seen from `now`: all its markup reads of `now`. */
interface LeadTimes {
  age: string;
  expiry: string;
}

function leadTimes(lead: LeadSummary, now: string): LeadTimes {
  return { age: formatAge(lead.createdAt, now), expiry: formatExpiry(lead.expiresAt, now) };
}

async function availableLeadsPage(c: AppContext, list: OwnViewerPage) {
  const query = ListQuery.parse(c.req.query());
  const page = query.page ?? 1;
  // The user, the surveyor and their leads in one statement; an account that cannot take leads
  // gets none. Shown once the session is settled with that user (routes/_auth.ts).
  const { viewer, surveyor, leads, total } = await getSurveyorWithAvailableLeads(c.var.db, {
    userId: viewerIdOf(c),
    withViewer: true,
    surveyType: query.surveyType,
    maxDistanceMiles: query.maxDistance ? Number(query.maxDistance) : undefined,
    page,
    pageSize: LEADS_PAGE_SIZE,
  });
  const denied = await settleViewer(c, list, viewer);
  if (denied) return denied;
  const header = (
    <PageHeader
      title="Available leads"
      intro="Open survey requests near your office that you can buy or claim. The client's name and contact details unlock when you buy."
      actions={surveyor ? <BalanceChip balanceCents={surveyor.balanceCents} /> : undefined}
    />
  );
  const meta = { title: "Available leads", active: "/leads" };
  const notReady = NotReady({ surveyor });
  if (!surveyor || notReady) return appPage(c, meta, <>{header}{notReady}</>);
  const filters: LeadFilters = {
    surveyType: query.surveyType ?? "",
    maxDistance: query.maxDistance ?? "",
  };
  // The page reads the clock only through its cards' two times ("2 hours ago", "Closes in 6
  // days"): seen from now, they are part of what it is remembered by (routes/_remembered_pages.ts),
  // so it is sent again as it was while the leads, the surveyor and every time shown are the same.
  const now = new Date().toISOString();
  const times = leads.map((lead) => leadTimes(lead, now));
  const shownPage = { total, page, pageSize: LEADS_PAGE_SIZE };
  const office: MarketSurveyor = surveyor;
  return rememberedAppPage(
    c,
    meta,
    `leads ${list.path} ${viewerIdOf(c)} ${filters.surveyType} ${filters.maxDistance} ${page}`,
    [filters, shownPage, surveyor, leads, times],
    () => (
      <>
        {header}
        <div className="lead-market">
          <section className="lead-market__list" aria-labelledby="lead-list-title">
            <h2 id="lead-list-title" className="visually-hidden">Leads</h2>
            <Island<AvailableLeadsProps>
              component={AvailableLeads}
              props={{
                initial: leads.length ? shownPage : { leads, ...shownPage },
                filters,
                mailDelivery: mailDelivery(c.var.deps.config),
              }}
              // The cards go to the browser once, as HTML (server-only props,
              // components/Island.tsx): each card rendered once and remembered
              // (leadListItemHtml).
              serverProps={{
                listHtml: leads.length
                  ? leads.map((lead, i) => leadListItemHtml(lead, times[i], now))
                  : undefined,
              }}
              hydrate="load"
            />
          </section>
          <aside className="lead-market__map" aria-label="Map of the leads">
            <LeadMap surveyor={office} leads={leads} total={total} filters={filters} />
          </aside>
        </div>
      </>
    ),
  );
}

/** The client's quote, line by line: what the job covers (no personal data in it). */
function QuoteCard({ quote }: { quote: LeadQuote }) {
  return (
    <Card id="lead-quote-title" title="The client's quote">
      {quote.quoteRequired
        ? (
          <p>
            No instant quote: this survey type is quoted by hand, so the client has no price yet.
            Buying the lead lets you quote it yourself.
          </p>
        )
        : (
          <TableRegion label="Quote breakdown">
            <table className="table lead-breakdown">
              <caption className="visually-hidden">
                The client's instant quote, line by line
              </caption>
              <thead>
                <tr>
                  <th scope="col">Item</th>
                  <th scope="col">Amount</th>
                </tr>
              </thead>
              <tbody>
                {quote.lineItems.map((line) => (
                  <tr key={line.key}>
                    <th scope="row">
                      {line.label}
                      <span className="lead-breakdown__detail">{line.detail}</span>
                    </th>
                    <td>{formatCents(line.amountCents)}</td>
                  </tr>
                ))}
                {quote.discountCents
                  ? (
                    <tr>
                      <th scope="row">Discount</th>
                      <td>{`−${formatCents(quote.discountCents)}`}</td>
                    </tr>
                  )
                  : null}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">Total</th>
                  <td>
                    {quote.totalCents === null ? "Quoted by hand" : formatCents(quote.totalCents)}
                  </td>
                </tr>
              </tfoot>
            </table>
          </TableRegion>
        )}
      <p className="muted lead-breakdown__turnaround">
        {turnaroundLine(quote)}
      </p>
    </Card>
  );
}

/** What buying unlocks, said plainly before anyone pays. */
function Unlocks({ lead }: { lead: LeadSummary }) {
  return (
    <Card id="lead-unlocks-title" title="What you get" bodyClass="stack">
      <p>
        Buying or claiming unlocks the client's name, phone, email, exact address, parcel data and
        the full request, on your purchased leads.
      </p>
      <p className="muted">
        {`This lead is shared with at most ${lead.maxBuyers} surveyors; ${
          lead.buyersCount === 0
            ? "nobody has bought it yet"
            : `${lead.buyersCount} already bought it`
        }. If the contact details turn out to be invalid, ask for a return within ${REFUND_REQUEST_DAYS} days; once approved, the price goes back to your balance.`}
      </p>
    </Card>
  );
}

/** The available leads, under both addresses, which read their viewer in their own statement. */
const LEADS = ownViewerPage("/leads", "surveyor");
const AVAILABLE_LEADS = ownViewerPage("/surveyor/available-leads", "surveyor");
/** One lead in full, which reads its viewer with the surveyor's record. */
const LEAD = ownViewerPage("/surveyor/leads/:id", "surveyor");

/**
 * The surveyor's lead pages: the available leads (/leads and /surveyor/available-leads, the
 * same list) and one lead in full before buying (/surveyor/leads/{id}), with Buy, Claim and
 * Not interested. Nothing on them names or reaches the client. Signed-out visitors go to
 * /auth?returnTo=…, other roles get the 403 page; a lead this surveyor may not see is the
 * 404 page.
 */
export const leadPages = new Hono<AppEnv>()
  .get(LEADS.path, LEADS.guard, (c) => availableLeadsPage(c, LEADS))
  .get(AVAILABLE_LEADS.path, AVAILABLE_LEADS.guard, (c) => availableLeadsPage(c, AVAILABLE_LEADS))
  .get(
    LEAD.path,
    LEAD.guard,
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const db = c.var.db;
      // The user and their firm's record in one statement; then the lead as they may see it
      // and its quote, side by side (the quote is shown only with the lead).
      const { viewer, surveyor } = await getSurveyorForUserWithViewer(db, {
        userId: viewerIdOf(c),
      });
      const denied = await settleViewer(c, LEAD, viewer);
      if (denied) return denied;
      const leadId = c.req.valid("param").id;
      const [lead, quote] = surveyor
        ? await Promise.all([
          getLeadForSurveyor(db, { leadId, surveyor }),
          getLeadQuote(db, { leadId }),
        ])
        : [undefined, undefined];
      if (!surveyor || !lead) throw new HTTPException(404, { message: "Lead not found" });
      const balanceCents = surveyor.balanceCents;
      const now = new Date().toISOString();
      const title = leadTitle(lead);
      const notReady = NotReady({ surveyor });
      const purchased = lead.viewer.purchased;
      // Sent as it was last rendered while the firm, the lead, its quote and the card's two
      // times seen from now ("2 hours ago", "Closes in 6 days": its only reads of the clock)
      // are the same (routes/_remembered_pages.ts).
      return rememberedAppPage(
        c,
        { title, active: "/leads" },
        `surveyor-lead ${viewerIdOf(c)} ${lead.id}`,
        [surveyor, lead, quote, leadTimes(lead, now)],
        () => (
          <>
            <p className="lead-back">
              <a href="/leads">← Available leads</a>
            </p>
            <PageHeader
              title={title}
              intro="The lead as every eligible surveyor sees it; the client's details unlock when you buy or claim it."
              actions={<BalanceChip balanceCents={balanceCents} />}
            />
            {purchased
              ? (
                <div className="alert alert--success lead-state" role="status">
                  <p>
                    <strong>
                      {purchased === "claim" ? "You claimed this lead." : "You bought this lead."}
                    </strong>{" "}
                    The client's details are on your purchased lead.
                  </p>
                  <p>
                    <a className="btn btn--primary btn--sm" href={purchasedLeadPath(lead.id)}>
                      Open your purchased lead
                    </a>
                  </p>
                </div>
              )
              : lead.status === "closed"
              ? (
                <div className="alert alert--info lead-state" role="status">
                  <p>
                    <strong>This lead is no longer available.</strong>{" "}
                    It sold out, was claimed, expired or the client withdrew the request, so it can
                    no longer be bought or claimed.
                  </p>
                  <p>
                    <a className="btn btn--secondary btn--sm" href="/leads">
                      See the open leads
                    </a>
                  </p>
                </div>
              )
              : null}
            <div className="lead-detail">
              <div className="lead-detail__summary">
                <LeadCard lead={lead} now={now} level={2} heading="Summary" />
              </div>
              <div className="lead-detail__side stack">
                {!purchased && lead.status === "open"
                  ? (
                    <Card id="lead-actions-title" title="Take this lead">
                      {notReady ?? (
                        <Island
                          component={LeadActions}
                          props={{ lead, balanceCents }}
                          hydrate="load"
                        />
                      )}
                    </Card>
                  )
                  : null}
                {lead.approxLat !== null && lead.approxLng !== null
                  ? (
                    <Card id="lead-map-title" title="Where it is">
                      <UsMap
                        title="Your office and this lead"
                        points={leadMapPoints(surveyor, [lead])}
                        fit="points"
                        caption="The lead's marker is approximate: the exact address unlocks when you buy."
                      />
                    </Card>
                  )
                  : null}
              </div>
              <div className="lead-detail__rest stack">
                {quote ? <QuoteCard quote={quote} /> : null}
                <Unlocks lead={lead} />
              </div>
            </div>
          </>
        ),
      );
    },
  );
