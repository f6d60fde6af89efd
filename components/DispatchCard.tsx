/**
 * The "Dispatch" card of a request's page, for admins only: the dispatch panel (an island:
 * find, refresh, notify, convert, the lead) above the dispatch map (drawn on the server: the
 * property and the matched surveyors). The route loads `state` (the same data as
 * `GET /api/surveys/{id}/surveyors`) and passes it in, so both read right before hydration.
 */
import { Card } from "./AppPage.tsx";
import { Island } from "./Island.tsx";
import { type MapPoint, UsMap } from "./UsMap.tsx";
import DispatchPanel from "../islands/DispatchPanel.tsx";
import AssignSurveyor, {
  type AssignCandidate,
  type AssignSurveyorProps,
} from "../islands/AssignSurveyor.tsx";
import type { SurveyBuyer } from "../db/assignments.ts";
import type { Assignment } from "../lib/lead_market_schema.ts";
import { formatMiles } from "../islands/_dispatch_format.ts";
import { type DispatchState, matchMapKind } from "../islands/_dispatch.ts";
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
  const candidates: AssignCandidate[] = [];
  const seen = new Set<string>();
  for (const b of buyers) {
    if (b.isRefunded || seen.has(b.surveyorId)) continue;
    seen.add(b.surveyorId);
    candidates.push({
      surveyorId: b.surveyorId,
      companyName: b.companyName,
      detail: b.kind === "claim" ? "Claimed the lead" : "Bought the lead",
    });
  }
  for (const m of state.surveyors) {
    if (!m.surveyorId || !m.inNetwork || m.status !== "active" || seen.has(m.surveyorId)) continue;
    seen.add(m.surveyorId);
    candidates.push({
      surveyorId: m.surveyorId,
      companyName: m.name,
      detail: `Matched, ${formatMiles(m.distanceMiles)}`,
    });
  }
  const blockedReason = isTerminal(survey.status)
    ? "This request is closed: nobody can be assigned."
    : survey.status === "in_fieldwork" || survey.status === "surveyed"
    ? "Fieldwork has started: change the request's status before assigning another surveyor."
    : null;
  return {
    surveyId: survey.id,
    quotedPriceCents: survey.quotedPriceCents,
    candidates,
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
  const points = dispatchMapPoints(survey, state);
  return (
    <Card id="dispatch-title" title="Dispatch" bodyClass="stack dispatch-card">
      <Island
        component={DispatchPanel}
        props={{ surveyId: survey.id, status: survey.status, initial: state }}
        hydrate="load"
      />
      {assign ? <Island component={AssignSurveyor} props={assign} hydrate="idle" /> : null}
      <section className="dispatch-card__map" aria-labelledby="dispatch-map-title">
        <h3 id="dispatch-map-title" className="dispatch__subtitle">Dispatch map</h3>
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
          points={points}
          fit="points"
          caption="Drawn when this page loaded: after Find or Refresh the list above changes at once, and the map on the next reload."
        />
      </section>
    </Card>
  );
}
