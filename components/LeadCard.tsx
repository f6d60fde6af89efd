/**
 * A lead as a surveyor sees it before buying (lib/lead_market_schema.ts `LeadSummary`): the
 * survey type, the place (town, county, state and ZIP — never the street), distance (whole
 * miles from the lead's public point, not the property), acreage,
 * property type, needed-by and rush, the client's instant quote, the lead price with its
 * formula in words, how many of its places are sold, its age and its expiry. Nothing in it can
 * name or reach the client, because `LeadSummary` holds nothing that could.
 *
 * Plain markup with browser-safe imports only: the server renders it on /surveyor/leads/{id}
 * and the AvailableLeads island renders the same card in its list (server and browser), so
 * relative times are computed from a `now` the caller passes in, never from the clock here.
 *
 * The card's parts carry no class of their own: static/css/leads.css styles them by this
 * structure (header, then the body with the facts and the price box, then the actions), as
 * /leads repeats the card twenty times. Change the two together.
 */
import type { ReactNode } from "react";
import type { LeadSummary } from "../lib/lead_market_schema.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import {
  PROPERTY_TYPE_LABELS,
  type PropertyType,
  RUSH_LABELS,
  type RushLevel,
} from "../lib/survey_options.ts";
import { formatLeadPrice } from "../lib/lead_pricing.ts";
import { formatDecimal, formatInteger } from "../lib/numbers.ts";
import { formatMiles } from "../islands/_dispatch_format.ts";
import { formatDate } from "./survey/format.ts";

/** "Austin, Travis County, TX 78704": the lead's place without any street. */
export function leadPlace(
  lead: Pick<LeadSummary, "city" | "county" | "state" | "zip">,
): string {
  const county = lead.county && !/\b(county|parish|borough)\b/i.test(lead.county)
    ? `${lead.county} County`
    : lead.county;
  const town = [lead.city, county].filter(Boolean).join(", ");
  const stateZip = [lead.state, lead.zip].filter(Boolean).join(" ");
  return [town, stateZip].filter(Boolean).join(", ");
}

/** "Boundary Survey in Austin, Travis County, TX 78704": a lead's title. */
export function leadTitle(lead: LeadSummary): string {
  const place = leadPlace(lead);
  return `${surveyTypeName(lead.surveyType)}${place ? ` in ${place}` : ""}`;
}

/** The survey type's name ("Boundary Survey"), or the raw id for a type this build lacks. */
export function surveyTypeName(type: string): string {
  return SURVEY_TYPE_INFO[type as keyof typeof SURVEY_TYPE_INFO]?.name ?? type;
}

function unit(n: number, one: string): string {
  return `${formatInteger(n)} ${one}${n === 1 ? "" : "s"}`;
}

/** How long ago `iso` was, seen from `now`: "just now", "5 minutes ago", "2 hours ago", "3 days ago". */
export function formatAge(iso: string, now: string): string {
  const ms = Date.parse(now) - Date.parse(iso);
  if (!Number.isFinite(ms)) return "";
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "just now";
  if (minutes < 60) return `${unit(minutes, "minute")} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${unit(hours, "hour")} ago`;
  return `${unit(Math.floor(hours / 24), "day")} ago`;
}

/** When a lead closes, seen from `now`: "Closes in 6 days", "Closes in 3 hours", "Expired". */
export function formatExpiry(iso: string, now: string): string {
  const ms = Date.parse(iso) - Date.parse(now);
  if (!Number.isFinite(ms)) return "";
  if (ms <= 0) return "Expired";
  const minutes = Math.ceil(ms / 60_000);
  if (minutes < 60) return `Closes in ${unit(minutes, "minute")}`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `Closes in ${unit(hours, "hour")}`;
  return `Closes in ${unit(Math.floor(hours / 24), "day")}`;
}

/** "Nov 21, 2026" for a YYYY-MM-DD day or an ISO timestamp (its UTC day). */
export function formatLeadDay(value: string): string {
  return formatDate(value);
}

/** "0.25 acres", "1 acre"; "Not given" when the client did not say. */
export function formatAcreage(acres: number | null): string {
  if (acres === null) return "Not given";
  return `${formatDecimal(acres)} ${acres === 1 ? "acre" : "acres"}`;
}

/** The client's instant quote, or what stands for it on a type quoted by hand. */
export function formatQuote(cents: number | null): string {
  return cents === null ? "Quoted by hand (no instant quote)" : formatLeadPrice(cents);
}

/** "1 of 3 bought". */
export function formatBuyers(lead: Pick<LeadSummary, "buyersCount" | "maxBuyers">): string {
  return `${formatInteger(lead.buyersCount)} of ${formatInteger(lead.maxBuyers)} bought`;
}

/** Props of `LeadCard`. */
export interface LeadCardProps {
  lead: LeadSummary;
  /** The moment relative times are computed from (ISO). */
  now: string;
  /** Heading level of the title: 2 on the lead's own page, 3 in a list. */
  level?: 2 | 3;
  /** Link the title to the lead's page (in a list). */
  href?: string;
  /** The card's heading instead of the lead's title (on a page whose h1 already says it). */
  heading?: string;
  /** Buttons under the card (the list's "Not interested"). */
  actions?: ReactNode;
  /** Extra facts after the standard ones (the detail page's). */
  children?: ReactNode;
}

/** One lead's summary card (see the file's comment). */
export function LeadCard(
  { lead, now, level = 3, href, heading, actions, children }: LeadCardProps,
) {
  const Heading = level === 2 ? "h2" : "h3";
  const titleId = `lead-${lead.id}-title`;
  const title = heading ?? leadTitle(lead);
  const isRush = lead.rush !== "standard";
  const seatsLeft = Math.max(0, lead.maxBuyers - lead.buyersCount);
  return (
    <article className="lead-card" aria-labelledby={titleId} data-lead-id={lead.id}>
      <header>
        <Heading id={titleId} className="lead-card__title">
          {href ? <a href={href}>{title}</a> : title}
        </Heading>
        <ul aria-label="Lead status">
          {lead.status === "closed"
            ? <li className="badge badge--neutral">Closed</li>
            : <li className="badge badge--success">Open</li>}
          {isRush
            ? (
              <li className="badge badge--warning">
                {RUSH_LABELS[lead.rush as RushLevel] ?? lead.rush}
              </li>
            )
            : null}
          {lead.viewer.purchased
            ? (
              <li className="badge badge--info">
                {lead.viewer.purchased === "claim" ? "You claimed it" : "You bought it"}
              </li>
            )
            : null}
        </ul>
      </header>
      <div>
        <dl>
          <div>
            <dt>Distance</dt>
            <dd>
              {lead.distanceMiles === null
                ? "Unknown"
                : `About ${formatMiles(lead.distanceMiles)} from your office`}
            </dd>
          </div>
          <div>
            <dt>Acreage</dt>
            <dd>{formatAcreage(lead.acreage)}</dd>
          </div>
          <div>
            <dt>Property</dt>
            <dd>{PROPERTY_TYPE_LABELS[lead.propertyType as PropertyType] ?? lead.propertyType}</dd>
          </div>
          <div>
            <dt>Needed by</dt>
            <dd>
              {lead.neededBy ? formatLeadDay(lead.neededBy) : "No date given"}
            </dd>
          </div>
          <div>
            <dt>Timing</dt>
            <dd>{RUSH_LABELS[lead.rush as RushLevel] ?? lead.rush}</dd>
          </div>
          <div>
            <dt>Client's quote</dt>
            <dd>{formatQuote(lead.quotedPriceCents)}</dd>
          </div>
          {children}
        </dl>
        <div>
          <p>
            <span>Lead price</span>{" "}
            <strong data-testid="lead-price">{formatLeadPrice(lead.priceCents)}</strong>
          </p>
          <p>{lead.formula}</p>
          <p>
            <span>{formatBuyers(lead)}</span>
            {lead.status === "open"
              ? (
                <span>
                  {seatsLeft === 1 ? "1 place left" : `${formatInteger(seatsLeft)} places left`}
                </span>
              )
              : null}
          </p>
          <p>
            <span>
              Posted <time dateTime={lead.createdAt}>{formatAge(lead.createdAt, now)}</time>
            </span>
            {lead.status === "open"
              ? (
                <span>
                  <time dateTime={lead.expiresAt}>{formatExpiry(lead.expiresAt, now)}</time>
                </span>
              )
              : null}
          </p>
        </div>
      </div>
      {actions ? <div>{actions}</div> : null}
    </article>
  );
}
