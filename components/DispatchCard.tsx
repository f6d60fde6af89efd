/**
 * The "Dispatch" card of a request's page, for admins only: the dispatch panel (an island:
 * find, refresh, notify, convert, the lead), the assignment form and the dispatch map (drawn
 * on the server: the property and the matched surveyors). The route loads `state` (the same
 * data as `GET /api/surveys/{id}/surveyors`) and passes it in, so all read right before
 * hydration; after Find, Refresh or Notify the panel publishes its new state
 * (islands/_dispatch_store.ts), the form relists its surveyors and the map is redrawn by the
 * server (`GET /api/surveys/{id}/dispatch-map`), all without a reload.
 */
import { renderToString } from "./react_server.ts";
import { Card } from "./AppPage.tsx";
import { Island } from "./Island.tsx";
import { type MapPoint, UsMap } from "./UsMap.tsx";
import DispatchPanel from "../islands/DispatchPanel.tsx";
import AssignSurveyor, { type AssignSurveyorProps } from "../islands/AssignSurveyor.tsx";
import DispatchMapSync from "../islands/DispatchMapSync.tsx";
import type { SurveyBuyer } from "../db/assignments.ts";
import type { Assignment } from "../lib/lead_market_schema.ts";
import {
  assignCandidates,
  type CandidateBuyer,
  type DispatchState,
  matchMapKind,
} from "../islands/_dispatch.ts";
import { isTerminal, type SurveyStatus } from "../lib/survey_status.ts";

/** What the card needs of the survey. */
export interface DispatchCardSurvey {
  id: string;
  status: SurveyStatus;
  address: string;
  formattedAddress: string | null;
  lat: number | null;
  lng: number | null;
}

/** The dispatch map's points: the property first, then every match with coordinates. */
export function dispatchMapPoints(survey: DispatchCardSurvey, state: DispatchState): MapPoint[] {
  const points: MapPoint[] = [];
  if (survey.lat !== null && survey.lng !== null) {
    points.push({
      lat: survey.lat,
      lng: survey.lng,
      kind: "property",
      label: survey.formattedAddress || survey.address,
    });
  }
  for (const match of state.surveyors) {
    points.push({
      lat: match.lat,
      lng: match.lng,
      kind: matchMapKind(match),
      label: match.name,
      href: match.surveyorId
        ? `/surveyor-detail/${encodeURIComponent(match.surveyorId)}`
        : undefined,
      distanceMiles: match.distanceMiles,
    });
  }
  return points;
}

/**
 * The AssignSurveyor island's props: the lead's buyers first (not refunded), then the matched
 * active in-network records, each once; the open assignment; why nobody can be assigned.
 */
export function assignSurveyorProps(
  survey: DispatchCardSurvey & { quotedPriceCents: number | null },
  state: DispatchState,
  buyers: SurveyBuyer[],
  assignment: Assignment | null,
): AssignSurveyorProps {
  const candidateBuyers: CandidateBuyer[] = buyers.map((b) => ({
    surveyorId: b.surveyorId,
    companyName: b.companyName,
    kind: b.kind,
    isRefunded: b.isRefunded,
  }));
  const blockedReason = isTerminal(survey.status)
    ? "This request is closed: nobody can be assigned."
    : survey.status === "in_fieldwork" || survey.status === "surveyed"
    ? "Fieldwork has started: change the request's status before assigning another surveyor."
    : null;
  return {
    surveyId: survey.id,
    quotedPriceCents: survey.quotedPriceCents,
    candidates: assignCandidates(candidateBuyers, state.surveyors),
    buyers: candidateBuyers,
    current: assignment
      ? {
        surveyorId: assignment.surveyorId,
        companyName: assignment.companyName,
        status: assignment.status,
        agreedPriceCents: assignment.agreedPriceCents,
        scheduledDate: assignment.scheduledDate,
      }
      : null,
    blockedReason,
  };
}

/** The dispatch map's body: the property and its matches (and why the property is missing). */
export function DispatchMap(
  { survey, state }: { survey: DispatchCardSurvey; state: DispatchState },
) {
  return (
    <>
      {survey.lat === null || survey.lng === null
        ? (
          <p className="muted">
            This request has no map location (the address was typed, not picked), so the property
            cannot be drawn. The matches are listed above.
          </p>
        )
        : null}
      <UsMap
        title="The property and its matched surveyors"
        points={dispatchMapPoints(survey, state)}
        fit="points"
        caption={state.foundAt
          ? "The matches of the last search, redrawn after every Find, Refresh and Notify."
          : "No search yet: Find surveyors draws the matches here."}
      />
    </>
  );
}

/** The dispatch map's body as HTML, for `GET /api/surveys/{id}/dispatch-map`. */
export function dispatchMapHtml(survey: DispatchCardSurvey, state: DispatchState): string {
  return renderToString(<DispatchMap survey={survey} state={state} />);
}

/**
 * The admin's dispatch card (see the file's comment), with the AssignSurveyor form when
 * `assign` is given.
 */
export function DispatchCard(
  { survey, state, assign }: {
    survey: DispatchCardSurvey;
    state: DispatchState;
    assign?: AssignSurveyorProps;
  },
) {
  return (
    <Card id="dispatch-title" title="Dispatch" bodyClass="stack dispatch-card">
      <Island
        component={DispatchPanel}
        props={{ surveyId: survey.id, status: survey.status, initial: state }}
        hydrate="load"
        isPure
      />
      {assign ? <Island component={AssignSurveyor} props={assign} hydrate="idle" isPure /> : null}
      <section className="dispatch-card__map" aria-labelledby="dispatch-map-title">
        <h3 id="dispatch-map-title" className="dispatch__subtitle">Dispatch map</h3>
        {/* Redrawn in place (islands/DispatchMapSync.tsx) after Find, Refresh and Notify. */}
        <div data-dispatch-map={survey.id}>
          <DispatchMap survey={survey} state={state} />
        </div>
        <Island
          component={DispatchMapSync}
          props={{ surveyId: survey.id }}
          hydrate="load"
          isPure
        />
      </section>
    </Card>
  );
}
