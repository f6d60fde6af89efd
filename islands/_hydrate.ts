/**
 * The React half of the island runtime: hydrates one island root. Split from `_boot.ts` so a
 * page whose islands all wait for an interaction downloads React only when one is touched.
 */
import { type ComponentType, createElement, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";

/**
 * Hydrates `component` with `props` into the island marker `el`, with the identifierPrefix the
 * server rendered it with (without it React reports a useId mismatch).
 */
export function hydrateIsland(
  el: HTMLElement,
  component: ComponentType<Record<string, unknown>>,
  props: Record<string, unknown>,
): void {
  startTransition(() => {
    hydrateRoot(el, createElement(component, props), { identifierPrefix: el.dataset.id });
  });
}
