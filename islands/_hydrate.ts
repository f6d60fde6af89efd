/**
 * The React half of the island runtime: hydrates one island root. Split from `_boot.ts` so a
 * page whose islands all wait for an interaction downloads React only when one is touched.
 */
import {
  type ComponentType,
  createElement,
  type ReactNode,
  startTransition,
  useLayoutEffect,
} from "react";
import { hydrateRoot } from "react-dom/client";

/**
 * Calls `onHydrated` once the island's tree is on screen, in a microtask after the commit: the
 * children's layout effects have run, no event can come in between, and React is no longer
 * committing, so events dispatched then reach the island's handlers as real ones do. It renders
 * no element of its own, so the island's DOM and its useId values are the server's.
 */
function Hydrated({ onHydrated, children }: { onHydrated: () => void; children: ReactNode }) {
  useLayoutEffect(() => queueMicrotask(onHydrated), []);
  return children;
}

/**
 * Hydrates `component` with `props` into the island marker `el`, with the identifierPrefix the
 * server rendered it with (without it React reports a useId mismatch). `onHydrated` runs once
 * the island is live (see `Hydrated`); `_boot.ts` hands over there what the visitor did before.
 */
export function hydrateIsland(
  el: HTMLElement,
  component: ComponentType<Record<string, unknown>>,
  props: Record<string, unknown>,
  onHydrated?: () => void,
): void {
  const island = createElement(component, props);
  startTransition(() => {
    hydrateRoot(
      el,
      onHydrated ? createElement(Hydrated, { onHydrated, children: island }) : island,
      {
        identifierPrefix: el.dataset.id,
      },
    );
  });
}
