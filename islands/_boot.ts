/**
 * Browser runtime: finds `[data-island]` markers, waits per `data-hydrate`, then imports the
 * island's chunk and React (`_hydrate.ts`) and hydrates it as its own root with the server's
 * identifierPrefix. This file itself holds no React: a page whose islands all hydrate on
 * `interaction` loads only this until a visitor touches one of them.
 */

// Imported on demand: for eager islands the page preloads its chunk (manifest `boot.preload`).
const runtime = () => import("./_hydrate.ts");

function hydrate(el: HTMLElement) {
  const name = el.dataset.island!;
  const props = JSON.parse(el.dataset.props ?? "{}");
  Promise.all([runtime(), import(el.dataset.src!)])
    .then(([{ hydrateIsland }, mod]) => hydrateIsland(el, mod.default, props))
    .catch((err) => console.error(`Island ${name} failed to load`, err));
}

function whenVisible(el: HTMLElement, run: () => void) {
  const targets = Array.from(el.children);
  if (!("IntersectionObserver" in window) || targets.length === 0) return run();
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      observer.disconnect();
      run();
    }
  }, { rootMargin: "200px" });
  for (const t of targets) observer.observe(t);
}

function whenIdle(run: () => void) {
  if ("requestIdleCallback" in window) requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}

/**
 * The first sign that the visitor is about to use the island: a pointer over it, a touch,
 * focus moving into it or a key. The marker is `display: contents`, so it has no box of its
 * own but still sees its children's events. Nothing is replayed: islands that hydrate this way
 * must work as plain HTML first (a GET form, a <details> menu), so the first press does what
 * it would without JavaScript, and typed text stays in the field for React to pick up.
 */
function whenInteracted(el: HTMLElement, run: () => void) {
  const events = ["pointerover", "pointerdown", "touchstart", "focusin", "keydown"];
  const start = () => {
    for (const type of events) el.removeEventListener(type, start, true);
    run();
  };
  for (const type of events) el.addEventListener(type, start, { capture: true, passive: true });
}

for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const run = () => hydrate(el);
  switch (el.dataset.hydrate) {
    case "load":
      run();
      break;
    case "visible":
      whenVisible(el, run);
      break;
    case "interaction":
      whenInteracted(el, run);
      break;
    default:
      whenIdle(run);
  }
}
