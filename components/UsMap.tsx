/**
 * A map of the United States drawn on the server as inline SVG (lib/maps.ts): no tiles, no
 * key, no JavaScript. Used for the coverage map on /surveyors and the dispatch map on a
 * request's page.
 *
 * Usage:
 *
 * ```tsx
 * <UsMap
 *   title="Surveyors near 1200 Barton Springs Rd"
 *   caption="Drawn when the page loaded."
 *   points={[
 *     { lat: 30.26, lng: -97.77, kind: "property", label: "1200 Barton Springs Rd" },
 *     { lat: 30.40, lng: -97.70, kind: "in_network", label: "Hill Country Surveying",
 *       href: "/surveyor-detail/…", distanceMiles: 9.8 },
 *   ]}
 * />
 * ```
 *
 * Props:
 * - `title`: what the map shows. It names the SVG (`<title>`, read by screen readers) and the
 *   data table's region; it is not printed as a heading (put one around the map if needed).
 * - `points`: the dots. `kind` picks colour AND shape (so it never depends on colour alone):
 *   `in_network` a filled circle, `prospect` a diamond, `out_of_network` a square, `property`
 *   a larger star (drawn first, so a surveyor next door shows on top of it), `office` a house
 *   (the signed-in surveyor's own office, "Your office"; drawn last, on top). `label` is the
 *   name shown in the tooltip and the table; `href` makes the name a link in the table (the
 *   SVG itself holds no links: it is one image to assistive technology); `distanceMiles`
 *   adds a Distance column.
 *   Points Albers USA cannot show (Puerto Rico, Guam, abroad, non-finite coordinates) are
 *   listed in the table as "Not on the map" but not drawn.
 * - `caption`: optional text under the map (e.g. when it was drawn).
 * - `fit`: `"country"` (default) shows all states (a coverage map); `"points"` zooms to the
 *   drawn points, at least about 900 miles across (a property and its matches). Zooming only
 *   changes the viewBox: the states outline is the same cached path.
 *
 * Below the map: a legend (only the kinds present, with counts) and a `<details>` "Show the
 * map's data as a table" with every point, the text alternative. The SVG scales to its
 * container's width (viewBox), so it never causes sideways scrolling.
 */
import { useContext, useId } from "react";
import { fitView, FULL_VIEW, MAP_WIDTH, projectPoint } from "../lib/maps.ts";
import { MapOutlineContext, StatesOutline } from "./StatesOutline.tsx";
import { TableRegion } from "../islands/_table.tsx";
import { formatMiles } from "../islands/_dispatch_format.ts";
import { formatInteger } from "../lib/numbers.ts";
import { htmlCache } from "./html_cache.ts";

/** What a dot on the map stands for. */
export type MapPointKind = "in_network" | "prospect" | "out_of_network" | "property" | "office";

/** One dot on the map (and one row of its table). */
export interface MapPoint {
  lat: number;
  lng: number;
  kind: MapPointKind;
  /** Name shown in the tooltip and the table. */
  label: string;
  /** Where the name links to in the table. */
  href?: string;
  /** Distance to show in the table (e.g. from the property). */
  distanceMiles?: number;
}

/** Props of `UsMap`. */
export interface UsMapProps {
  /** Names the map (SVG title) and its data table. */
  title: string;
  points: readonly MapPoint[];
  /** Optional text under the map. */
  caption?: string;
  /**
   * `"country"` (default) shows the whole map; `"points"` zooms to the drawn points (at least
   * about 900 miles across), for a property and its nearby surveyors.
   */
  fit?: "country" | "points";
  /**
   * Where the same points are listed as a table: a link to it takes the place of the
   * `<details>` table, for a map whose table would be a large share of its page (the admin
   * directory's 100 firms: 21 KB of a 89 KB page). Works without JavaScript.
   */
  tableHref?: string;
}

/** Label of each kind, in the legend and the table (singular, plural). */
export const MAP_KIND_LABELS: Record<MapPointKind, { one: string; many: string }> = {
  property: { one: "Property", many: "Properties" },
  office: { one: "Your office", many: "Your office" },
  in_network: { one: "In-network surveyor", many: "In-network surveyors" },
  prospect: { one: "Prospect", many: "Prospects" },
  out_of_network: { one: "Out-of-network surveyor", many: "Out-of-network surveyors" },
};

// Legend order.
const KIND_ORDER: MapPointKind[] = [
  "property",
  "office",
  "in_network",
  "prospect",
  "out_of_network",
];
// Drawing order: the large property star first, so a surveyor next door stays visible on it;
// in-network dots on top of prospects, and the viewer's own office on top of everything.
const DRAW_ORDER: MapPointKind[] = [
  "property",
  "out_of_network",
  "prospect",
  "in_network",
  "office",
];

// Marker outlines around (0, 0), in viewBox units.
const STAR = starPath(15, 6.5);
const SHAPES: Record<MapPointKind, string> = {
  in_network: "M-7 0a7 7 0 1 0 14 0a7 7 0 1 0-14 0z",
  prospect: "M0-8.5L8.5 0L0 8.5L-8.5 0z",
  out_of_network: "M-6-6h12v12h-12z",
  property: STAR,
  // A house: a roof over a square.
  office: "M0-9L9-1.5V8H-9V-1.5z",
};

function starPath(outer: number, inner: number): string {
  const points: string[] = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 === 0 ? outer : inner;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(r * Math.cos(angle)).toFixed(1)} ${(r * Math.sin(angle)).toFixed(1)}`);
  }
  return `M${points.join("L")}z`;
}

function countLine(counts: Map<MapPointKind, number>, hidden: number): string {
  const parts = KIND_ORDER.filter((k) => counts.get(k)).map((k) => {
    const n = counts.get(k)!;
    // "your office", not "1 your office".
    if (k === "office" && n === 1) return MAP_KIND_LABELS.office.one.toLowerCase();
    return `${formatInteger(n)} ${n === 1 ? MAP_KIND_LABELS[k].one : MAP_KIND_LABELS[k].many}`
      .toLowerCase();
  });
  const shown = parts.length ? `Shows ${parts.join(", ")}.` : "No points to show.";
  const outside = hidden ? ` ${outsideLine(hidden)}` : "";
  return `${shown}${outside} The same data is in the table below the map.`;
}

function outsideLine(hidden: number): string {
  return hidden === 1
    ? "1 point is outside the map area: listed in the table, not drawn."
    : `${formatInteger(hidden)} points are outside the map area: listed in the table, not drawn.`;
}

/** A small copy of a marker's shape for the legend (decorative: the text says it). */
function LegendMark({ kind }: { kind: MapPointKind }) {
  return (
    <svg
      className="us-map__legend-mark"
      viewBox={kind === "property" ? "-16 -16 32 32" : "-10 -10 20 20"}
      aria-hidden="true"
    >
      <path className={`us-map__mark us-map__mark--${kind}`} d={SHAPES[kind]} />
    </svg>
  );
}

/**
 * Whole maps' inner HTML, by the map's id and props: a page's map is drawn again only when
 * what it shows changes (a reload of /leads or a request's page redraws nothing). A map is 3–12
 * KB and its key about as much again: 100 of them at most ~2 MB.
 */
const mapHtml = htmlCache(100);

/**
 * Frozen points arrays' JSON, by the array: a page that hands the map the same frozen array
 * again (the directory's, db/surveyors.ts `locationsOf`) does not write its 10 KB of JSON again
 * for the key. Only frozen arrays of frozen points are remembered: nothing can change them after.
 */
const frozenPointsJson = new WeakMap<readonly MapPoint[], string>();

function pointsJson(points: readonly MapPoint[]): string {
  let json = frozenPointsJson.get(points);
  if (json === undefined) {
    json = JSON.stringify(points);
    if (Object.isFrozen(points) && points.every(Object.isFrozen)) {
      frozenPointsJson.set(points, json);
    }
  }
  return json;
}

/**
 * The server-drawn US map with its legend and data table (see the file's comment). Its inside
 * is rendered once per id and props and remembered (`mapHtml`): the key is everything the
 * markup shows, so a remembered map is never stale. Server-only (no island renders a map).
 */
export function UsMap(props: UsMapProps) {
  const id = useId();
  // The page's outline file (components/render.tsx), handed on to the separate render.
  const outline = useContext(MapOutlineContext);
  const { points, ...rest } = props;
  const html = mapHtml(
    `${id}\n${outline}\n${pointsJson(points)}\n${JSON.stringify(rest)}`,
    () => (
      <MapOutlineContext.Provider value={outline}>
        <UsMapContent {...props} />
      </MapOutlineContext.Provider>
    ),
    // The inner render's own ids start with the page's id for this map, so they are unique in
    // the page as the map's own useId would be.
    { identifierPrefix: id },
  );
  return <figure className="us-map" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** What `UsMap` draws inside its figure. */
function UsMapContent({ title, points, caption, fit = "country", tableHref }: UsMapProps) {
  const id = useId();
  const placed = points.map((point) => ({ point, xy: projectPoint(point.lat, point.lng) }));
  // The drawn markers by kind, in the points' order; a kind's count is its number of markers.
  const byKind = new Map<MapPointKind, { point: MapPoint; xy: [number, number] }[]>();
  let hidden = 0;
  for (const { point, xy } of placed) {
    if (!xy) hidden++;
    else if (byKind.has(point.kind)) byKind.get(point.kind)!.push({ point, xy });
    else byKind.set(point.kind, [{ point, xy }]);
  }
  const counts = new Map([...byKind].map(([kind, marks]) => [kind, marks.length]));
  const view = fit === "points" ? fitView(placed.flatMap(({ xy }) => (xy ? [xy] : []))) : FULL_VIEW;
  // Markers keep their on-screen size when the view is zoomed in.
  const scale = view.width === MAP_WIDTH ? "" : `scale(${(view.width / MAP_WIDTH).toFixed(3)})`;
  // Each kind's shape is defined once and every marker of that kind is a <use> of it, in a
  // group carrying the kind's class (fill and stroke inherit into the use): a marker costs its
  // position and tooltip only (the directory's 100 firms: 7 KB less than a path each).
  const drawn = DRAW_ORDER.flatMap((kind) => {
    const marks = byKind.get(kind);
    return marks ? [{ kind, marks }] : [];
  });
  const kindsPresent = KIND_ORDER.filter((k) => points.some((p) => p.kind === k));
  return (
    <>
      <svg
        className="us-map__svg"
        viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`}
        role="img"
        aria-labelledby={`${id}title ${id}desc`}
      >
        <title id={`${id}title`}>{title}</title>
        <desc id={`${id}desc`}>{countLine(counts, hidden)}</desc>
        <StatesOutline />
        {drawn.length
          ? (
            <defs>
              {drawn.map(({ kind }) => (
                <path
                  key={kind}
                  id={`${id}m${DRAW_ORDER.indexOf(kind)}`}
                  d={SHAPES[kind]}
                  transform={scale || undefined}
                  vectorEffect="non-scaling-stroke"
                />
              ))}
            </defs>
          )
          : null}
        {drawn.map(({ kind, marks }) => (
          <g key={kind} className={`us-map__mark us-map__mark--${kind}`}>
            {marks.map(({ point, xy }, i) => (
              <use key={i} href={`#${id}m${DRAW_ORDER.indexOf(kind)}`} x={xy[0]} y={xy[1]}>
                <title>{`${point.label} (${MAP_KIND_LABELS[kind].one})`}</title>
              </use>
            ))}
          </g>
        ))}
      </svg>
      <figcaption className="us-map__caption">
        {kindsPresent.length
          ? (
            <ul className="us-map__legend" aria-label="Legend">
              {kindsPresent.map((kind) => (
                <li key={kind}>
                  <LegendMark kind={kind} />
                  {MAP_KIND_LABELS[kind].many}
                  <span className="muted">{` (${formatInteger(counts.get(kind) ?? 0)})`}</span>
                </li>
              ))}
            </ul>
          )
          : null}
        {caption ? <p className="muted">{caption}</p> : null}
        {hidden ? <p className="muted">{outsideLine(hidden)}</p> : null}
      </figcaption>
      {tableHref
        ? (
          <p className="us-map__data">
            <a href={tableHref}>Show the map's data as a table</a>
          </p>
        )
        : (
          <details className="us-map__data">
            <summary>Show the map's data as a table</summary>
            <UsMapTable title={title} points={points} />
          </details>
        )}
    </>
  );
}

/**
 * The map's points as a table, the map's text alternative: name (a link when it has `href`),
 * kind, distance when any point has one, and whether it is drawn.
 */
export function UsMapTable({ title, points }: Pick<UsMapProps, "title" | "points">) {
  const placed = points.map((point) => ({ point, xy: projectPoint(point.lat, point.lng) }));
  const hasDistance = points.some((p) => p.distanceMiles !== undefined);
  return (
    <TableRegion label={title}>
      <table className="table table--cards">
        <caption className="visually-hidden">{title}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Kind</th>
            {hasDistance ? <th scope="col">Distance</th> : null}
            <th scope="col">On the map</th>
          </tr>
        </thead>
        <tbody>
          {placed.length === 0
            ? (
              <tr>
                <td colSpan={hasDistance ? 4 : 3}>Nothing to show.</td>
              </tr>
            )
            : placed.map(({ point, xy }, i) => (
              <tr key={i}>
                <td data-label="Name">
                  {point.href ? <a href={point.href}>{point.label}</a> : point.label}
                </td>
                <td data-label="Kind">{MAP_KIND_LABELS[point.kind].one}</td>
                {hasDistance
                  ? (
                    <td data-label="Distance">
                      {point.distanceMiles === undefined ? "—" : formatMiles(point.distanceMiles)}
                    </td>
                  )
                  : null}
                <td data-label="On the map">{xy ? "Yes" : "Not on the map"}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
