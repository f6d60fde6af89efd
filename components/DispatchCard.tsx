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
import { type DispatchState, matchMapKind } from "../islands/_dispatch.ts";
import type { SurveyStatus } from "../lib/survey_status.ts";

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

/** The admin's dispatch card (see the file's comment). */
export function DispatchCard(
  { survey, state }: { survey: DispatchCardSurvey; state: DispatchState },
) {
  const points = dispatchMapPoints(survey, state);
  return (
    <Card id="dispatch-title" title="Dispatch" bodyClass="stack dispatch-card">
      <Island
        component={DispatchPanel}
        props={{ surveyId: survey.id, status: survey.status, initial: state }}
        hydrate="load"
      />
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
