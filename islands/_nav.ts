/**
 * Full-page navigation for islands. Going through one function gives tests (happy-dom, which
 * cannot load pages) a way to see where an island sent the browser.
 */

type Navigate = (url: string) => void;

const browserNavigate: Navigate = (url) => globalThis.location.assign(url);
let current: Navigate = browserNavigate;

/** Loads `url` as a new page. */
export function navigate(url: string): void {
  current(url);
}

/** Replaces navigation (tests only); returns a function that restores the browser's. */
export function setNavigateHandler(handler: Navigate): () => void {
  current = handler;
  return () => {
    current = browserNavigate;
  };
}
