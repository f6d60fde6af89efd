/**
 * Keeps the dispatch map of a request's page (components/DispatchCard.tsx) in step with the
 * dispatch panel: when the panel publishes a new state (Find, Refresh, Notify, Convert;
 * islands/_dispatch_store.ts), it asks the server to draw the map again
 * (`GET /api/surveys/{surveyId}/dispatch-map` → `{html}`, the same component the page
 * rendered) and puts it in place of the old one. The map itself stays server-drawn SVG, so
 * no map data or projection code reaches the browser.
 *
 * ```tsx
 * <div data-dispatch-map={survey.id}>…the server's map…</div>
 * <Island component={DispatchMapSync} props={{ surveyId: survey.id }} hydrate="load" />
 * ```
 *
 * Renders only a polite live region that says when the map was redrawn; a failed redraw
 * leaves the old map and says a reload shows the latest.
 */
import { useEffect, useState } from "react";
import { getQuery } from "./_api.ts";
import { subscribeDispatch } from "./_dispatch_store.ts";

/** Props of DispatchMapSync: the request whose map it redraws. */
export interface DispatchMapSyncProps {
  surveyId: string;
}

/** The map redrawer (see the file's comment). */
export default function DispatchMapSync({ surveyId }: DispatchMapSyncProps) {
  const [said, setSaid] = useState("");
  useEffect(() => {
    let latest = 0;
    return subscribeDispatch(surveyId, () => {
      const ask = ++latest;
      void (async () => {
        try {
          const data = await getQuery<{ html: string }>(
            `/api/surveys/${encodeURIComponent(surveyId)}/dispatch-map`,
          );
          // An older answer arriving after a newer one is dropped.
          if (ask !== latest || typeof data?.html !== "string") return;
          const box = [...document.querySelectorAll<HTMLElement>("[data-dispatch-map]")]
            .find((el) => el.dataset.dispatchMap === surveyId);
          if (!box) return;
          // The server's own rendering of components/DispatchCard.tsx DispatchMap (escaped
          // by React there), the same markup the page was served with.
          box.innerHTML = data.html;
          setSaid("Dispatch map redrawn.");
        } catch {
          if (ask === latest) setSaid("The dispatch map could not be redrawn: reload to see it.");
        }
      })();
    });
  }, [surveyId]);
  return <p className="visually-hidden" role="status" aria-live="polite">{said}</p>;
}
