import { useEffect, useState } from "react";
import { startOfflineSupport } from "./_offline.ts";

/** Props of OfflineSupport (plain JSON). */
export interface OfflineSupportProps {
  /** Technician pages to keep on the device besides this one (the dashboard's next jobs). */
  keep: string[];
  /**
   * When the server rendered this page (ISO): without signal the page is the copy the service
   * worker kept, and the notice says how old it is.
   */
  savedAt: string;
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
 * says so, with the time the page shown was saved (the job's status and checklist on it
 * include what this device did since: islands/_field_memory.ts). Placed only on the
 * technician's own pages (the dashboard and, for the assigned technician, the job's field
 * page), so no other role's browser runs the worker.
 *
 * ```tsx
 * <Island component={OfflineSupport}
 *   props={{ keep: [technicianJobPath(id)], savedAt: new Date().toISOString() }} />
 * ```
 */
export default function OfflineSupport({ keep, savedAt }: OfflineSupportProps) {
  const [isOffline, setOffline] = useState(false);
  useEffect(() => {
    // Once per page: the props are the server's and never change.
    startOfflineSupport(keep);
  }, [keep]);
  useEffect(() => {
    const update = () => setOffline(navigator.onLine === false);
    update();
    globalThis.addEventListener("online", update);
    globalThis.addEventListener("offline", update);
    return () => {
      globalThis.removeEventListener("online", update);
      globalThis.removeEventListener("offline", update);
    };
  }, []);
  return (
    <p className="offline-notice" role="status" aria-live="polite" hidden={!isOffline}>
      {isOffline ? offlineNotice(savedAt) : null}
    </p>
  );
}
