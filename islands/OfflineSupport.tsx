import { useEffect } from "react";
import { startOfflineSupport } from "./_offline.ts";

/** Props of OfflineSupport (plain JSON). */
export interface OfflineSupportProps {
  /** Technician pages to keep on the device besides this one (the dashboard's next jobs). */
  keep: string[];
}

/**
 * Makes the technician's pages open without signal: registers the service worker
 * (static/sw.js) and asks it to keep this page and `keep`. Renders nothing. Placed only on the
 * technician's own pages (the dashboard and, for the assigned technician, the job's field
 * page), so no other role's browser runs the worker.
 *
 * ```tsx
 * <Island component={OfflineSupport} props={{ keep: [technicianJobPath(id)] }} />
 * ```
 */
export default function OfflineSupport({ keep }: OfflineSupportProps) {
  useEffect(() => {
    // Once per page: the props are the server's and never change.
    startOfflineSupport(keep);
  }, [keep]);
  return null;
}
