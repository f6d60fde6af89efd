import type { ReactNode } from "react";
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppEnv } from "./_env.ts";
import { onInvalid } from "./_errors.tsx";
import { ownViewerPage, settleViewer, viewerIdOf } from "./_auth.ts";
import { appPage, rememberedAppPage } from "./_app_page.tsx";
import { ParcelFacts } from "./purchased_lead_pages.tsx";
import { Card, EmptyState, PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import { ClientContact, leadAddress, typeName } from "../components/PurchasedLeadCard.tsx";
import { formatDate } from "../components/survey/format.ts";
import AssignmentActions from "../islands/AssignmentActions.tsx";
import DeliverableUpload from "../islands/DeliverableUpload.tsx";
import CompleteSurvey from "../islands/CompleteSurvey.tsx";
import { completeSurveyProps } from "./technician_survey_pages.tsx";
import { assignmentActionsProps } from "../lib/assignments.ts";
import {
  getSurveyorJobPageWithViewer,
  type JobUnlocked,
  type SurveyorJob,
} from "../db/surveyor_jobs.ts";
import AssignTechnician, { type AssignTechnicianProps } from "../islands/AssignTechnician.tsx";
import { assignTechnicianPropsFor } from "../lib/technicians.ts";
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
import { formatDecimal, formatInteger } from "../lib/numbers.ts";
import { mailDelivery } from "../lib/mail/delivery.ts";
import { MessagesCard } from "../components/MessagesCard.tsx";
import { loadMessagesCard } from "../lib/messages.ts";
import { MESSAGE_PAGE_FIRST } from "../lib/message_text.ts";

const DASHBOARD_PATH = "/surveyor-dashboard";

// Any id string is accepted here; an unknown or malformed one is the 404 page.
const SurveyIdParam = z.object({ surveyId: z.string().max(100).catch("") });

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** "Austin, TX", or the state's name when the town cannot be told. */
function placeOf(job: SurveyorJob): string {
  return job.city ? `${job.city}, ${job.state}` : US_STATES[job.state] ?? job.state;
}

/** What anyone offered the job may know: the lead's facts, never the client's. */
function JobFacts({ job }: { job: SurveyorJob }) {
  return (
    <dl className="purchased-facts" data-testid="job-facts">
      <Fact term="Survey type">{typeName(job.surveyType)}</Fact>
      <Fact term="Location">{placeOf(job)}</Fact>
      <Fact term="Lot size">
        {job.acreage === null ? "Not given" : `${formatDecimal(job.acreage)} acres`}
      </Fact>
      <Fact term="Property type">
        {PROPERTY_TYPE_LABELS[job.propertyType as PropertyType] ?? job.propertyType}
      </Fact>
      <Fact term="Needed by">{job.neededBy ? formatDate(job.neededBy) : "No date given"}</Fact>
      <Fact term="Timing">{RUSH_LABELS[job.rush as RushLevel] ?? job.rush}</Fact>
      <Fact term="Request status">
        {STATUS_INFO[job.surveyStatus]?.label ?? job.surveyStatus}
      </Fact>
      <Fact term="Requested">{formatDate(job.requestedAt)}</Fact>
    </dl>
  );
}

/** The rest of the client's request, once the job is the surveyor's. */
function RequestDetails({ details }: { details: JobUnlocked }) {
  const alta = details.altaItems.map((id) => `${id}. ${ALTA_TABLE_A_ITEMS[id] ?? ""}`.trim());
  return (
    <dl className="purchased-facts" data-testid="job-request">
      <Fact term="Purpose">
        {PURPOSE_INFO[details.purpose as SurveyPurpose]?.label ?? details.purpose}
      </Fact>
      {details.terrain
        ? <Fact term="Terrain">{TERRAIN_LABELS[details.terrain] ?? details.terrain}</Fact>
        : null}
      {details.vegetation
        ? (
          <Fact term="Vegetation">
            {VEGETATION_LABELS[details.vegetation] ?? details.vegetation}
          </Fact>
        )
        : null}
      {details.structures
        ? <Fact term="Structures">{formatInteger(details.structures)}</Fact>
        : null}
      {details.cornersKnown !== null
        ? <Fact term="Corners marked">{details.cornersKnown ? "Yes" : "No or not sure"}</Fact>
        : null}
      {details.cornersToSet
        ? <Fact term="Corners to set">{formatInteger(details.cornersToSet)}</Fact>
        : null}
      {alta.length ? <Fact term="ALTA Table A items">{alta.join("; ")}</Fact> : null}
      <Fact term="Access notes">
        {details.accessNotes ?? <span className="muted">None</span>}
      </Fact>
      <Fact term="Client's notes">
        {details.notes ?? <span className="muted">None</span>}
      </Fact>
    </dl>
  );
}

function AssignmentCard(
  { job, actions }: { job: SurveyorJob; actions: ReturnType<typeof assignmentActionsProps> },
) {
  const a = job.assignment;
  return (
    <Card id="assignment-title" title="Assignment" bodyClass="stack">
      <Island
        component={AssignmentActions}
        props={{
          ...actions,
          showNextStep: true,
          // Accepting unlocks the client's details, which this page shows once reloaded.
          unlockHref: job.unlocked ? undefined : `/surveyor/jobs/${job.surveyId}`,
        }}
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
      {job.purchasedLeadId
        ? (
          <p>
            <a href={`/surveyor/purchased-leads/${job.purchasedLeadId}`}>
              Your purchased lead: pipeline, quote and returns
            </a>
          </p>
        )
        : null}
    </Card>
  );
}

/** Who does the fieldwork: a technician of the surveyor's crew and the notes for them. */
function CrewCard({ crew }: { crew: AssignTechnicianProps }) {
  return (
    <Card id="crew-title" title="Field crew" bodyClass="stack">
      <Island component={AssignTechnician} props={crew} hydrate="idle" />
    </Card>
  );
}

/** The job page reads its viewer with the job (routes/_auth.ts `ownViewerPage`). */
const JOB = ownViewerPage("/surveyor/jobs/:surveyId", "surveyor");

/**
 * A surveyor's job page (surveyors only): /surveyor/jobs/{surveyId}, for the surveyor linked to
 * an assignment on that survey (any status, whether or not they bought its lead, and for a
 * request that never had a lead). While offered it reads like a lead, with Accept / Decline;
 * once accepted (or when they bought the lead) the client's contact, the exact address, the
 * parcel and the full request are shown. Everyone else gets the 404 page. The dashboard's
 * jobs, the assignment notifications and the AssignmentOffered email link here
 * (lib/assignments.ts `surveyorJobPath`).
 */
export const surveyorJobPages = new Hono<AppEnv>()
  .get(
    JOB.path,
    JOB.guard,
    zValidator("param", SurveyIdParam, onInvalid),
    async (c) => {
      const { surveyId } = c.req.valid("param");
      const db = c.var.db;
      // The user and the job (the firm found by the account) in one statement, with the rest
      // of what the page shows: the conversation with the client, once the job is theirs (or
      // they bought its lead); the firm's fieldwork access, which says whether it moves the
      // fieldwork (only the firm doing the job: accepted, scheduled or completed); the crew and
      // whom it may be chosen from; and the deliverables, the firm's to upload once the job is
      // theirs and final once the survey is completed. What follows reads nothing more.
      const { viewer, job } = await getSurveyorJobPageWithViewer(db, {
        surveyId,
        userId: viewerIdOf(c),
        messages: { limit: MESSAGE_PAGE_FIRST },
      });
      const denied = await settleViewer(c, JOB, viewer);
      if (denied) return denied;
      const user = c.var.user!;
      if (!job) {
        return appPage(
          c,
          { title: "Job not found", active: DASHBOARD_PATH },
          <>
            <PageHeader title="Job not found" />
            <EmptyState
              title="Job not found"
              action={<a className="btn btn--primary" href={DASHBOARD_PATH}>Back to dashboard</a>}
            >
              This job is not among your assignments, or it no longer exists.
            </EmptyState>
          </>,
          404,
        );
      }
      const details = job.unlocked;
      const where = details ? leadAddress(details) : placeOf(job);
      const status = job.assignment.status;
      const { access, deliverables } = job;
      const messages = await loadMessagesCard(db, { surveyId, user, read: job.messages });
      const [delivery, crew] = await Promise.all([
        completeSurveyProps(db, surveyId, user, mailDelivery(c.var.deps.config), {
          access,
          deliverables: deliverables?.length,
        }),
        // The field crew is chosen once the job is theirs and its fieldwork is still to do.
        status === "accepted" || status === "scheduled"
          ? assignTechnicianPropsFor(db, {
            surveyId: job.surveyId,
            user,
            known: {
              access,
              crew: { current: job.crew, technicians: job.crewChoices ?? undefined },
            },
          })
          : null,
      ]);
      // The actions' first day to schedule is today's (the clock), so it is computed here.
      const actions = assignmentActionsProps(job.assignment, "surveyor");
      // Sent as it was last rendered while nothing it shows has changed
      // (routes/_remembered_pages.ts): what it reads of the clock (the days the actions and
      // the delivery form accept) is in what it is compared by.
      return rememberedAppPage(
        c,
        { title: `${typeName(job.surveyType)} job`, active: DASHBOARD_PATH },
        `surveyor-job ${user.id} ${surveyId}`,
        [job, messages, delivery, crew, actions],
        () => (
          <div className="purchased-page">
            <p className="purchased-page__back">
              <a href={DASHBOARD_PATH}>← Back to dashboard</a>
            </p>
            <PageHeader title={typeName(job.surveyType)} intro={where} />
            <div className="purchased-page__grid">
              <div className="stack">
                {details
                  ? (
                    <Card id="client-title" title="Client">
                      <ClientContact lead={details} />
                    </Card>
                  )
                  : null}
                <MessagesCard data={messages} />
                <Card id="job-title" title="The job" bodyClass="stack">
                  <JobFacts job={job} />
                  {details
                    ? <RequestDetails details={details} />
                    : (
                      <p className="muted" data-testid="job-locked">
                        The client's name, contact details, the exact address and the parcel are
                        shown here once you accept the job.
                      </p>
                    )}
                </Card>
                {details
                  ? (
                    <Card id="parcel-title" title="Parcel">
                      <ParcelFacts parcel={details.parcel} />
                    </Card>
                  )
                  : null}
              </div>
              <div className="stack">
                <AssignmentCard job={job} actions={actions} />
                {crew ? <CrewCard crew={crew} /> : null}
                {deliverables
                  ? (
                    <Card id="deliverables-title" title="Deliverables" bodyClass="stack">
                      <Island
                        component={DeliverableUpload}
                        props={{
                          surveyId: job.surveyId,
                          files: deliverables,
                          canChange: job.surveyStatus !== "completed" &&
                            job.surveyStatus !== "cancelled",
                        }}
                        hydrate="idle"
                      />
                    </Card>
                  )
                  : null}
                {delivery
                  ? (
                    <Card id="delivery-title" title="Fieldwork and delivery">
                      <Island component={CompleteSurvey} props={delivery} hydrate="idle" />
                    </Card>
                  )
                  : null}
              </div>
            </div>
          </div>
        ),
      );
    },
  );
