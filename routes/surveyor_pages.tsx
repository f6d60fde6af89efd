import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { ownViewerPage, requirePageRole, settleViewer, viewerIdOf } from "./_auth.ts";
import { appPage, rememberedAppPage } from "./_app_page.tsx";
import { Card, PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import { type MapPoint, UsMap, UsMapTable } from "../components/UsMap.tsx";
import SurveyorDirectory from "../islands/SurveyorDirectory.tsx";
import SurveyorDetail from "../islands/SurveyorDetail.tsx";
import SurveyorAccountPanel from "../islands/SurveyorAccountPanel.tsx";
import { LICENCE_CHECKS_PATH, stateNames } from "../lib/surveyor_licence.ts";
import VerifySurveyor from "../islands/VerifySurveyor.tsx";
import { ClaimRequestsCard } from "../components/ClaimRequestsCard.tsx";
import type { SurveyorVerification } from "../db/claim_tokens.ts";
import { ADMIN_LEDGER_SHOWN, BalanceCard, balanceCardProps } from "./billing_pages.tsx";
import { getSurveyorRecordWithViewer } from "../db/surveyor_record.ts";
import type { SurveyorAccount } from "../lib/surveyor_profile.ts";
import { TableRegion } from "../islands/_table.tsx";
import {
  formatDay,
  placeOf,
  STATUS_LABELS,
  type SurveyorFilters,
} from "../islands/_surveyor_shared.ts";
import { formatMiles } from "../islands/_dispatch_format.ts";
import {
  listSurveyorDirectory,
  listSurveyorLocations,
  type SurveyorLocation,
  type SurveyorWorkLead,
  type SurveyorWorkSurvey,
} from "../db/surveyors.ts";
import { SurveyorReviews } from "../components/SurveyorReviews.tsx";
import {
  DEFAULT_SURVEYOR_PAGE_SIZE,
  MAX_SURVEYOR_PAGE_SIZE,
  type Surveyor,
  SURVEYOR_STATUSES,
} from "../lib/surveyor_schema.ts";
import { SURVEY_TYPE_INFO, SURVEY_TYPES } from "../lib/survey_types.ts";
import { STATE_CODES, US_STATES } from "../lib/survey_options.ts";
import { STATUS_INFO } from "../lib/survey_status.ts";
import { formatCents } from "../lib/quote_text.ts";
import { formatInteger } from "../lib/numbers.ts";

/** How many history entries the record's page shows (newest first). */
export const HISTORY_SHOWN = 50;

/** How many surveyors the directory's map draws at most: the first page of 100, A to Z. */
export const MAP_LIMIT = MAX_SURVEYOR_PAGE_SIZE;

// The directory's filters come from the address: an invalid one is dropped, never a 400 page.
const DirectoryQuery = z.object({
  q: z.string().max(200).optional().catch(undefined),
  state: z.enum(STATE_CODES).optional().catch(undefined),
  surveyType: z.enum(SURVEY_TYPES).optional().catch(undefined),
  status: z.enum(SURVEYOR_STATUSES).optional().catch(undefined),
  inNetworkOnly: z.enum(["true", "false"]).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
});

// Any id string is accepted here; an unknown or malformed one is the 404 page.

/** The directory's filters as the page shows them, and as the list queries take them. */
function directoryFilters(given: z.infer<typeof DirectoryQuery>) {
  const filters: SurveyorFilters = {
    q: given.q?.trim() ?? "",
    state: given.state ?? "",
    surveyType: given.surveyType ?? "",
    status: given.status ?? "",
    inNetworkOnly: given.inNetworkOnly === "true" ? "true" : "",
  };
  const query = {
    q: filters.q || undefined,
    state: given.state,
    surveyType: given.surveyType,
    status: given.status,
    inNetworkOnly: filters.inNetworkOnly === "true",
  };
  return { filters, query };
}

/** In words, what the filters ask for ("in network, in Texas, matching “austin”"). */
function describeFilters(f: SurveyorFilters): string {
  const parts = [
    f.inNetworkOnly ? "in network" : "",
    f.status ? `status ${STATUS_LABELS[f.status as keyof typeof STATUS_LABELS]}` : "",
    f.state ? `in ${US_STATES[f.state as keyof typeof US_STATES]}` : "",
    f.surveyType
      ? `offering ${SURVEY_TYPE_INFO[f.surveyType as keyof typeof SURVEY_TYPE_INFO].name}`
      : "",
    f.q ? `matching “${f.q}”` : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "all surveyors";
}

function mapPoint(s: SurveyorLocation): MapPoint | undefined {
  if (s.lat === null || s.lng === null) return undefined;
  return {
    lat: s.lat,
    lng: s.lng,
    kind: s.inNetwork ? "in_network" : s.status === "prospect" ? "prospect" : "out_of_network",
    label: s.companyName,
    href: `/surveyor-detail/${s.id}`,
  };
}

/** The directory's filters as a query string ("" for none), for links that keep them. */
function filtersQuery(f: SurveyorFilters): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(f)) if (value) params.set(key, value);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/**
 * The map's points of a frozen array of locations (the directory's, which db/surveyors.ts hands
 * back the same while its text is the same), made once and frozen, so the map finds their JSON
 * remembered too (components/UsMap.tsx).
 */
const pointsOfLocations = new WeakMap<readonly SurveyorLocation[], readonly MapPoint[]>();

function mapPoints(surveyors: readonly SurveyorLocation[]): readonly MapPoint[] {
  let points = pointsOfLocations.get(surveyors);
  if (points === undefined) {
    points = surveyors.map(mapPoint).filter((p): p is MapPoint => p !== undefined);
    if (Object.isFrozen(surveyors)) {
      points = Object.freeze(points.map((p) => Object.freeze(p)));
      pointsOfLocations.set(surveyors, points);
    }
  }
  return points;
}

/** The coverage map of the directory's first page of 100 for the filters in the address. */
function CoverageMap({ surveyors, total, filters }: {
  surveyors: readonly SurveyorLocation[];
  total: number;
  filters: SurveyorFilters;
}) {
  const points = mapPoints(surveyors);
  const unplaced = surveyors.length - points.length;
  const scope = total > surveyors.length
    ? `the first ${formatInteger(surveyors.length)} of ${formatInteger(total)} surveyors (A to Z)`
    : `all ${formatInteger(total)} surveyor${total === 1 ? "" : "s"}`;
  const caption = `Drawn for ${describeFilters(filters)} as the page loaded: ${scope}` +
    (unplaced ? `; ${formatInteger(unplaced)} without an office location are not drawn.` : ".") +
    " Reload the page to redraw it for other filters.";
  return (
    <Card id="surveyor-map-title" title="Coverage map">
      <UsMap
        title="Surveyor offices"
        points={points}
        caption={caption}
        tableHref={`/surveyors/map-table${filtersQuery(filters)}`}
      />
    </Card>
  );
}

const OUTCOME_LABELS: Record<SurveyorWorkLead["outcome"], { label: string; badge: string }> = {
  sent: { label: "Sent", badge: "neutral" },
  viewed: { label: "Viewed", badge: "info" },
  purchased: { label: "Purchased", badge: "success" },
  claimed: { label: "Claimed", badge: "success" },
  declined: { label: "Declined", badge: "warning" },
  expired: { label: "Expired", badge: "neutral" },
};

function LeadsSent({ leads }: { leads: SurveyorWorkLead[] }) {
  return (
    <Card id="surveyor-leads-title" title="Leads sent" aside={<CountBadge n={leads.length} />}>
      {leads.length === 0
        ? <p className="muted">No leads have been offered to this surveyor yet.</p>
        : (
          <TableRegion label="Leads sent">
            <table className="table table--cards surveyor-work">
              <caption className="visually-hidden">
                Leads offered to this surveyor, newest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Sent</th>
                  <th scope="col">Lead</th>
                  <th scope="col">Survey type</th>
                  <th scope="col">Place</th>
                  <th scope="col">Price</th>
                  <th scope="col">Outcome</th>
                </tr>
              </thead>
              <tbody>
                {leads.map((l) => (
                  <tr key={l.leadId}>
                    <td data-label="Sent">
                      <time dateTime={l.notifiedAt}>{formatDay(l.notifiedAt)}</time>
                    </td>
                    <th scope="row" data-label="Lead">
                      <a href={`/survey/${l.surveyId}`}>
                        {`Request ${l.surveyId.slice(0, 8)}`}
                      </a>
                      <span className="surveyor-table__sub">
                        {l.kind === "invited" ? "Invited by email" : "Notified"}
                        {l.leadStatus === "closed" ? " · lead closed" : ""}
                      </span>
                    </th>
                    <td data-label="Survey type">
                      {SURVEY_TYPE_INFO[l.surveyType]?.name ?? l.surveyType}
                    </td>
                    <td data-label="Place">
                      {placeOf(l)}
                      {l.distanceMiles !== null
                        ? (
                          <span className="surveyor-table__sub">
                            {formatMiles(l.distanceMiles)} away
                          </span>
                        )
                        : null}
                    </td>
                    <td data-label="Price" className="surveyor-table__num">
                      {formatCents(l.priceCents)}
                    </td>
                    <td data-label="Outcome">
                      <span className={`badge badge--${OUTCOME_LABELS[l.outcome].badge}`}>
                        {OUTCOME_LABELS[l.outcome].label}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
    </Card>
  );
}

function AssignedSurveys({ surveys }: { surveys: SurveyorWorkSurvey[] }) {
  return (
    <Card id="surveyor-surveys-title" title="Surveys" aside={<CountBadge n={surveys.length} />}>
      {surveys.length === 0
        ? <p className="muted">No surveys are assigned to this surveyor.</p>
        : (
          <TableRegion label="Assigned surveys">
            <table className="table table--cards surveyor-work">
              <caption className="visually-hidden">
                Surveys assigned to this surveyor, newest first
              </caption>
              <thead>
                <tr>
                  <th scope="col">Requested</th>
                  <th scope="col">Survey</th>
                  <th scope="col">Place</th>
                  <th scope="col">Quote</th>
                  <th scope="col">Scheduled</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {surveys.map((s) => (
                  <tr key={s.id}>
                    <td data-label="Requested">
                      <time dateTime={s.createdAt}>{formatDay(s.createdAt)}</time>
                    </td>
                    <th scope="row" data-label="Survey">
                      <a href={`/survey/${s.id}`}>
                        {SURVEY_TYPE_INFO[s.surveyType]?.name ?? s.surveyType}
                      </a>
                    </th>
                    <td data-label="Place">{placeOf(s)}</td>
                    <td data-label="Quote" className="surveyor-table__num">
                      {s.quotedPriceCents === null
                        ? "Quote required"
                        : formatCents(s.quotedPriceCents)}
                    </td>
                    <td data-label="Scheduled">
                      {s.scheduledDate ? formatDay(s.scheduledDate) : "Not yet"}
                    </td>
                    <td data-label="Status">
                      <span className={`badge badge--${STATUS_INFO[s.status].badge}`}>
                        {STATUS_INFO[s.status].label}
                      </span>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
    </Card>
  );
}

function CountBadge({ n }: { n: number }) {
  return <span className="badge badge--neutral">{formatInteger(n)}</span>;
}

/**
 * The "Licence check" card (islands/VerifySurveyor): "Verify licence" for a record waiting
 * for it (pending, or prospect/invited with an account), else when, how and by whom it was
 * verified (every active record is).
 */
function LicenceCard({ surveyor, verification }: {
  surveyor: Surveyor;
  verification: SurveyorVerification | undefined;
}) {
  const canVerify = surveyor.status === "pending" ||
    (surveyor.userId !== null && (surveyor.status === "prospect" || surveyor.status === "invited"));
  return (
    <Card id="surveyor-licence-title" title="Licence check">
      <Island
        component={VerifySurveyor}
        props={{
          surveyorId: surveyor.id,
          companyName: surveyor.companyName,
          licenseNumber: surveyor.licenseNumber,
          licenseStates: surveyor.licenseStates,
          status: surveyor.status,
          canVerify,
          verifiedAt: verification?.verifiedAt?.toISOString() ?? null,
          verifiedVia: verification?.verifiedVia ?? null,
          verifiedByName: verification?.verifiedByName ?? null,
        }}
        hydrate="load"
      />
      <LicenceRequestsLine surveyor={surveyor} />
    </Card>
  );
}

/** What the firm's surveyor asked for since its licence was verified, with the queue's link. */
function LicenceRequestsLine({ surveyor }: { surveyor: Surveyor }) {
  const asked = [
    surveyor.pendingLicenseStates.length
      ? `licence in ${stateNames(surveyor.pendingLicenseStates)}`
      : null,
    surveyor.pendingLicenseNumber ? `new licence number ${surveyor.pendingLicenseNumber}` : null,
  ].filter(Boolean);
  const rejected = surveyor.rejectedLicenseStates;
  if (!asked.length && !rejected.length) return null;
  return (
    <>
      {asked.length
        ? (
          <p>
            {`Waiting for a licence check: ${
              asked.join(" and ")
            }. It does not count for leads until verified in `}
            <a href={LICENCE_CHECKS_PATH}>Licence checks</a>.
          </p>
        )
        : null}
      {rejected.length ? <p>{`Rejected: ${stateNames(rejected)}.`}</p> : null}
    </>
  );
}

/**
 * The "Account" card: the surveyor's sign-in account (name, email, last sign-in) or none,
 * with the admin's actions (islands/SurveyorAccountPanel: invite by email, link an existing
 * surveyor account, resend, unlink).
 */
function AccountCard({ surveyorId, recordEmail, account }: {
  surveyorId: string;
  recordEmail: string | null;
  account: SurveyorAccount | null;
}) {
  return (
    <Card id="surveyor-account-title" title="Account">
      <Island
        component={SurveyorAccountPanel}
        props={{ surveyorId, recordEmail, account }}
        hydrate="load"
      />
    </Card>
  );
}

/** The directory, which reads its viewer in its own statement. */
const DIRECTORY = ownViewerPage("/surveyors", "admin");

/** A surveyor's record, which reads its viewer in its own statement. */
const RECORD = ownViewerPage("/surveyor-detail/:id", "admin");

/**
 * The admin's surveyor pages: the directory (/surveyors: counts, search, filters, the table
 * and the coverage map) and one record (/surveyor-detail/{id}: profile and coverage, contacts,
 * contact history, leads sent and surveys). Admins only; signed-out visitors go to
 * /auth?returnTo=…, other roles get the 403 page, and an unknown id is the 404 page.
 */
export const surveyorPages = new Hono<AppEnv>()
  .get(
    DIRECTORY.path,
    DIRECTORY.guard,
    zValidator("query", DirectoryQuery, onInvalid),
    async (c) => {
      const given = c.req.valid("query");
      const page = given.page ?? 1;
      const { filters, query } = directoryFilters(given);
      const pageSize = DEFAULT_SURVEYOR_PAGE_SIZE;
      // The table shows the page; the map draws the first 100 matches (their locations only),
      // read with the page, the counts and the admin in one statement, shown once the session
      // is settled (routes/_auth.ts `ownViewerPage`).
      const { located, viewer, ...shown } = await listSurveyorDirectory(
        c.var.db,
        { ...query, page, pageSize },
        MAP_LIMIT,
        { viewerId: viewerIdOf(c) },
      );
      const denied = await settleViewer(c, DIRECTORY, viewer);
      if (denied) return denied;
      const { counts } = shown;
      const shownPage = { total: shown.total, page, pageSize, counts };
      // Remembered whole while its data is (routes/_remembered_pages.ts); it reads no clock.
      return rememberedAppPage(
        c,
        { title: "Surveyors", active: "/surveyors" },
        `surveyors ${viewerIdOf(c)} ${JSON.stringify(query)} ${page}`,
        [filters, query, page, shown.rows, shown.total, counts, located],
        () => (
          <>
            <PageHeader
              title="Surveyors"
              intro="The surveyor network: firms in network, prospects being recruited, and their coverage. Open a record to edit it, add contacts or log a call."
            />
            <section className="surveyor-directory-page" aria-labelledby="surveyor-list-title">
              <h2 id="surveyor-list-title" className="visually-hidden">Directory</h2>
              <Island
                component={SurveyorDirectory}
                props={{
                  initial: shown.rows.length ? shownPage : { rows: shown.rows, ...shownPage },
                  filters,
                }}
                // The rows go to the browser once, as HTML (server-only props, components/Island.tsx).
                serverProps={{ initial: { rows: shown.rows, ...shownPage } }}
                hydrate="load"
                isPure
              />
            </section>
            <CoverageMap surveyors={located} total={shown.total} filters={filters} />
          </>
        ),
      );
    },
  )
  .get(
    "/surveyors/map-table",
    requirePageRole("admin"),
    zValidator("query", DirectoryQuery, onInvalid),
    async (c) => {
      const { filters, query } = directoryFilters(c.req.valid("query"));
      const located = await listSurveyorLocations(c.var.db, query, MAP_LIMIT);
      const points = located.map(mapPoint).filter((p): p is MapPoint => p !== undefined);
      const back = `/surveyors${filtersQuery(filters)}`;
      return appPage(
        c,
        { title: "Surveyor offices on the map", active: "/surveyors" },
        <>
          <p className="survey-page__back">
            <a href={back}>← Back to surveyors</a>
          </p>
          <PageHeader
            title="Surveyor offices on the map"
            intro={`The coverage map's data for ${describeFilters(filters)}: the first ${
              formatInteger(MAP_LIMIT)
            } surveyors (A to Z) with an office location.`}
          />
          <Card id="surveyor-map-table-title" title="Surveyor offices">
            <UsMapTable title="Surveyor offices" points={points} />
          </Card>
        </>,
      );
    },
  )
  .get(RECORD.path, RECORD.guard, async (c) => {
    // The admin and the whole record in one statement (db/surveyor_record.ts).
    const { viewer, record } = await getSurveyorRecordWithViewer(c.var.db, {
      viewerId: viewerIdOf(c),
      id: c.req.param("id") ?? "",
      historyLimit: HISTORY_SHOWN,
      ledgerLimit: ADMIN_LEDGER_SHOWN + 1,
    });
    const denied = await settleViewer(c, RECORD, viewer);
    if (denied) return denied;
    if (!record) throw new HTTPException(404, { message: "Surveyor not found" });
    const { surveyor, history, work, account, verification, reviews, claimRequests } = record;
    const balance = balanceCardProps(surveyor.id, record.balanceCents, record.ledger);
    // Read afresh at every request; sent as it was last rendered while nothing it shows has
    // changed (routes/_remembered_pages.ts): it reads no clock (its times are written in UTC
    // on the server, the browser's own once hydrated).
    return rememberedAppPage(
      c,
      { title: surveyor.companyName, active: "/surveyors" },
      `surveyor-record ${viewerIdOf(c)} ${surveyor.id}`,
      record,
      () => (
        <div className="surveyor-page">
          <p className="surveyor-page__back">
            <a href="/surveyors">← Back to surveyors</a>
          </p>
          <PageHeader
            title={surveyor.companyName}
            intro="Profile and coverage, contacts and contact history, and the work sent to this surveyor."
          />
          <Island
            component={SurveyorDetail}
            props={{ surveyor, history, historyLimit: HISTORY_SHOWN }}
            hydrate="load"
          />
          <div className="surveyor-page__work">
            <LicenceCard surveyor={surveyor} verification={verification} />
            <ClaimRequestsCard surveyorId={surveyor.id} requests={claimRequests} />
            <AccountCard
              surveyorId={surveyor.id}
              recordEmail={surveyor.email}
              account={account}
            />
            <BalanceCard card={balance} />
            <LeadsSent leads={work.leads} />
            <AssignedSurveys surveys={work.surveys} />
            <SurveyorReviews {...reviews} />
          </div>
        </div>
      ),
    );
  });
