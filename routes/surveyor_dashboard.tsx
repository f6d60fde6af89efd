import type { ReactNode } from "react";
import { Hono } from "hono";
import type { AppEnv, SessionUser } from "./_env.ts";
import { ownViewerPage, settleViewer, viewerIdOf } from "./_auth.ts";
import { rememberedAppPage } from "./_app_page.tsx";
import { Card, PageHeader } from "../components/AppPage.tsx";
import { getPendingClaimRequest } from "../db/surveyor_self_join.ts";
import {
  type DashboardJob,
  getSurveyorDashboardFigures,
  type SurveyorDashboardFigures,
} from "../db/surveyor_dashboard.ts";
import { getSurveyorWithAvailableLeads } from "../db/lead_market.ts";
import { surveyorJobPath } from "../lib/assignments.ts";
import type { LeadSummary } from "../lib/lead_market_schema.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import { formatCents } from "../lib/quote_text.ts";
import { formatInteger } from "../lib/numbers.ts";
import { formatDate } from "../components/survey/format.ts";
import { SURVEYOR_CREW_PATH } from "./surveyor_crew_pages.tsx";
import { firmProfilePath } from "../lib/firm_slug.ts";
import { type MailDelivery, mailDelivery, whoTellsYou } from "../lib/mail/delivery.ts";

/** Where the surveyor edits their coverage and firm profile (the profile page's card). */
export const SURVEYOR_COVERAGE_PATH = "/profile#coverage-heading";

/** The dashboard reads its viewer in its own statement (routes/_auth.ts `ownViewerPage`). */
const DASHBOARD = ownViewerPage("/surveyor-dashboard", "surveyor");

/** How many of the newest open leads near the surveyor the dashboard lists. */
export const DASHBOARD_LEADS_SHOWN = 5;

function firstName(user: SessionUser): string {
  return user.fullName.trim().split(/\s+/)[0] || user.fullName;
}

function typeName(type: string): string {
  return SURVEY_TYPE_INFO[type as keyof typeof SURVEY_TYPE_INFO]?.name ?? type;
}

/** Where the surveyor's record stands, for what the page may promise. */
type Standing = "none" | "review" | "active" | "pending" | "paused" | "inactive";

function standingOf(
  surveyor: { id: string } | undefined,
  figures: SurveyorDashboardFigures | undefined,
): Standing {
  if (!surveyor || !figures) return "none";
  if (figures.status === "paused") return "paused";
  if (figures.status === "pending") return "pending";
  return figures.status === "active" ? "active" : "inactive";
}

/**
 * The win rate of decided purchases as a whole percentage ("67%"), or "—" until one is
 * marked won or lost.
 */
export function winRate({ won, lost }: { won: number; lost: number }): string {
  const decided = won + lost;
  return decided === 0 ? "—" : `${Math.round((won / decided) * 100)}%`;
}

/** What an open assignment needs next: "Accept or decline", "Schedule the visit", "Visit on …". */
export function nextStep(job: Pick<DashboardJob, "status" | "scheduledDate">): string {
  if (job.status === "offered") return "Accept or decline";
  if (job.status === "accepted") return "Schedule the visit";
  return job.scheduledDate ? `Visit on ${formatDate(job.scheduledDate)}` : "Visit scheduled";
}

function placeOf(job: DashboardJob): string {
  if (job.address) return job.address;
  return [job.city, job.state].filter(Boolean).join(", ");
}

/** The honest word on an account that cannot buy leads (yet), or nothing when it can. */
function StandingNotice({ standing }: { standing: Standing }) {
  if (standing === "active") return null;
  const text = {
    review: (
      <>
        <strong>Your request to join is with our team.</strong>{" "}
        Your firm is already on Meridian, so an admin checks your licence and links your account to
        it; we will let you know. Meanwhile you can <a href="/profile">complete your profile</a>.
      </>
    ),
    none: (
      <>
        <strong>Your surveyor profile is not set up yet.</strong>{" "}
        Leads, your balance and your jobs appear here once Meridian has linked your account to your
        firm's record.
      </>
    ),
    pending: (
      <>
        <strong>Your licence is being checked.</strong>{" "}
        Meridian verifies your licence details before you can buy or claim leads; the leads near you
        are listed here once that is done. Meanwhile you can{" "}
        <a href="/profile">complete your profile and coverage</a>,{" "}
        <a href="/surveyor/crew">add your crew</a> and{" "}
        <a href="/surveyor/billing">top up your balance</a>.
      </>
    ),
    paused: (
      <>
        <strong>Your account is paused.</strong>{" "}
        You are not offered new leads and cannot buy or claim them; the leads you bought stay yours.
        {" "}
        <a href="/support/contact">Contact us</a> to resume.
      </>
    ),
    inactive: (
      <>
        <strong>Your account is not active yet.</strong>{" "}
        You can buy and claim leads once Meridian has activated your profile.{" "}
        <a href="/support/contact">Contact us</a> if you are waiting.
      </>
    ),
  }[standing];
  return (
    <p className={`alert alert--${standing === "paused" ? "warning" : "info"} surveyor-standing`}>
      <span>{text}</span>
    </p>
  );
}

/** What the account lacks for clients and Meridian to reach the surveyor, if anything. */
function ProfileNotice({ user }: { user: SessionUser }) {
  const missing = [user.companyName ? "" : "company", user.phone ? "" : "phone number"].filter(
    Boolean,
  );
  if (missing.length === 0) return null;
  return (
    <p className="alert alert--info">
      <span>
        Add your {missing.join(" and ")} so clients and our team can reach you.{" "}
        <a href="/profile">Edit profile</a>
      </span>
    </p>
  );
}

function Figure(
  { label, value, detail, testId }: {
    label: string;
    value: string;
    detail: ReactNode;
    testId: string;
  },
) {
  return (
    <li className="dash-figures__item">
      <span className="dash-figures__label">{label}</span>
      <span className="dash-figures__value" data-testid={testId}>{value}</span>
      <span className="dash-figures__detail">{detail}</span>
    </li>
  );
}

function Figures({ figures }: { figures: SurveyorDashboardFigures }) {
  const decided = figures.won + figures.lost;
  return (
    <section aria-labelledby="figures-title" className="dash-figures">
      <h2 id="figures-title" className="visually-hidden">Your figures</h2>
      <ul className="dash-figures__list">
        <Figure
          label="Balance"
          value={formatCents(figures.balanceCents)}
          testId="balance"
          detail={<a href="/surveyor/billing">Billing and top-ups</a>}
        />
        <Figure
          label="Leads this month"
          value={formatInteger(figures.leadsThisMonth)}
          testId="leads-this-month"
          detail={figures.leadsThisMonth
            ? `${formatCents(figures.spentThisMonthCents)} spent`
            : "None bought or claimed yet"}
        />
        <Figure
          label="Win rate"
          value={winRate(figures)}
          testId="win-rate"
          detail={decided
            ? `${formatInteger(figures.won)} won, ${formatInteger(figures.lost)} lost`
            : "Mark your leads won or lost to see it"}
        />
        <Figure
          label="Jobs in progress"
          value={formatInteger(figures.openJobs)}
          testId="open-jobs"
          detail={figures.openJobs ? "Assigned to you" : "None assigned"}
        />
      </ul>
    </section>
  );
}

function NewLeads({ standing, hasOffice, leads, total, delivery }: {
  standing: Standing;
  hasOffice: boolean;
  leads: LeadSummary[];
  total: number;
  /** Whether a new lead's email really leaves: the empty card says who tells them. */
  delivery: MailDelivery;
}) {
  const canSee = standing === "active";
  return (
    <Card
      id="new-leads-title"
      title="New leads near you"
      aside={canSee
        ? <span className="badge badge--neutral" data-testid="new-leads-count">{total}</span>
        : undefined}
      bodyClass="stack"
    >
      {!canSee
        ? (
          <p className="muted">
            {standing === "paused"
              ? "No leads are offered to you while your account is paused."
              : standing === "pending"
              ? "Leads near you are listed here once your licence has been verified."
              : "Leads near you are listed here once your profile is active."}
          </p>
        )
        : !hasOffice
        ? (
          <p className="muted">
            Add your office location in{" "}
            <a href={SURVEYOR_COVERAGE_PATH}>Coverage and profile</a>: leads are matched by their
            distance from it.
          </p>
        )
        : total === 0
        ? (
          <p className="muted">
            {`No open leads near you right now. When a client near you requests a survey you cover, ${
              whoTellsYou(delivery, "the bell at the top of the page")
            }, with the lead price.`}
          </p>
        )
        : (
          <>
            <p>
              {total === 1
                ? "1 open lead matches your coverage."
                : `${formatInteger(total)} open leads match your coverage.`}
            </p>
            <ul className="dash-list">
              {leads.map((lead) => (
                <li key={lead.id} className="dash-list__item">
                  <a href={`/surveyor/leads/${lead.id}`}>
                    {typeName(lead.surveyType)}
                    {lead.city ? ` in ${lead.city}, ${lead.state}` : ` in ${lead.state}`}
                  </a>
                  <span className="dash-list__meta">
                    {`Lead price ${formatCents(lead.priceCents)}`}
                    {lead.quotedPriceCents !== null
                      ? ` · quote ${formatCents(lead.quotedPriceCents)}`
                      : ""}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
      <p className="cluster">
        <a className="btn btn--primary btn--sm" href="/leads">Available leads</a>
        <a className="btn btn--secondary btn--sm" href="/surveyor/purchased-leads">
          Purchased leads
        </a>
      </p>
    </Card>
  );
}

function Jobs({ figures }: { figures: SurveyorDashboardFigures | undefined }) {
  const jobs = figures?.jobs ?? [];
  const more = (figures?.openJobs ?? 0) - jobs.length;
  return (
    <Card id="jobs-title" title="Jobs in progress" bodyClass="stack">
      {jobs.length === 0
        ? (
          <p className="muted">
            No jobs assigned to you. When you claim a lead, or Meridian assigns you a survey at an
            agreed price, it appears here with its next step.
          </p>
        )
        : (
          <ul className="dash-list">
            {jobs.map((job) => {
              const title = `${typeName(job.surveyType)}, ${placeOf(job)}`;
              return (
                <li key={job.assignmentId} className="dash-list__item" data-job={job.status}>
                  <a href={surveyorJobPath(job.surveyId)}>{title}</a>
                  <span className="dash-list__meta">
                    <strong className="dash-list__step">{nextStep(job)}</strong>
                    {` · agreed ${formatCents(job.agreedPriceCents)}`}
                  </span>
                </li>
              );
            })}
          </ul>
        )}
      {more > 0 ? <p className="muted">{`And ${formatInteger(more)} more.`}</p> : null}
    </Card>
  );
}

/** Links to the settings kept off the dashboard: coverage and profile, and the crew. */
function FirmSettings({ crewTotal }: { crewTotal: number | undefined }) {
  return (
    <Card id="firm-settings-title" title="Your firm">
      <ul className="surveyor-dashboard__settings">
        <li>
          <a href={SURVEYOR_COVERAGE_PATH}>Coverage and profile</a>
          <span className="muted">
            {" "}— where you take work, the survey types you do and your office.
          </span>
        </li>
        <li>
          <a href={SURVEYOR_CREW_PATH}>Your crew</a>
          <span className="muted">
            {crewTotal === undefined
              ? " — invite the technicians who do your fieldwork."
              : ` — ${formatInteger(crewTotal)} technician${crewTotal === 1 ? "" : "s"}.`}
          </span>
        </li>
      </ul>
    </Card>
  );
}

/**
 * The surveyor dashboard (/surveyor-dashboard, surveyors only): what changed — new leads near
 * them, their balance, leads bought this month, win rate and jobs in progress with the next
 * step of each. Coverage and profile (/profile) and the crew (/surveyor/crew) have their own
 * pages, linked here; an account without a record, waiting for its licence check or
 * paused says so instead of promising leads. Two statements, side by side (a third only for
 * an account without a record: its claim request).
 */
export const surveyorDashboard = new Hono<AppEnv>()
  .get(DASHBOARD.path, DASHBOARD.guard, async (c) => {
    const db = c.var.db;
    const userId = viewerIdOf(c);
    // Side by side: the user, their firm's record and its newest open leads in one statement
    // (/leads' own, remembered by snapshot; a firm that may not take leads is offered none),
    // and the figures with the crew's size in another. Shown once the session is settled with
    // that user (routes/_auth.ts).
    const [{ viewer, surveyor, leads, total }, figures] = await Promise.all([
      getSurveyorWithAvailableLeads(db, {
        userId,
        withViewer: true,
        page: 1,
        pageSize: DASHBOARD_LEADS_SHOWN,
      }),
      getSurveyorDashboardFigures(db, { userId }),
    ]);
    const denied = await settleViewer(c, DASHBOARD, viewer);
    if (denied) return denied;
    const user = c.var.user!;
    const claimRequest = surveyor
      ? undefined
      : await getPendingClaimRequest(db, { userId: user.id });
    const standing = claimRequest ? "review" : standingOf(surveyor, figures);
    // Sent as it was last rendered while the firm, its leads, its figures and its standing are
    // the same (routes/_remembered_pages.ts): it reads no clock (the month's figures are
    // counted by the database, in `figures`).
    return rememberedAppPage(
      c,
      { title: "Surveyor dashboard", active: "/surveyor-dashboard" },
      `surveyor-dashboard ${user.id}`,
      [surveyor, leads, total, figures, standing],
      () => (
        <div className="surveyor-dashboard stack">
          <PageHeader
            title={`Welcome, ${firstName(user)}`}
            intro="New leads near you, your balance, the leads you bought and the jobs you are doing."
            actions={surveyor?.status === "active"
              ? (
                // Active firms are verified (0026), so their profile is public: reviews are
                // answered there.
                <a
                  className="btn btn--secondary btn--sm"
                  href={firmProfilePath(surveyor.companyName, surveyor.id)}
                >
                  Your public profile and reviews
                </a>
              )
              : undefined}
          />
          <StandingNotice standing={standing} />
          <ProfileNotice user={user} />
          {figures ? <Figures figures={figures} /> : null}
          <div className="grid-2">
            <NewLeads
              standing={standing}
              hasOffice={surveyor?.lat != null && surveyor?.lng != null}
              leads={leads}
              total={total}
              delivery={mailDelivery(c.var.deps.config)}
            />
            <Jobs figures={figures} />
          </div>
          <FirmSettings crewTotal={figures?.crewTotal} />
        </div>
      ),
    );
  });
