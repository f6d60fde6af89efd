/**
 * Browser runtime: finds `[data-island]` markers, waits per `data-hydrate`, imports the
 * island's chunk and hydrates it as its own root with the server's identifierPrefix.
 */
import { createElement, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";

function hydrate(el: HTMLElement) {
  const name = el.dataset.island!;
  const src = el.dataset.src!;
  const props = JSON.parse(el.dataset.props ?? "{}");
  import(src).then((mod) => {
    startTransition(() => {
      hydrateRoot(el, createElement(mod.default, props), {
        identifierPrefix: el.dataset.id,
      });
    });
  }).catch((err) => console.error(`Island ${name} failed to load`, err));
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

for (const el of document.querySelectorAll<HTMLElement>("[data-island]")) {
  const run = () => hydrate(el);
  switch (el.dataset.hydrate) {
    case "load":
      run();
      break;
    case "visible":
      whenVisible(el, run);
      break;
    default:
      whenIdle(run);
  }
}
