/**
 * A lead the surveyor bought or claimed (db/surveyor_dashboard.ts `PurchasedLeadItem`, the
 * list's part of lib/lead_market_schema.ts `UnlockedLead`), as the purchased-leads list shows it: the client's name, phone (a tel: link) and email (a mailto:
 * link), the exact address with a maps link, the survey type, the client's quote, what was
 * paid (and refunded), the buyer's pipeline status and, once assigned, the assignment; a
 * refunded purchase shows why the client's details are gone instead of them. Only
 * ever rendered for the surveyor who bought it: the route reads it with their id.
 *
 * Also exports the small formatters the purchased lead's own page shares with it.
 */
import {
  ASSIGNMENT_LABELS,
  type AssignmentStatus,
  PIPELINE_LABELS,
  type PipelineStatus,
  type UnlockedLead,
} from "../lib/lead_market_schema.ts";
import type { PurchasedLeadItem } from "../db/surveyor_dashboard.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import { formatCents } from "../lib/quote_text.ts";
import { formatDate } from "./survey/format.ts";

/** Badge colour per pipeline status. */
export const PIPELINE_BADGES: Record<PipelineStatus, string> = {
  new: "neutral",
  contacted: "info",
  quoted: "info",
  won: "success",
  lost: "warning",
};

/** Badge colour per assignment status. */
export const ASSIGNMENT_BADGES: Record<AssignmentStatus, string> = {
  offered: "warning",
  accepted: "info",
  scheduled: "info",
  completed: "success",
  declined: "neutral",
  cancelled: "neutral",
};

/** The survey type's name ("Boundary Survey"), or the raw id for a type this build lacks. */
export function typeName(type: string): string {
  return SURVEY_TYPE_INFO[type as keyof typeof SURVEY_TYPE_INFO]?.name ?? type;
}

/** The `tel:` address of a phone number as people type it ("(512) 555-0100" → "tel:5125550100"). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/** A Google Maps search for `address` (opens the app on phones). */
export function mapsHref(address: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(address)}`;
}

/**
 * The address to show and to look up: the geocoded one when there is one; null when the
 * client's details are withheld (a refunded purchase).
 */
export function leadAddress(
  lead: Pick<UnlockedLead, "formattedAddress" | "address">,
): string | null {
  return lead.formattedAddress || lead.address;
}

/**
 * What taking the lead cost: "Bought for $25", "Claimed for a $50 fee", "Claimed without a
 * fee (welcome lead)".
 */
export function paidText(lead: Pick<UnlockedLead, "kind" | "chargedCents">): string {
  if (lead.kind === "buy") return `Bought for ${formatCents(lead.chargedCents)}`;
  return lead.chargedCents === 0
    ? "Claimed without a fee (welcome lead)"
    : `Claimed for a ${formatCents(lead.chargedCents)} fee`;
}

/** The client's instant quote as text. */
export function quoteText(lead: Pick<UnlockedLead, "quotedPriceCents">): string {
  return lead.quotedPriceCents === null
    ? "Quote required (no instant quote)"
    : formatCents(lead.quotedPriceCents);
}

/** The pipeline status as a badge. */
export function PipelineBadge({ status }: { status: PipelineStatus }) {
  return (
    <span className={`badge badge--${PIPELINE_BADGES[status] ?? "neutral"}`}>
      {PIPELINE_LABELS[status] ?? status}
    </span>
  );
}

/**
 * The client's name, phone, email and address with their links, as a definition list; for a
 * refunded purchase, which unlocks none of them, the sentence saying so instead.
 */
export function ClientContact(
  { lead }: {
    lead: Pick<UnlockedLead, "client" | "address" | "formattedAddress"> & {
      detailsHidden?: string | null;
    };
  },
) {
  const address = leadAddress(lead);
  if (!lead.client || address === null) {
    return (
      <p className="purchased-hidden" data-testid="details-hidden">
        {lead.detailsHidden ?? "The client's details are not shown."}
      </p>
    );
  }
  return (
    <dl className="purchased-facts">
      <div>
        <dt>Client</dt>
        <dd data-testid="client-name">{lead.client.name}</dd>
      </div>
      <div>
        <dt>Phone</dt>
        <dd>
          <a href={telHref(lead.client.phone)}>{lead.client.phone}</a>
        </dd>
      </div>
      <div>
        <dt>Email</dt>
        <dd>
          {lead.client.email
            ? <a href={`mailto:${lead.client.email}`}>{lead.client.email}</a>
            : <span className="muted">Not given</span>}
        </dd>
      </div>
      <div>
        <dt>Address</dt>
        <dd>
          <span className="purchased-facts__address">{address}</span>{" "}
          <a href={mapsHref(address)} target="_blank" rel="noopener noreferrer">
            Open in Google Maps<span className="visually-hidden">(opens in a new tab)</span>
          </a>
        </dd>
      </div>
    </dl>
  );
}

/** Props of `PurchasedLeadCard`. */
export interface PurchasedLeadCardProps {
  lead: PurchasedLeadItem;
}

/** One purchased lead in the list (see the file's comment). */
export function PurchasedLeadCard({ lead }: PurchasedLeadCardProps) {
  const titleId = `purchased-${lead.id}-title`;
  return (
    <article className="purchased-card" aria-labelledby={titleId} data-lead-id={lead.id}>
      <header className="purchased-card__header">
        <h2 id={titleId} className="purchased-card__title">
          <a href={`/surveyor/purchased-leads/${lead.id}`}>{typeName(lead.surveyType)}</a>
        </h2>
        <ul className="purchased-card__tags" aria-label="Status">
          <li>
            <PipelineBadge status={lead.pipelineStatus} />
          </li>
          {lead.assignment
            ? (
              <li>
                <span className={`badge badge--${ASSIGNMENT_BADGES[lead.assignment.status]}`}>
                  {`Assignment: ${ASSIGNMENT_LABELS[lead.assignment.status]}`}
                </span>
              </li>
            )
            : null}
          {lead.refundedAt
            ? (
              <li>
                <span className="badge badge--neutral">Refunded</span>
              </li>
            )
            : null}
        </ul>
      </header>
      <div className="purchased-card__body">
        <ClientContact lead={lead} />
        <dl className="purchased-facts purchased-facts--money">
          <div>
            <dt>Client's quote</dt>
            <dd>{quoteText(lead)}</dd>
          </div>
          <div>
            <dt>You paid</dt>
            <dd>
              {paidText(lead)}
              {lead.refundedAt ? `, refunded ${formatDate(lead.refundedAt)}` : ""}
            </dd>
          </div>
          {lead.assignment?.scheduledDate
            ? (
              <div>
                <dt>Visit</dt>
                <dd>{formatDate(lead.assignment.scheduledDate)}</dd>
              </div>
            )
            : null}
          <div>
            <dt>{lead.kind === "claim" ? "Claimed" : "Bought"}</dt>
            <dd>
              <time dateTime={lead.purchasedAt}>{formatDate(lead.purchasedAt)}</time>
            </dd>
          </div>
        </dl>
      </div>
    </article>
  );
}
