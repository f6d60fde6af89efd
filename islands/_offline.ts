/**
 * The browser's side of the offline technician pages: registering the service worker
 * (static/sw.js, served at /sw.js) and dropping the pages it keeps. Islands only; nothing here
 * runs on the server.
 */
import { forgetFieldMemory } from "./_field_memory.ts";

/** Where the worker is served; at the root so its scope covers the technician pages. */
export const SERVICE_WORKER_URL = "/sw.js";
/** Every cache the worker opens starts with this (static/sw.js PREFIX). */
export const FIELD_CACHE_PREFIX = "meridian-field-";
/** The worker's page caches (one per worker version); bundles live in another cache. */
export const FIELD_PAGES_CACHE_PREFIX = `${FIELD_CACHE_PREFIX}pages-`;
/** Asks the worker to fetch and keep the listed technician pages. */
export const KEEP_MESSAGE = "meridian:keep-offline";
/** Tells the worker that kept pages were dropped (so a fetch in flight stores nothing). */
export const CLEAR_MESSAGE = "meridian:clear-offline";

/**
 * Registers the worker and asks it to keep `keep` (paths of technician pages) plus this page
 * when the worker did not serve it (the first visit, before it controlled anything). Does
 * nothing where service workers are unavailable (an insecure origin, some private modes) or
 * without signal; a refused registration is only a warning, the page works without it.
 */
export async function startOfflineSupport(keep: string[]): Promise<void> {
  const container = globalThis.navigator?.serviceWorker;
  if (!container) return;
  try {
    const wasControlled = container.controller !== null;
    // updateViaCache "none": the browser always asks the server for a newer /sw.js.
    await container.register(SERVICE_WORKER_URL, { scope: "/", updateViaCache: "none" });
    const registration = await container.ready;
    if (!navigator.onLine) return;
    const here = location.pathname + location.search;
    const urls = [...(wasControlled ? [] : [here]), ...keep.filter((url) => url !== here)];
    if (urls.length > 0) registration.active?.postMessage({ type: KEEP_MESSAGE, urls });
  } catch (err) {
    console.warn("Offline copies of the job pages are not available on this browser", err);
  }
}

/**
 * Drops every page the worker kept for the signed-in account, and what the device remembers
 * of its jobs (called on sign-out, before the next person can use the device). Bundles stay: they hold no account data. Never throws:
 * storage that cannot be read holds nothing to drop.
 */
export async function clearOfflinePages(): Promise<void> {
  forgetFieldMemory();
  try {
    if (!("caches" in globalThis)) return;
    for (const name of await caches.keys()) {
      if (name.startsWith(FIELD_PAGES_CACHE_PREFIX)) await caches.delete(name);
    }
    globalThis.navigator?.serviceWorker?.controller?.postMessage({ type: CLEAR_MESSAGE });
  } catch {
    // Nothing was kept, or this browser gives no access to its caches.
  }
}
