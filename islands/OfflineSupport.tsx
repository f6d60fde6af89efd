import { useEffect, useState } from "react";
import { startOfflineSupport } from "./_offline.ts";

/** Props of OfflineSupport (plain JSON). */
export interface OfflineSupportProps {
  /** Technician pages to keep on the device besides this one (the dashboard's next jobs). */
  keep: string[];
  /**
   * When the server rendered this page (ISO): without signal the page is the copy the service
   * worker kept, and the notice says how old it is. A page sent as it was last rendered
   * (routes/_remembered_pages.ts) carries its first render's time, so the notice takes the
   * later of this and the kept answer's Date header (`savedCopyTime`).
   */
  savedAt: string;
}

/**
 * When the copy on screen was saved: the later of the page's `savedAt` and `keptDate`, the
 * Date header of the answer the worker kept for this address (undefined when there is none or
 * it cannot be read). A copy served offline is that answer; a live page that lost signal is the
 * answer the worker kept as it went by, or one newer than an older kept copy, so the later of
 * the two never claims a copy newer than it is.
 */
export function savedCopyTime(savedAt: string, keptDate: string | null | undefined): string {
  const kept = keptDate ? Date.parse(keptDate) : NaN;
  return Number.isNaN(kept) || kept <= Date.parse(savedAt) ? savedAt : new Date(kept).toISOString();
}

/** The Date header of the copy the worker kept of this page, when there is one. */
async function keptCopyDate(): Promise<string | undefined> {
  try {
    if (!("caches" in globalThis)) return undefined;
    const kept = await caches.match(location.href);
    return kept?.headers.get("date") ?? undefined;
  } catch {
    return undefined;
  }
}

/** The notice shown while the browser has no connection, e.g. "Saved copy from 10:42 AM — you are offline". */
export function offlineNotice(savedAt: string, now = new Date()): string {
  const saved = new Date(savedAt);
  const time = saved.toLocaleTimeString(undefined, { hour: "numeric", minute: "2-digit" });
  const isToday = saved.toDateString() === now.toDateString();
  const when = isToday
    ? time
    : `${saved.toLocaleDateString(undefined, { month: "short", day: "numeric" })}, ${time}`;
  return `Saved copy from ${when} — you are offline`;
}

/**
 * Makes the technician's pages open without signal: registers the service worker
 * (static/sw.js) and asks it to keep this page and `keep`. While the browser is offline it
 * says so, with the time the page shown was saved (`savedCopyTime`; the job's status and
 * checklist on it include what this device did since: islands/_field_memory.ts). Placed only
 * on the technician's own pages (the dashboard and, for the assigned technician, the job's
 * field page), so no other role's browser runs the worker.
 *
 * ```tsx
 * <Island component={OfflineSupport}
 *   props={{ keep: [technicianJobPath(id)], savedAt: new Date().toISOString() }} />
 * ```
 */
export default function OfflineSupport({ keep, savedAt }: OfflineSupportProps) {
  const [isOffline, setOffline] = useState(false);
  const [savedTime, setSavedTime] = useState(savedAt);
  useEffect(() => {
    // Once per page: the props are the server's and never change.
    startOfflineSupport(keep);
  }, [keep]);
  useEffect(() => {
    let isCurrent = true;
    const update = () => {
      const isNowOffline = navigator.onLine === false;
      setOffline(isNowOffline);
      if (!isNowOffline) return;
      keptCopyDate().then((keptDate) => {
        if (isCurrent) setSavedTime(savedCopyTime(savedAt, keptDate));
      });
    };
    update();
    globalThis.addEventListener("online", update);
    globalThis.addEventListener("offline", update);
    return () => {
      isCurrent = false;
      globalThis.removeEventListener("online", update);
      globalThis.removeEventListener("offline", update);
    };
  }, [savedAt]);
  return (
    <p className="offline-notice" role="status" aria-live="polite" hidden={!isOffline}>
      {isOffline ? offlineNotice(savedTime) : null}
    </p>
  );
}
