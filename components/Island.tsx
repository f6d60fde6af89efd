import { type ComponentType, createContext, createElement, useContext } from "react";
import { renderToString } from "./react_server.ts";
import type { IslandAsset } from "../lib/assets.ts";
import { htmlCache } from "./html_cache.ts";
import { oneByteJson } from "./one_byte_html.ts";

/**
 * How soon the browser hydrates an island: at once, when the browser is idle, when it
 * scrolls into view, or at the first sign of use (pointer, touch, focus, key). An
 * `interaction` island must work as plain HTML until then; its JavaScript (and React, if no
 * other island needs it) is not even preloaded.
 */
export type Hydrate = "load" | "idle" | "visible" | "interaction";

/** Collects the islands a page rendered, so the page loads only their chunks. */
export class IslandCollector {
  names = new Set<string>();
  /** Islands hydrated without waiting for an interaction: their chunks are preloaded. */
  eager = new Set<string>();
  #next = 0;
  constructor(private readonly islands: Record<string, IslandAsset>) {}
  /** URL of the island's built chunk. Throws when the build does not have it. */
  src(name: string): string {
    const island = this.islands[name];
    if (!island) throw new Error(`Island ${name} is not in the build manifest`);
    return island.src;
  }
  /** A page-unique React identifierPrefix for the next island root. */
  nextId(): string {
    return `i${this.#next++}-`;
  }
}

/** Provided by `renderPage`; islands rendered outside it throw. */
export const IslandContext = createContext<IslandCollector | null>(null);

/**
 * Server HTML of recently rendered pure islands by name, id and props (server-only props too):
 * a town's six local pages render the same quote form one after another, and an admin who
 * reloads the dashboard, or comes back to it, gets its table of twenty requests (35 KB, ~0.4 ms
 * of React) as it was when nothing on it changed. Up to 200 islands and 4 M characters of keys
 * and HTML (4 MB for the one-byte strings most are; the pages' own tables, the largest pieces,
 * take ~50 K characters with their key, so some 80 of them fit).
 */
const pureIslandHtml = htmlCache(200, 4_000_000);

/** Props of `<Island>`: the component, its JSON props and when to hydrate. */
export interface IslandProps<P> {
  component: ComponentType<P> & { displayName?: string };
  /** What the island renders with on the server and receives, as JSON, in the browser. */
  props: P;
  /**
   * Server-only props: laid over `props` (shallow) for the server render and never written
   * into the props script, so in the browser they are what `props` says (usually missing). For a
   * long list the island shows unchanged until the user asks for another page (the leads on
   * /leads, the directory's rows): its JSON would be as heavy as its HTML and repeat it. The
   * island must then keep the server's markup for that part while the prop is missing
   * (`dangerouslySetInnerHTML` with an empty string and `suppressHydrationWarning`: React
   * neither checks nor replaces it) until it loads data of its own.
   */
  serverProps?: Partial<P>;
  hydrate?: Hydrate;
  /** Island name; defaults to the component's function name, which must match its file. */
  name?: string;
  /**
   * The island's server HTML depends on its props alone (no clock, no randomness): it is
   * remembered by name, id and props, server-only props included, and a page rendering the same
   * island again (a town's six local pages, a reloaded dashboard) reuses the string. Changed data
   * is other props, so a new key: what is reused is never stale.
   */
  isPure?: boolean;
}

/**
 * Renders `component` as its own React root (own `identifierPrefix`) inside a marker carrying
 * its name and hydration directive (`display: contents`, static/css/base.css), followed at once
 * by its JSON props in a `<script type="application/json">` (`propsScript`).
 */
export function Island<P extends object>(
  { component, props, serverProps, hydrate = "idle", name, isPure = false }: IslandProps<P>,
) {
  const collector = useContext(IslandContext);
  if (!collector) throw new Error("<Island> must be rendered through renderPage");
  const islandName = name ?? component.displayName ?? component.name;
  const id = collector.nextId();
  collector.names.add(islandName);
  if (hydrate !== "interaction") collector.eager.add(islandName);
  const propsJson = JSON.stringify(props);
  const element = () =>
    createElement(component, serverProps ? { ...props, ...serverProps } : props);
  // Remembered HTML is keyed by everything the island renders with: the JSON props, which do
  // not hold the server-only ones, and those.
  const html = isPure
    ? pureIslandHtml(
      serverProps === undefined
        ? `${islandName} ${id} ${propsJson}`
        : `${islandName} ${id} ${propsJson}\n${JSON.stringify(serverProps)}`,
      element,
      { identifierPrefix: id },
    )
    : renderToString(element(), { identifierPrefix: id });
  return (
    <>
      <div
        data-island={islandName}
        data-id={id}
        data-src={collector.src(islandName)}
        data-hydrate={hydrate}
        dangerouslySetInnerHTML={{ __html: html }}
      />
      <script
        type="application/json"
        dangerouslySetInnerHTML={{ __html: propsScript(propsJson) }}
      />
    </>
  );
}

/**
 * An island's JSON props as the text of the `<script type="application/json">` right after its
 * marker (islands/_boot.ts reads it; the marker's own content never holds one): `<` written as
 * `\u003c`, so no text in the props can end the script or open a comment, and characters above
 * U+00FF as `\u` escapes, so the page stays a one-byte string (components/react_server.ts).
 * `JSON.parse` reads the same props back.
 *
 * A script beside the marker, not a `data-props` attribute on it: React would write every `"`
 * of the JSON in an attribute as `&quot;`, and writing the attribute into the finished page
 * instead (as this did) meant searching and copying the whole page once more, 2–5 % of the CPU
 * of /leads, /surveyors and the admin's /survey/{id} (bench/signed_in_pages.ts --profile). The
 * script is found by its place, not by an id, and the marker's `display: contents` is in the
 * stylesheet: a page with 14 islands stays as large as with the attribute.
 */
export function propsScript(json: string): string {
  return oneByteJson(json.includes("<") ? json.replace(/</g, "\\u003c") : json);
}
