/**
 * The fieldwork and delivery part of a request's page (/survey/{id}), for its client and
 * admins: the checklist's progress, the deliverables and the client's rating of the surveyor.
 * Data: db/surveys.ts `getSurveyPageData`, as lib/fieldwork.ts `SurveyDeliveryView`.
 */
import { Card } from "./AppPage.tsx";
import { Island } from "./Island.tsx";
import { ChecklistProgressBar } from "./ChecklistProgress.tsx";
import { SurveyFilesList } from "./SurveyFilesList.tsx";
import RateSurveyor from "../islands/RateSurveyor.tsx";
import type { SurveyDeliveryView } from "../lib/fieldwork.ts";
import type { WorkingFirm } from "../db/fieldwork.ts";
import { lifecycleIndex, type SurveyStatus } from "../lib/survey_status.ts";

/** The firm that did the job, once its assignment is completed (no open assignment left). */
export function WorkingFirmContact({ firm }: { firm: WorkingFirm }) {
  return (
    <span className="surveyor-contact" data-assignment="completed">
      <strong>{firm.companyName}</strong>
      {firm.phone ? <a href={`tel:${firm.phone.replace(/[^\d+]/g, "")}`}>{firm.phone}</a> : null}
    </span>
  );
}

/** A sentence on where the fieldwork stands, for the client. */
function fieldworkText(status: SurveyStatus): string {
  switch (status) {
    case "scheduled":
      return "The crew works through this checklist during the field visit.";
    case "in_fieldwork":
      return "The crew is on site, working through the checklist.";
    case "surveyed":
      return "Fieldwork is done; your surveyor is drafting the final documents.";
    case "completed":
      return "Fieldwork is done and the final documents are delivered.";
    default:
      return "";
  }
}

/**
 * The Fieldwork card (from the visit's scheduling on), the Deliverables card (once completed;
 * for admins as soon as there are files) and, for the owning client of a completed survey
 * done by a firm, the rating form (or the rating given).
 */
export function DeliveryCards({ survey, delivery, isOwner }: {
  survey: { id: string; status: SurveyStatus };
  delivery: SurveyDeliveryView;
  isOwner: boolean;
}) {
  const { status } = survey;
  const fieldworkStarted = status !== "cancelled" &&
    lifecycleIndex(status) >= lifecycleIndex("scheduled");
  const showFieldwork = fieldworkStarted || delivery.progress !== undefined;
  const showFiles = status === "completed" || delivery.deliverables.length > 0;
  const canRate = isOwner && status === "completed" && delivery.firm !== undefined;
  return (
    <>
      {showFieldwork
        ? (
          <Card id="fieldwork-title" title="Fieldwork" bodyClass="stack">
            <ChecklistProgressBar progress={delivery.progress} label="Fieldwork checklist" />
            {fieldworkText(status) ? <p className="muted">{fieldworkText(status)}</p> : null}
          </Card>
        )
        : null}
      {showFiles
        ? (
          <Card id="deliverables-title" title="Deliverables" bodyClass="stack">
            {delivery.deliverables.length > 0
              ? <SurveyFilesList files={delivery.deliverables} />
              : (
                <p className="muted">
                  No files were delivered through Meridian for this survey. Your surveyor can send
                  them to you directly.
                </p>
              )}
          </Card>
        )
        : null}
      {canRate
        ? (
          <Card id="rating-title" title="Rate your surveyor">
            <Island
              component={RateSurveyor}
              props={{
                surveyId: survey.id,
                companyName: delivery.firm!.companyName,
                existing: delivery.review
                  ? {
                    rating: delivery.review.rating,
                    comment: delivery.review.comment,
                    ...(delivery.review.text ? { text: delivery.review.text } : {}),
                  }
                  : null,
              }}
              hydrate="visible"
            />
          </Card>
        )
        : null}
    </>
  );
}
