import type { ReactNode } from "react";
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv, SessionUser } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { ownViewerPage, requirePageRole, settleViewer, viewerIdOf } from "./_auth.ts";
import { appPage } from "./_app_page.tsx";
import { Card, EmptyState, PageHeader, Pager } from "../components/AppPage.tsx";
import { ChecklistProgressBar } from "../components/ChecklistProgress.tsx";
import { formatDate } from "../components/survey/format.ts";
import {
  listTechnicianJobs,
  listTechnicians,
  PAST_JOBS_PAGE_SIZE,
  type TechnicianJob,
  type TechnicianMember,
  TECHNICIANS_PAGE_SIZE,
} from "../db/technicians.ts";
import { Island } from "../components/Island.tsx";
import TechnicianTeam from "../islands/TechnicianTeam.tsx";
import OfflineSupport from "../islands/OfflineSupport.tsx";
import { formatVisitDate } from "../lib/assignment_constants.ts";
import type { ChecklistProgress } from "../lib/checklist_types.ts";
import { groupOpenJobs, toTeamMember } from "../lib/technicians.ts";
import {
  mapsLink,
  TECHNICIAN_DASHBOARD_PATH,
  technicianJobPath,
  telLink,
} from "../lib/technician_constants.ts";
import { STATUS_INFO } from "../lib/survey_status.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import { formatInteger } from "../lib/numbers.ts";
import { mailDelivery, whoTellsYou } from "../lib/mail/delivery.ts";

// A page number the pager did not make is page 1, never an error page.
const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).catch(1).default(1),
}).passthrough();

function firstName(user: SessionUser): string {
  return user.fullName.trim().split(/\s+/)[0] || user.fullName;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** One job: where (a maps link), when, how to get in, whom to call, what, how far. */
function JobCard({ job, progress, note, isPast = false }: {
  job: TechnicianJob;
  progress: ChecklistProgress | undefined;
  /** "Overdue" and the like, beside the status. */
  note?: string;
  isPast?: boolean;
}) {
  const type = SURVEY_TYPE_INFO[job.surveyType].name;
  const status = STATUS_INFO[job.status];
  const titleId = `job-${job.surveyId}-title`;
  return (
    <li className="tech-job" data-job={job.surveyId}>
      <article aria-labelledby={titleId} className="tech-job__card">
        <header className="tech-job__header">
          <h3 id={titleId} className="tech-job__title">
            <a href={technicianJobPath(job.surveyId)}>{type}</a>
          </h3>
          <span className="cluster tech-job__badges">
            <span className={`badge badge--${status.badge}`}>{status.label}</span>
            {note ? <span className="badge badge--danger">{note}</span> : null}
          </span>
        </header>
        <p className="tech-job__address">
          <a href={mapsLink(job.address)} target="_blank" rel="noopener noreferrer">
            {job.address}
            <span className="visually-hidden">(opens in Maps)</span>
          </a>
        </p>
        <dl className="purchased-facts tech-job__facts">
          {isPast
            ? (
              <Fact term={job.completedDate ? "Completed" : "Surveyed"}>
                {formatDate(job.completedDate ?? job.surveyedDate)}
              </Fact>
            )
            : (
              <Fact term="Visit">
                {job.scheduledDate
                  ? formatVisitDate(job.scheduledDate)
                  : <span className="muted">Not scheduled yet</span>}
              </Fact>
            )}
          {isPast ? null : (
            <>
              <Fact term="Access notes">
                {job.accessNotes ?? <span className="muted">None</span>}
              </Fact>
              <Fact term="Client">
                {`${job.contactName} · `}
                <a href={telLink(job.contactPhone)}>{job.contactPhone}</a>
              </Fact>
              {job.crewNotes ? <Fact term="Crew notes">{job.crewNotes}</Fact> : null}
            </>
          )}
          {job.companyName ? <Fact term="For">{job.companyName}</Fact> : null}
        </dl>
        <ChecklistProgressBar
          progress={progress}
          label={`Checklist progress, ${type} at ${job.address}`}
          compact
        />
        <p className="tech-job__open">
          <a className="btn btn--primary btn--sm" href={technicianJobPath(job.surveyId)}>
            {isPast ? "View job" : "Open job"}
            <span className="visually-hidden">{`: ${type} at ${job.address}`}</span>
          </a>
        </p>
      </article>
    </li>
  );
}

function JobList({ jobs, progress, isPast, overdue }: {
  jobs: TechnicianJob[];
  progress: Map<string, ChecklistProgress>;
  isPast?: boolean;
  overdue?: Set<string>;
}) {
  return (
    <ol className="tech-jobs">
      {jobs.map((job) => (
        <JobCard
          key={job.surveyId}
          job={job}
          progress={progress.get(job.surveyId)}
          isPast={isPast}
          note={overdue?.has(job.surveyId) ? "Visit day passed" : undefined}
        />
      ))}
    </ol>
  );
}

/** Where admins see every technician and manage Meridian's own staff. */
export const ADMIN_TECHNICIANS_PATH = "/admin/technicians";

function memberStatus(m: TechnicianMember): string {
  if (m.disabledAt) return "Account disabled";
  return m.lastLogin ? `Last signed in ${formatDate(m.lastLogin)}` : "Invited, not signed in yet";
}

/** The firms' technicians, read-only: firms manage their own crews from their dashboard. */
function FirmCrews({ technicians }: { technicians: TechnicianMember[] }) {
  if (technicians.length === 0) {
    return <p className="muted">No firm has invited technicians yet.</p>;
  }
  return (
    <ul className="dash-list">
      {technicians.map((m) => (
        <li key={m.id} className="dash-list__item">
          <span>
            <strong>{m.fullName}</strong>
            {m.surveyorId
              ? (
                <>
                  {" · "}
                  <a href={`/surveyor-detail/${m.surveyorId}`}>{m.companyName}</a>
                </>
              )
              : null}
          </span>
          <span className="dash-list__meta">
            {`${m.email} · ${memberStatus(m)} · ${
              m.openJobs === 1 ? "1 open job" : `${formatInteger(m.openJobs)} open jobs`
            }`}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The technician's dashboard, which reads its viewer in its own statement. */
const DASHBOARD = ownViewerPage(TECHNICIAN_DASHBOARD_PATH, "technician");

/**
 * The technician dashboard (technicians only): their jobs today (in fieldwork, or visit today
 * or overdue, by where the property is), the upcoming ones by visit day (unscheduled last),
 * then past jobs (surveyed or completed; newest first, paged). Each shows the address as a
 * link that opens the phone's maps app, the visit day, access notes, the client's phone as a
 * tel: link, the survey type, the crew notes and the checklist's progress, and links to the
 * job's page. One statement: the technician, the jobs and their checklists' progress.
 *
 * Admins: /admin/technicians, Meridian's staff technicians (invite, re-invite, remove) and the
 * firms' crews.
 */
export const technicianPages = new Hono<AppEnv>()
  .get(
    DASHBOARD.path,
    DASHBOARD.guard,
    zValidator("query", PageQuery, onInvalid),
    async (c) => {
      const { page } = c.req.valid("query");
      // The technician, their jobs and the jobs' checklist progress in one statement.
      const { viewer, ...jobs } = await listTechnicianJobs(c.var.db, {
        technicianId: viewerIdOf(c),
        viewerId: viewerIdOf(c),
        pastPage: page,
      });
      const denied = await settleViewer(c, DASHBOARD, viewer);
      if (denied) return denied;
      const user = c.var.user!;
      const { progress } = jobs;
      const { today, upcoming } = groupOpenJobs(jobs.open);
      const overdue = new Set(today.filter((j) => j.isOverdue).map((j) => j.surveyId));
      const hasAny = jobs.open.length > 0 || jobs.pastTotal > 0;
      return appPage(
        c,
        { title: "Technician dashboard", active: TECHNICIAN_DASHBOARD_PATH },
        <div className="technician-dashboard stack">
          <PageHeader
            title={`Welcome, ${firstName(user)}`}
            intro="Your field jobs: today's first, then what is coming up."
          />
          {/* This page and the next jobs' pages stay readable on a site with no signal. */}
          <Island
            component={OfflineSupport}
            props={{
              keep: jobs.open.slice(0, 10).map((job) => technicianJobPath(job.surveyId)),
              savedAt: new Date().toISOString(),
            }}
          />
          {user.phone ? null : (
            <p className="alert alert--info">
              <span>
                Add your phone number so your surveyor and our team can reach you on site.{" "}
                <a href="/profile">Edit profile</a>
              </span>
            </p>
          )}
          {!hasAny
            ? (
              <EmptyState title="No jobs assigned yet">
                {`When your surveyor assigns you a job, it appears here with the address, the visit day, access notes, the client's phone and the checklist to complete on site. ${
                  whoTellsYou(mailDelivery(c.var.deps.config), "The bell at the top of the page")
                } when it happens.`}
              </EmptyState>
            )
            : (
              <>
                <Card
                  id="today-title"
                  title="Today"
                  aside={
                    <span className="badge badge--neutral" data-testid="today-count">
                      {formatInteger(today.length)}
                    </span>
                  }
                >
                  {today.length
                    ? <JobList jobs={today} progress={progress} overdue={overdue} />
                    : <p className="muted">Nothing today.</p>}
                </Card>
                <Card
                  id="upcoming-title"
                  title="Upcoming"
                  aside={
                    <span className="badge badge--neutral" data-testid="upcoming-count">
                      {formatInteger(upcoming.length)}
                    </span>
                  }
                >
                  {upcoming.length
                    ? <JobList jobs={upcoming} progress={progress} />
                    : <p className="muted">No other jobs assigned to you.</p>}
                </Card>
                <Card id="past-title" title="Past jobs" bodyClass="stack">
                  {jobs.past.length
                    ? <JobList jobs={jobs.past} progress={progress} isPast />
                    : <p className="muted">No finished jobs yet.</p>}
                  <Pager
                    page={page}
                    total={jobs.pastTotal}
                    pageSize={PAST_JOBS_PAGE_SIZE}
                    path={TECHNICIAN_DASHBOARD_PATH}
                  />
                </Card>
              </>
            )}
        </div>,
      );
    },
  )
  .get(
    ADMIN_TECHNICIANS_PATH,
    requirePageRole("admin"),
    zValidator("query", PageQuery, onInvalid),
    async (c) => {
      const { page } = c.req.valid("query");
      const [staff, all] = await Promise.all([
        listTechnicians(c.var.db, { scope: { staff: true } }),
        listTechnicians(c.var.db, { scope: { all: true }, page }),
      ]);
      const firms = all.technicians.filter((m) => m.surveyorId !== null);
      return appPage(
        c,
        { title: "Technicians", active: ADMIN_TECHNICIANS_PATH },
        <div className="stack">
          <PageHeader
            title="Technicians"
            intro="Meridian's own field staff, whom admins can assign to any survey, and the technicians surveyor firms invited to their crews."
          />
          <Card id="staff-title" title="Meridian staff">
            <Island
              component={TechnicianTeam}
              props={{
                members: staff.technicians.map(toTeamMember),
                total: staff.total,
                surveyorId: null,
                crewName: "Meridian's staff",
                mailDelivery: mailDelivery(c.var.deps.config),
              }}
              hydrate="idle"
            />
          </Card>
          <Card id="firm-crews-title" title="Firms' crews" bodyClass="stack">
            <FirmCrews technicians={firms} />
            <Pager
              page={page}
              total={all.total}
              pageSize={TECHNICIANS_PAGE_SIZE}
              path={ADMIN_TECHNICIANS_PATH}
            />
          </Card>
        </div>,
      );
    },
  );
