import type { ReactNode } from "react";
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { ownViewerPage, requirePageRole, settleViewer, viewerIdOf } from "./_auth.ts";
import { appPage, rememberedAppPage } from "./_app_page.tsx";
import { Card, EmptyState, PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import {
  ClientContact,
  leadAddress,
  paidText,
  PurchasedLeadCard,
  quoteText,
  typeName,
} from "../components/PurchasedLeadCard.tsx";
import { formatDate } from "../components/survey/format.ts";
import PipelineForm from "../islands/PipelineForm.tsx";
import AssignmentActions from "../islands/AssignmentActions.tsx";
import RefundRequestForm from "../islands/RefundRequestForm.tsx";
import { assignmentActionsProps } from "../lib/assignments.ts";
import { QuoteBreakdown } from "../islands/_create_survey/QuoteBreakdown.tsx";
import { getPurchasedLead, getSurveyorForUserWithViewer } from "../db/lead_market.ts";
import { getSurveyorByUserId } from "../db/surveyors.ts";
import { getOwnProposal } from "../db/proposals.ts";
import { SurveyorProposalCard } from "../components/Proposals.tsx";
import {
  getPurchasedRequestDetails,
  listOwnPurchasedLeads,
  type PurchasedRequestDetails,
} from "../db/surveyor_dashboard.ts";
import {
  PIPELINE_LABELS,
  PIPELINE_STATUSES,
  type PipelineStatus,
  type UnlockedLead,
} from "../lib/lead_market_schema.ts";
import {
  ALTA_TABLE_A_ITEMS,
  PROPERTY_TYPE_LABELS,
  type PropertyType,
  PURPOSE_INFO,
  RUSH_LABELS,
  type RushLevel,
  type SurveyPurpose,
  TERRAIN_LABELS,
  US_STATES,
  VEGETATION_LABELS,
} from "../lib/survey_options.ts";
import { STATUS_INFO } from "../lib/survey_status.ts";
import { formatCents } from "../lib/quote_text.ts";
import { describeLeadPrice } from "../lib/lead_pricing.ts";
import { formatDecimal, formatInteger } from "../lib/numbers.ts";
import { returnBlock } from "../lib/refund_constants.ts";
import { MessagesCard } from "../components/MessagesCard.tsx";
import { loadMessagesCard } from "../lib/messages.ts";

/** Purchased leads per page. */
export const PURCHASED_PAGE_SIZE = 10;

const LIST_PATH = "/surveyor/purchased-leads";
const LIST = ownViewerPage(LIST_PATH, "surveyor");

// The filter and page come from the address: an invalid one is dropped, never a 400 page.
const ListQuery = z.object({
  status: z.enum(PIPELINE_STATUSES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).optional().catch(undefined),
});

// Any id string is accepted here; an unknown or malformed one is the 404 page.
const IdParam = z.object({ id: z.string().max(100).catch("") });

function listHref(status: PipelineStatus | undefined, page = 1): string {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${LIST_PATH}?${query}` : LIST_PATH;
}

/** Quick filters by pipeline status, as links (the current one marked). */
function StatusFilter({ current }: { current: PipelineStatus | undefined }) {
  const choices: { status: PipelineStatus | undefined; label: string }[] = [
    { status: undefined, label: "All" },
    ...PIPELINE_STATUSES.map((s) => ({ status: s, label: PIPELINE_LABELS[s] })),
  ];
  return (
    <nav aria-label="Filter by pipeline status" className="purchased-filter">
      <ul className="purchased-filter__list">
        {choices.map(({ status, label }) => (
          <li key={label}>
            <a
              className="purchased-filter__link"
              href={listHref(status)}
              aria-current={status === current ? "page" : undefined}
            >
              {label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Previous / "Page n of m" / Next, keeping the filter. Nothing when one page holds all. */
function ListPager({ page, total, status }: {
  page: number;
  total: number;
  status: PipelineStatus | undefined;
}) {
  const pages = Math.max(1, Math.ceil(total / PURCHASED_PAGE_SIZE));
  if (pages <= 1) return null;
  return (
    <nav className="survey-pager" aria-label="Pages">
      {page > 1
        ? <a className="btn btn--secondary btn--sm" href={listHref(status, page - 1)}>Previous</a>
        : null}
      <span className="survey-pager__info">{`Page ${page} of ${pages}`}</span>
      {page < pages
        ? <a className="btn btn--secondary btn--sm" href={listHref(status, page + 1)}>Next</a>
        : null}
    </nav>
  );
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The client's request in full: everything they told us about the job. */
function RequestFacts({ lead, details }: {
  lead: UnlockedLead;
  details: PurchasedRequestDetails | undefined;
}) {
  const alta = (details?.altaItems ?? []).map((id) =>
    `${id}. ${ALTA_TABLE_A_ITEMS[id] ?? ""}`.trim()
  );
  return (
    <dl className="purchased-facts">
      <Fact term="Survey type">{typeName(lead.surveyType)}</Fact>
      <Fact term="Purpose">
        {PURPOSE_INFO[lead.purpose as SurveyPurpose]?.label ?? lead.purpose}
      </Fact>
      <Fact term="Property type">
        {PROPERTY_TYPE_LABELS[lead.propertyType as PropertyType] ?? lead.propertyType}
      </Fact>
      <Fact term="Lot size">
        {lead.acreage === null ? "Not given" : `${formatDecimal(lead.acreage)} acres`}
      </Fact>
      {details?.terrain
        ? <Fact term="Terrain">{TERRAIN_LABELS[details.terrain] ?? details.terrain}</Fact>
        : null}
      {details?.vegetation
        ? (
          <Fact term="Vegetation">
            {VEGETATION_LABELS[details.vegetation] ?? details.vegetation}
          </Fact>
        )
        : null}
      {details?.structures
        ? <Fact term="Structures">{formatInteger(details.structures)}</Fact>
        : null}
      {details && details.cornersKnown !== null
        ? <Fact term="Corners marked">{details.cornersKnown ? "Yes" : "No or not sure"}</Fact>
        : null}
      {details?.cornersToSet
        ? <Fact term="Corners to set">{formatInteger(details.cornersToSet)}</Fact>
        : null}
      {alta.length ? <Fact term="ALTA Table A items">{alta.join("; ")}</Fact> : null}
      <Fact term="Needed by">{lead.neededBy ? formatDate(lead.neededBy) : "No date given"}</Fact>
      <Fact term="Timing">{RUSH_LABELS[lead.rush as RushLevel] ?? lead.rush}</Fact>
      {lead.detailsHidden ? null : (
        <>
          <Fact term="Access notes">
            {lead.accessNotes ?? <span className="muted">None</span>}
          </Fact>
          <Fact term="Client's notes">
            {lead.notes ?? <span className="muted">None</span>}
          </Fact>
        </>
      )}
      <Fact term="State">{US_STATES[lead.state] ?? lead.state}</Fact>
      <Fact term="Request status">
        {STATUS_INFO[lead.surveyStatus]?.label ?? lead.surveyStatus}
      </Fact>
      <Fact term="Requested">{formatDate(lead.createdAt)}</Fact>
    </dl>
  );
}

/** What the parcel lookup found, when it found anything (also on /surveyor/jobs/{id}). */
export function ParcelFacts({ parcel }: { parcel: unknown }) {
  const p = parcel && typeof parcel === "object" ? parcel as Record<string, unknown> : null;
  const text = (key: string) =>
    p && (typeof p[key] === "string" || typeof p[key] === "number") ? String(p[key]) : null;
  const rows = [
    ["Parcel number", text("parcelNumber")],
    ["Owner of record", text("owner")],
    ["Parcel acreage", text("acreage") && `${formatDecimal(Number(text("acreage")))} acres`],
    ["Land use", text("landUse")],
    ["County", text("county")],
    ["Parcel address", text("address")],
    ["Source", text("source")],
  ].filter((r): r is [string, string] => Boolean(r[1]));
  if (rows.length === 0) {
    return <p className="muted">No parcel data was found for this address.</p>;
  }
  return (
    <dl className="purchased-facts">
      {rows.map(([term, value]) => <Fact key={term} term={term}>{value}</Fact>)}
    </dl>
  );
}

function PaymentCard({ lead }: { lead: UnlockedLead }) {
  return (
    <Card id="paid-title" title="What you paid" bodyClass="stack">
      <dl className="purchased-facts">
        <Fact term={lead.kind === "claim" ? "Claimed" : "Bought"}>
          <time dateTime={lead.purchasedAt}>{formatDate(lead.purchasedAt)}</time>
        </Fact>
        <Fact term="Charged">
          <span data-testid="charged">{paidText(lead)}</span>
        </Fact>
        <Fact term="Refunded">
          {lead.refundedAt
            ? `${formatCents(lead.chargedCents)} on ${formatDate(lead.refundedAt)}`
            : "No"}
        </Fact>
        <Fact term="Lead price">{formatCents(lead.priceCents)}</Fact>
      </dl>
      <p className="muted">{lead.formula || describeLeadPrice(lead.pricing)}</p>
    </Card>
  );
}

/**
 * "Request a return" (islands/RefundRequestForm): the form while a return may be asked for,
 * else why not (a free welcome claim, past the 14 days, returned, a request waiting or
 * decided, the lead became their won or assigned job), judged on the server's clock as the
 * page renders.
 */
function ReturnCard({ lead }: { lead: UnlockedLead }) {
  return (
    <div className="card purchased-return">
      <div className="card__body">
        <Island
          component={RefundRequestForm}
          props={{
            leadId: lead.id,
            chargedCents: lead.chargedCents,
            purchasedAt: lead.purchasedAt,
            refundedAt: lead.refundedAt,
            request: lead.refundRequest,
            now: new Date().toISOString(),
            blocked: returnBlock({
              pipelineStatus: lead.pipelineStatus,
              assignmentStatus: lead.assignment?.status ?? null,
            }),
          }}
          hydrate="idle"
        />
      </div>
    </div>
  );
}

/**
 * The assignment once there is one: how it came about, and the AssignmentActions island, which
 * shows its status, agreed price and visit day and the moves the surveyor may make (it keeps
 * them current after a move, so they are not repeated here).
 */
function AssignmentCard({ lead }: { lead: UnlockedLead }) {
  const a = lead.assignment;
  return (
    <Card id="assignment-title" title="Assignment" bodyClass="stack">
      {a
        ? (
          <>
            <Island
              component={AssignmentActions}
              props={assignmentActionsProps(a, "surveyor")}
              hydrate="idle"
            />
            <dl className="purchased-facts">
              <Fact term="Assigned">
                {a.source === "claim"
                  ? `When you claimed the lead, ${formatDate(a.createdAt)}`
                  : a.source === "proposal"
                  ? `When the client accepted your proposal, ${formatDate(a.createdAt)}`
                  : `By Meridian, ${formatDate(a.createdAt)}`}
              </Fact>
              {a.endedReason ? <Fact term="Reason">{a.endedReason}</Fact> : null}
            </dl>
          </>
        )
        : (
          <p className="muted">
            Not assigned yet. When the client accepts your proposal (or Meridian assigns you), the
            survey is assigned to you at the agreed price and it shows here, with the visit to
            schedule.
          </p>
        )}
    </Card>
  );
}

/** The surveyor's record id, or undefined when the account has no record (nothing bought). */
/**
 * The leads a surveyor bought or claimed (surveyors only): /surveyor/purchased-leads, newest
 * first and paginated, filtered by the buyer's pipeline status, with everything unlocked; and
 * one lead in full, /surveyor/purchased-leads/{id} (the lead's id): client, address, parcel,
 * the request, the quote, what was paid and refunded, the pipeline form, returns and the
 * assignment. Another surveyor's lead, or one never bought, is the 404 page.
 */
export const purchasedLeadPages = new Hono<AppEnv>()
  .get(
    LIST.path,
    LIST.guard,
    zValidator("query", ListQuery, onInvalid),
    async (c) => {
      const { status, page = 1 } = c.req.valid("query");
      // The user and their firm's record in one statement, then the page of purchases.
      const { viewer, surveyor } = await getSurveyorForUserWithViewer(c.var.db, {
        userId: viewerIdOf(c),
      });
      const denied = await settleViewer(c, LIST, viewer);
      if (denied) return denied;
      const surveyorId = surveyor?.id;
      const { leads, total } = surveyorId
        ? await listOwnPurchasedLeads(c.var.db, {
          surveyorId,
          pipelineStatus: status,
          page,
          pageSize: PURCHASED_PAGE_SIZE,
        })
        : { leads: [], total: 0 };
      // Sent as it was last rendered while the firm, the filter, the page and its purchases are
      // the same, value by value (routes/_remembered_pages.ts): the list reads no clock.
      return rememberedAppPage(
        c,
        { title: "Purchased leads", active: LIST_PATH },
        `purchased-leads ${c.var.user!.id} ${status ?? ""} ${page}`,
        [surveyorId ?? null, status ?? null, page, leads, total],
        () => (
          <div className="purchased-page stack">
            <PageHeader
              title="Purchased leads"
              intro="The leads you bought or claimed, newest first, with the client's contact details and your pipeline."
            />
            {surveyorId && (total > 0 || status) ? <StatusFilter current={status} /> : null}
            {total === 0
              ? (
                status
                  ? (
                    <EmptyState
                      title={`No leads marked ${PIPELINE_LABELS[status].toLowerCase()}`}
                      action={
                        <a className="btn btn--secondary" href={LIST_PATH}>
                          Show all purchased leads
                        </a>
                      }
                    >
                      None of your purchased leads has this pipeline status.
                    </EmptyState>
                  )
                  : (
                    <EmptyState
                      title="No purchased leads yet"
                      action={
                        <a className="btn btn--primary" href="/leads">Browse available leads</a>
                      }
                    >
                      Leads you buy or claim appear here with the client's name, phone and property
                      address, so you can get in touch and schedule the survey.
                    </EmptyState>
                  )
              )
              : (
                <>
                  <p className="muted" role="status">
                    {`${formatInteger(total)} ${total === 1 ? "lead" : "leads"}${
                      status ? ` marked ${PIPELINE_LABELS[status].toLowerCase()}` : ""
                    }`}
                  </p>
                  <div className="stack purchased-list">
                    {leads.map((lead) => <PurchasedLeadCard key={lead.id} lead={lead} />)}
                  </div>
                  <ListPager page={page} total={total} status={status} />
                </>
              )}
          </div>
        ),
      );
    },
  )
  .get(
    `${LIST_PATH}/:id`,
    requirePageRole("surveyor"),
    zValidator("param", IdParam, onInvalid),
    async (c) => {
      const { id } = c.req.valid("param");
      const surveyor = await getSurveyorByUserId(c.var.db, { userId: c.var.user!.id });
      const surveyorId = surveyor?.id;
      const [lead, details] = surveyorId
        ? await Promise.all([
          getPurchasedLead(c.var.db, { leadId: id, surveyorId }),
          getPurchasedRequestDetails(c.var.db, { leadId: id, surveyorId }),
        ])
        : [undefined, undefined];
      // Bought or claimed by this surveyor only; to anyone else it does not exist.
      if (!lead) {
        return appPage(
          c,
          { title: "Lead not found", active: LIST_PATH },
          <>
            <PageHeader title="Lead not found" />
            <EmptyState
              title="Lead not found"
              action={<a className="btn btn--primary" href={LIST_PATH}>Back to purchased leads</a>}
            >
              This lead is not among your purchased leads, or it no longer exists.
            </EmptyState>
          </>,
          404,
        );
      }
      const proposal = await getOwnProposal(c.var.db, { purchaseId: lead.purchaseId });
      // A refunded purchase unlocks nothing: the town stands in for the street, and the
      // request's notes and the parcel (its owner of record) are withheld with the client.
      const address = leadAddress(lead) ??
        [lead.city ?? lead.county, lead.state].filter(Boolean).join(", ");
      // The conversation with the client; none once the purchase is refunded.
      const messages = await loadMessagesCard(c.var.db, {
        surveyId: lead.surveyId,
        user: c.var.user!,
      });
      return appPage(
        c,
        { title: `${typeName(lead.surveyType)} lead`, active: LIST_PATH },
        <div className="purchased-page">
          <p className="purchased-page__back">
            <a href={LIST_PATH}>← Back to purchased leads</a>
          </p>
          <PageHeader
            title={typeName(lead.surveyType)}
            intro={address}
          />
          <div className="purchased-page__grid">
            <div className="stack">
              <Card id="client-title" title="Client">
                <ClientContact lead={lead} />
                {lead.detailsHidden ? null : (
                  <p className="muted purchased-page__note">
                    Clients expect a call within 48 hours. Confirm the details, then send the client
                    your proposal (price, earliest visit, turnaround): when they accept it, the
                    survey is assigned to you at that price.
                  </p>
                )}
              </Card>
              <MessagesCard data={messages} />
              <Card id="request-title" title="The request">
                <RequestFacts lead={lead} details={details} />
              </Card>
              <Card id="parcel-title" title="Parcel">
                {lead.detailsHidden
                  ? <p className="muted">{lead.detailsHidden}</p>
                  : <ParcelFacts parcel={lead.parcel} />}
              </Card>
            </div>
            <div className="stack">
              <SurveyorProposalCard
                lead={lead}
                proposal={proposal ?? null}
                surveyorStatus={surveyor!.status}
              />
              <Card id="pipeline-title" title="Your pipeline">
                <Island
                  component={PipelineForm}
                  props={{
                    leadId: lead.id,
                    pipelineStatus: lead.pipelineStatus,
                    pipelineNote: lead.pipelineNote,
                  }}
                  hydrate="idle"
                />
              </Card>
              <AssignmentCard lead={lead} />
              <Card id="quote-title" title="Client's quote">
                <p className="purchased-page__price" data-testid="quoted-price">
                  {quoteText(lead)}
                </p>
                <QuoteBreakdown quote={lead.quote} caption="The client's quote breakdown" />
              </Card>
              <PaymentCard lead={lead} />
              <ReturnCard lead={lead} />
            </div>
          </div>
        </div>,
      );
    },
  );
