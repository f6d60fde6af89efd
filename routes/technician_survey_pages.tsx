import type { ReactNode } from "react";
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import { z } from "zod";
import type { AppContext, AppEnv, SessionUser } from "./_env.ts";
import type { Db } from "../db/client.ts";
import { countDeliverables } from "../db/survey_files.ts";
import type { CompleteSurveyProps } from "../islands/CompleteSurvey.tsx";
import { onInvalid } from "./_errors.tsx";
import { ownViewerPage, settleViewer, viewerIdOf, viewerRoleGuess } from "./_auth.ts";
import { appPage, rememberedAppPage } from "./_app_page.tsx";
import { ParcelFacts } from "./purchased_lead_pages.tsx";
import { CHECKLIST_EDITABLE_STATUSES } from "./checklists.ts";
import { Card, EmptyState, PageHeader } from "../components/AppPage.tsx";
import { Island } from "../components/Island.tsx";
import { ChecklistProgressBar } from "../components/ChecklistProgress.tsx";
import { telHref } from "../components/PurchasedLeadCard.tsx";
import { formatDate } from "../components/survey/format.ts";
import FieldActions from "../islands/FieldActions.tsx";
import OfflineSupport from "../islands/OfflineSupport.tsx";
import SurveyChecklist from "../islands/SurveyChecklist.tsx";
import {
  type FieldworkAccess,
  type FieldworkRole,
  getFieldworkAccess,
} from "../db/survey_access.ts";
import type { FieldSurvey } from "../db/fieldwork.ts";
import { getFieldPage, getFieldPageWithViewer } from "../db/field_page.ts";
import { getUserWithUnreadCount } from "../db/users.ts";
import { progressOf } from "../lib/checklist_types.ts";
import { latestFieldDate } from "../lib/fieldwork.ts";
import { earliestVisitDate, surveyorJobPath } from "../lib/assignments.ts";
import { SURVEY_TYPE_INFO } from "../lib/survey_types.ts";
import {
  ALTA_TABLE_A_ITEMS,
  PROPERTY_TYPE_LABELS,
  type PropertyType,
} from "../lib/survey_options.ts";
import { formatDecimal } from "../lib/numbers.ts";
import type { MailDelivery } from "../lib/mail/delivery.ts";
import { MessagesCard } from "../components/MessagesCard.tsx";
import { loadMessagesCard } from "../lib/messages.ts";
import { MESSAGE_PAGE_FIRST } from "../lib/message_text.ts";

/** The technician's home, where their jobs are listed. */
const TECHNICIAN_DASHBOARD = "/technician-dashboard";

// Any id string is accepted here; an unknown or malformed one is the 404 page.
const SurveyIdParam = z.object({ surveyId: z.string().max(100).catch("") });

/** The field page, for its technician, the firm doing the job and admins. */
const FIELD_PAGE = ownViewerPage("/technician-survey-detail/:surveyId", [
  "technician",
  "surveyor",
  "admin",
]);

/** Where "back" goes for each role: the page the viewer came from. */
function backLink(as: FieldworkRole, surveyId: string): { href: string; label: string } {
  switch (as) {
    case "surveyor":
      return { href: surveyorJobPath(surveyId), label: "Back to the job" };
    case "admin":
      return { href: `/survey/${surveyId}`, label: "Back to the request" };
    default:
      return { href: TECHNICIAN_DASHBOARD, label: "Back to your dashboard" };
  }
}

/** A maps link that opens the phone's maps app: by coordinates when known, else by address. */
export function directionsHref(survey: Pick<FieldSurvey, "lat" | "lng">, address: string): string {
  const query = survey.lat !== null && survey.lng !== null
    ? `${survey.lat},${survey.lng}`
    : address;
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div>
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function None() {
  return <span className="muted">None</span>;
}

function PropertyCard({ survey, address }: { survey: FieldSurvey; address: string }) {
  const alta = survey.altaItems.map((id) =>
    `${id}. ${ALTA_TABLE_A_ITEMS[id as keyof typeof ALTA_TABLE_A_ITEMS] ?? ""}`.trim()
  );
  return (
    <Card id="property-title" title="Property" bodyClass="stack">
      <p className="field-page__address">
        <strong>{address}</strong>
        <br />
        <a href={directionsHref(survey, address)} target="_blank" rel="noopener noreferrer">
          Open in maps<span className="visually-hidden">(opens in a new tab)</span>
        </a>
      </p>
      <dl className="purchased-facts">
        <Fact term="Survey type">{SURVEY_TYPE_INFO[survey.surveyType].name}</Fact>
        <Fact term="Visit">
          {survey.scheduledDate ? formatDate(survey.scheduledDate) : "Not scheduled yet"}
        </Fact>
        <Fact term="Property type">
          {PROPERTY_TYPE_LABELS[survey.propertyType as PropertyType] ?? survey.propertyType}
        </Fact>
        <Fact term="Lot size">
          {survey.acreage === null ? "Not given" : `${formatDecimal(survey.acreage)} acres`}
        </Fact>
        <Fact term="Structures">{String(survey.structures)}</Fact>
        <Fact term="Corners to set">{String(survey.cornersToSet)}</Fact>
        {alta.length ? <Fact term="ALTA Table A items">{alta.join("; ")}</Fact> : null}
      </dl>
      <h3 className="field-page__subhead">Parcel</h3>
      <ParcelFacts parcel={survey.parcel} />
    </Card>
  );
}

function ContactCard({ survey }: { survey: FieldSurvey }) {
  return (
    <Card id="contact-title" title="Client contact">
      <dl className="purchased-facts">
        <Fact term="Name">{survey.contactName}</Fact>
        <Fact term="Phone">
          <a className="field-page__call" href={telHref(survey.contactPhone)}>
            {survey.contactPhone}
          </a>
        </Fact>
        {survey.companyName
          ? (
            <Fact term="Surveying company">
              {survey.companyName}
              {survey.companyPhone
                ? (
                  <>
                    {" · "}
                    <a href={telHref(survey.companyPhone)}>{survey.companyPhone}</a>
                  </>
                )
                : null}
            </Fact>
          )
          : null}
      </dl>
    </Card>
  );
}

/**
 * The field page of a survey: /technician-survey-detail/{surveyId}, for the assigned
 * technician, the surveyor doing the job and admins (db/survey_access.ts); anyone else, the
 * client included, gets the 404 page. Everything needed on site, phone first: the field
 * actions (FieldActions), the property with a maps link and the parcel data, access notes,
 * the client's contact, the surveyor's notes for the crew and the checklist (SurveyChecklist).
 */
export const technicianSurveyPages = new Hono<AppEnv>()
  .get(
    FIELD_PAGE.path,
    FIELD_PAGE.guard,
    zValidator("param", SurveyIdParam, onInvalid),
    async (c) => {
      // Taken before anything is read: the device applies what it learnt since over a kept copy
      // of this page (islands/_field_memory.ts), so this must not be later than the data shown.
      // Taken after the reads, a status answered while they ran counted as older than the page.
      const renderedAt = new Date().toISOString();
      const { surveyId } = c.req.valid("param");
      const db = c.var.db;
      // The user with the survey, their access to it, its checklist, its crew and (for the
      // technician on the job) the conversation they write in, their firm's with the client, in
      // one statement, read for the role the session was opened with and used only if the user
      // read still has it; otherwise (or for a session stored without its role) the user first,
      // then the page.
      const viewerId = viewerIdOf(c);
      const guess = viewerRoleGuess(c);
      const messages = { limit: MESSAGE_PAGE_FIRST };
      const read = guess
        ? await getFieldPageWithViewer(db, {
          surveyId,
          user: { id: viewerId, role: guess },
          messages,
          viewerId,
        })
        : { viewer: await getUserWithUnreadCount(db, viewerId), page: undefined };
      const denied = await settleViewer(c, FIELD_PAGE, read.viewer);
      if (denied) return denied;
      const user = c.var.user!;
      const page = user.role === guess
        ? read.page
        : await getFieldPage(db, { surveyId, user, messages });
      if (!page || page.as === "client") return notFound(c, user.role);
      const { survey, as, checklist, crew } = page;
      const messagesCard = page.messages
        ? await loadMessagesCard(db, { surveyId: survey.id, user, read: page.messages })
        : undefined;
      const address = survey.formattedAddress || survey.address;
      const back = backLink(as, survey.id);
      const progress = checklist ? progressOf(checklist.items) : null;
      const canEdit = CHECKLIST_EDITABLE_STATUSES.includes(survey.status);
      // The days the field actions accept come from the clock, so they are computed here.
      const today = earliestVisitDate();
      const maxDate = latestFieldDate();
      // Sent as it was last rendered while nothing it shows has changed
      // (routes/_remembered_pages.ts), compared by the page as read (the survey row's version
      // among it), the conversation and the days the actions accept. Its `renderedAt` is then
      // the first render's, which the device's memory of statuses (islands/_field_memory.ts)
      // may read as it reads a fresh one: every write to the survey since that render changed
      // the row's version, so the bytes are sent again only when the page read now is the page
      // read then, and a status this device was answered since is in it or undone in it, as on
      // a fresh render. The offline notice dates a kept copy by the answer the worker kept
      // (islands/OfflineSupport.tsx), not by this time.
      return rememberedAppPage(
        c,
        {
          title: `${SURVEY_TYPE_INFO[survey.surveyType].name} — field page`,
          active: as === "technician" ? TECHNICIAN_DASHBOARD : undefined,
        },
        `field-page ${user.id} ${survey.id}`,
        [page, messagesCard, today, maxDate],
        () => (
          <div className="field-page">
            <p className="field-page__back">
              <a href={back.href}>← {back.label}</a>
            </p>
            <PageHeader title={SURVEY_TYPE_INFO[survey.surveyType].name} intro={address} />
            {/* The assigned technician's copy of this page stays readable without signal. */}
            {as === "technician"
              ? <Island component={OfflineSupport} props={{ keep: [], savedAt: renderedAt }} />
              : null}
            <div className="field-page__grid">
              <div className="stack">
                <Card id="field-actions-title" title="Field actions">
                  <Island
                    component={FieldActions}
                    props={{
                      surveyId: survey.id,
                      status: survey.status,
                      progress,
                      surveyedDate: survey.surveyedDate,
                      today,
                      maxDate,
                      renderedAt,
                    }}
                    hydrate="load"
                  />
                  {survey.fieldworkStartedAt
                    ? (
                      <p className="muted">
                        Fieldwork started{" "}
                        <time dateTime={survey.fieldworkStartedAt}>
                          {formatDate(survey.fieldworkStartedAt)}
                        </time>.
                      </p>
                    )
                    : null}
                </Card>
                <MessagesCard data={messagesCard} />
                <Card id="crew-notes-title" title="Notes for the crew">
                  {crew
                    ? (
                      <div className="stack">
                        {crew.notes
                          ? <p className="field-page__notes">{crew.notes}</p>
                          : <p className="muted">The surveyor left no notes for this job.</p>}
                        {as !== "technician"
                          ? (
                            <p className="muted">
                              {`Technician: ${crew.technicianName}`}
                              {crew.technicianPhone
                                ? (
                                  <>
                                    {" · "}
                                    <a href={telHref(crew.technicianPhone)}>
                                      {crew.technicianPhone}
                                    </a>
                                  </>
                                )
                                : null}
                            </p>
                          )
                          : null}
                      </div>
                    )
                    : <p className="muted">No technician is assigned to this survey yet.</p>}
                </Card>
                <Card id="access-title" title="Access notes">
                  <dl className="purchased-facts">
                    <Fact term="Access">{survey.accessNotes ?? <None />}</Fact>
                    <Fact term="Client's notes">{survey.notes ?? <None />}</Fact>
                  </dl>
                </Card>
                <ContactCard survey={survey} />
              </div>
              <div className="stack">
                <Card id="checklist-title" title="Checklist" bodyClass="stack">
                  {checklist
                    ? (
                      <Island
                        component={SurveyChecklist}
                        props={{ surveyId: survey.id, items: checklist.items, canEdit }}
                        hydrate="load"
                        // Its markup is its props' alone (the clock only in its handlers).
                        isPure
                      />
                    )
                    : (
                      <>
                        <ChecklistProgressBar progress={undefined} />
                        <p className="muted">
                          The checklist for this survey type is set up when a technician is
                          assigned.
                        </p>
                      </>
                    )}
                </Card>
                <PropertyCard survey={survey} address={address} />
              </div>
            </div>
          </div>
        ),
      );
    },
  );

/**
 * Props of the CompleteSurvey island for `user` on `surveyId` (the surveyor's job page; mail
 * `delivery` decides whether it may promise the client an email), or
 * undefined unless they are the firm doing the job.
 */
export async function completeSurveyProps(
  db: Db,
  surveyId: string,
  user: SessionUser,
  delivery: MailDelivery,
  known?: {
    /** The user's fieldwork access to the survey, as `getFieldworkAccess` read it. */
    access: FieldworkAccess | undefined;
    /** The survey's deliverables, when they were counted. */
    deliverables?: number;
  },
): Promise<CompleteSurveyProps | undefined> {
  const access = known ? known.access : await getFieldworkAccess(db, { surveyId, user });
  if (access?.as !== "surveyor") return undefined;
  const { survey } = access;
  return {
    surveyId: survey.id,
    status: survey.status,
    deliverables: known?.deliverables ?? await countDeliverables(db, { surveyId: survey.id }),
    surveyedDate: survey.surveyedDate,
    completedDate: survey.completedDate,
    today: earliestVisitDate(),
    maxDate: latestFieldDate(),
    mailDelivery: delivery,
  };
}

/** The 404 page: the survey does not exist, or the viewer does not work on it. */
function notFound(c: AppContext, role: string): Promise<Response> {
  const back = role === "technician"
    ? { href: TECHNICIAN_DASHBOARD, label: "Back to your dashboard" }
    : { href: "/dashboard", label: "Back to your dashboard" };
  return appPage(
    c,
    { title: "Survey not found", active: role === "technician" ? TECHNICIAN_DASHBOARD : undefined },
    <>
      <PageHeader title="Survey not found" />
      <EmptyState
        title="Survey not found"
        action={<a className="btn btn--primary" href={back.href}>{back.label}</a>}
      >
        This survey is not assigned to you, or it no longer exists.
      </EmptyState>
    </>,
    404,
  );
}
