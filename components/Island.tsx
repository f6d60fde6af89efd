import { type ComponentType, createContext, createElement, useContext } from "react";
import { renderToString } from "./react_server.ts";
import type { IslandAsset } from "../lib/assets.ts";
import { htmlCache } from "./html_cache.ts";
import { oneByteHtml } from "./one_byte_html.ts";

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
  /** Each island's JSON props by its id, written into the page by `withIslandProps`. */
  props = new Map<string, string>();
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
 * Server HTML of recently rendered pure islands by name, id and props: a town's six local pages
 * render the same quote form one after another.
 */
const pureIslandHtml = htmlCache(200);

/** Props of `<Island>`: the component, its JSON props and when to hydrate. */
export interface IslandProps<P> {
  component: ComponentType<P> & { displayName?: string };
  /** What the island renders with on the server and receives, as JSON, in the browser. */
  props: P;
  /**
   * Server-only props: laid over `props` (shallow) for the server render and never written
   * into `data-props`, so in the browser they are what `props` says (usually missing). For a
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
   * remembered by name, id and props, and a page rendering the same island again (a town's six
   * local pages) reuses the string.
   */
  isPure?: boolean;
}

/**
 * Renders `component` as its own React root (own `identifierPrefix`) inside a
 * `display:contents` marker carrying its name, JSON props (written by `withIslandProps`
 * once the page is rendered) and hydration directive.
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
  // Remembered HTML is keyed by the JSON props, which do not hold the server-only ones.
  const html = isPure && serverProps === undefined
    ? pureIslandHtml(
      `${islandName} ${id} ${propsJson}`,
      () => createElement(component, props),
      { identifierPrefix: id },
    )
    : renderToString(
      createElement(component, serverProps ? { ...props, ...serverProps } : props),
      { identifierPrefix: id },
    );
  collector.props.set(id, propsJson);
  return (
    <div
      data-island={islandName}
      data-id={id}
      data-src={collector.src(islandName)}
      data-props={`${PROPS_MARK}${id}`}
      data-hydrate={hydrate}
      style={{ display: "contents" }}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}

/**
 * Stands for an island's props in the rendered page until `withIslandProps` writes them: a
 * character no text or attribute of a page can hold (React writes it as it is).
 */
const PROPS_MARK = "\u0000";
const PROPS_OPEN = `data-props="${PROPS_MARK}`;

/**
 * `html` with each island's JSON props written in place of its placeholder, in single quotes:
 * JSON is full of double quotes, which React writes as `&quot;` in a double-quoted attribute
 * (six bytes each, a large share of a page with a list in its props); in single quotes only
 * `&`, `'`, `<` and `>` are escaped. Browsers read `data-props` the same either way.
 *
 * Hand-written with `indexOf` and slices rather than a global regex `replace` with a callback:
 * on the client's /survey/{id} (bench/messages_page.ts, 38 KB, 8 islands) the regex and its
 * callbacks were 6 % of the request's CPU.
 */
export function withIslandProps(html: string, collector: IslandCollector): string {
  if (collector.props.size === 0) return html;
  let out = "";
  let from = 0;
  for (;;) {
    const at = html.indexOf(PROPS_OPEN, from);
    if (at === -1) break;
    const idStart = at + PROPS_OPEN.length;
    const end = html.indexOf('"', idStart);
    if (end === -1) break;
    const json = collector.props.get(html.slice(idStart, end));
    out += json === undefined
      ? html.slice(from, end + 1)
      : `${html.slice(from, at)}data-props='${escapeSingleQuoted(json)}'`;
    from = end + 1;
  }
  return from === 0 ? html : out + html.slice(from);
}

const SINGLE_QUOTED_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "'": "&#39;",
  "<": "&lt;",
  ">": "&gt;",
};

const SINGLE_QUOTED_SPECIAL = /[&'<>]/;

function escapeSingleQuoted(text: string): string {
  // Most props hold none of these: skip the replace (and its copy) then. Characters above
  // U+00FF become references as in React's text (components/react_server.ts), so that props
  // holding one leave the page a one-byte string.
  return oneByteHtml(
    SINGLE_QUOTED_SPECIAL.test(text)
      ? text.replace(/[&'<>]/g, (ch) => SINGLE_QUOTED_ESCAPES[ch])
      : text,
  );
}
