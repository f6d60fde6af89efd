/**
 * Hydrates an island over the HTML the server rendered for it, as `_boot.ts` does in the
 * browser (same identifierPrefix, the props from the JSON script after the marker): for islands that keep part of
 * the server's markup instead of receiving it again as props (server-only props, components/Island.tsx), a plain
 * `render` of the props would show nothing of that part. Call after `setupDom()`.
 */
import { createElement, type FunctionComponent } from "react";
import { hydrateRoot } from "react-dom/client";

/** The hydrated island: its container in the document, and how to remove it. */
export interface HydratedIsland {
  container: HTMLElement;
  unmount(): void;
}

/**
 * Finds island `name` in the page `html`, puts its server HTML in the document and hydrates
 * `component` over it with its JSON props. Throws when the page has no such island or React
 * reports a hydration mismatch (it would have thrown the server's HTML away).
 */
export async function hydrateIsland<P extends object>(
  html: string,
  name: string,
  component: FunctionComponent<P>,
): Promise<HydratedIsland> {
  // Loaded here, not at the top: @testing-library reads `document` when it loads.
  const { act } = await import("@testing-library/react");
  const template = document.createElement("template");
  template.innerHTML = html;
  const marker = template.content.querySelector<HTMLElement>(`[data-island="${name}"]`);
  if (!marker) throw new Error(`no ${name} island in the page`);
  const container = document.createElement("div");
  container.innerHTML = marker.innerHTML;
  document.body.appendChild(container);
  // The props as islands/_boot.ts reads them: the JSON script right after the marker.
  const script = marker.nextElementSibling;
  const props = JSON.parse(
    script?.getAttribute("type") === "application/json" ? script!.textContent! : "{}",
  ) as P;
  const errors: unknown[] = [];
  let root: ReturnType<typeof hydrateRoot> | undefined;
  await act(() => {
    root = hydrateRoot(container, createElement(component, props), {
      identifierPrefix: marker.dataset.id,
      onRecoverableError: (error) => errors.push(error),
    });
  });
  if (errors.length) throw new Error(`hydration mismatch in ${name}: ${errors[0]}`);
  return {
    container,
    unmount() {
      act(() => root?.unmount());
      container.remove();
    },
  };
}
