import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppContext, AppEnv, SessionUser } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { renderPage } from "../components/render.tsx";
import { PublicLayout } from "../components/PublicLayout.tsx";
import { Island } from "../components/Island.tsx";
import ForgetUrlToken from "../islands/ForgetUrlToken.tsx";
import { Breadcrumbs } from "../components/Breadcrumbs.tsx";
import { getPublicLead, type PublicLead } from "../db/public_leads.ts";
import { getClaimToken } from "../db/claim_tokens.ts";
import { hashToken } from "../lib/sessions.ts";
import { surveyorLeadPath } from "../lib/dispatch.ts";
import { surveyorClaimPath } from "../lib/mail/emails.ts";
import { describeLeadPrice, formatLeadPrice } from "../lib/lead_pricing.ts";
import { formatCents } from "../lib/quote_text.ts";
import { formatDecimal } from "../lib/numbers.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import {
  PROPERTY_TYPE_LABELS,
  type PropertyType,
  RUSH_LABELS,
  type RushLevel,
  US_STATES,
} from "../lib/survey_options.ts";
import { htmlResponse } from "./_html_response.ts";

/** The heading of the page for a closed, expired, unknown or malformed lead. */
export const LEAD_UNAVAILABLE = "This lead is no longer available";

/** The heading of the way in for everyone who is not a signed-in surveyor. */
export const JOIN_HEADING = "Join Meridian as a surveyor";

/** The shape of a claim token (43 base64url characters); anything else is not looked up. */
export const CLAIM_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

// Any id string reaches the handler: an unknown or malformed one is the 404 page.
const IdParam = z.object({ id: z.string() });
// A bad token in the address is simply no token: the page still shows the job.
const LeadQuery = z.object({ token: z.string().optional().catch(undefined) });

const DAY = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

function formatDate(date: Date | string): string {
  return DAY.format(typeof date === "string" ? new Date(`${date}T00:00:00Z`) : date);
}

/** "Austin, TX 78704", "Texas 78704" or "Texas". */
function placeOf(lead: PublicLead): string {
  const state = lead.town ? lead.state : US_STATES[lead.state] ?? lead.state;
  return [lead.town, [state, lead.zip].filter(Boolean).join(" ")].filter(Boolean).join(", ");
}

function acresText(acres: number): string {
  return `${formatDecimal(acres)} ${acres === 1 ? "acre" : "acres"}`;
}

/** The job's facts: everything a surveyor weighs before buying, nothing about the client. */
function LeadFacts({ lead }: { lead: PublicLead }) {
  const facts: [string, string][] = [
    ["Survey type", SURVEY_TYPE_INFO[lead.surveyType].name],
    ["Location", placeOf(lead)],
    ["Size", acresText(lead.acreage)],
    ["Property type", PROPERTY_TYPE_LABELS[lead.propertyType as PropertyType] ?? lead.propertyType],
    ["Needed by", lead.neededBy ? formatDate(lead.neededBy) : "No date given"],
    ["Turnaround", RUSH_LABELS[lead.rush as RushLevel] ?? lead.rush],
    [
      "Client's instant quote",
      lead.quotedPriceCents === null ? "Custom quote" : formatCents(lead.quotedPriceCents),
    ],
    ["Lead price", formatLeadPrice(lead.priceCents)],
    ["Bought", `${lead.buyersCount} of ${lead.maxBuyers} bought`],
    ["Posted", formatDate(lead.createdAt)],
    ["Open until", formatDate(lead.expiresAt)],
  ];
  return (
    <>
      <dl className="facts">
        {facts.map(([label, value]) => (
          <div className="facts__item" key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted">How the lead price is set: {describeLeadPrice(lead.pricing)}</p>
    </>
  );
}

function signInHref(leadId: string): string {
  return `/auth?returnTo=${encodeURIComponent(surveyorLeadPath(leadId))}`;
}

/** How this viewer can take the lead on: join (with their invitation or by asking), or a note. */
function WayIn(
  { lead, user, claimToken }: { lead: PublicLead; user: SessionUser | null; claimToken?: string },
) {
  if (user) {
    return (
      <section className="card" aria-labelledby="lead-way-in">
        <div className="card__body stack">
          <h2 id="lead-way-in">This lead is for surveyors</h2>
          <p>
            {user.role === "admin"
              ? "You are signed in as an admin. Surveyors buy or claim this lead from their own lead list; you manage it from the request's dispatch panel."
              : "You are signed in with an account that is not a surveyor account, so you cannot buy or claim leads. Surveyors in the Meridian network see this job on their lead list."}
          </p>
          <p>
            <a className="btn btn--secondary" href="/dashboard">Go to your dashboard</a>
          </p>
        </div>
      </section>
    );
  }
  const shareText = `Each lead goes to at most ${lead.maxBuyers} ${
    lead.maxBuyers === 1 ? "surveyor" : "surveyors"
  }, and the price is shown before anyone pays.`;
  return (
    <section className="card" aria-labelledby="lead-way-in">
      <div className="card__body stack">
        <h2 id="lead-way-in">{JOIN_HEADING}</h2>
        {claimToken
          ? (
            <>
              <p>
                Your firm was invited to join Meridian. Create your account with your licence
                details and the area you cover; we check the licence, and then you can buy leads
                like this one or claim a job at the client's quote. Your first claimed job has no
                claim fee.
              </p>
              <p className="cluster">
                <a className="btn btn--primary" href={surveyorClaimPath(claimToken)}>
                  {JOIN_HEADING}
                </a>
                <a className="btn btn--secondary" href={signInHref(lead.id)}>
                  I already have an account: sign in
                </a>
              </p>
            </>
          )
          : (
            <>
              <p>
                Meridian sends licensed land surveyors priced leads near them: the job and the lead
                price up front, the client's contact details once you buy. {shareText}{" "}
                Surveyors join by invitation: tell us your firm, licence and the area you cover, and
                we will send you a link to create your account.
              </p>
              <p className="cluster">
                <a className="btn btn--primary" href="/support/contact">Ask to join</a>
                <a className="btn btn--secondary" href={signInHref(lead.id)}>Sign in</a>
              </p>
            </>
          )}
      </div>
    </section>
  );
}

function LeadPage(
  { lead, user, claimToken, hasToken }: {
    lead: PublicLead;
    user: SessionUser | null;
    claimToken?: string;
    hasToken: boolean;
  },
) {
  const type = SURVEY_TYPE_INFO[lead.surveyType].name;
  return (
    <PublicLayout user={user}>
      <TokenLeavesAddressBar hasToken={hasToken} />
      <section className="page-hero">
        <div className="container">
          <Breadcrumbs items={[{ href: "/", label: "Home" }, { label: "Survey lead" }]} />
          <p className="eyebrow">Survey lead</p>
          <h1>{`${type} in ${placeOf(lead)}`}</h1>
          <p className="page-hero__lead">
            {`A client asked Meridian for a ${type}. Surveyors in the network can buy this lead to get the client's contact details and the full request, or claim the job at the client's quote.`}
          </p>
        </div>
      </section>
      <div className="container section stack">
        <section aria-labelledby="lead-facts">
          <h2 id="lead-facts">The job</h2>
          <LeadFacts lead={lead} />
        </section>
        <WayIn lead={lead} user={user} claimToken={claimToken} />
      </div>
    </PublicLayout>
  );
}

/**
 * On a page opened from a link with `?token=`: the island that takes the token out of the
 * address bar once the page has loaded (the join link keeps it where it is needed).
 */
function TokenLeavesAddressBar({ hasToken }: { hasToken: boolean }) {
  return hasToken ? <Island component={ForgetUrlToken} props={{}} hydrate="load" /> : null;
}

function UnavailablePage({ user, hasToken }: { user: SessionUser | null; hasToken: boolean }) {
  return (
    <PublicLayout user={user}>
      <TokenLeavesAddressBar hasToken={hasToken} />
      <section className="container error-page">
        <p className="eyebrow">Survey lead</p>
        <h1>{LEAD_UNAVAILABLE}</h1>
        <p className="error-page__text">
          Leads are open for a limited time and to a few surveyors only. This one has closed, or the
          link is not complete.
        </p>
        <p className="error-page__actions">
          <a className="btn btn--primary" href="/">Back to home</a>
          <a className="btn btn--secondary" href="/support/contact">Contact us</a>
        </p>
      </section>
    </PublicLayout>
  );
}

/** True when `token` is a claim link that still opens the join form. */
async function isValidClaimToken(c: AppContext, token: string | undefined): Promise<boolean> {
  if (!token || !CLAIM_TOKEN_SHAPE.test(token)) return false;
  const { state } = await getClaimToken(c.var.db, { tokenHash: await hashToken(token) });
  return state === "valid";
}

async function showLead(c: AppContext, id: string, token: string | undefined) {
  // Per viewer and per link, and a lead changes as it sells: never cached, never indexed.
  c.header("Cache-Control", "private, no-store");
  c.header("X-Robots-Tag", "noindex");
  const user = c.var.user;
  const lead = await getPublicLead(c.var.db, { id });
  if (lead && user?.role === "surveyor") return c.redirect(surveyorLeadPath(lead.id), 302);
  if (!lead || !lead.isOpen) {
    return htmlResponse(
      c,
      renderPage(
        c,
        { title: LEAD_UNAVAILABLE, noindex: true, hasSecretInUrl: token !== undefined },
        <UnavailablePage user={user} hasToken={token !== undefined} />,
      ),
      lead ? 410 : 404,
    );
  }
  const claimToken = !user && await isValidClaimToken(c, token) ? token : undefined;
  const title = `Survey lead: ${SURVEY_TYPE_INFO[lead.surveyType].name} in ${placeOf(lead)}`;
  return htmlResponse(
    c,
    renderPage(
      c,
      {
        title,
        noindex: true,
        // A claim link's token opens an account: no third-party script may read it.
        hasSecretInUrl: token !== undefined,
        description: `${title}. Lead price ${formatLeadPrice(lead.priceCents)}.`,
      },
      <LeadPage
        lead={lead}
        user={user}
        claimToken={claimToken}
        hasToken={token !== undefined}
      />,
    ),
  );
}

/**
 * The public lead page an invited firm or a notified surveyor opens from an email:
 * `GET /lead/{id}` and `GET /leads/{id}` (the same page). Public, never cached, `noindex`.
 *
 * - A signed-in surveyor is sent (302) to `/surveyor/leads/{id}` whenever the lead exists
 *   (open or closed): that page decides what they may do with it.
 * - Anyone else sees the job without any personal data (type, town, state and ZIP, size,
 *   property type, needed-by, turnaround, the client's quote, the lead price and its formula,
 *   "n of 3 bought", posted and open-until dates) and the way in: signed out, "Join Meridian
 *   as a surveyor" — to `/surveyor/claim?token=…` when the link carries a valid claim token,
 *   else how to ask for an invitation and "Sign in" (returnTo the surveyor's lead page);
 *   signed in without the surveyor role, a note.
 * - A closed, expired or sold-out lead, or one whose request is no longer waiting: 410 with
 *   "This lead is no longer available" and nothing else; an unknown or malformed id: the same
 *   page with 404.
 * - Opened with `?token=` (the emailed link), any of these pages loads no third-party script
 *   and, once loaded, takes the token out of the address bar (islands/ForgetUrlToken.tsx).
 */
export const publicLeads = new Hono<AppEnv>()
  .get(
    "/lead/:id",
    zValidator("param", IdParam, onInvalid),
    zValidator("query", LeadQuery, onInvalid),
    (c) => showLead(c, c.req.valid("param").id, c.req.valid("query").token),
  )
  .get(
    "/leads/:id",
    zValidator("param", IdParam, onInvalid),
    zValidator("query", LeadQuery, onInvalid),
    (c) => showLead(c, c.req.valid("param").id, c.req.valid("query").token),
  );
