/**
 * The admin's dispatch panel on a request's page (/survey/{id}): the surveyors matched to the
 * property (distance, score, network, whether the lead was offered to them), "Convert" for
 * businesses from the places provider that are not records yet, the survey's lead once it
 * exists, and the two actions of spec section 7 with the toasts of section 8:
 *
 * - "Find surveyors" (`POST /api/surveys/{id}/find-surveyors`; "Refresh" adds `?refresh=true`):
 *   'Surveyors found' / 'Found N nearby surveyor(s).', 'Using existing surveyors' when the
 *   stored result came back, 'Error finding surveyors' with the server's message.
 * - "Notify surveyors" (`POST /api/surveys/{id}/notify-surveyors`): 'Surveyors notified' /
 *   "Notified 4 surveyors · lead price $38.50", 'Error notifying surveyors'. Disabled, with the
 *   reason shown, while nobody was matched or the request is cancelled or completed.
 *
 * The server renders the first state (the page's GET-equivalent data), so the panel reads the
 * same before hydration. Every later state is published (islands/_dispatch_store.ts), so the
 * assignment form's list and the server-drawn map beside it follow at once.
 */
import { useEffect, useState } from "react";
import { apiJson, errorMessage, getQuery } from "./_api.ts";
import { toast } from "./_toast.ts";
import { publishDispatch } from "./_dispatch_store.ts";
import { TableRegion } from "./_table.tsx";
import { formatMiles } from "./_dispatch_format.ts";
import {
  cachedToastText,
  type DispatchState,
  matchBadge,
  notifyBlockedReason,
} from "./_dispatch.ts";
import { foundToastText, notifiedToastText } from "../lib/dispatch_text.ts";
import type {
  ConvertPlaceResponse,
  FindSurveyorsResponse,
  NearbySurveyorInfo,
  NotifySurveyorsResponse,
} from "../lib/surveyor_schema.ts";
import { isTerminal, type SurveyStatus } from "../lib/survey_status.ts";
import { formatCents } from "../lib/quote_text.ts";
import { formatInteger } from "../lib/numbers.ts";
import { leadEmailsNotSentText, type MailDelivery, OPEN_IN_EMAILS } from "../lib/mail/delivery.ts";
import { remembered } from "../lib/remembered.ts";

/** Props of the dispatch panel (plain JSON, rendered by the server first). */
export interface DispatchPanelProps {
  surveyId: string;
  status: SurveyStatus;
  initial: DispatchState;
}

// Fixed time zone so the server's HTML and the hydrated panel print the same time.
const WHEN = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "UTC",
  timeZoneName: "short",
});

// Remembered: the panel repeats the same few times (each surveyor notified at once).
const when = remembered((iso: string) => WHEN.format(new Date(iso)));

type Busy = "find" | "refresh" | "notify" | null;

/** The dispatch panel (see the file's comment). */
export default function DispatchPanel({ surveyId, status, initial }: DispatchPanelProps) {
  const [state, setState] = useState<DispatchState>(initial);
  const [busy, setBusy] = useState<Busy>(null);
  const [converting, setConverting] = useState<string | null>(null);
  const [isHydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (state !== initial) publishDispatch(surveyId, state);
  }, [state]);

  const base = `/api/surveys/${encodeURIComponent(surveyId)}`;
  const isClosed = isTerminal(status);
  const notifyBlocked = notifyBlockedReason(state, status);

  async function reload() {
    // The lead and the notified flags come from the server; a failure here leaves the list as
    // it was (the action itself already succeeded and said so).
    try {
      const fresh = await getQuery<DispatchState>(`${base}/surveyors`);
      if (fresh) setState(fresh);
    } catch {
      // Kept as is; a page reload shows the latest.
    }
  }

  async function find(refresh: boolean) {
    setBusy(refresh ? "refresh" : "find");
    try {
      const data = await apiJson<FindSurveyorsResponse>(
        "POST",
        `${base}/find-surveyors${refresh ? "?refresh=true" : ""}`,
      );
      if (!data) throw new Error("Empty answer");
      const n = data.surveyors.length;
      setState((s) => ({
        ...s,
        surveyors: data.surveyors,
        foundAt: data.survey.nearbySurveyorsFoundAt,
      }));
      toast(
        data.fromCache
          ? { title: "Using existing surveyors", description: cachedToastText(n) }
          : { title: "Surveyors found", description: foundToastText(n) },
      );
    } catch (err) {
      toast({
        title: "Error finding surveyors",
        description: errorMessage(err, "Could not find surveyors. Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  async function notify() {
    setBusy("notify");
    try {
      const data = await apiJson<NotifySurveyorsResponse & { mailDelivery?: MailDelivery }>(
        "POST",
        `${base}/notify-surveyors`,
      );
      if (!data) throw new Error("Empty answer");
      const notSent = data.mailDelivery === "none" ? leadEmailsNotSentText(data) : "";
      toast({
        title: "Surveyors notified",
        description: notSent ? `${notifiedToastText(data)}. ${notSent}` : notifiedToastText(data),
        link: notSent ? { label: OPEN_IN_EMAILS, href: "/admin/email-outbox" } : undefined,
      });
      await reload();
    } catch (err) {
      toast({
        title: "Error notifying surveyors",
        description: errorMessage(err, "Could not notify surveyors. Please try again."),
        variant: "destructive",
      });
    } finally {
      setBusy(null);
    }
  }

  async function convert(match: NearbySurveyorInfo) {
    if (!match.place) return;
    const key = match.place.placeId;
    setConverting(key);
    try {
      const data = await apiJson<ConvertPlaceResponse>(
        "POST",
        "/api/convert-place-to-surveyor",
        match.place,
      );
      if (!data?.surveyor) throw new Error("Empty answer");
      const { surveyor } = data;
      setState((s) => ({
        ...s,
        surveyors: s.surveyors.map((m) =>
          m.place?.placeId === key
            ? {
              ...m,
              surveyorId: surveyor.id,
              name: surveyor.companyName,
              inNetwork: surveyor.inNetwork,
              status: surveyor.status,
              place: null,
            }
            : m
        ),
      }));
      toast({ title: data.message || "Surveyor created", description: surveyor.companyName });
    } catch (err) {
      toast({
        title: "Failed to create surveyor",
        description: errorMessage(err, "Could not create the surveyor. Please try again."),
        variant: "destructive",
      });
    } finally {
      setConverting(null);
    }
  }

  const { surveyors, lead, foundAt } = state;
  const hasPlaces = surveyors.some((m) => m.surveyorId === null && m.place);
  return (
    <div className="dispatch" data-hydrated={isHydrated || undefined}>
      <div className="dispatch__actions">
        <button
          type="button"
          className="btn btn--primary"
          disabled={!isHydrated || busy !== null || isClosed}
          aria-describedby={isClosed ? "dispatch-reason" : undefined}
          onClick={() => find(false)}
        >
          {busy === "find" ? "Finding surveyors..." : "Find surveyors"}
        </button>
        {foundAt
          ? (
            <button
              type="button"
              className="btn btn--secondary"
              disabled={!isHydrated || busy !== null || isClosed}
              onClick={() => find(true)}
            >
              {busy === "refresh" ? "Refreshing..." : "Refresh"}
              <span className="visually-hidden">the surveyor search</span>
            </button>
          )
          : null}
        <button
          type="button"
          className="btn btn--accent"
          disabled={!isHydrated || busy !== null || notifyBlocked !== null}
          aria-describedby={notifyBlocked ? "dispatch-reason" : undefined}
          onClick={notify}
        >
          {busy === "notify" ? "Notifying surveyors..." : "Notify surveyors"}
        </button>
      </div>
      {notifyBlocked
        ? <p id="dispatch-reason" className="dispatch__reason muted">{notifyBlocked}</p>
        : null}

      <p className="dispatch__found" role="status" aria-live="polite">
        {foundAt
          ? `${formatInteger(surveyors.length)} matched · last search ${when(foundAt)}`
          : "No search yet."}
      </p>

      {lead
        ? (
          <section className="dispatch__lead" aria-labelledby="dispatch-lead-title">
            <h3 id="dispatch-lead-title" className="dispatch__subtitle">Lead</h3>
            <dl className="dispatch__lead-facts">
              <div>
                <dt>Price</dt>
                <dd data-testid="lead-price">{formatCents(lead.priceCents)}</dd>
              </div>
              <div>
                <dt>Status</dt>
                <dd>
                  <span
                    className={`badge badge--${lead.status === "open" ? "success" : "neutral"}`}
                  >
                    {lead.status === "open" ? "Open" : "Closed"}
                  </span>
                </dd>
              </div>
              <div>
                <dt>Buyers</dt>
                <dd>{`At most ${formatInteger(lead.maxBuyers)}`}</dd>
              </div>
              <div>
                <dt>Expires</dt>
                <dd>
                  <time dateTime={lead.expiresAt}>{when(lead.expiresAt)}</time>
                </dd>
              </div>
              <div className="dispatch__formula">
                <dt>How it was priced</dt>
                <dd>{lead.formula}</dd>
              </div>
            </dl>
          </section>
        )
        : null}

      <TableRegion label="Matched surveyors">
        <table className="table table--cards dispatch__table">
          <caption className="visually-hidden">Matched surveyors, best match first</caption>
          <thead>
            <tr>
              <th scope="col">Surveyor</th>
              <th scope="col">Distance</th>
              <th scope="col">Score</th>
              <th scope="col">Network</th>
              <th scope="col">Notified</th>
              {hasPlaces
                ? (
                  <th scope="col" className="table__actions-cell">
                    <span className="visually-hidden">Actions</span>
                  </th>
                )
                : null}
            </tr>
          </thead>
          <tbody>
            {surveyors.length === 0
              ? (
                <tr>
                  <td colSpan={hasPlaces ? 6 : 5} className="dispatch__empty">
                    {foundAt
                      ? "No surveyor covers this property yet."
                      : "Nobody matched yet. Use Find surveyors."}
                  </td>
                </tr>
              )
              : surveyors.map((match, i) => {
                const badge = matchBadge(match);
                const key = match.surveyorId ?? match.place?.placeId ?? `row-${i}`;
                return (
                  <tr key={key} data-match={key}>
                    <td data-label="Surveyor">
                      {match.surveyorId
                        ? (
                          <a href={`/surveyor-detail/${encodeURIComponent(match.surveyorId)}`}>
                            {match.name}
                          </a>
                        )
                        : match.name}
                    </td>
                    <td data-label="Distance">{formatMiles(match.distanceMiles)}</td>
                    <td data-label="Score">{formatInteger(match.score)}</td>
                    <td data-label="Network">
                      <span className={`badge badge--${badge.tone}`}>{badge.label}</span>
                    </td>
                    <td data-label="Notified">{match.notified ? "Yes" : "No"}</td>
                    {hasPlaces
                      ? (
                        <td className="table__actions-cell">
                          {match.surveyorId === null && match.place
                            ? (
                              <button
                                type="button"
                                className="btn btn--secondary btn--sm"
                                disabled={!isHydrated || converting !== null}
                                onClick={() => convert(match)}
                              >
                                {converting === match.place.placeId ? "Converting..." : "Convert"}
                                <span className="visually-hidden">
                                  {` ${match.name} to a surveyor record`}
                                </span>
                              </button>
                            )
                            : null}
                        </td>
                      )
                      : null}
                  </tr>
                );
              })}
          </tbody>
        </table>
      </TableRegion>
    </div>
  );
}
