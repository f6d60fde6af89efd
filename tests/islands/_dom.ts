/**
 * A happy-dom browser environment for island tests. Call `setupDom()` before importing
 * @testing-library/react (use a dynamic import after it, or import this module first): the
 * library reads `document` when it loads.
 */
import { Window } from "happy-dom";

let installed: Window | undefined;

/**
 * Deno's own `Event` and `CustomEvent`, read when this module loads, before any `setupDom()`
 * makes the globals happy-dom's: `globalThis` stays Deno's EventTarget, which takes Deno's
 * events only, so a test announcing on it (as a browser's window would) uses these.
 */
export const NativeEvent: typeof Event = globalThis.Event;
export const NativeCustomEvent: typeof CustomEvent = globalThis.CustomEvent;
let forwarding = false;

/**
 * Makes `globalThis.dispatchEvent` take happy-dom's events too, carried over into Deno's as a
 * browser's window would take them (an island tells the page's other islands its progress with
 * a CustomEvent on `window`). Idempotent.
 */
export function forwardWindowEvents(): void {
  if (forwarding) return;
  forwarding = true;
  const denoDispatch = globalThis.dispatchEvent.bind(globalThis);
  globalThis.dispatchEvent = (event: Event) =>
    denoDispatch(
      event instanceof NativeEvent ? event : new NativeCustomEvent(
        (event as { type: string }).type,
        { detail: (event as { detail?: unknown }).detail },
      ),
    );
}

// Deno's own globals that tests and the runtime rely on; happy-dom's versions would break
// Deno's unload/load events, fetch, timers and streams.
const KEEP = new Set([
  "addEventListener",
  "removeEventListener",
  "dispatchEvent",
  "fetch",
  "Request",
  "Response",
  "Headers",
  "FormData",
  "URL",
  "URLSearchParams",
  "AbortController",
  "AbortSignal",
  "Blob",
  "File",
  "ReadableStream",
  "WritableStream",
  "TransformStream",
  "TextEncoder",
  "TextDecoder",
  "setTimeout",
  "clearTimeout",
  "setInterval",
  "clearInterval",
  "queueMicrotask",
  "structuredClone",
  "crypto",
  "performance",
  "console",
  "WebSocket",
  "BroadcastChannel",
  "MessageChannel",
  "MessagePort",
  "Worker",
  "caches",
  "localStorage",
  "sessionStorage",
  // Islands use fetch. With both `window` and happy-dom's XMLHttpRequest global, building an
  // npm module's Error (postgres.js, when an island test's request reaches the app and the
  // database refuses a query) sets off connections to http://localhost:80 that fail uncaught.
  "XMLHttpRequest",
]);

// DOM globals Deno also defines (as its own classes) that must be happy-dom's for the DOM to
// behave: events dispatched on happy-dom nodes must be happy-dom events.
const OVERRIDE = new Set([
  "window",
  "self",
  "document",
  "navigator",
  "location",
  "history",
  "Event",
  "EventTarget",
  "CustomEvent",
  "ErrorEvent",
  "ProgressEvent",
  "MessageEvent",
  "DOMException",
  "getComputedStyle",
  "requestAnimationFrame",
  "cancelAnimationFrame",
]);

/**
 * Installs a happy-dom window as the global `window`/`document` (idempotent: later calls
 * return the same window). Deno's own event, fetch and timer globals stay in place. Sets
 * `IS_REACT_ACT_ENVIRONMENT` so React's `act` works.
 */
export function setupDom(url = "http://localhost/"): Window {
  if (installed) return installed;
  const window = new Window({ url, width: 1024, height: 768 });
  const g = globalThis as Record<string, unknown>;
  const saved = {
    addEventListener: g.addEventListener,
    removeEventListener: g.removeEventListener,
    dispatchEvent: g.dispatchEvent,
  };
  const w = window as unknown as Record<string, unknown>;
  for (const key of Object.getOwnPropertyNames(window)) {
    if (KEEP.has(key) || key === "undefined" || key === "globalThis") continue;
    if (key in g && !OVERRIDE.has(key)) continue;
    let value: unknown;
    try {
      value = w[key];
    } catch {
      continue;
    }
    try {
      Object.defineProperty(g, key, { value, configurable: true, writable: true });
    } catch {
      // Non-configurable Deno globals stay as they are.
    }
  }
  // Classes that live on the Window prototype chain rather than as own properties.
  for (
    const key of [
      "HTMLElement",
      "HTMLInputElement",
      "HTMLSelectElement",
      "HTMLTextAreaElement",
      "HTMLFormElement",
      "HTMLButtonElement",
      "Element",
      "Node",
      "Text",
      "DocumentFragment",
      "MutationObserver",
      "KeyboardEvent",
      "MouseEvent",
      "FocusEvent",
      "InputEvent",
      "SubmitEvent",
    ]
  ) {
    if (!(key in g) && w[key] !== undefined) {
      Object.defineProperty(g, key, { value: w[key], configurable: true, writable: true });
    }
  }
  Object.assign(g, saved);
  g.IS_REACT_ACT_ENVIRONMENT = true;
  installed = window;
  return window;
}
